#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='--percentiles: ab'"'"'s Connection Times block (min, mean, sd, median, max) per op and in total'
. "$srcdir/tests/e2e/lib.sh"

# No timing is asserted: every printed figure is compared with the same
# run's JSON, and the Total row's is worked out here from the per-op rows
# alone (min of mins, max of maxes, the count-weighted mean, the pooled
# sd), which checks the exact merge of the sums across op kinds.

# The block in FILE: title, header and rows up to Total:.
ctable() {
	sed -n '/^Connection Times (/,/^Total:/p' "$1"
}

test_expect_success 'setup' '
	printf "%s\n" "stat a" "statfs ." "stat b" >t.load &&
	canary_setup
'

test_expect_success 'a row per op and Total:, five columns, one unit' '
	vfsbench -q -e null --loops 300 -c t.load -D "$TRASH/work" \
		--percentiles 50,100 --json r.json 2 >out &&
	canary_check &&
	workdir_empty &&
	ctable out >block &&
	test "$(wc -l <block)" -eq 5 &&
	sed -n 1p block | grep -E "^Connection Times \((ns|us|ms)\)\$" &&
	sed -n 2p block >head &&
	echo "             min     mean [+/-sd]   median      max" >expect &&
	test_cmp expect head &&
	awk "NR > 2 { print \$1, NF }" block >rows &&
	printf "%s\n" "stat: 6" "statfs: 6" "Total: 6" >expect &&
	test_cmp expect rows &&
	grep -n "^Connection Times\|^Percentage of the ops" out | cut -d: -f2 >order &&
	test "$(sed -n 2p order)" = "Percentage of the ops served within a certain time" &&
	test "$(jq ".runs[0].ops_detail | map(.timed)" -c r.json)" = "[1200,600]"
'

# The printed figures are the JSON ones in the title's unit, to within
# half of the last printed digit.
test_expect_success 'each row is the JSON row in the block unit' '
	unit=$(sed -n "1s/^Connection Times (\(.*\))\$/\1/p" block) &&
	jq -r ".runs[0] | (.ops_detail[] | [.op + \":\", .min_ns, .mean_ns,
		.sd_ns, .p50_ns, .max_ns]), [\"Total:\", .latency.min_ns,
		.latency.mean_ns, .latency.sd_ns, .latency.median_ns,
		.latency.max_ns] | @tsv" r.json >want &&
	awk -v unit="$unit" -F "[ \t]+" "
		BEGIN { per = unit == \"ns\" ? 1 : unit == \"us\" ? 1e3 : 1e6 }
		NR == FNR { for (i = 2; i <= 6; i++) w[\$1, i] = \$i; next }
		FNR > 2 {
			for (i = 2; i <= 6; i++) {
				d = index(\$i, \".\") ? length(\$i) - index(\$i, \".\") : 0
				tol = 0.5 * 10 ^ -d + 1e-9
				diff = \$i - w[\$1, i] / per
				if (diff > tol || -diff > tol) {
					print \"row \" \$1 \" col \" i \": \" \$i \" vs \" w[\$1, i] / per
					bad = 1
				}
			}
			n++
		}
		END { exit bad || n != 3 }" want block
'

test_expect_success 'Total: from the op rows alone (pooled mean and sd)' '
	jq -r ".runs[0] | . as \$r | .ops_detail as \$o | .latency as \$l
		| (\$o | map(.timed) | add) as \$n
		| (\$o | map(.mean_ns * .timed) | add / \$n) as \$m
		| ((\$o | map((.timed - 1) * .sd_ns * .sd_ns
			+ .timed * .mean_ns * .mean_ns) | add)
			- \$n * \$m * \$m) / (\$n - 1) | sqrt as \$sd
		| def near(\$a; \$b): (\$a - \$b | fabs) <= 1e-6 * (\$b | fabs) + 1e-6;
		[\$l.min_ns == (\$o | map(.min_ns) | min),
		 \$l.max_ns == (\$o | map(.max_ns) | max),
		 near(\$l.mean_ns; \$m), near(\$l.sd_ns; \$sd),
		 \$l.median_ns == (\$r.percentiles[] | select(.pct == 50) | .ns),
		 (\$o | all(.sd_ns >= 0 and .sd_ns <= .max_ns - .min_ns))]
		| map(tostring) | join(\" \")" r.json >got &&
	echo "true true true true true true" >expect &&
	test_cmp expect got
'

test_expect_success '--units us names the block unit; none without --percentiles' '
	vfsbench -q -e null --loops 10 -c t.load -D "$TRASH/work" \
		--percentiles 50 --units us 1 >out &&
	test "$(grep "^Connection Times" out)" = "Connection Times (us)" &&
	vfsbench -q -e null --loops 10 -c t.load -D "$TRASH/work" 1 >out &&
	! grep "^Connection Times" out &&
	canary_check &&
	workdir_empty
'

test_done
