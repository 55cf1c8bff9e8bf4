#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='starved cells are marked ! in every table (sweep, suite, variants, compare), the legend counts them, and the JSON holds the count'
. "$srcdir/tests/e2e/lib.sh"

SQ="'"

# How a run is starved for certain: vfsbench pinned to one CPU, and
# before the runs of 2 clients (--exec-before) a busy loop pinned to the
# same CPU at nice -20, which leaves nice 0 clients about 1% of it: the
# clients use far under half the CPU time they could and wait on the run
# queue nearly all the window (result_starved()), however loaded the
# machine is. --exec-after ends the loop. Other cells may be starved too
# on a loaded machine: each is marked exactly when the JSON counts
# starved runs at its point, which is what the tests hold.

CPU=$(taskset -pc $$ 2>/dev/null | sed -n 's/.*: *\([0-9]*\).*/\1/p')

# hog-on.sh PATTERN: the loop, before a run of 2 clients of a variant
# whose label matches PATTERN
cat >hog-on.sh <<EOF
case "\$VFSBENCH_CLIENTS \$VFSBENCH_VARIANT" in
"2 "\$1)
	nice -n -40 taskset -c $CPU sh -c 'while :; do :; done' &
	echo \$! >"$TRASH/hog.pid" ;;
esac
EOF
cat >hog-off.sh <<EOF
if test -f "$TRASH/hog.pid"; then
	kill "\$(cat "$TRASH/hog.pid")" && rm -f "$TRASH/hog.pid"
fi
EOF

# hogged PATTERN ARGS...: vfsbench ARGS on CPU $CPU, the 2-client runs
# of the variants whose label matches PATTERN starved; the loop ended
# whatever happens.
hogged() {
	pattern=$1
	shift
	taskset -c "$CPU" "$VFSBENCH" -e null -D "$TRASH/work" -t 300ms \
		--warmup 0 --exec-before "sh $TRASH/hog-on.sh $SQ$pattern$SQ" \
		--exec-after "sh $TRASH/hog-off.sh" "$@"
	rc=$?
	sh hog-off.sh
	return $rc
}

if test -z "$CPU" || ! command -v taskset >/dev/null 2>&1 ||
	test "$(id -u)" != 0; then
	test_skip_all "needs taskset and root (nice -20)"
fi

test_expect_success 'sweep: the starved row ends in !, the legend counts it, the JSON too' '
	canary_setup &&
	hogged "*" --json r.json 1 2 >out 2>err &&
	canary_check && workdir_empty &&
	test "$(jq "[.runs[] | select(.clients == 2 and .rusage.starved)] | length" r.json)" = 1 &&
	jq -r ".points[] | \"\(.clients) \(.starved_runs)\"" r.json >points &&
	jq -r "[.runs[] | select(.rusage.starved)] | group_by(.clients)[] | \"\(.[0].clients) \(length)\"" r.json >starved &&
	awk "\$2 > 0" points >marked &&
	test_cmp starved marked &&
	grep "^2 1$" points >/dev/null &&
	awk "/^Clients/ { t = 1; next } t && /^ *[0-9]/ { print \$1, (\$NF == \"!\") }" out >rows &&
	awk "{ print \$1, (\$2 > 0) }" points >expect &&
	test_cmp expect rows &&
	sed -n "s/^! starved: //p" out >legend &&
	awk "\$2 > 0 { printf \"%s%s of 1 run at %s client%s\", n++ ? \", \" : \"\", \$2, \$1, \$1 == 1 ? \"\" : \"s\" } END { print \": their clients waited for a CPU, so ops/s is too low and latency too high\" }" points >expect &&
	test_cmp expect legend
'

test_expect_success 'suite: a starved cell is followed by ! in its views, the legend counts the cells' '
	canary_setup &&
	printf "%s\n" "a  statfs.load  private  1  statfs" \
		"b  statfs.load  private  1  statfs too" >two.suite &&
	hogged b suite ./two.suite --json s.json 1 2 >out 2>err &&
	canary_check && workdir_empty &&
	test "$(jq "[.runs[] | select(.variant == 1 and .clients == 2 and .rusage.starved)] | length" s.json)" = 1 &&
	jq -r ".points[] | \"\(.variant) \(.clients) \(.starved_runs > 0)\"" s.json >points &&
	for view in "ops/s" relative efficiency
	do
		awk -v v="$view" "index(\$0, v) == 1 { t = 1; getline; next }
			t && NF == 0 { exit }
			t { for (i = 2; i <= NF; i++) print NR, i - 1, (\$i ~ /!\$/) }" out |
			awk "{ print \$3 }" >marks &&
		awk "{ print (\$3 == \"true\") }" points >expect &&
		test_cmp expect marks || return 1
	done &&
	n=$(grep -c true points) &&
	test_grep "^! starved: $n of 4 cells have starved runs: their clients waited for a CPU, so ops/s is too low and latency too high\$" out
'

