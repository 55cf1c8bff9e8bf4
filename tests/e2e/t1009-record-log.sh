#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='vfsbench record --from-trace: a log that never ends is stopped or refused, a line and what is held are bounded, tasks are found by a hash'
. "$srcdir/tests/e2e/lib.sh"
SQ="'"

# doc/recording.md, "The log". Each log is written by awk into a pipe or
# a FIFO, never kept on disk whole; a writer that never ends stops at its
# SIGPIPE once vfsbench is gone.

mkdir r

# endless SIG STATUS: an endless stream of calls of 400,000 tasks in turn
# through a FIFO, SIG once awk has written 1 MB (past a pipe's buffer:
# vfsbench reads); vfsbench ends with STATUS, writes nothing.
endless() {
	rm -f log.fifo flowing &&
	mkfifo log.fifo &&
	start_vfsbench record --root r -o e.load --from-trace log.fifo &&
	{
		awk 'BEGIN {
			for (i = 0;; i++) {
				printf "%d 1.0 getpid() = 1\n", i % 400000 + 1
				if (i == 40000) {
					fflush()
					system("touch flowing")
				}
			}
		}' >log.fifo 2>/dev/null &
		wpid=$!
	} &&
	wait_until "awk wrote nothing" test -e flowing &&
	kill "-$1" "$pid" &&
	ends "$2" &&
	gone "$wpid" &&
	echo "error: stopped by a signal while the log was read: no loadfile written" >expect &&
	test_cmp expect err &&
	test ! -e e.load
}

test_expect_success 'an endless pipe: SIGINT stops the read, exit 130, nothing written' '
	endless INT 130
'

test_expect_success 'an endless pipe: SIGTERM stops the read, exit 143, nothing written' '
	endless TERM 143
'

test_expect_success 'an endless line: refused past 1 MiB, exit 2, nothing written' '
	rm -f log.fifo && mkfifo log.fifo &&
	{
		awk "BEGIN { for (;;) printf \"x\" }" >log.fifo 2>/dev/null &
		wpid=$!
	} &&
	test_expect_code 2 bounded "$VFSBENCH" record --root r -o bad.load \
		--from-trace log.fifo 2>err &&
	gone "$wpid" &&
	echo "log.fifo:1:1048577: a line longer than 1048576 bytes: not a line of strace${SQ}s" >expect &&
	test_cmp expect err &&
	test ! -e bad.load
'

test_expect_success 'a line of 1 MiB is read; a NUL byte is refused' '
	awk "BEGIN {
		s = \"x\"
		while (length(s) < 1048576)
			s = s s
		print \"10 1.0 getpid(\" substr(s, 1, 1048556) \") = 10\"
		print \"10 1.1 newfstatat(AT_FDCWD<$TRASH/r>, \\\".\\\", 0x1, 0) = 0\"
		print \"10 1.2 +++ exited with 0 +++\"
	}" >long.log &&
	test "$(head -n 1 long.log | wc -c)" -eq 1048577 &&
	vfsbench record --root r -o long.load --from-trace long.log 2>err &&
	test_grep "^stat \.\$" long.load &&
	printf "10 1.0 close(3) = 0\000x\n" >nul.log &&
	bad_trace nul.log "nul.log:1:20: a NUL byte: not a line of strace${SQ}s"
'

test_expect_success 'a pid larger than Linux gives: refused' '
	printf "4194305 1.0 close(3) = 0\n" >pid.log &&
	bad_trace pid.log "pid.log:1:1: a pid larger than Linux gives (4194304): not a line of strace -f"
'

test_expect_success 'more than 64 MiB of unfinished calls at once: refused' '
	awk "BEGIN {
		s = \"x\"
		while (length(s) < 1048576)
			s = s s
		s = substr(s, 1, 1048000)
		for (i = 1; i <= 65; i++)
			printf \"%d 1.0 getpid(%s <unfinished ...>\\n\", i, s
	}" | test_expect_code 2 vfsbench record --root r -o bad.load \
		--from-trace /dev/stdin 2>err &&
	echo "/dev/stdin:65:8: more than 64 MiB of calls unfinished at once: not a log of strace${SQ}s" >expect &&
	test_cmp expect err &&
	test ! -e bad.load
'

# Each call is a stat of a name of 4000 bytes: an op of 4006 bytes, so
# the 16,753rd passes 64 MiB.
test_expect_success 'a log whose ops pass what a loadfile holds: refused at that call, exit 3' '
	awk "BEGIN {
		s = \"a\"
		while (length(s) < 4000)
			s = s s
		s = substr(s, 1, 4000)
		for (i = 1;; i++)
			printf \"10 1.0 newfstatat(AT_FDCWD<$TRASH/r>, \\\"%s\\\", 0x1, 0) = 0\\n\", s
	}" 2>/dev/null | test_expect_code 3 vfsbench record --root r \
		-o big.load --from-trace /dev/stdin 2>err &&
	echo "/dev/stdin:16753:1: the recording passes what a loadfile may hold (2000000 ops, 64 MiB) at this call: record less (a smaller --root, a shorter command)" >expect &&
	test_cmp expect err &&
	test ! -e big.load
'

# 1,000,000 tasks of one call each, and one stat below the root: a linear
# search for each task took 163 s for 400,000 here; bounded fails a run
# past 60 s.
test_expect_success 'a log of 1,000,000 tasks: converted, each task counted once' '
	awk "BEGIN {
		for (i = 1; i <= 1000000; i++)
			printf \"%d 1.0 getpid() = %d\\n%d 1.1 +++ exited with 0 +++\\n\", i, i, i
		print \"1000001 1.0 newfstatat(AT_FDCWD<$TRASH/r>, \\\".\\\", 0x1, 0) = 0\"
		print \"1000001 1.1 +++ exited with 0 +++\"
	}" | bounded "$VFSBENCH" record --root r -o many.load \
		--from-trace /dev/stdin 2>err &&
	echo "vfsbench record: many.load: 1 ops from 1000001 calls of 1000001 tasks" >expect &&
	test_cmp expect err &&
	test_grep "^# calls traced: 1000001, replayed as ops: 1\$" many.load &&
	test_grep "^#   getpid  *1000000\$" many.load
'

test_done
