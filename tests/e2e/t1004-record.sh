#!/bin/sh
# shellcheck disable=SC2034
test_description='vfsbench record: a program traced, its loadfile, its replay'
# shellcheck disable=SC2154
. "$srcdir/tests/e2e/lib.sh"

# normalise LOADFILE: what depends on the machine goes: the command's
# words, the root, the kernel, the date, and the calls of the dynamic
# loader and the C library outside the root (their counts by call).
normalise() {
	awk '
	/^# (command|root|kernel|date):/ { sub(/:.*/, ": X") }
	/^# calls traced:/ { sub(/traced: [0-9]+/, "traced: N") }
	/^# dropped, (outside the root|no op in the loadfile language):/ {
		sub(/: [0-9]+$/, ": N"); skip = 1; print; next
	}
	/^# [^ ]/ { skip = 0 }
	/^#   / && skip { next }
	{ print }' "$1"
}

# replayed LOADFILE: the header's replayed calls, "NAME COUNT", as the
# replay issues them: read and write become pread64 and pwrite64.
replayed() {
	awk '/^# replayed:/ { on = 1; next }
	/^# [^ ]/ { on = 0 }
	on && /^#   / {
		c = $2
		if (c == "read") c = "pread64"
		if (c == "write") c = "pwrite64"
		n[c] += $3
	} END { for (c in n) print c, n[c] }' "$1" | sort
}

# the modes of the files the tree and the program make
umask 022

test_expect_success 'setup: the program of known calls and its root' '
	cc -O0 -o known "$TEST_DATA/record/known.c" &&
	mkdir root out &&
	printf 0123456789 >root/data &&
	ln -s data root/link &&
	printf keep >out/victim
'

strace_test 'a program of known calls: its loadfile, line by line' '
	(cd root && vfsbench record -o ../known.load -- ../known ../out/victim \
		2>../err) &&
	test_grep "^vfsbench record: ../known.load: 14 ops from [0-9]* calls of 1 tasks$" err &&
	normalise known.load >actual &&
	test_cmp "$TEST_DATA/record/known.expect" actual &&
	test "$(cat out/victim)" = keepx &&
	test_grep "^# command: ../known ../out/victim$" known.load &&
	test_grep "^# root: $TRASH/root$" known.load
'

strace_test 'its replay: no unexpected result, and outside untouched' '
	canary_setup &&
	printf keep >out/victim &&
	vfsbench -c known.load --loops 3 -D "$TRASH/work" 1 >report &&
	test "$(unexpected_total report)" = 0 &&
	test "$(cat out/victim)" = keep &&
	test "$(ls out)" = victim &&
	canary_check &&
	workdir_empty
'

strace_test 'its replay issues per pass the calls the trace had, by call' '
	replayed known.load >expect &&
	pass_calls known.load >actual &&
	test_cmp expect actual
'
# A log of strace -f -ttt -y written by hand, its root @R@ set to ./r:
# cut in two by another task, with strings that need quoting.
test_expect_success 'a log: unfinished and resumed calls, quoting, tasks' '
	mkdir -p r/sub &&
	printf 12345 >"r/a b" &&
	sed "s|@R@|$TRASH/r|g" >log <<-\EOT &&
	10 1.000001 openat(AT_FDCWD</@R@>, "a b", O_RDONLY|O_CLOEXEC <unfinished ...>
	11 1.000002 newfstatat(AT_FDCWD</@R@>, "x\"y#z\\w", 0x7ffd, 0) = -1 ENOENT (No such file or directory)
	10 1.000003 <... openat resumed>) = 3</@R@/a b>
	10 1.000004 read(3</@R@/a b>, "12345", 4096) = 5
	10 1.000005 read(3</@R@/a b>, "", 4096) = 0
	11 1.000006 openat(3</@R@/a b>, "q", O_RDONLY) = -1 ENOTDIR (Not a directory)
	10 1.000007 close(3</@R@/a b>)     = 0
	11 1.000008 statx(AT_FDCWD</@R@>, "sub", AT_STATX_SYNC_AS_STAT|AT_SYMLINK_NOFOLLOW, STATX_ALL, {stx_mask=STATX_ALL, stx_mode=S_IFDIR|0755}) = 0
	11 1.000009 --- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED} ---
	11 1.000010 openat(AT_FDCWD</@R@>, "/etc/passwd", O_RDONLY) = 4</etc/passwd>
	11 1.000011 read(4</etc/passwd>, "root:x:0:0:root:/root:/bin/bash\n"..., 4096) = 1000
	11 1.000012 access("ok", F_OK) = -1 ENOENT (No such file or directory)
	11 1.000013 +++ exited with 0 +++
	10 1.000014 +++ exited with 0 +++
	EOT
	vfsbench record --root r -o log.load --from-trace log 2>err &&
	sed -n "/^# tasks/,/^#   what/p;/^\[setup\]/,\$p" log.load >actual &&
	cat >expect <<-\EOT &&
	# tasks: 2, replayed as one stream in the order of the trace:
	#   what they did at the same time runs one after another here
	[setup]
	open "a b" wronly,creat,trunc @1 644
	ftruncate @1 5
	close @1
	mkdir sub 755
	[run]
	stat "x\"y#z\\w" ENOENT
	open "a b" rdonly,cloexec @1
	pread @1 0 4096
	pread @1 5 4096
	open "a b/q" rdonly @2 ENOTDIR
	close @1
	lstat sub
	access ./ok ENOENT
	EOT
	test_cmp expect actual &&
	test_grep "^# dropped, outside the root: 2$" log.load &&
	test_grep "^#   openat  *1$" log.load
