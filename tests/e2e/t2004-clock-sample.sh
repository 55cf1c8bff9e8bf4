#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='--clock: the TSC where usable, refused where not, recorded; --latency-sample: exact counts, a sample of latencies'
. "$srcdir/tests/e2e/lib.sh"

SQ="'"
CS=/sys/devices/system/clocksource/clocksource0/current_clocksource

# Is the TSC usable here, by the same rules, read apart from vfsbench:
# the kernel's flags for CPUID 0x80000007 EDX bit 8 (constant_tsc and
# nonstop_tsc, both set from it) and the clocksource: tsc, or kvm-clock
# with the TSC flagged tsc_reliable too.
invariant=
if grep -qw constant_tsc /proc/cpuinfo && grep -qw nonstop_tsc /proc/cpuinfo; then
	invariant=t
fi
tsc_here=
case $invariant,$(cat "$CS" 2>/dev/null) in
t,tsc) tsc_here=t ;;
t,kvm-clock) grep -qw tsc_reliable /proc/cpuinfo && tsc_here=t ;;
esac

# fake_clock SOURCE FLAGS CMD ARGS...: CMD with a clocksource file that
# says SOURCE and a /proc/cpuinfo whose one flags line is FLAGS, over the
# real ones, in a mount namespace of the command's own.
fake_clock() {
	printf '%s\n' "$1" >"$TRASH/fake-cs" &&
	printf 'processor\t: 0\nflags\t\t: %s\n' "$2" >"$TRASH/fake-cpuinfo" &&
	shift 2 &&
	unshare -m sh -c 'mount --bind "$1" "$2" && mount --bind "$3" /proc/cpuinfo &&
		shift 3 && exec "$@"' sh "$TRASH/fake-cs" "$CS" "$TRASH/fake-cpuinfo" "$@"
}
ALL_FLAGS="fpu tsc constant_tsc nonstop_tsc tsc_known_freq tsc_reliable"
can_fake=
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null 2>&1 &&
	fake_clock hpet "$ALL_FLAGS" sh -c "test \"\$(cat $CS)\" = hpet && grep -q \"^flags.*: $ALL_FLAGS\$\" /proc/cpuinfo" 2>/dev/null; then
	can_fake=t
fi

test_expect_success 'setup' '
	canary_setup &&
	printf "[run]\nstat a\nstat b\nstat c\nopen f rdonly @1\nclose @1\n" >five.load
'

test_expect_success '--clock monotonic: recorded, with the reason' '
	vfsbench -q -e null --loops 10 -D work -c five.load --clock monotonic \
		--json m.json 1 >out &&
	json_flat m.json >m.flat &&
	test "$(jget m.flat options.clock)" = monotonic &&
	test "$(jget m.flat environment.clock.source)" = monotonic &&
	test "$(jget m.flat environment.clock.why_not_tsc)" = "--clock monotonic" &&
	! jget m.flat environment.clock.tsc_hz &&
	test "$(op_count out stat)" = 30 &&
	canary_check && workdir_empty
'

test_expect_success '--clock auto: the TSC exactly where it is usable' '
	vfsbench -q -e null --loops 10 -D work -c five.load --json a.json 1 >out &&
	json_flat a.json >a.flat &&
	test "$(jget a.flat options.clock)" = auto &&
	if test -n "$tsc_here"; then
		test "$(jget a.flat environment.clock.source)" = tsc &&
		test "$(jget a.flat environment.clock.why_not_tsc)" = null &&
		test "$(jget a.flat environment.clock.shift)" = 32 &&
		# the calibration slept 20 ms; its rate and mult agree
		awk -v ns="$(jget a.flat environment.clock.calibration_ns)" \
		    -v t="$(jget a.flat environment.clock.calibration_ticks)" \
		    -v hz="$(jget a.flat environment.clock.tsc_hz)" \
		    -v m="$(jget a.flat environment.clock.mult)" "BEGIN {
			r = t * 1e9 / ns; d = m - ns * 4294967296 / t
			exit !(ns >= 20000000 && r > 1e8 && (hz - r) / r < 1e-9 &&
			       (r - hz) / r < 1e-9 && d < 2 && d > -2) }"
	else
		test "$(jget a.flat environment.clock.source)" = monotonic &&
		test "$(jget a.flat environment.clock.why_not_tsc)" != null
	fi &&
	test "$(op_count out stat)" = 30 &&
	canary_check && workdir_empty
'

test_expect_success '--clock tsc: used where usable, refused where not' '
	if test -n "$tsc_here"; then
		vfsbench -q -e null --loops 10 -D work -c five.load --clock tsc \
			--json t.json 1 >out &&
		json_flat t.json >t.flat &&
		test "$(jget t.flat environment.clock.source)" = tsc &&
		test "$(op_count out open)" = 10
	else
		test_expect_code 2 vfsbench -q -e null --loops 10 -D work \
			-c five.load --clock tsc 1 >out 2>err &&
		test_grep "^error: --clock tsc: " err && test ! -s out
	fi &&
	canary_check && workdir_empty
