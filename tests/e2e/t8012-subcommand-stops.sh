#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='every subcommand ends on SIGINT, SIGTERM and SIGHUP with 130, 143, 129; SIGHUP stops a run as SIGTERM does'
. "$srcdir/tests/e2e/lib.sh"

# vfsbench(1) SIGNALS. Each test starts the command in the background,
# knows it is running from what it shows (fdscale's progress line on
# stderr, a thread blocked in the open of a FIFO nobody writes), never
# from a sleep of its own, and checks the status and that nothing is
# left: no result file, no chart, no process.


# A long fdscale: every timed open of the first step is preceded by a
# write of twice the L2 (about 100 us), 100000 times for each position.
# Its progress line comes after a second; the run would take minutes.
fdscale_stop() {
	rm -f r.json r.csv &&
	start_vfsbench fdscale --cold --max 1000 --loops 100000 \
		--json r.json --csv r.csv &&
	wait_for "^fdscale: [0-9]* of [0-9]* fds open (step 1 of " err &&
	kill "-$1" "$pid" &&
	ends "$2" &&
	test_grep "^fdscale: cache-cold, " out &&
	test "$(tail -n 1 out)" = "note: interrupted by a signal: partial results" &&
	! grep "^num_fds: " out &&
	test_grep "^warning: fdscale stopped by a signal: no result file written\$" err &&
	test ! -e r.json &&
	test ! -e r.csv
}

# ThreadSanitizer runs a signal's handler only at a call it intercepts,
# and fdscale's cold step (evicting the caches by touching memory) makes
# none for seconds: under TSan the stop would wait for the step's end.
for s in INT:130 TERM:143 HUP:129; do
	sig=${s%:*}
	code=${s#*:}
	if test "${VB_SANITIZER-}" = thread; then
		test_skip "fdscale: SIG$sig, exit $code, no result file" \
			"ThreadSanitizer delays signal handlers to its next intercepted call"
	else
		test_expect_success "fdscale: SIG$sig, exit $code, no result file" "
			fdscale_stop $sig $code
		"
	fi
done

test_expect_success 'setup: a FIFO nobody writes, a result file' '
	mkfifo fifo &&
	write_result a.json 1:100 1:110 1:105
'

# CMD... blocks in the open of fifo: a signal ends it with SIG's status,
# printing nothing on stdout and nothing but what it printed before on
# stderr.
fifo_stop() {
	sig=$1 status=$2
	shift 2
	rm -f chart.svg chart.svg.tmp* &&
	start_vfsbench "$@" &&
	blocked 1 wait_for_partner &&
	kill "-$sig" "$pid" &&
	ends "$status" &&
	test ! -s out &&
	test ! -s err &&
	test ! -e chart.svg &&
	test "$(find . -name "chart.svg.tmp*" | wc -l)" -eq 0
}

test_expect_success 'compare: SIGINT in the open of a FIFO, exit 130' '
	fifo_stop INT 130 compare a.json fifo
'

test_expect_success 'compare: SIGTERM, exit 143' '
	fifo_stop TERM 143 compare fifo a.json
'

test_expect_success 'compare: SIGHUP, exit 129' '
	fifo_stop HUP 129 compare a.json -- fifo
'

test_expect_success 'plot: SIGINT in the open of a FIFO, exit 130, no chart' '
	fifo_stop INT 130 plot a.json fifo -o chart.svg
'

test_expect_success 'plot: SIGTERM, exit 143' '
	fifo_stop TERM 143 plot fifo -o chart.svg
'

test_expect_success 'plot: SIGHUP, exit 129' '
	fifo_stop HUP 129 plot fifo a.json -o chart.svg
'

test_expect_success 'a run: SIGHUP stops it as SIGTERM does, exit 129, cleaned up' '
	canary_setup &&
	start_vfsbench -q -t 60s --warmup 0 -c statfs -D "$TRASH/work" 2 &&
	wait_threads 3 &&
	kill -HUP "$pid" &&
	ends 129 &&
	test_grep "^note: interrupted by a signal: partial results\$" out &&
	test ! -s err &&
	canary_check &&
	workdir_empty
'

test_expect_success 'a run blocked on a FIFO loadfile: SIGHUP, exit 129, nothing made' '
	canary_setup &&
	start_vfsbench -q --loops 1 -c fifo -D "$TRASH/work" 1 &&
	blocked 1 wait_for_partner &&
	kill -HUP "$pid" &&
	ends 129 &&
	test ! -s out &&
	test ! -s err &&
	canary_check &&
	workdir_empty
'

test_expect_success 'the dbench personality: SIGHUP, exit 129, DIR/clients removed' '
	mkdir -p db &&
	printf "%s\n" "Sleep 60000000 NT_STATUS_OK" >sleep.txt &&
	start_vfsbench dbench -c sleep.txt -D "$TRASH/db" -t 60 1 &&
	blocked 1 hrtimer_nanosleep &&
	kill -HUP "$pid" &&
	ends 129 &&
	test ! -e db/clients
'

test_done
