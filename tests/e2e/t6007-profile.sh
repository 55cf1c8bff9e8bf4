#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='--perf-ctl and --profile: perf records exactly the measurement of the chosen client counts'
. "$srcdir/tests/e2e/lib.sh"

if ! command -v jq >/dev/null 2>&1; then
	test_skip_all "jq is not installed"
fi

SQ="'"
READER="$abs_top_builddir/tests/helper/vb-perfctl"

# start_reader [CTL ACK [PIDFILE]]: the far end of --perf-ctl CTL,ACK
# (default ctl and ack; tests/helper/vb-perfctl), made as FIFOs: it logs
# "NS COMMAND" to log for every command, NS when it arrived, and acks;
# with PIDFILE also the states of that process's threads but the first.
start_reader() {
	c=${1:-ctl} &&
	a=${2:-ack} &&
	rm -f "$c" "$a" log &&
	mkfifo "$c" "$a" &&
	{ "$READER" "$c" "$a" log ${3:+"$3"} & } &&
	reader=$! &&
	wait_until "no log of the reader" test -f log
}

stop_reader() {
	kill "$reader" && wait "$reader"
	return 0
}

# CMD || failed WHAT: the log says which step of a test failed (with what
# vfsbench printed), since otherwise it only shows the whole body.
failed() {
	say "step failed: $1" >&2
	cat out err >&2 2>/dev/null
	return 1
}

# a field of run N of a result file
jr() {
	jq -r ".runs[$2].$3" "$1"
}

test_expect_success 'setup' '
	canary_setup &&
	printf "[run]\nstat .\nstatfs .\n" >s.load
'

test_expect_success '--perf-ctl with --profile 2: enable and disable around that measurement only' '
	start_reader &&
	vfsbench -q -c s.load --loops 300 -D "$TRASH/work" 1 2 4 \
		--perf-ctl ctl,ack --profile 2 --json r.json >out &&
	stop_reader &&
	cut -d" " -f2 log >cmds &&
	printf "enable\ndisable\n" >expect &&
	test_cmp expect cmds &&
	on=$(sed -n 1p log | cut -d" " -f1) &&
	off=$(sed -n 2p log | cut -d" " -f1) &&
	test "$(jr r.json 1 clients)" = 2 &&
	test "$(jr r.json 0 profile)" = null &&
	test "$(jr r.json 2 profile)" = null &&
	test "$(jr r.json 1 profile.control)" = ctl,ack &&
	test "$(jr r.json 1 profile.file)" = null &&
	# the order of events, on one clock: the 1-client run ended, vfsbench
	# sent enable, the reader got it, the measurement started and ended,
	# the reader got disable, vfsbench had its ack, then the 4-client run
	test "$(jr r.json 0 window_end_ns)" -lt "$(jr r.json 1 profile.on_ns)" &&
	test "$(jr r.json 1 profile.on_ns)" -le "$on" &&
	test "$on" -lt "$(jr r.json 1 window_start_ns)" &&
	test "$(jr r.json 1 window_end_ns)" -lt "$off" &&
	test "$off" -le "$(jr r.json 1 profile.off_ns)" &&
	test "$(jr r.json 1 profile.off_ns)" -lt "$(jr r.json 2 window_start_ns)" &&
	test_grep "^profile ctl,ack: perf${SQ}s events on .* before the measurement, off .* after it\$" out &&
	canary_check && workdir_empty
'

# With a warmup by time, the clients end it at the gate in a profiled
# run: when "enable" arrives every client thread sleeps there (S), none
# is running warmup ops (R).
test_expect_success '--perf-ctl alone: every run, also with a warmup by time' '
	rm -f pidfile &&
	start_reader ctl ack pidfile &&
	start_vfsbench -q -c s.load -t 100ms --warmup 50ms -D "$TRASH/work" \
		1 2 --perf-ctl ctl,ack --json t.json &&
	echo "$pid" >pidfile.tmp && mv pidfile.tmp pidfile &&
	finish 0 &&
	stop_reader &&
	cut -d" " -f2 log >cmds &&
	printf "enable\ndisable\nenable\ndisable\n" >expect &&
	test_cmp expect cmds &&
	# every thread but the main one asleep, at least the clients (a
	# sanitizer has threads of its own)
	grep " enable " log | cut -d" " -f3 >states &&
	test "$(sed -n 1p states | grep -cx "SS*")" -eq 1 &&
	test "$(sed -n 2p states | grep -cx "SSS*")" -eq 1 &&
	for r in 0 1; do
		on=$(sed -n "$((2 * r + 1))p" log | cut -d" " -f1) &&
		off=$(sed -n "$((2 * r + 2))p" log | cut -d" " -f1) &&
		test "$on" -lt "$(jr t.json $r window_start_ns)" &&
		test "$(jr t.json $r window_end_ns)" -lt "$off" || return 1
	done &&
	canary_check && workdir_empty