'

if test -n "$can_fake"; then
	test_expect_success 'a clocksource other than tsc or kvm-clock: --clock tsc is refused, nothing created' '
		test_expect_code 2 fake_clock hpet "$ALL_FLAGS" "$VFSBENCH" -q -e null \
			--loops 1 -D work -c five.load --clock tsc 1 >out 2>err &&
		printf "%s\n" "error: --clock tsc: the kernel${SQ}s clocksource is hpet, not tsc or kvm-clock ($CS)" >expect &&
		test_cmp expect err &&
		test ! -s out &&
		canary_check && workdir_empty
	'
	test_expect_success 'a clocksource other than tsc or kvm-clock: --clock auto falls back, and says why' '
		fake_clock hpet "$ALL_FLAGS" "$VFSBENCH" -q -e null --loops 10 \
			-D work -c five.load --json f.json 1 >out &&
		json_flat f.json >f.flat &&
		test "$(jget f.flat environment.clock.source)" = monotonic &&
		test "$(jget f.flat environment.clock.why_not_tsc)" = "the kernel${SQ}s clocksource is hpet, not tsc or kvm-clock ($CS)" &&
		test "$(op_count out stat)" = 30 &&
		canary_check && workdir_empty
	'
	test_expect_success 'kvm-clock without tsc_reliable: --clock tsc is refused, auto falls back' '
		test_expect_code 2 fake_clock kvm-clock "fpu tsc constant_tsc nonstop_tsc" \
			"$VFSBENCH" -q -e null --loops 1 -D work -c five.load \
			--clock tsc 1 >out 2>err &&
		printf "%s\n" "error: --clock tsc: the kernel${SQ}s clocksource is kvm-clock and the CPU does not flag its TSC tsc_reliable (/proc/cpuinfo)" >expect &&
		test_cmp expect err &&
		test ! -s out &&
		fake_clock kvm-clock "fpu tsc nonstop_tsc tsc_reliable" "$VFSBENCH" \
			-q -e null --loops 10 -D work -c five.load --json k.json 1 >out &&
		json_flat k.json >k.flat &&
		test "$(jget k.flat environment.clock.source)" = monotonic &&
		test "$(jget k.flat environment.clock.why_not_tsc)" = "the kernel${SQ}s clocksource is kvm-clock and the CPU does not flag its TSC constant_tsc (/proc/cpuinfo)" &&
		test "$(op_count out stat)" = 30 &&
		canary_check && workdir_empty
	'
	if test -n "$invariant"; then
		test_expect_success 'kvm-clock with constant_tsc, nonstop_tsc and tsc_reliable: the TSC' '
			fake_clock kvm-clock "$ALL_FLAGS" "$VFSBENCH" -q -e null \
				--loops 10 -D work -c five.load --json v.json 1 >out &&
			json_flat v.json >v.flat &&
			test "$(jget v.flat environment.clock.source)" = tsc &&
			test "$(jget v.flat environment.clock.why_not_tsc)" = null &&
			test "$(op_count out stat)" = 30 &&
			canary_check && workdir_empty
		'
	else
		test_skip 'kvm-clock with the three flags: the TSC' 'the CPU does not flag its TSC invariant'
	fi
else
	test_skip 'a clocksource other than tsc or kvm-clock: --clock tsc is refused' 'needs root and unshare -m'
	test_skip 'a clocksource other than tsc or kvm-clock: --clock auto falls back' 'needs root and unshare -m'
	test_skip 'kvm-clock without tsc_reliable' 'needs root and unshare -m'
	test_skip 'kvm-clock with the three flags: the TSC' 'needs root and unshare -m'
fi

# The end-of-run cross-check: a TSC made 10% fast after its calibration
# (VFSBENCH_TEST_TSC_SKEW_PPM) is 30 ms off after a 0.3 s run, far past
# 1000 ppm + 100 us: the run is refused, exit 3, nothing reported, the
# tree removed. 1 ppm stays within the tolerance.
if test -n "$tsc_here"; then
	test_expect_success 'the TSC and CLOCK_MONOTONIC disagree at the end of a run: exit 3, no result' '
		test_expect_code 3 env VFSBENCH_TEST_TSC_SKEW_PPM=100000 "$VFSBENCH" -e null \
			-t 300ms --warmup 0 -D work -c five.load --clock tsc \
			--json d.json 1 2 >out 2>err &&
		test_grep "^error: the TSC and CLOCK_MONOTONIC disagree by [0-9.]* us over [0-9.]* s since the TSC${SQ}s calibration (+[0-9]* ppm; tolerance 1000 ppm + 100 us): this run${SQ}s times are not trusted; --clock monotonic does not use the TSC$" err &&
		test "$(grep -c "^error: " err)" = 1 &&
		! grep -q "^Total: " out &&
		! grep -q "^1 client" out &&
		json_flat d.json >d.flat &&
		! jget d.flat "runs[0].ops" &&
		env VFSBENCH_TEST_TSC_SKEW_PPM=1 "$VFSBENCH" -q -e null -t 300ms --warmup 0 \
			-D work -c five.load --clock tsc 1 >out &&
		test_grep "^Total: " out &&
		canary_check && workdir_empty
	'