test_expect_success 'variants: the table of a run with variants marks the starved cell (N)!' '
	canary_setup &&
	hogged "*shared" -c statfs.load --variant cwd=private,shared \
		--json v.json 1 2 >out 2>err &&
	canary_check && workdir_empty &&
	jq -r ".points[] | \"\(.variant) \(.clients) \(.starved_runs)\"" v.json >points &&
	test "$(jq -r "[.points[] | select(.clients == 2 and .starved_runs == 1)] | length" v.json)" -ge 1 &&
	awk "/^Variants, each against/ { t = 1; next } t && /^Clients/ { h = 1; next }
		t && h && /^ *[0-9]/ { for (i = 2; i <= NF; i++) if (\$i ~ /^\\([0-9]+\\)!?\$/) print \$1, (\$i ~ /!\$/) }
		t && h && /^Marks/ { exit }" out >cells &&
	jq -r "[.points[]] | sort_by(.clients, .variant)[] | \"\(.clients) \(if .starved_runs > 0 then 1 else 0 end)\"" v.json >expect &&
	test_cmp expect cells &&
	test_grep "^! starved: .*: their clients waited for a CPU, so ops/s is too low and latency too high\$" out
'

# The knee's verdict at a starved count: efficiency far below --knee
# (the 2-client run got about 1% of a CPU), but its profile shows the
# wait for a CPU, so no symbol is blamed; the JSON holds the verdict.
perf_ok=
if command -v perf >/dev/null 2>&1 &&
	perf record -q -g -e cpu-clock -o "$TRASH/probe.data" true \
		>/dev/null 2>&1; then
	perf_ok=t
fi
if test -z "$perf_ok"; then
	test_skip 'the knee at a starved count blames no symbol, text and JSON' 'perf record cannot run here'
else
	test_expect_success 'the knee at a starved count blames no symbol, text and JSON' '
		canary_setup &&
		hogged "*" --profile all --profile-event cpu-clock --json k.json \
			1 2 >out 2>err &&
		canary_check && workdir_empty &&
		test "$(jq "[.runs[] | select(.clients == 2 and .rusage.starved)] | length" k.json)" = 1 &&
		grep "^Knee" out >knee &&
		eff=$(jq -r ".knees[0].efficiency" k.json) &&
		printf "Knee (--knee 0.80): 2 clients, efficiency %.2f; runs of 1 or 2 clients were starved (!): their profiles show the wait for a CPU, no symbol is blamed\n" "$eff" >expect &&
		test_cmp expect knee &&
		test "$(jq -c ".knees[0] | [.variant, .threshold, .clients, .from, .starved, .grew, .up_to]" k.json)" = "[0,0.8,2,1,true,null,null]" &&
		rm -f perf-*.data perf-*.folded
	'
fi

test_expect_success 'compare: every starved cell marked, A and too few samples included, the legend counts per side' '
	write_result A.json 1:100:0:0:complete:true 1:101:0:0:complete:true \
		1:99:0:0:complete:true 2:200 2:199 2:201 &&
	write_result B.json 1:150:0:0:complete:true 1:151 \
		2:300:0:0:complete:true 2:301 2:299 &&
	vfsbench compare A.json B.json >out 2>err &&
	test ! -s err &&
	cat >expect <<-\EOF &&
	Metric: ops/s, median of runs, relative to A at 1 client (= 100.00 ops/s)
	Cells: relative value, spread or change vs A at the same count [95% interval], mark, (runs)
	Clients  A                  B
	      1  1.00 +/-1.0% (3)!  1.50 +50.5% too few samples (2)!
	      2  2.00 +/-0.5% (3)   3.00 +50.0% too few samples (3)!
	Marks: Mann-Whitney U test (exact), two-sided; no row tested: * significant, ~ not significant, ? suspect (below)
	Interval: Hodges-Lehmann, distribution-free; +/-: the runsSQ coefficient of variation
	Never marked: a change under 1% (--threshold)
	! starved: 3 of 6 runs of A, 2 of 5 runs of B: their clients waited for a CPU, so ops/s is too low and latency too high
	too few samples: with so few runs the test cannot reach 95% (it needs 4 runs a side, or 3 and 5)
	EOF
	sed "s/runsSQ/runs$SQ/" expect >expect2 &&
	test_cmp expect2 out
'

test_expect_success 'compare: a tested cell of starved runs is marked ! beside its mark; none starved, no ! and no legend line' '
	write_result A.json 1:100 1:101 1:99 1:102 1:98 &&
	write_result B.json 1:150 1:151:0:0:complete:true 1:149 1:152 1:148 &&
	vfsbench compare A.json B.json >out 2>err &&
	awk "\$1 == 1" out >row &&
	echo "      1  1.00 +/-1.6% (5)  1.50 +50.0% [+46.5,+53.5] * (5)!" >expect &&
	test_cmp expect row &&
	test_grep "^! starved: 1 of 5 runs of B: their clients" out &&
	test_grep "^\* B at 1 client: starved: 1 of 5 runs of B: they could account for" out &&
	write_result B.json 1:150 1:151 1:149 1:152 1:148 &&
	vfsbench compare A.json B.json >out 2>err &&
	! grep "!" out
'

test_done
