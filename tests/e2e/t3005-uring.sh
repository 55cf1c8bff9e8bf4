#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='-e uring: the ops through the ring, the same counts and trees as posix, inline shares, refusals'
. "$srcdir/tests/e2e/lib.sh"
SQ="'"

# The work directory a --skip-cleanup run left (exactly one).
left_workdir() {
	set -- "$TRASH"/work/vfsbench.*
	test $# -eq 1 && test -d "$1" && test -f "$1/.vfsbench-workdir" &&
	printf '%s\n' "$1"
}

remove_left() {
	for d in "$TRASH"/work/vfsbench.*; do
		if test -d "$d"; then
			rm -rf "$d" || return 1
		fi
	done
}

# tree DIR: every name below DIR with its type, size and mode, sorted;
# directories' sizes left out (they depend on the order of creation on
# some filesystems), and the work directory's marker, whose size depends
# on the digits of the pid and start time it records.
tree() {
	(cd "$1" && find . -mindepth 1 \( -type d -printf '%p d %m\n' \) -o \
		\( -printf '%p %y %s %m %l\n' \)) |
		grep -v '^\./\.vfsbench-workdir ' | LC_ALL=C sort
}

# counts REPORT: each op's Count and unexpected columns, every run.
counts() {
	awk '$1 == "Operation" { t = 1; next }
	     /^(Unexpected|Total:|io_uring|io-wq)/ { t = 0 }
	     t && NF >= 9 { print $1, $2, $NF }' "$1"
}

if ! vfsbench -q -e uring -c default.load --loops 1 -D "$TRASH" 1 \
	>/dev/null 2>uring-err; then
	test_skip_all "io_uring unusable here: $(cat uring-err)"
fi

# Every shipped native loadfile, 2 clients and 3 passes each, on both
# engines: the same op counts, the same unexpected results, the same
# files left (--skip-cleanup).
for lf in "$abs_top_srcdir"/loadfiles/*.load; do
	name=${lf##*/}
	# ThreadSanitizer does not see a close through the ring, so a dup or
	# fcntl on an fd number another client had looks like a race to it
	# (-e uring -c wis-dup1.load 8 fails about one run in two under TSan)
	case $name in wis-dup*.load | wis-lock*.load)
		if test "${VB_SANITIZER-}" = thread; then
			test_skip "$name: posix and uring, the same counts and tree" \
				"ThreadSanitizer misses the ring's close (a false race)"
			continue
		fi
		;;
	esac
	test_expect_success "$name: posix and uring, the same counts and tree" '
		canary_setup &&
		vfsbench -q -e posix -c "$lf" --loops 3 --skip-cleanup \
			-D "$TRASH/work" 2 >posix.out 2>posix.err &&
		w=$(left_workdir) && tree "$w" >posix.tree && remove_left &&
		vfsbench -q -e uring -c "$lf" --loops 3 --skip-cleanup \
			-D "$TRASH/work" 2 >uring.out 2>uring.err &&
		w=$(left_workdir) && tree "$w" >uring.tree && remove_left &&
		counts posix.out >posix.counts && counts uring.out >uring.counts &&
		test -s posix.counts &&
		test_cmp posix.counts uring.counts &&
		test_cmp posix.tree uring.tree &&
		canary_check && workdir_empty
	'
done

# One of every op, each after a marker (access of m/mark.N, m missing):
# in the client thread's trace, the calls between two markers, with runs
# of io_uring_enter taken as one.
cat >mixed.load <<'LF'
[setup]
mkdir d
create d/f
mkdir gone
[run]
access m/mark.1 ENOENT
stat d/f
access m/mark.2 ENOENT
lstat d/f
access m/mark.3 ENOENT
open d/f rdwr @1
access m/mark.4 ENOENT
pwrite @1 0 4k
access m/mark.5 ENOENT
pread @1 0 4k
access m/mark.6 ENOENT
fstat @1
access m/mark.7 ENOENT
fsync @1
access m/mark.8 ENOENT
fdatasync @1
access m/mark.9 ENOENT
ftruncate @1 0
access m/mark.10 ENOENT
fstatfs @1
access m/mark.11 ENOENT
close @1
access m/mark.12 ENOENT
create d/g
access m/mark.13 ENOENT
rename d/g d/h
access m/mark.14 ENOENT
link d/h d/i
access m/mark.15 ENOENT
symlink h d/j
access m/mark.16 ENOENT
readlink d/j
access m/mark.17 ENOENT
unlink d/h
access m/mark.18 ENOENT
unlink d/i
access m/mark.19 ENOENT
unlink d/j
access m/mark.20 ENOENT
rmdir gone
access m/mark.21 ENOENT
mkdir gone
access m/mark.22 ENOENT
readdir d
access m/mark.23 ENOENT
statfs d
access m/mark.24 ENOENT
utimens d/f
access m/mark.25 ENOENT
access d/f
access m/mark.26 ENOENT
LF

