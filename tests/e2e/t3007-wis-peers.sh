#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='bench/wis-peers.sh without will-it-scale: every wis case issues the calls its peer-pass lines say (those checked against will-it-scale'"'"'s loop)'
. "$srcdir/tests/e2e/lib.sh"

WIS="open1 open2 open3 unlink1 unlink2 lock1 lock2 lseek1 lseek2 dup1 read1 read2 pread1 pread2 pread3 pwrite1 pwrite2 pwrite3"

# LeakSanitizer cannot run under ptrace (see t5001)
strace_test 'every case: one pass of -e posix, its calls the peer-pass lines' '
	canary_setup &&
	ASAN_OPTIONS=detect_leaks=0 VFSBENCH="$abs_top_builddir/src/vfsbench" TMPDIR="$TRASH" \
		sh "$abs_top_srcdir/bench/wis-peers.sh" -D "$TRASH/work" >out 2>&1 &&
	for t in $WIS
	do
		echo "strace wis $t: the peer-pass lines are the pass'"'"'s calls"
	done >expect &&
	test_cmp expect out &&
	canary_check &&
	workdir_empty
'

# ... and the check can fail: pread1 at the wrong offset, and a case
# without peer-pass lines
strace_test 'a pass that differs from its peer-pass lines, or none: exit 1' '
	canary_setup &&
	mkdir loads &&
	sed "/^\[run\]/,\$s/^pread    @1  0  4k\$/pread    @1  4k  4k/" \
		"$LOADFILES/wis-pread1.load" >loads/wis-pread1.load &&
	! cmp -s "$LOADFILES/wis-pread1.load" loads/wis-pread1.load &&
	grep -v "^# peer-pass:" "$LOADFILES/wis-dup1.load" >loads/wis-dup1.load &&
	test_expect_code 1 env ASAN_OPTIONS=detect_leaks=0 WIS_LOADS="$TRASH/loads" \
		VFSBENCH="$abs_top_builddir/src/vfsbench" TMPDIR="$TRASH" \
		sh "$abs_top_srcdir/bench/wis-peers.sh" -D "$TRASH/work" pread1 dup1 >out 2>&1 &&
	cat >expect <<-\EOF &&
	strace wis pread1: peer-pass lines DIFFERENT (< loadfile, > vfsbench)
	1c1
	< pread64(FD, BUF, 4096, 0)
	---
	> pread64(FD, BUF, 4096, 4096)
	strace wis dup1: no peer-pass lines
	EOF
	test_cmp expect out &&
	canary_check &&
	workdir_empty
'

test_expect_success 'an unknown case: a usage error' '
	test_expect_code 2 sh "$abs_top_srcdir/bench/wis-peers.sh" stat1 2>err &&
	test_grep "unknown test .stat1." err
'

test_done
