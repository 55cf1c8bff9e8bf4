#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='--profile: perf stat counters per point of the same windows, or why they are absent'
. "$srcdir/tests/e2e/lib.sh"

if ! command -v jq >/dev/null 2>&1; then
	test_skip_all "jq is not installed"
fi

# A perf that speaks the control protocol. As perf record it creates its
# -o file and acknowledges every command until SIGINT. As perf stat it
# logs the commands it got to $FAKE_STAT_CMDS, then, its control closed,
# prints $FAKE_STAT to its --log-fd, as perf stat -x, does; with
# $FAKE_STAT_FAIL it exits 1 at once. In bash: the fds may pass 9.
test_expect_success 'setup: a fake perf, a loadfile' '
	canary_setup &&
	printf "[run]\nstat .\n" >s.load &&
	mkdir -p fake &&
	cat >fake/perf <<-\EOF &&
	#!/usr/bin/env bash
	test "$1" = script && exit 0
	sub=$1
	while test $# -gt 0; do
		case $1 in
		--control) ctl=${2#fd:}; shift ;;
		--log-fd) log=$2; shift ;;
		-o) out=$2; shift ;;
		esac
		shift
	done
	if test "$sub" = stat; then
		test -n "$FAKE_STAT_FAIL" && exit 1
		trap "" INT
	else
		: >"$out"
	fi
	while eval "read -r cmd <&${ctl%,*}"; do
		test "$sub" = stat && echo "$cmd" >>"$FAKE_STAT_CMDS"
		eval "printf \"ack\\n\" >&${ctl#*,}"
	done
	test "$sub" = stat && eval "printf \"%s\" \"\$FAKE_STAT\" >&$log"
	exit 0
	EOF
	chmod +x fake/perf
'

run_fake() {
	env PATH="$TRASH/fake:$PATH" FAKE_STAT_CMDS="$TRASH/stat.cmds" \
		"$VFSBENCH" -q -c s.load --loops 1 -D "$TRASH/work" "$@"
}

test_expect_success 'counters perf stat counted: in the JSON and the report' '
	rm -f stat.cmds &&
	FAKE_STAT="$(printf "%s\n" "Events disabled" \
		"123456,,cycles,1000,100.00,," \
		"234567,,instructions,1000,100.00,1.90,insn per cycle" \
		"789,,cache-misses,1000,100.00,,")" &&
	export FAKE_STAT &&
	run_fake 1 --profile 1 --json c.json >out 2>err &&
	test_grep "^    counters: cycles 123456, instructions 234567, cache-misses 789\$" out &&
	test "$(jq -c ".profiles[0].counters" c.json)" = \
		"[{\"event\":\"cycles\",\"value\":123456,\"absent\":null},{\"event\":\"instructions\",\"value\":234567,\"absent\":null},{\"event\":\"cache-misses\",\"value\":789,\"absent\":null}]" &&
	test "$(jq -r ".profiles[0].counters_absent" c.json)" = null &&
	# the same windows as perf record: off at start, on and off around
	# the measurement of the one run
	test "$(tr "\n" " " <stat.cmds)" = "disable enable disable " &&
	rm perf-1.data perf-1.folded &&
	canary_check && workdir_empty
'

test_expect_success 'counters the PMU does not have: absent, with the reason perf gave' '
	FAKE_STAT="$(printf "%s\n" \
		"<not supported>,,cycles,0,100.00,," \
		"<not counted>,,instructions,0,100.00,,")" &&
	export FAKE_STAT &&
	run_fake 1 2 --profile all --json n.json >out 2>err &&
	test_grep "^    counters: cycles not supported, instructions not counted, cache-misses perf stat printed no line for it\$" out &&
	test "$(grep -c "^    counters: " out)" -eq 2 &&
	for c in 1 2; do
		p=".profiles[] | select(.clients == $c) | .counters" &&
		test "$(jq -r "$p | map(.absent) | @csv" n.json)" = \
			"\"not supported\",\"not counted\",\"perf stat printed no line for it\"" &&
		test "$(jq -r "$p | map(.value) | unique | @csv" n.json)" = "" ||
		return 1
	done &&
	rm perf-1.data perf-2.data perf-1.folded perf-2.folded &&
	canary_check && workdir_empty
'

test_expect_success 'a perf stat that cannot run: the profile goes on, the reason recorded' '
	FAKE_STAT_FAIL=1 run_fake 1 --profile 1 --json f.json >out 2>err &&
	test_grep "^  1 client: perf-1.data, perf-1.folded\$" out &&
	test_grep "^    counters: none (perf stat exited with status 1 before it was attached)\$" out &&
	test "$(jq -c ".profiles[0].counters" f.json)" = "[]" &&
	test "$(jq -r ".profiles[0].counters_absent" f.json)" = \
		"perf stat exited with status 1 before it was attached" &&
	rm perf-1.data perf-1.folded &&
	canary_check && workdir_empty
'

# The real perf: on a machine with a PMU the counters are numbers, on one
# without (this VM) each is absent with perf's "not supported". Either
# way every counter has exactly one of the two.
if ! command -v perf >/dev/null 2>&1; then
	test_skip 'counters with the real perf' 'perf is not installed (linux-perf)'
elif ! perf stat -x, -e cycles true >"$TRASH/probe.out" 2>&1; then
	test_skip 'counters with the real perf' "perf stat cannot run here: $(tr '\n' ' ' <"$TRASH/probe.out")"
else
	test_expect_success 'counters with the real perf: a value or the reason, each' '
		vfsbench -q -c s.load -t 200ms -D "$TRASH/work" 1 \
			--profile 1 --profile-event cpu-clock --json r.json \
			>out 2>err &&
		test "$(jq -r ".profiles[0].counters_absent" r.json)" = null &&
		test "$(jq -r "[.profiles[0].counters[].event] | @csv" r.json)" = \
			"\"cycles\",\"instructions\",\"cache-misses\"" &&
		test "$(jq -r "[.profiles[0].counters[] |
			select((.value == null) == (.absent == null))] | length" r.json)" = 0 &&
		if grep -q "<not supported>,,cycles" "$TRASH/probe.out"; then
			test "$(jq -r ".profiles[0].counters[0].absent" r.json)" = "not supported" &&
			test_grep "^    counters: cycles not supported, " out
		fi &&
		rm perf-1.data perf-1.folded &&
		canary_check && workdir_empty
	'
fi

test_done
