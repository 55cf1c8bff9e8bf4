#!/bin/sh
# shellcheck disable=SC2034
test_description='vfsbench record: a program traced, its loadfile, its replay'
# shellcheck disable=SC2154
. "$srcdir/tests/e2e/lib.sh"
SQ="'"

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

# positions NAME SECTION: record tests/data/record/positions-NAME.strace,
# its @R@ made $TRASH/pos; actual: the loadfile from its [SECTION] on.
positions() {
	sed "s|@R@|$TRASH/pos|g" "$TEST_DATA/record/positions-$1.strace" \
		>"pos-$1" &&
	vfsbench record --root pos -o "pos-$1.load" --from-trace "pos-$1" \
		2>err &&
	sed -n "/^\[$2\]/,\$p" "pos-$1.load" >actual
}

# Positions (doc/recording.md): read and write are recorded at the fd's
# position, which moves by what the call returned (a short read or write
# by less than asked; the end of the file and a failed call not at all);
# pread64 and pwrite64 are recorded at their own offset and leave the
# position where it was. An fd starts at 0 when it is opened, each fd of
# a file has its own position, and each task its own fds.
test_expect_success 'a log of reads, positioned or not: the offsets' '
	mkdir -p pos &&
	printf 0123456789 >pos/data &&
	positions read setup &&
	cat >expect <<-\EOT &&
	[setup]
	open data wronly,creat,trunc @1 644
	ftruncate @1 10
	close @1
	[run]
	open data rdonly @1
	pread @1 2 3
	pread @1 0 2
	pread @1 9 4
	pread @1 2 3
	pread @1 5 100
	pread @1 10 100
	pread @1 0 1
	pread @1 10 4 EIO
	open data rdonly @2
	pread @2 0 4
	pread @1 10 4
	pread @2 8 1
	close @1
	open data rdonly @1
	pread @1 0 2
	pread @2 4 2
	close @1
	close @2
	EOT
	test_cmp expect actual
'

test_expect_success 'a log of writes and reads, positioned or not, of two tasks: the offsets' '
	mkdir -p pos &&
	positions write run &&
	cat >expect <<-\EOT &&
	[run]
	open out rdwr,creat @1 644
	pwrite @1 100 3
	pwrite @1 0 5
	pwrite @1 0 1
	pwrite @1 5 5
	pread @1 10 2
	pwrite @1 12 6
	pread @1 0 5
	pwrite @1 16 1
	pwrite @1 17 1 ENOSPC
	pwrite @1 17 1
	open out wronly @2
	pwrite @2 0 2
	pwrite @1 18 2
	pwrite @2 1 2
	pwrite @2 2 2
	close @2
	close @1
	EOT
	test_cmp expect actual
'

# lseek, readv and writev have no op, but move the position the next
# read or write is recorded at: lseek to what it returned (unless it
# failed), readv and writev by what they returned. They stay dropped and
# counted.
test_expect_success 'a log of lseek, readv and writev: the offsets after them' '
	mkdir -p pos &&
	printf 0123456789 >pos/data &&
	positions seek run &&
	cat >expect <<-\EOT &&
	[run]
	open data rdwr @1
	pread @1 4 2
	pwrite @1 7 1
	pread @1 8 2
	pread @1 4 2
	pread @1 0 4
	pwrite @1 8 1
	close @1
	EOT
	test_cmp expect actual &&
	sed -n "/^# dropped, no op/,/^# dropped, on/p" pos-seek.load >actual &&
	cat >expect <<-\EOT &&
	# dropped, no op in the loadfile language: 8
	#   lseek                    5
	#   readv                    2
	#   writev                   1
	# dropped, on an fd not opened below the root in the trace: 0
	EOT
	test_cmp expect actual
'

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