'

# The fuzz smoke of CI ran out of memory on a huge fd: the fd tables were
# arrays indexed by fd. They are lists of at most 256 now, so any number
# up to 2^30 binds, under a memory cap where the shell can set one; a
# number past that is no fd, and the open is dropped as unusable.
test_expect_success 'fd numbers of a damaged trace: any number, no table as large' '
	sed "s|@R@|$TRASH/r|g" >bigfd <<-\EOT &&
	10 1.000001 openat(AT_FDCWD</@R@>, "a b", O_RDONLY) = 1073741824</@R@/a b>
	11 1.000002 openat(AT_FDCWD</@R@>, "a b", O_RDONLY) = 1073741823</@R@/a b>
	10 1.000003 read(1073741824</@R@/a b>, "12345", 4096) = 5
	11 1.000004 read(1073741823</@R@/a b>, "12", 2) = 2
	10 1.000005 read(1073741824</@R@/a b>, "", 4096) = 0
	10 1.000006 close(1073741824</@R@/a b>) = 0
	11 1.000007 close(1073741823</@R@/a b>) = 0
	12 1.000008 openat(AT_FDCWD</@R@>, "a b", O_RDONLY) = 1073741825</@R@/a b>
	10 1.000009 +++ exited with 0 +++
	11 1.000010 +++ exited with 0 +++
	12 1.000011 +++ exited with 0 +++
	EOT
	(
		if test -z "${VB_SANITIZER:-}" && (ulimit -v 1000000) 2>/dev/null
		then
			ulimit -v 1000000
		fi
		vfsbench record --root r -o bigfd.load --from-trace bigfd 2>err
	) &&
	sed -n "/^\[run\]/,\$p" bigfd.load >actual &&
	cat >expect <<-\EOT &&
	[run]
	open "a b" rdonly @1
	open "a b" rdonly @2
	pread @1 0 4096
	pread @2 0 2
	pread @1 5 4096
	close @1
	close @2
	EOT
	test_cmp expect actual &&
	sed -n "/^# dropped, no op/,/^#   openat/p" bigfd.load >actual &&
	test "$(wc -l <actual)" -eq 2 && test_grep "^#   openat  *1$" actual
'

# bad_trace NAME MESSAGE: --from-trace NAME is refused with MESSAGE and
# exit status 2, and writes nothing.
bad_trace() {
	test_expect_code 2 vfsbench record --root r -o bad.load \
		--from-trace "$1" 2>err &&
	printf "%s\n" "$2" >expect &&
	test_cmp expect err &&
	test ! -e bad.load
}

test_expect_success 'a log cut short: in a call, before its result' '
	printf "10 1.0 openat(AT_FDCWD</r>, \"a\", O_RDONLY) = 3</r/a>\n10 1.1 read(3</r/a>, \"x\", 10\n" >cut1 &&
	bad_trace cut1 "cut1:2:8: a call without its result: the trace is cut short"
'

test_expect_success 'a log cut short: a call never resumed' '
	printf "10 1.0 openat(AT_FDCWD</r>, \"a\", O_RDONLY <unfinished ...>\n" >cut2 &&
	bad_trace cut2 "cut2:1:1: a call of task 10 never finished: the trace is cut short"
'

test_expect_success 'a log cut short: a task that never ended' '
	printf "10 1.0 close(3) = 0\n" >cut3 &&
	bad_trace cut3 "cut3:1:1: task 10 never ended: the trace is cut short"
'

test_expect_success 'a log cut short: its last line without its end' '
	printf "10 1.0 close(3) = 0\n10 1.1 +++ exited" >cut4 &&
	bad_trace cut4 "cut4:2:17: a line without its end: the trace is cut short"
'

test_expect_success 'a log that is not strace'"'"'s' '
	printf "hello world\n" >junk &&
	bad_trace junk "junk:1:1: not a system call of strace'"'"'s"
'

strace_test 'a command that fails: exit 3, nothing written' '
	mkdir -p tmp &&
	test_expect_code 3 env TMPDIR="$TRASH/tmp" "$VFSBENCH" \
		record -o fail.load -- sh -c "exit 7" 2>err &&
	echo "error: the command exited with status 7: no loadfile written" >expect &&
	test_cmp expect err &&
	test ! -e fail.load &&
	test -z "$(ls tmp)"