'

test_expect_success '--perf-ctl without an ack FIFO: the commands, not waited for' '
	start_reader &&
	vfsbench -q -c s.load --loops 10 -D "$TRASH/work" 1 \
		--perf-ctl ctl --json n.json >out &&
	wait_until "not 2 lines in log" test "$(wc -l <log)" -ge 2 &&
	stop_reader &&
	cut -d" " -f2 log >cmds &&
	printf "enable\ndisable\n" >expect &&
	test_cmp expect cmds &&
	test "$(jr n.json 0 profile.control)" = ctl &&
	canary_check && workdir_empty
'

test_expect_success '--perf-ctl errors: no reader, not a FIFO, bad values' '
	rm -f ctl ack && mkfifo ctl &&
	test_expect_code 3 vfsbench -q -c s.load --loops 1 -D "$TRASH/work" 1 \
		--perf-ctl ctl >out 2>err &&
	test_grep "^error: --perf-ctl: no process has ${SQ}ctl${SQ} open for reading: start perf record --control fifo:ctl first\$" err &&
	echo x >plain &&
	start_reader ctl2 ack2 &&
	test_expect_code 3 vfsbench -q -c s.load --loops 1 -D "$TRASH/work" 1 \
		--perf-ctl ctl2,plain >out 2>err &&
	test_grep "^error: --perf-ctl: ${SQ}plain${SQ} is not a FIFO" err &&
	stop_reader &&
	test_expect_code 2 vfsbench -q -c s.load --loops 1 -D "$TRASH/work" 1 \
		--perf-ctl ,ack >out 2>err &&
	test_grep "^vfsbench: bad --perf-ctl ${SQ},ack${SQ}: expected FIFO or FIFO,ACK\$" err &&
	test_expect_code 2 vfsbench -q -c s.load --loops 1 -D "$TRASH/work" 1 2 \
		--profile 3 >out 2>err &&
	test_grep "^vfsbench: --profile 3: 3 is not one of the sweep${SQ}s client counts\$" err &&
	test_expect_code 2 vfsbench -q -c s.load --loops 1 -D "$TRASH/work" 1 \
		--profile 1,x >out 2>err &&
	test_grep "^vfsbench: bad --profile ${SQ}1,x${SQ}: ${SQ}x${SQ} is not a client count (1 to 100000)\$" err &&
	test_expect_code 2 vfsbench -q -c s.load --loops 1 -D "$TRASH/work" 1 \
		--profile 1 --perf-ctl ctl --profile-event cpu-clock >out 2>err &&
	test_grep "^vfsbench: --profile-event: with --perf-ctl, the perf that reads the FIFO chooses its events\$" err &&
	canary_check && workdir_empty
'

test_expect_success '--profile: perf missing, or exiting before it is attached' '
	mkdir bin &&
	test_expect_code 3 env PATH="$TRASH/bin" "$VFSBENCH" -q -c s.load \
		--loops 1 -D "$TRASH/work" 1 --profile 1 >out 2>err &&
	test_grep "^error: --profile: perf is not installed (Debian: apt-get install linux-perf)\$" err &&
	printf "#!/bin/sh\necho \"perf_event_open(..., PERF_FLAG_FD_CLOEXEC) failed with unexpected error 13 (Permission denied)\" >&2\nexit 255\n" >bin/perf &&
	chmod +x bin/perf &&
	test_expect_code 3 env PATH="$TRASH/bin:/usr/bin:/bin" "$VFSBENCH" -q \
		-c s.load --loops 1 -D "$TRASH/work" 1 --profile 1 >out 2>err &&
	test_grep "^perf_event_open(.*Permission denied)\$" err &&
	test_grep "^error: --profile: perf record exited with status 255 before it was attached: see its message above (perf_event_paranoid is " err &&
	test ! -e perf-1.data &&
	canary_check && workdir_empty
'