cat >mixed.expect <<'EOF2'
> stat: io_uring_enter
> lstat: io_uring_enter
> open: io_uring_enter
> pwrite: io_uring_enter
> pread: io_uring_enter
> fstat: io_uring_enter
> fsync: io_uring_enter
> fdatasync: io_uring_enter
> ftruncate: ftruncate
> fstatfs: fstatfs
> close: io_uring_enter
> create: io_uring_enter
> rename: io_uring_enter
> link: io_uring_enter
> symlink: io_uring_enter
> readlink: readlink
> unlink: io_uring_enter
> unlink: io_uring_enter
> unlink: io_uring_enter
> rmdir: io_uring_enter
> mkdir: io_uring_enter
> readdir: io_uring_enter getdents64 getdents64 io_uring_enter
> statfs: statfs
> utimens: utimensat
> access: access
EOF2

# calls TRACE: per marker, the op of the line after it and its calls
calls() {
	awk -v lf=mixed.load -v san="${VB_SANITIZER-}" '
	BEGIN {
		while ((getline l < lf) > 0)
			if (l ~ /^access m\/mark\./) {
				n = l
				sub(/^access m\/mark\./, "", n)
				sub(/ .*/, "", n)
				want = 1
			} else if (want) {
				split(l, w, " ")
				op[n + 0] = w[1]
				want = 0
			}
	}
	/"m\/mark\.[0-9]+"/ {
		if (cur && cur in op)
			print "> " op[cur] ":" line
		n = $0
		sub(/.*"m\/mark\./, "", n)
		sub(/".*/, "", n)
		cur = n + 0
		line = ""
		last = ""
		next
	}
	!cur { next }
	# a sanitizer'"'"'s own memory calls
	san && /^(mmap|munmap|madvise|mprotect|brk)\(/ { next }
	{
		c = $0
		sub(/\(.*/, "", c)
		if (c == "io_uring_enter" && last == c)
			next
		line = line " " c
		last = c
	}' "$1"
}

strace_test 'strace: io_uring_enter for every op with an opcode, the listed system calls for the others' '
	canary_setup &&
	# LeakSanitizer cannot run under ptrace (see t5001)
	ASAN_OPTIONS=detect_leaks=0 strace -ff -o trace "$VFSBENCH" -q -e uring -c mixed.load --loops 1 \
		-D "$TRASH/work" 1 >out 2>err &&
	t=$(grep -l "m/mark\.1\"" trace.*) &&
	calls "$t" >got &&
	test_cmp mixed.expect got &&
	canary_check && workdir_empty
'

test_expect_success 'the report and the JSON say which ops ran as system calls' '
	canary_setup &&
	vfsbench -q -e uring -c mixed.load --loops 2 --json run.json \
		-D "$TRASH/work" 1 >out 2>err &&
	test_grep "^io_uring has no opcode for: access (access(2)), ftruncate (ftruncate(2)), fstatfs (fstatfs(2)), readlink (readlink(2)), readdir (getdents64(2)), statfs (statfs(2)), utimens (utimensat(2)) (issued as system calls)\$" out &&
	json_flat run.json >flat &&
	jget flat "runs[0].ops_detail[0].op" >op0 && echo access >e && test_cmp e op0 &&
	jget flat "runs[0].ops_detail[0].uring" >u && echo syscall >e && test_cmp e u &&
	jget flat "runs[0].ops_detail[0].inline" >u && echo null >e && test_cmp e u &&
	jget flat "runs[0].ops_detail[1].op" >u && echo stat >e && test_cmp e u &&
	jget flat "runs[0].ops_detail[1].uring" >u && echo ring >e && test_cmp e u &&
	canary_check && workdir_empty
'

test_expect_success '--uring-strict refuses the ops with no opcode, naming them; nothing created' '
	canary_setup &&
	printf "%s\n" "error: mixed.load: --uring-strict: ops with no io_uring opcode, which would run as system calls: access (access(2)), ftruncate (ftruncate(2)), fstatfs (fstatfs(2)), readlink (readlink(2)), readdir (getdents64(2)), statfs (statfs(2)), utimens (utimensat(2))" >expect &&
	test_expect_code 2 vfsbench -q -e uring --uring-strict -c mixed.load \
		--loops 1 -D "$TRASH/work" 1 >out 2>err &&
	test_cmp expect err && test ! -s out &&
	canary_check && workdir_empty
'

test_expect_success '--uring-strict takes a loadfile of ring ops' '
	canary_setup &&
	printf "[setup]\ncreate f\n[run]\nstat f\nopen f rdonly @1\nclose @1\n" >ring.load &&
	vfsbench -q -e uring --uring-strict -c ring.load --loops 2 \
		-D "$TRASH/work" 1 >out 2>err &&
	test "$(op_count out stat)" = 2 &&
	canary_check && workdir_empty
'

test_expect_success 'a dbench loadfile is refused by -e uring, nothing created' '
	canary_setup &&
	printf "1 NTCreateX \"\\\\a\" 0x1 0x1 0x1 NT_STATUS_OK\n" >db.load &&
	test_expect_code 2 vfsbench -q -e uring -c db.load --loops 1 \
		-D "$TRASH/work" 1 >out 2>err &&
	test_grep "op .NTCreateX. is not supported by engine .uring." err &&
	canary_check && workdir_empty
'

# The inline share where the kernel's answer is known: statx always goes
# to io-wq (io_uring forces it async); an openat of a name in the dcache
# completes inline (a LOOKUP_CACHED walk that succeeds); an openat with
# O_CREAT never does (io_uring punts O_CREAT and O_TRUNC). On tmpfs,
# mounted in a mount namespace of the test's own.
cat >inline.load <<'LF'
[setup]
create f
[run]
stat f
open f rdonly @1
close @1
create g
LF

if command -v unshare >/dev/null 2>&1 && test "$(id -u)" = 0; then
	test_expect_success 'inline: stat never, open of a cached name always, create never (tmpfs)' '
		canary_setup &&
		unshare -m sh -c "mount -t tmpfs vb-uring \"\$1\" && \"\$2\" -q -e uring -c inline.load --loops 40 --json in.json -D \"\$1\" 1" \
			sh "$TRASH/work" "$VFSBENCH" >out 2>err &&
		json_flat in.json >flat &&
		jget flat runs[0].ops_detail[0].op >o && echo stat >e && test_cmp e o &&
		jget flat runs[0].ops_detail[0].inline >n && echo 0 >e && test_cmp e n &&
		jget flat runs[0].ops_detail[1].op >o && echo open >e && test_cmp e o &&
		jget flat runs[0].ops_detail[1].inline >n && echo 40 >e && test_cmp e n &&
		jget flat runs[0].ops_detail[3].op >o && echo create >e && test_cmp e o &&
		jget flat runs[0].ops_detail[3].inline >n && echo 0 >e && test_cmp e n &&
		test_grep "^io_uring inline (completed within the submission): stat 0.0% (0 of 40), open 100.0% (40 of 40)," out &&
		ns=$(jget flat "runs[0].iowq_cpu_ns") &&
		{ test "$ns" = null || test "$ns" -gt 0; } &&
		canary_check && workdir_empty
	'
else
	test_skip 'inline: stat never, open of a cached name always, create never (tmpfs)' 'needs root and unshare'
fi

# --uring-fixed: handles whose every op takes a direct descriptor open in
# the ring's file table (fx.load's @1); @2 has an fstat (statx takes no
# direct descriptor) and stays a plain fd, with a note; the counts are
# posix's.
cat >fx.load <<'LF'
[setup]
create f
create g
[run]
open f rdwr @1
pwrite @1 0 4k
pread @1 0 4k
fdatasync @1
close @1
open g rdonly @2
fstat @2
close @2
LF

test_expect_success '--uring-fixed: the counts of posix, a note for the handle that stays an fd' '
	canary_setup &&
	vfsbench -q -e posix -c fx.load --loops 7 -D "$TRASH/work" 2 \
		>posix.out 2>posix.err &&
	vfsbench -q -e uring --uring-fixed -c fx.load --loops 7 \
		-D "$TRASH/work" 2 >fixed.out 2>fixed.err &&
	printf "%s\n" "warning: fx.load:11: --uring-fixed: op ${SQ}fstat${SQ} cannot take a direct descriptor: handle @2 opens as a plain fd" >expect &&
	test_cmp expect fixed.err &&
	counts posix.out >posix.counts && counts fixed.out >fixed.counts &&
	test "$(op_count fixed.out pread)" = 14 &&
	test_cmp posix.counts fixed.counts &&
	canary_check && workdir_empty
'

strace_test '--uring-fixed: a sparse file table, no open(2) of the direct handle, @2 opened by the ring' '
	canary_setup &&
	ASAN_OPTIONS=detect_leaks=0 strace -f -o fx.trace "$VFSBENCH" -q -e uring --uring-fixed \
		-c fx.load --loops 1 -D "$TRASH/work" 1 >out 2>err &&
	grep -c "IORING_REGISTER_FILES2, {nr=2, flags=IORING_RSRC_REGISTER_SPARSE" fx.trace >n &&
	echo 1 >e && test_cmp e n &&
	! grep -E "(open|openat|openat2)\\(.*\"(f|g)\"" fx.trace &&
	canary_check && workdir_empty
'

# A regression: uring wrote at the base offset, not ${client}*STRIDE.
test_expect_success 'pwrite at ${client}*STRIDE: the same file sizes as posix' '
	canary_setup &&
	printf "%s\n" "[run]" "open f rdwr,creat @1 600" \
		"pwrite @1 \${client}*1m 4k" "close @1" >stride.load &&
	vfsbench -q -e posix -c stride.load --loops 1 --skip-cleanup \
		-D "$TRASH/work" 2 >posix.out 2>posix.err &&
	w=$(left_workdir) && tree "$w" >posix.tree && remove_left &&
	vfsbench -q -e uring -c stride.load --loops 1 --skip-cleanup \
		-D "$TRASH/work" 2 >uring.out 2>uring.err &&
	w=$(left_workdir) && tree "$w" >uring.tree && remove_left &&
	grep -q " f 1052672 " posix.tree &&
	test_cmp posix.tree uring.tree &&
	canary_check && workdir_empty
'

test_expect_success '--uring-fixed on mixed.load: the counts and tree of posix' '
	canary_setup &&
	vfsbench -q -e posix -c mixed.load --loops 3 --skip-cleanup \
		-D "$TRASH/work" 2 >posix.out 2>posix.err &&
	w=$(left_workdir) && tree "$w" >posix.tree && remove_left &&
	vfsbench -q -e uring --uring-fixed -c mixed.load --loops 3 \
		--skip-cleanup -D "$TRASH/work" 2 >fixed.out 2>fixed.err &&
	w=$(left_workdir) && tree "$w" >fixed.tree && remove_left &&
	counts posix.out >posix.counts && counts fixed.out >fixed.counts &&
	test_cmp posix.counts fixed.counts &&
	test_cmp posix.tree fixed.tree &&
	canary_check && workdir_empty
'

# The refusals of a kernel that cannot run the engine, made here with a
# seccomp filter (tests/helper/vb-nouring): exit 2, the reason, nothing
# created. kernel.io_uring_disabled is not changed: it is global.
NOURING="$abs_top_builddir/tests/helper/vb-nouring"
refusal() {
	canary_setup &&
	printf "%s\n" "$3" >expect &&
	test_expect_code 2 "$NOURING" "$1" "$2" "$VFSBENCH" -q -e uring \
		-c default.load --loops 1 -D "$TRASH/work" 1 >out 2>err &&
	test_cmp expect err && test ! -s out &&
	canary_check && workdir_empty
}

# kernel.io_uring_disabled as the message names it (0 here: the test
# skips where io_uring is unusable); t3008 has the other refusals.
if test -r /proc/sys/kernel/io_uring_disabled; then
	DISABLED="= $(cat /proc/sys/kernel/io_uring_disabled)"
else
	DISABLED="absent (before Linux 6.6)"
fi

test_expect_success 'io_uring_setup refused (EPERM): the reason, nothing created' '
	refusal io_uring_setup 1 "error: -e uring: io_uring is refused: io_uring_setup(): Operation not permitted, with kernel.io_uring_disabled $DISABLED: a seccomp filter or a security module refuses it"
'

test_expect_success 'no io_uring (ENOSYS): the reason, nothing created' '
	refusal io_uring_setup 38 "error: -e uring: this kernel has no io_uring (io_uring_setup(): Function not implemented)"
'

test_expect_success 'setup flags refused (EINVAL): the reason, nothing created' '
	refusal io_uring_setup 22 "error: -e uring: io_uring_setup() refused IORING_SETUP_SINGLE_ISSUER|IORING_SETUP_DEFER_TASKRUN (Linux 6.1)"
'

test_expect_success 'no opcode probe: the reason, nothing created' '
	refusal io_uring_register 22 "error: -e uring: io_uring_register(IORING_REGISTER_PROBE) failed"
'

test_expect_success '-e posix is not refused where io_uring is' '
	canary_setup &&
	"$NOURING" io_uring_setup 1 "$VFSBENCH" -q -e posix -c default.load \
		--loops 1 -D "$TRASH/work" 1 >out 2>err &&
	canary_check && workdir_empty
'

# A stop while an op waits in the ring: a read of a FIFO that has a
# writer (the test's fd 3) and no data never completes by itself, and
# the kick of the stop only ended the client's wait for its completion
# (EINTR), which was waited again: the client was stuck, exit 3, the
# tree left. The ring's ops are now cancelled at a stop: the read ends
# with EINTR (interrupted, not an error), exit 130, the tree removed.
# With --uring-depth 2, one thread's two lanes both read it.
cat >fiforead.load <<EOF
[setup]
symlink  "$TRASH/rfifo"  f
[run]
open     f  rdonly  @1
read     @1  1
close    @1
EOF
mkfifo "$TRASH/rfifo"

# reads_polled N: the rings of $pid hold N reads (IORING_OP_READ, 22)
# armed on a poll (their fdinfo's PollList): every lane's read waits
# there, none is still on its open.
reads_polled() {
	rp_n=0
	for rp_f in /proc/"$pid"/fd/*; do
		case $(readlink "$rp_f" 2>/dev/null) in
		*io_uring*)
			rp_c=$(grep -c "^ *op=22," "/proc/$pid/fdinfo/${rp_f##*/}" 2>/dev/null)
			rp_n=$((rp_n + ${rp_c:-0}))
			;;
		esac
	done
	test "$rp_n" -ge "$1"
}

for depth in 1 2; do
	test_expect_success "--uring-depth $depth: SIGINT while a read of a FIFO waits in the ring: exit 130, no stuck client, the tree removed" '
		canary_setup &&
		exec 3<>"$TRASH/rfifo" &&
		start_vfsbench -q -e uring --uring-depth '"$depth"' -t 60s \
			--warmup 0 --links-out -c fiforead.load \
			-D "$TRASH/work" 1 &&
		wait_until "no read of the FIFO in the ring" reads_polled '"$depth"' &&
		blocked 1 io_cqring_wait &&
		kill -INT "$pid" &&
		ends 130 &&
		exec 3>&- &&
		! grep -q "could not be stopped\|stuck" err &&
		test_grep "^  read: interrupted by the stop (EINTR), not an unexpected result x '"$depth"'\$" out &&
		test "$(unexpected_total out)" = 0 &&
		canary_check && workdir_empty
	'
	exec 3>&-
done

test_done