'

test_expect_success 'a --root that does not exist: exit 2, nothing run' '
	test_expect_code 2 vfsbench record --root nodir -o x.load -- touch ran 2>err &&
	echo "error: --root nodir: No such file or directory" >expect &&
	test_cmp expect err &&
	test ! -e x.load &&
	test ! -e ran
'

# A source tree's link whose target has ".." but stays inside
# (src/link -> ../doc/readme): made in [setup], with what it leads to, so
# that the replay's lstat, readlink and open of it find what the
# program found. With a hard link (or a rename) that puts a name at the
# root, where the link would lead out, it is not made, and counted.
strace_test 'a link whose target has .. and stays inside: made, with its target; the replay finds both' '
	mkdir -p up/src up/doc &&
	echo hi >up/doc/readme &&
	ln -s ../doc/readme up/src/link &&
	(cd up && vfsbench record -o ../up.load -- sh -c \
		"readlink src/link >/dev/null; cat src/link >/dev/null; ls -l src >/dev/null" \
		2>../err) &&
	sed -n "/^\[setup\]\$/,/^\[run\]\$/p" up.load >setup &&
	test_grep "^symlink ../doc/readme src/link\$" setup &&
	test_grep "^open doc/readme wronly,creat,trunc @1 644\$" setup &&
	test_grep "^# \[setup\] makes 2 directories, 1 files (their sizes, not their data), 1 symlinks\$" up.load &&
	test_grep "^# not made: 0 symlinks whose targets lead out, " up.load &&
	test "$(grep -c "^readlink src/link\$" up.load)" -ge 2 &&
	canary_setup &&
	vfsbench -c up.load --loops 2 -D "$TRASH/work" 1 2 >report &&
	test "$(unexpected_total report)" = 0 &&
	test "$(op_count report readlink)" -ge 4 &&
	canary_check && workdir_empty &&
	(cd up && vfsbench record -o ../mv.load -- sh -c \
		"readlink src/link >/dev/null; ln doc/readme top; rm top" \
		2>../err) &&
	test_grep "^link doc/readme top\$" mv.load &&
	! grep "^symlink " mv.load &&
	test_grep "^# not made: 1 symlinks whose targets lead out, " mv.load &&
	vfsbench -c mv.load --loops 1 -e null -q -D "$TRASH/work" 1 >/dev/null
'

test_expect_success 'an -o that exists: refused without --force' '
	echo mine >taken.load &&
	test_expect_code 2 vfsbench record -o taken.load -- touch ran 2>err &&
	echo "error: taken.load exists: give --force to replace it" >expect &&
	test_cmp expect err &&
	test "$(cat taken.load)" = mine &&
	test ! -e ran
'

strace_test 'an -o that exists: replaced with --force' '
	echo mine >taken.load &&
	vfsbench record --force -o taken.load -- test -e taken.load 2>err &&
	test_grep "^stat taken.load$" taken.load
'

strace_test 'a command that calls nothing below the root: exit 3' '
	mkdir -p empty &&
	test_expect_code 3 vfsbench record --root empty -o none.load -- true \
		2>err &&
	echo "error: no call of the command'"'"'s was below $TRASH/empty: no loadfile written" >expect &&
	test_cmp expect err &&
	test ! -e none.load
'

test_expect_success 'no command: a usage error' '
	test_expect_code 2 vfsbench record -o none.load 2>err &&
	test_grep "no command to record" err &&
	test ! -e none.load
'

# roff_text FILE, long_options: as in t9001-docs.sh.
roff_text() {
	sed -e 's/\\-/-/g' \
	    -e 's/\\f[BIRP1-4]//g' \
	    -e 's/\\f([A-Z][A-Z]//g' \
	    -e 's/\\f\[[^]]*\]//g' \
	    -e 's/\\[&%:|^]//g' \
	    "$1"
}

long_options() {
	awk '{
		s = $0
		while (match(s, /--[a-z][a-z0-9-]*/)) {
			o = substr(s, RSTART, RLENGTH)
			sub(/-+$/, "", o)
			print o
			s = substr(s, RSTART + RLENGTH)
		}
	}' | sort -u
}

test_expect_success 'vfsbench-record.1 documents exactly the options of --help' '
	vfsbench record --help |
		sed -n "s/^ \\{1,8\\}\\(-[a-zA-Z], \\)\\{0,1\\}\\(--[a-z][a-z0-9-]*\\).*/\\2/p" |
		sort -u >help &&
	test "$(wc -l <help)" -eq 8 &&
	roff_text "$abs_top_srcdir/doc/vfsbench-record.1" |
		awk "/^\\.SH/ { on = (\$2 == \"OPTIONS\"); next } on" |
		long_options >man &&
	test_cmp help man
'

test_done