# -o is looked at before the command runs, and it may then be only what
# it was: a symlink planted meanwhile (here by the command itself) is
# left as it is, never written through; so is a file made meanwhile.
strace_test 'an -o that was not there: a symlink planted meanwhile is not written through' '
	rm -rf outside && mkdir outside && echo victim >outside/victim &&
	test_expect_code 3 vfsbench record -o planted.load \
		-- sh -c "ln -s outside/victim planted.load && test -e outside" \
		2>err &&
	echo "error: ${SQ}planted.load${SQ} is a symbolic link now, where there was nothing before: left as it is" >expect &&
	test_cmp expect err &&
	test "$(cat outside/victim)" = victim &&
	test -h planted.load &&
	test -z "$(find . -maxdepth 1 -name "planted.load.tmp*")" &&
	rm planted.load &&
	test_expect_code 3 vfsbench record -o made.load \
		-- sh -c "echo theirs >made.load && test -e outside" 2>err &&
	echo "error: ${SQ}made.load${SQ} is a regular file now, where there was nothing before: left as it is" >expect &&
	test_cmp expect err &&
	test "$(cat made.load)" = theirs
'

strace_test 'an -o replaced with --force: a symlink planted meanwhile is not written through' '
	rm -rf outside && mkdir outside && echo victim >outside/victim &&
	echo mine >taken.load &&
	test_expect_code 3 vfsbench record --force -o taken.load \
		-- sh -c "rm taken.load && ln -s outside/victim taken.load" 2>err &&
	echo "error: ${SQ}taken.load${SQ} is a symbolic link now, where there was a regular file or nothing before: left as it is" >expect &&
	test_cmp expect err &&
	test "$(cat outside/victim)" = victim &&
	test -h taken.load && rm taken.load
'

# vfsbench(1)'s rule for the main command: no output is an input.
test_expect_success '--from-trace LOG -o LOG: refused before anything, by any name' '
	printf "10 1.0 newfstatat(AT_FDCWD<$TRASH/r>, \"a\", 0x1, 0) = 0\n10 1.1 +++ exited with 0 +++\n" >in.log &&
	cp in.log keep.log &&
	ln -s in.log alias.log &&
	for o in in.log ./in.log alias.log; do
		test_expect_code 2 vfsbench record --root r --force -o "$o" \
			--from-trace in.log 2>err &&
		printf "%s\n" "vfsbench: -o ${SQ}$o${SQ} names the input --from-trace ${SQ}in.log${SQ}: a result file never replaces what vfsbench reads" \
			"Try ${SQ}vfsbench record --help${SQ} for more information." >expect &&
		test_cmp expect err &&
		cmp in.log keep.log || return 1
	done &&
	vfsbench record --root r -o from.load --from-trace in.log 2>err &&
	test_grep "^stat a\$" from.load
'

# The command's output is vfsbench's, as a wrapper's (time, strace) is;
# with -o - the loadfile is, and the command's goes to standard error.
strace_test 'the command'"'"'s standard output is vfsbench'"'"'s; with -o -, its stderr' '
	vfsbench record -o out.load -- sh -c "echo to-stdout; echo to-stderr >&2; test -e out" \
		>cmd.out 2>cmd.err &&
	echo to-stdout >expect &&
	test_cmp expect cmd.out &&
	test_grep "^to-stderr\$" cmd.err &&
	test_grep "^vfsbench record: out.load: [0-9]* ops from " cmd.err &&
	vfsbench record -o - -- sh -c "echo to-stdout; test -e out" >cmd.out 2>cmd.err &&
	head -n 1 cmd.out >actual &&
	echo "# Recorded by vfsbench record: the file-system calls of a program, as" >expect &&
	test_cmp expect actual &&
	! grep "^to-stdout\$" cmd.out &&
	test_grep "^to-stdout\$" cmd.err &&
	test_grep "^stat out\$" cmd.out
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