# A perf that only speaks the control protocol: it creates its -o file,
# acknowledges every command and waits for SIGINT. In bash: with several
# records its control fds go past 9, which dash cannot redirect. As perf
# record, it logs each "enable" to $FAKE_LOG and its pid to $FAKE_PID;
# with FAKE_ACK=slow it acks an enable after 11 s, with never not at all.
test_expect_success '--profile with a bad -D: no perf started, no file' '
	mkdir -p fake &&
	cat >fake/perf <<-\EOF &&
	#!/usr/bin/env bash
	# perf script: no samples
	test "$1" = script && exit 0
	kind=$1
	while test $# -gt 0; do
		case $1 in
		--control) ctl=${2#fd:}; shift ;;
		-o) out=$2; shift ;;
		esac
		shift
	done
	test -z "$out" || : >"$out"
	test "$kind" = record && test -n "$FAKE_PID" && echo $$ >"$FAKE_PID"
	while eval "read -r cmd <&${ctl%,*}"; do
		if test "$kind" = record && test "$cmd" = enable &&
			test -n "$FAKE_LOG"; then
			echo enable >>"$FAKE_LOG"
			test "$FAKE_ACK" = never && continue
			test "$FAKE_ACK" = slow && sleep 11
		fi
		# perf stat says what it did on stderr, -q or not
		if test "$kind" = stat && test -n "$FAKE_NOISE"; then
			echo "Events ${cmd}d" >&2
			test "$cmd" = enable && echo "perf stat: a line of its own" >&2
		fi
		eval "printf \"ack\\n\" >&${ctl#*,}"
	done
	EOF
	chmod +x fake/perf &&
	{ env PATH="$TRASH/fake:$PATH" "$VFSBENCH" -q -c s.load --loops 1 \
		-D "$TRASH/work" 1 --profile 1 >out 2>err ||
		failed "a run with the fake perf: exit 0"; } &&
	{ test_grep "^  1 client: perf-1.data, perf-1.folded\$" out ||
		failed "its profile listed"; } &&
	{ test ! -s perf-1.folded || failed "an empty profile folds to nothing"; } &&
	{ rm perf-1.data perf-1.folded || failed "its profile there"; } &&
	# --profile all: one file for each count of the sweep, once each
	{ env PATH="$TRASH/fake:$PATH" "$VFSBENCH" -q -c s.load --loops 1 \
		-D "$TRASH/work" 1 2 --runs 2 --profile all --json all.json >out 2>err ||
		failed "--profile all: exit 0"; } &&
	{ test_grep "^  1 client: perf-1.data, perf-1.folded\$" out &&
		test_grep "^  2 clients: perf-2.data, perf-2.folded\$" out ||
		failed "--profile all: one profile per count listed"; } &&
	{ test "$(jq -c .options.profile.clients all.json)" = "[1,2]" &&
		test "$(jq -r "[.runs[] | select(.clients == 2) | .profile.file] | unique | .[]" all.json)" = perf-2.data ||
		failed "--profile all: the JSON"; } &&
	{ rm perf-1.data perf-2.data perf-1.folded perf-2.folded ||
		failed "--profile all: the profiles there"; } &&
	{ test_expect_code 2 env PATH="$TRASH/fake:$PATH" "$VFSBENCH" -q \
		-c s.load --loops 1 -D "$TRASH/missing" 1 --profile 1 >out 2>err ||
		failed "a bad -D: exit 2"; } &&
	{ test ! -e perf-1.data || failed "a bad -D: no profile"; } &&
	{ canary_check || failed "the canary"; } &&
	{ workdir_empty || failed "the work directory empty"; }
'

# The fake perf record slow to ack "enable" (11 s, past the 10 s deadline
# these acks had) or silent: the wait for a perf of our own has no
# deadline, so no load on the machine can fail a run (t6007 test 7 failed
# once in twelve on a loaded box), and a stop signal ends it.
test_expect_success 'a perf record that takes 11 s to ack: waited for, the run complete' '
	rm -f record.log &&
	{ env PATH="$TRASH/fake:$PATH" FAKE_ACK=slow \
		FAKE_LOG="$TRASH/record.log" "$VFSBENCH" -q -c s.load --loops 1 -D "$TRASH/work" 1 \
		--profile 1 >out 2>err || failed "exit 0"; } &&
	{ test "$(cat record.log)" = enable || failed "one enable"; } &&
	{ test_grep "^  1 client: perf-1.data, perf-1.folded\$" out ||
		failed "its profile listed"; } &&
	{ test ! -s err || failed "nothing on stderr"; } &&
	rm -f perf-1.data perf-1.folded &&
	canary_check && workdir_empty