else
	test_skip 'the TSC and CLOCK_MONOTONIC disagree at the end of a run' 'no usable TSC here'
fi

# jq-free: the count and timed of OP in run R of a flat JSON.
op_json() { # FLAT RUN OP FIELD
	awk -F '\t' -v r="$2" -v op="$3" -v f="$4" '
		index($1, "runs[" r "].ops_detail[") == 1 {
			k = $1; sub(/^runs\[[0-9]+\]\.ops_detail\[/, "", k)
			i = k; sub(/\].*/, "", i); sub(/^[0-9]+\]\./, "", k)
			v[i, k] = $2; seen[i] = 1
		}
		END { for (i in seen) if (v[i, "op"] == op) print v[i, f] }' "$1"
}

# 2 clients x 100 passes of stat x 3, open, close; one in 7 of each kind
# per client timed, from its first: ceil(300 / 7) = 43 stats and
# ceil(100 / 7) = 15 opens and closes per client.
test_expect_success '--latency-sample 7: counts exact, 1 in 7 of each kind timed' '
	vfsbench -q -e null --loops 100 -D work -c five.load --latency-sample 7 \
		--json s.json 2 >out &&
	test "$(op_count out stat)" = 600 &&
	test "$(op_count out open)" = 200 &&
	test "$(op_count out close)" = 200 &&
	test_grep "^Total: .* (200 passes, 0 bytes," out &&
	test_grep "^Latencies sampled: 1 op in 7 of each kind per client timed (146 of 1000 ops); avg, percentiles and max are of those$" out &&
	json_flat s.json >s.flat &&
	test "$(jget s.flat options.latency_sample)" = 7 &&
	test "$(jget s.flat runs[0].ops)" = 1000 &&
	test "$(op_json s.flat 0 stat count)" = 600 &&
	test "$(op_json s.flat 0 stat timed)" = 86 &&
	test "$(op_json s.flat 0 open count)" = 200 &&
	test "$(op_json s.flat 0 open timed)" = 30 &&
	test "$(op_json s.flat 0 close timed)" = 30 &&
	canary_check && workdir_empty
'

# The warmup passes are not measured: the countdown starts again with
# the measurement, so the counts are those of the measured passes alone.
test_expect_success '--latency-sample after a warmup in passes: the same counts' '
	vfsbench -q -e null --loops 100 --warmup 3p -D work -c five.load \
		--latency-sample 7 --json w.json 2 >out &&
	json_flat w.json >w.flat &&
	test "$(op_json w.flat 0 stat count)" = 600 &&
	test "$(op_json w.flat 0 stat timed)" = 86 &&
	test "$(op_json w.flat 0 open timed)" = 30 &&
	canary_check && workdir_empty
'

test_expect_success '--latency-sample: N above the ops times the first of each kind' '
	vfsbench -q -e null --loops 100 -D work -c five.load --latency-sample 1000 \
		--json b.json --csv b.csv 2 >out &&
	json_flat b.json >b.flat &&
	test "$(op_json b.flat 0 stat count)" = 600 &&
	test "$(op_json b.flat 0 stat timed)" = 2 &&
	test "$(op_json b.flat 0 close timed)" = 2 &&
	test "$(awk -F, "\$5 == \"stat\" { print \$6 }" b.csv)" = 600 &&
	test "$(awk -F, "\$5 == \"all\" { print \$6 }" b.csv)" = 1000 &&
	canary_check && workdir_empty
'

test_expect_success '--latency-sample 1 is every op, and says nothing' '
	vfsbench -q -e null --loops 100 -D work -c five.load --latency-sample 1 \
		--json e.json 2 >out &&
	json_flat e.json >e.flat &&
	test "$(jget e.flat options.latency_sample)" = 1 &&
	test "$(op_json e.flat 0 stat count)" = 600 &&
	test "$(op_json e.flat 0 stat timed)" = 600 &&
	! grep "^Latencies sampled" out &&
	canary_check && workdir_empty
'

test_done
