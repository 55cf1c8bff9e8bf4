#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='suite fxmark under strace: each workload issues its call, on paths of its shape, with its sharing'
. "$srcdir/tests/e2e/lib.sh"

# How: each workload alone (its line of fxmark.suite as a suite of one,
# so it runs in the suite's cwd mode) with 2 clients under strace -ff -y,
# once with --loops 1 and once with --loops 2. A client thread is a trace
# with an fchdir into the work directory; its lines matching the
# workload's call are counted (strace -y writes each fd as <its path>,
# the number taken out here, so a line names the object it works on): the difference between
# the two runs is one pass (setup cancels out), which must be the
# workload's count. The sharing: own (each client in its own directory,
# clients/clientN), same (one directory, and both clients issue the very
# same calls: one object) or disjoint (one directory, the calls differ:
# a name or an offset of each client's own). MRDL and MRDM: one read of
# the directory to its end (the getdents64 that returns 0) per pass, where
# FxMark's never-rewound stream would read at its end on every work.

# NAME COUNT-PER-PASS SHARING CALL (an ERE on a normalised line)
cat >cases <<'EOT'
MRPL 1 own ^openat\(AT_FDCWD<[^>]*>, "[01]/p1/p2/p3/file", O_RDONLY\) = <[^>]*>$
MRPM 256 same ^openat\(AT_FDCWD<[^>]*>, "[0-7]/[0-7]/[0-7]/[0-7]/[0-7]", O_RDONLY\) = <[^>]*>$
MRPH 1 same ^openat\(AT_FDCWD<[^>]*>, "p1/p2/p3/p4/file", O_RDONLY\) = <[^>]*>$
MRDL 1 own ^getdents64\(<[^>]*>, ADDR /\* 0 entries \*/, [0-9]+\) = 0$
MRDM 1 same ^getdents64\(<[^>]*>, ADDR /\* 0 entries \*/, [0-9]+\) = 0$
MWCL 64 own ^openat\(AT_FDCWD<[^>]*>, "n_inode_alloc-[0-9]+\.dat", O_RDWR\|O_CREAT, 0700\) = <[^>]*>$
MWCM 64 disjoint ^openat\(AT_FDCWD<[^>]*>, "m_file_cr-[01]-[0-9]+\.dat", O_RDWR\|O_CREAT, 0700\) = <[^>]*>$
MWUL 64 own ^unlink\("u_file_rm-[0-9]+\.dat"\) = 0$
MWUM 64 disjoint ^unlink\("u_sh_file_rm-[01]-[0-9]+\.dat"\) = 0$
MWRL 64 own ^rename\("n_file_rename-[0-9]+\.dat", "n_file_rename-[0-9]+\.dat"\) = 0$
MWRM 64 disjoint ^rename\("[01]/n_dir_ins-[01]-[0-9]+\.dat", "n_dir_ins-[01]-[0-9]+\.dat"\) = 0$
DRBL 64 own ^pread64\(<[^>]*>, ""\.\.\., 4096, 0\) = 4096$
DRBM 64 disjoint ^pread64\(<[^>]*>, ""\.\.\., 4096, (0|8388608)\) = 4096$
DRBH 64 same ^pread64\(<[^>]*>, ""\.\.\., 4096, 0\) = 4096$
DWOL 64 own ^pwrite64\(<[^>]*>, ""\.\.\., 4096, 0\) = 4096$
DWOM 64 disjoint ^pwrite64\(<[^>]*>, ""\.\.\., 4096, (0|8388608)\) = 4096$
DWAL 1 own ^openat\(AT_FDCWD<[^>]*>, "n_blk_alloc\.dat", O_WRONLY\|O_CREAT\|O_TRUNC\|O_APPEND, 0700\) = <[^>]*>$
DWSL 64 own ^fsync\(<[^>]*>\) = 0$
DWTL 64 own ^ftruncate\(<[^>]*>, [0-9]+\) = 0$
EOT

CALLS=openat,unlink,rename,pread64,pwrite64,fsync,ftruncate,getdents64,fchdir

# traced NAME LOOPS: run workload NAME under strace into tr.LOOPS.*;
# then for each client thread, in the order of its directory, a file
# c.LOOPS.N of its normalised calls and d.LOOPS.N of its directory.
traced() {
	rm -f tr.* c."$2".* d."$2".* &&
	grep "^$1 " "$LOADFILES/fxmark.suite" >one.suite &&
	# LeakSanitizer cannot stop the threads of a traced process
	ASAN_OPTIONS=detect_leaks=0 strace -ff -y -s 0 -e trace=$CALLS -o "tr.$2" \
		"$VFSBENCH" suite ./one.suite --loops "$2" -q \
		-D "$TRASH/work" 2 >out 2>err &&
	test "$(unexpected_total out)" = 0 &&
	n=0 &&
	for t in tr."$2".*
	do
		d=$(sed -n "s|^fchdir([0-9]*<\\($TRASH/work/[^>]*\\)>) = 0\$|\\1|p" "$t" | head -n 1) &&
		test -n "$d" || continue
		echo "$d" >d."$2".$n &&
		sed -e "s/[0-9][0-9]*</</g" -e "s/0x[0-9a-f]*/ADDR/g" \
			-e "s/)  *= /) = /" "$t" >c."$2".$n &&
		n=$((n + 1)) || return 1
	done &&
	test $n -eq 2
}

while read -r name count share call
do
	strace_test "$name: $share, $count matching calls per pass per client" '
		canary_setup &&
		traced $name 1 && traced $name 2 &&
		for i in 0 1
		do
			a=$(grep -E -c "$call" c.1.$i) &&
			b=$(grep -E -c "$call" c.2.$i) &&
			test $((b - a)) -eq $count || {
				say "client $i: $a then $b calls like $call" >&2
				return 1
			}
		done &&
		case $share in
		own)
			grep -q "/clients/client[01]\$" d.1.0 &&
			grep -q "/clients/client[01]\$" d.1.1 &&
			! test_cmp d.1.0 d.1.1 2>/dev/null ;;
		same|disjoint)
			test_cmp d.1.0 d.1.1 &&
			! grep -q /clients/ d.1.0 &&
			grep -E "$call" c.2.0 | sort >l0 &&
			grep -E "$call" c.2.1 | sort >l1 &&
			if test $share = same
			then
				test_cmp l0 l1
			else
				! test_cmp l0 l1 >/dev/null
			fi ;;
		esac &&
		canary_check &&
		workdir_empty
	'
done <cases

test_done