'

# perf stat reports every control command ("Events enabled") on stderr,
# -q or not: filtered out, and what else it says kept.
test_expect_success 'the "Events enabled" and "Events disabled" of perf stat do not reach stderr; its other lines do' '
	{ env PATH="$TRASH/fake:$PATH" FAKE_NOISE=1 "$VFSBENCH" -q -c s.load \
		--loops 1 -D "$TRASH/work" 1 2 --profile all >out 2>err ||
		failed "exit 0"; } &&
	printf "%s\n" "perf stat: a line of its own" "perf stat: a line of its own" >expect &&
	{ test_cmp expect err || failed "only its own lines on stderr"; } &&
	rm -f perf-1.data perf-1.folded perf-2.data perf-2.folded &&
	canary_check && workdir_empty
'

test_expect_success 'a perf record that never acks: SIGTERM ends the wait, exit 143' '
	rm -f record.log record.pid &&
	PATH="$TRASH/fake:$PATH" FAKE_ACK=never FAKE_LOG="$TRASH/record.log" \
		FAKE_PID="$TRASH/record.pid" start_vfsbench -q -c s.load \
		--loops 1 -D "$TRASH/work" 1 --profile 1 &&
	wait_for enable record.log &&
	kill -TERM "$pid" &&
	ends 143 &&
	{ ! kill -0 "$(cat record.pid)" 2>/dev/null ||
		failed "perf record reaped"; } &&
	{ test_grep "^note: interrupted by a signal: partial results\$" out ||
		failed "the run said interrupted"; } &&
	rm -f perf-1.data perf-1.folded &&
	canary_check && workdir_empty
'

# The real perf, with a software event (hardware counters are missing in
# most VMs and containers): its samples, CLOCK_MONOTONIC (perf record -k
# mono), all fall between the enable vfsbench sent and the ack of its
# disable, which bracket the measured window recorded in the JSON.
if ! command -v perf >/dev/null 2>&1; then
	test_skip '--profile with the real perf' 'perf is not installed (linux-perf)'
elif ! perf record -q -e cpu-clock -k mono -o "$TRASH/probe.data" true \
	>"$TRASH/probe.out" 2>&1; then
	test_skip '--profile with the real perf' "perf record cannot run here: $(tr '\n' ' ' <"$TRASH/probe.out")"
else
	test_expect_success '--profile with the real perf: samples only inside the profiled window' '
		rm -f perf-*.data &&
		vfsbench -q -c s.load -t 300ms --warmup 100ms -D "$TRASH/work" 1 2 \
			--profile 2 --profile-event cpu-clock --json p.json >out 2>err &&
		test_grep "^  2 clients: perf-2.data, perf-2.folded\$" out &&
		! grep "^Events \(en\|dis\)abled\$" err &&
		test ! -e perf-1.data &&
		test "$(jr p.json 0 profile)" = null &&
		test "$(jr p.json 1 profile.file)" = perf-2.data &&
		on=$(jr p.json 1 profile.on_ns) &&
		off=$(jr p.json 1 profile.off_ns) &&
		start=$(jr p.json 1 window_start_ns) &&
		end=$(jr p.json 1 window_end_ns) &&
		test "$on" -lt "$start" && test "$end" -lt "$off" &&
		perf script -i perf-2.data -F tid,time >samples 2>perr &&
		test -s samples &&
		awk -v on="$on" -v off="$off" -v s="$start" -v e="$end" "
		{
			sub(/:\$/, \"\", \$2)
			split(\$2, t, \".\")
			# microseconds: compare in whole us, rounding outwards
			us = t[1] * 1000000 + t[2]
			if (us < int(on / 1000) || us > int(off / 1000) + 1) {
				print \"sample at \" \$2 \" outside \" on \" .. \" off
				bad = 1
			}
			n++
			inside += us >= int(s / 1000) && us <= int(e / 1000) + 1
		}
		END {
			print n, \"samples,\", inside, \"inside the measured window\"
			exit bad || !n
		}" samples &&
		jq -r ".runs[1].clients_detail[].tid" p.json | sort >tids &&
		awk "{ print \$1 }" samples | sort -u >seen &&
		comm -12 tids seen >both &&
		test -s both &&
		canary_check && workdir_empty
	'
fi

test_done
