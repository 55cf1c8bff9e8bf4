#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='SIGINT and SIGTERM: partial report, cleanup, exit 130/143'
. "$srcdir/tests/e2e/lib.sh"

# After a second signal: if vfsbench says it left files, the path it names
# is its work directory inside -D (then removed here); if it says nothing,
# it cleaned up. The canary survives either way.
check_left() {
	if grep "files left in" err >/dev/null; then
		test "$(grep -c "files left in" err)" -eq 1 &&
		test_grep "^vfsbench: cleanup [a-z ]* a second signal: files left in '.*'\$" err &&
		left=$(sed -n -e "s/^vfsbench: cleanup .* a second signal: files left in '\(.*\)'\$/\1/p" err) &&
		case "$left" in
		"$TRASH/work/vfsbench."*) ;;
		*)
			say "left '$left', not in $TRASH/work" >&2
			return 1
			;;
		esac &&
		test -d "$left" &&
		canary_check &&
		rm -rf "$left"
	fi &&
	canary_check &&
	workdir_empty
}

test_expect_success 'SIGINT during a timed run: partial report, cleanup, exit 130' '
	canary_setup &&
	start_vfsbench -q -t 30s --warmup 0 -c statfs -D "$TRASH/work" 2 &&
	wait_threads 3 &&
	kill -INT "$pid" &&
	finish 130 &&
	check_report 2 &&
	! grep "files left" err &&
	canary_check &&
	workdir_empty
'

test_expect_success 'SIGTERM during a timed run: partial report, cleanup, exit 143' '
	canary_setup &&
	start_vfsbench -q -t 30s --warmup 0 -c statfs -D "$TRASH/work" 3 &&
	wait_threads 4 &&
	kill -TERM "$pid" &&
	finish 143 &&
	check_report 3 &&
	! grep "files left" err &&
	canary_check &&
	workdir_empty
'

test_expect_success 'SIGINT during the warmup: exit 130, report, cleanup' '
	canary_setup &&
	start_vfsbench -q -t 30s --warmup 30s -c statfs -D "$TRASH/work" 2 &&
	wait_threads 3 &&
	kill -INT "$pid" &&
	finish 130 &&
	check_report 2 &&
	canary_check &&
	workdir_empty
'

test_expect_success 'SIGTERM stops a sweep: no later run, no sweep table' '
	canary_setup &&
	start_vfsbench -q -t 30s --warmup 0 -c statfs -D "$TRASH/work" 1 2 4 &&
	wait_threads 2 &&
	kill -TERM "$pid" &&
	finish 143 &&
	check_report 1 &&
	! grep "^2 clients" out &&
	! grep "^Sweep" out &&
	canary_check &&
	workdir_empty
'

test_expect_success 'SIGINT with files on disk (default.load): cleaned up' '
	canary_setup &&
	start_vfsbench -q -t 30s --warmup 0 -c default --depth 2 \
		-D "$TRASH/work" 4 &&
	wait_threads 5 &&
	kill -INT "$pid" &&
	finish 130 &&
	check_report 4 &&
	canary_check &&
	workdir_empty
'

test_expect_success 'SIGINT right after the work dir appears: still exit 130' '
	canary_setup &&
	start_vfsbench -q -t 30s --warmup 0 -c default -D "$TRASH/work" 8 &&
	wait_workdir &&
	kill -INT "$pid" &&
	finish 130 &&
	test_grep "interrupted by a signal" out &&
	canary_check &&
	workdir_empty
'

test_expect_success 'two SIGINTs at once: exit 130, canary kept, left files named' '
	canary_setup &&
	start_vfsbench -q -t 30s --warmup 0 -c default -D "$TRASH/work" 4 &&
	wait_threads 5 &&
	kill -INT "$pid" &&
	kill_again INT &&
	finish 130 &&
	check_left
'

test_expect_success 'two SIGINTs apart: exit 130, canary kept, left files named' '
	canary_setup &&
	start_vfsbench -q -t 30s --warmup 0 -c mixed -D "$TRASH/work" 4 &&
	wait_threads 5 &&
	kill -INT "$pid" &&
	sleep 0.1 &&
	kill_again INT &&
	finish 130 &&
	check_left
'

test_expect_success 'a second SIGINT after the report: exit 130, canary kept' '
	cat >many.load <<-EOF &&
	[setup]
	mkdir    a
	mkdir    a/b
	mkdir    a/b/c
	create   a/1
	create   a/2
	create   a/b/3
	create   a/b/c/4
	symlink  4  a/b/c/link
	[run]
	statfs   .
	EOF
	canary_setup &&
	start_vfsbench -q -t 30s --warmup 0 -c many.load --depth 4 \
		-D "$TRASH/work" 16 &&
	wait_threads 17 &&
	kill -INT "$pid" &&
	wait_for "^Throughput " out &&
	kill_again INT &&
	finish 130 &&
	check_report 16 &&
	check_left
'

# Two different signals sent at once are both delivered (two SIGINTs may
# merge into one), so this one usually takes the "files left" path.
# Two signals pending together are delivered lowest number first (SIGINT
# before SIGTERM), so the second one follows once the first has landed.
test_expect_success 'SIGTERM then SIGINT: exit 143 (the first counts)' '
	canary_setup &&
	start_vfsbench -q -t 30s --warmup 0 -c default --depth 2 \
		-D "$TRASH/work" 4 &&
	wait_threads 5 &&
	kill -TERM "$pid" &&
	sleep 0.1 &&
	kill_again INT &&
	finish 143 &&
	check_left
'

test_done
