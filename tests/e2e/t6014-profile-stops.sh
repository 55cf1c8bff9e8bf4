#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='--profile: a perf that ignores SIGINT or hangs is stopped by a stop signal: its group killed after the grace, exit 130, the tree removed'
. "$srcdir/tests/e2e/lib.sh"

SQ="'"

# A perf that speaks the control protocol (t6007, t6013), in bash (its
# fds pass 9). It logs its pid to $TRASH/pids and what it does to
# $TRASH/log. With FAKE_IGNORE=SUB (record, stat or lockrec: perf lock
# record) that perf traps SIGINT ("SUB INT" in the log) and ignores
# SIGTERM, and stays after the end of its control pipe until killed.
# With FAKE_HANG=script or contention, perf script or perf lock -i FILE
# contention logs its name and then sleeps for ever, SIGINT, SIGTERM and
# SIGPIPE ignored (exec keeps its pid: the sleep ignores them too).
test_expect_success 'setup: a fake perf, loadfiles, a FIFO' '
	canary_setup &&
	printf "[run]\nstat .\n" >s.load &&
	fifo_load &&
	mkdir -p fake &&
	cat >fake/perf <<-\EOF &&
	#!/usr/bin/env bash
	log=$FAKE_DIR/log
	echo $$ >>"$FAKE_DIR/pids"
	hang() {
		echo "$1" >>"$log"
		trap "" INT TERM PIPE
		exec sleep 1000000
	}
	if test "$1" = script; then
		test "$FAKE_HANG" = script && hang script
		exit 0
	fi
	if test "$1 $2" = "lock -i"; then
		test "$FAKE_HANG" = contention && hang contention
		exit 0
	fi
	sub=$1
	test "$sub $2" = "lock record" && sub=lockrec
	while test $# -gt 0; do
		case $1 in
		--control) ctl=${2#fd:}; shift ;;
		-o) out=$2; shift ;;
		esac
		shift
	done
	test -z "$out" || : >"$out"
	if test "$FAKE_IGNORE" = "$sub"; then
		trap "echo \"$sub INT\" >>\"$log\"" INT
		trap "" TERM
	fi
	# a trapped SIGINT does not end the read: bash goes on reading
	while eval "read -r cmd <&${ctl%,*}"; do
		eval "printf \"ack\\n\" >&${ctl#*,}"
	done
	if test "$FAKE_IGNORE" = "$sub"; then
		while :; do
			sleep 1000000 &
			echo $! >>"$FAKE_DIR/pids"
			wait $!
		done
	fi
	exit 0
	EOF
	chmod +x fake/perf
'

# in_group PGID: a process of group PGID that is not a zombie.
in_group() {
	ps -eo pgid=,stat= | awk -v g="$1" '$1 == g && $2 !~ /^Z/ { f = 1 } END { exit !f }'
}

# groups_gone: every fake perf's group has gone (their leaders led them;
# a sleep's pid leads none).
groups_gone() {
	for p in $(cat pids); do
		if in_group "$p"; then
			say "fake perf $p: its group is still there" >&2
			return 1
		fi
	done
}

# kill_fakes: what a failed test leaves, killed: every fake perf and its
# group (in the group of vfsbench before the fix), never a sleep for
# ever. kill(1), not dash's kill, which takes no -PGID.
kill_fakes() {
	for p in $(cat pids 2>/dev/null); do
		env kill -s KILL -- "-$p" 2>/dev/null
		kill -KILL "$p" 2>/dev/null
	done
	rm -f pids
}

# start_fake ENV... -- ARGS...: vfsbench with the fake perf, in the
# background (start_vfsbench), --profile 1 and ARGS.
start_fake() {
	rm -f log pids &&
	: >log &&
	start_bg env PATH="$TRASH/fake:$PATH" FAKE_DIR="$TRASH" "$@"
}

# Each case: what the fake does, the handshake that says vfsbench waits
# for it, and what vfsbench says of it. Without the fix, vfsbench ignored
# the signal and waited for ever (ends fails after 60 s).
for c in \
	"FAKE_IGNORE=record|record INT|^error: --profile: perf record for ${SQ}perf-1.data.tmp[0-9]*${SQ} still ran 2 s after the stop signal: killed (SIGKILL)\$|err" \
	"FAKE_IGNORE=stat|stat INT|perf stat still ran 2 s after the stop signal: killed (SIGKILL)|out" \
	"FAKE_IGNORE=lockrec|lockrec INT|perf lock record still ran 2 s after the stop signal: killed (SIGKILL)|out" \
	"FAKE_HANG=script|script|^error: perf script -i ${SQ}perf-1.data${SQ} still ran 2 s after the stop signal: killed (SIGKILL)\$|err" \
	"FAKE_HANG=contention|contention|perf lock contention still ran 2 s after the stop signal: killed (SIGKILL)|out"
do
	fake=${c%%|*} rest=${c#*|}
	step=${rest%%|*} rest=${rest#*|}
	msg=${rest%|*} where=${rest##*|}
	test_expect_success "$fake: SIGINT once it waits: the group killed after 2 s, exit 130, the tree removed" '
		start_fake "$fake" "$VFSBENCH" -q -c s.load --loops 1 \
			-D "$TRASH/work" --profile 1 1 &&
		wait_for "^$step\$" log &&
		kill -INT "$pid" &&
		ends 130 &&
		test_grep "$msg" "$where" &&
		groups_gone &&
		rm -f perf-1.* &&
		canary_check && workdir_empty
	'
	# what a failed test leaves: never a sleep for ever
	kill_fakes
done

# One SIGINT during the run: the sweep stops, perf record gets its SIGINT,
# ignores it and is killed after the grace, with no second signal.
test_expect_success 'one SIGINT during the run is enough: perf record ignoring SIGINT killed after 2 s, exit 130' '
	start_fake FAKE_IGNORE=record "$VFSBENCH" -q -t 60s --warmup 0 \
		--links-out -c fifo.load -D "$TRASH/work" --profile 1 1 &&
	blocked 1 wait_for_partner &&
	kill -INT "$pid" &&
	ends 130 &&
	test_grep "^record INT\$" log &&
	test_grep "^error: --profile: perf record for ${SQ}perf-1.data.tmp[0-9]*${SQ} still ran 2 s after the stop signal: killed (SIGKILL)\$" err &&
	test_grep "^note: interrupted by a signal: partial results\$" out &&
	groups_gone &&
	rm -f perf-1.* &&
	canary_check && workdir_empty
'
kill_fakes

test_done