# Names no loadfile can spell: a '$' (a variable to the parser) and the
# marker's name (which no op may make), in the tree and in calls: dropped
# and counted, the rest recorded; before, the recording was refused as
# "a bug of vfsbench record".
test_expect_success 'a name with a $ and one named as the marker: dropped and counted' '
	rm -rf nr && mkdir -p nr/.vfsbench-workdir &&
	: >"nr/price\$5" && : >nr/.vfsbench-workdir/in && : >nr/fine &&
	cat >names.log <<-EOT &&
	10 1.0 newfstatat(AT_FDCWD<$TRASH/nr>, "price\$5", 0x1, 0) = 0
	10 1.1 openat(AT_FDCWD<$TRASH/nr>, "price\$5", O_RDONLY) = 3<$TRASH/nr/price\$5>
	10 1.2 close(3<$TRASH/nr/price\$5>) = 0
	10 1.3 newfstatat(AT_FDCWD<$TRASH/nr>, ".vfsbench-workdir/in", 0x1, 0) = 0
	10 1.4 openat(AT_FDCWD<$TRASH/nr>, ".", O_RDONLY|O_DIRECTORY) = 3<$TRASH/nr>
	10 1.5 getdents64(3<$TRASH/nr>, 0x1 /* 5 entries */, 32768) = 160
	10 1.6 close(3<$TRASH/nr>) = 0
	10 1.7 newfstatat(AT_FDCWD<$TRASH/nr>, "fine", 0x1, 0) = 0
	10 1.8 +++ exited with 0 +++
	EOT
	vfsbench record --root nr -o names.load --from-trace names.log 2>err &&
	printf "%s\n" "warning: 5 paths no loadfile can name (with a newline, a ${SQ}\$${SQ} or vfsbench${SQ}s marker .vfsbench-workdir) dropped: their calls and entries are counted in the header" \
		"vfsbench record: names.load: 4 ops from 8 calls of 1 tasks" >expect &&
	test_cmp expect err &&
	sed -n "/^# dropped, no op/,/^# dropped, on an fd/p" names.load >actual &&
	printf "%s\n" "# dropped, no op in the loadfile language: 3" \
		"#   newfstatat               2" "#   openat                   1" \
		"# dropped, on an fd not opened below the root in the trace: 1" >expect &&
	test_cmp expect actual &&
	test_grep "^# not made: 0 symlinks whose targets lead out, 2 special files or unnamable paths\$" names.load &&
	sed -n "/^\[setup\]/,\$p" names.load >actual &&
	printf "%s\n" "[setup]" "create fine 644" "[run]" "open . rdonly,directory @1" \
		"getdents @1 32768" "close @1" "stat fine" >expect &&
	test_cmp expect actual
'

# --tasks-as-clients makes a [run N] stream of each task, and a loadfile
# has at most 65,536: one more is refused with the count, not as "a bug".
tasks_log() {
	awk -v n="$1" -v r="$TRASH/r" "BEGIN {
		for (i = 1; i <= n; i++)
			printf \"%d 1.0 newfstatat(AT_FDCWD<%s>, \\\"a\\\", 0x1, 0) = 0\\n%d 1.1 +++ exited with 0 +++\\n\", i, r, i
	}"
}

test_expect_success '--tasks-as-clients: 65,536 tasks are streams, one more is refused' '
	tasks_log 65537 | test_expect_code 3 vfsbench record --tasks-as-clients \
		--root r -o streams.load --from-trace /dev/stdin 2>err &&
	echo "error: --tasks-as-clients: 65537 tasks kept calls, each a [run N] stream, and a loadfile has at most 65536: record without it (one stream), or a command of fewer tasks; no loadfile written" >expect &&
	test_cmp expect err &&
	test ! -e streams.load &&
	tasks_log 65536 | vfsbench record --tasks-as-clients --root r \
		-o streams.load --from-trace /dev/stdin 2>err &&
	test_grep "^\[run 65535\]\$" streams.load
'

# The root's name is written in the header, a comment: a newline in it
# would end the comment, and what follows would be ops.
test_expect_success 'a newline in --root: escaped in the header, no op of it' '
	nl=$(printf "nl\nmkdir evil") &&
	mkdir "$nl" && : >"$nl/f" &&
	printf "10 1.0 newfstatat(AT_FDCWD<%s>, \"f\", 0x1, 0) = 0\n10 1.1 +++ exited with 0 +++\n" \
		"$TRASH/nl\\nmkdir evil" >nl.log &&
	vfsbench record --root "$nl" -o nl.load --from-trace nl.log 2>err &&
	test_grep "^# root: $TRASH/nl\\\\x0amkdir evil\$" nl.load &&
	! grep "^mkdir" nl.load &&
	canary_setup &&
	vfsbench -c nl.load -e null --loops 1 -D "$TRASH/work" 1 >report &&
	test "$(op_count report stat)" = 1 &&
	test -z "$(op_count report mkdir)" &&
	canary_check &&
	workdir_empty
'


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
