#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='vfsbench compare: table, Welch marks, like-for-like checks, errors'
. "$srcdir/tests/e2e/lib.sh"

# A single quote, for messages inside single-quoted test bodies.
SQ="'"

SHA_B=bbbbbbbb22222222bbbbbbbb22222222bbbbbbbb22222222bbbbbbbb22222222

# compare_ok ARGS...: compare exits 0 with an empty stderr; stdout in out.
compare_ok() {
	vfsbench compare "$@" >out 2>err &&
	if test -s err; then
		cat err >&2
		return 1
	fi
}

# compare_fails MESSAGE ARGS...: compare exits 2, stdout is empty and
# stderr is exactly MESSAGE (one line per printf argument).
compare_fails() {
	printf '%s\n' "$1" >expect &&
	shift &&
	test_expect_code 2 vfsbench compare "$@" >out 2>err &&
	test_cmp expect err &&
	test ! -s out
}

# The columns of B for each client count: "clients change mark".
marks() {
	awk '$1 ~ /^[0-9]+$/ { print $1, $6, $8 }' "$1"
}

# Five runs at COUNT around VALUE, VALUE-2 to VALUE+2, in an order with
# no trend (Kendall's S = 2 of 10 pairs).
five() {
	for d in 0 -2 2 -1 1; do
		printf "%s:%s " "$1" $(($2 + d))
	done
}

# The legend of the default test, correction and threshold over N tests.
legend() {
	echo "Marks: Mann-Whitney U test (exact), two-sided; Benjamini-Hochberg over $1 (false discovery rate 5%): * significant, ~ not significant, ? suspect (below)"
	echo "Interval: Hodges-Lehmann, distribution-free; +/-: the runs${SQ} coefficient of variation"
	echo "Never marked: a change under 1% (--threshold)"
}

# --- the table -------------------------------------------------------------

test_expect_success 'a clear difference (*) and identical distributions (~)' '
	write_result A.json $(five 1 100) $(five 2 180) &&
	write_result B.json $(five 1 150) $(five 2 180) &&
	compare_ok A.json B.json &&
	cat >expect <<-\EOF &&
	Metric: ops/s, median of runs, relative to A at 1 client (= 100.00 ops/s)
	Cells: relative value, spread or change vs A at the same count [95% interval], mark, (runs)
	Clients  A                 B
	      1  1.00 +/-1.6% (5)  1.50 +50.0% [+46.5,+53.5] * (5)
	      2  1.80 +/-0.9% (5)  1.80  +0.0% [-1.6,+1.7]   ~ (5)
	EOF
	legend "2 tests" >>expect &&
	test_cmp expect out
'

test_expect_success 'the order of the runs in the file does not matter' '
	write_result A2.json 2:179 1:99 2:181 1:101 2:180 1:100 1:98 2:178 \
		1:102 2:182 &&
	write_result B2.json 1:149 2:180 1:150 2:181 1:151 2:179 1:148 \
		2:178 1:152 2:182 &&
	compare_ok A2.json B2.json &&
	marks out >got &&
	printf "%s\n" "1 +50.0% *" "2 +0.0% ~" >expect &&
	test_cmp expect got
'

test_expect_success 'B worse than A: a negative change, still *' '
	write_result A.json $(five 1 100) &&
	write_result W.json $(five 1 50) &&
	compare_ok A.json W.json &&
	marks out >got &&
	echo "1 -50.0% *" >expect &&
	test_cmp expect got &&
	test_grep "^      1  1\\.00 +/-1\\.6% (5)  0\\.50 -50\\.0% \\[-52\\.0,-48\\.0\\] \\* (5)\$" out
'

# 3 runs a side: the smallest two-sided p of Mann-Whitney is 2/20 = 0.1
test_expect_success 'too few samples, a count only B has, a count only A has' '
	write_result A.json 1:100 1:101 1:99 $(five 2 180) 8:400 8:401 8:399 &&
	write_result B.json 1:150 1:152 1:151 $(five 2 180) \
		4:300 4:301 4:299 &&
	compare_ok A.json B.json &&
	cat >expect <<-\EOF &&
	Metric: ops/s, median of runs, relative to A at 1 client (= 100.00 ops/s)
	Cells: relative value, spread or change vs A at the same count [95% interval], mark, (runs)
	Clients  A                 B
	      1  1.00 +/-1.0% (3)  1.51 +51.0%             too few samples (3)
	      2  1.80 +/-0.9% (5)  1.80  +0.0% [-1.6,+1.7] ~               (5)
	      4     -              3.00                                    (3)
	      8  4.00 +/-0.2% (3)     -
	EOF
	legend "1 test" >>expect &&
	cat >>expect <<-\EOF &&
	too few samples: with so few runs the test cannot reach 95% (it needs 4 runs a side, or 3 and 5)
	Note: no change or test where A has no result
	EOF
	test_cmp expect out
'

test_expect_success 'too few samples on A'"'"'s side too: 3 and 4, but not 3 and 5' '
	write_result A.json 1:99 1:101 1:100 &&
	write_result B.json 1:150 1:151 1:149 1:152 &&
	compare_ok A.json B.json &&
	test_grep "^      1  1\\.00 +/-1\\.0% (3)  1\\.50 +50\\.5% too few samples (4)\$" out &&
	test_grep "^too few samples: with so few runs the test cannot reach 95% (it needs 4 runs a side, or 3 and 5)\$" out &&
	write_result B.json $(five 1 150) &&
	compare_ok A.json B.json &&
	marks out >got &&
	echo "1 +50.0% *" >expect &&
	test_cmp expect got
'

test_expect_success 'no 1-client result in A: relative to its smallest count' '
	write_result A.json $(five 2 200) $(five 4 380) &&
	write_result B.json $(five 1 100) $(five 2 200) $(five 4 380) &&
	compare_ok A.json B.json &&
	test_grep "^Metric: ops/s, median of runs, relative to A at 2 clients (= 200\\.00 ops/s; A has no 1-client result)\$" out &&
	awk "\$1 ~ /^[0-9]+\$/ { print \$1, \$2 }" out >got &&
	printf "%s\n" "1 -" "2 1.00" "4 1.90" >expect &&
	test_cmp expect got &&
	test_grep "^      1     -              0\\.50 *(5)\$" out &&
	test_grep "^Note: no change or test where A has no result\$" out
'

# No spread on either side, 4 runs: separated samples, p = 2/70 = 0.029;
# Benjamini-Hochberg over 3 tests (1, 0.029, 0.029): 0.043, still below 5%.
test_expect_success 'relative values to A at 1 client: 100 -> 180 -> 350 is 1.80, 3.50' '
	write_result A.json 1:100 1:100 1:100 1:100 2:180 2:180 2:180 2:180 \
		4:350 4:350 4:350 4:350 &&
	write_result B.json 1:100 1:100 1:100 1:100 2:200 2:200 2:200 2:200 \
		4:400 4:400 4:400 4:400 &&
	compare_ok -p A.json B.json &&
	awk "\$1 ~ /^[0-9]+\$/ { print \$1, \$2, \$5, \$6, \$8, \$9 }" out >got &&
	printf "%s\n" "1 1.00 1.00 +0.0% ~ p=1" "2 1.80 2.00 +11.1% * p=0.029" \
		"4 3.50 4.00 +14.3% * p=0.029" >expect &&
	test_cmp expect got &&
	test_grep "^p: the test${SQ}s p-value, before the Benjamini-Hochberg correction\$" out
'

test_expect_success '--metric mbps: MB/s, not ops/s' '
	write_result A.json 1:100:10 1:100:11 1:100:9 1:100:12 1:100:8 \
		2:100:20 2:100:21 2:100:19 2:100:22 2:100:18 &&
	write_result B.json 1:500:10 1:500:11 1:500:9 1:500:12 1:500:8 \
		2:100:30 2:100:31 2:100:29 2:100:32 2:100:28 &&
	compare_ok -m mbps A.json B.json &&
	test_grep "^Metric: MB/s, median of runs, relative to A at 1 client (= 10\\.00 MB/s)\$" out &&
	awk "\$1 ~ /^[0-9]+\$/ { print \$1, \$2, \$5, \$6, \$8 }" out >got &&
	printf "%s\n" "1 1.00 1.00 +0.0% ~" "2 2.00 3.00 +50.0% *" >expect &&
	test_cmp expect got &&
	compare_ok --metric mbps A.json B.json &&
	test_grep "^Metric: MB/s," out
'

test_expect_success '--metric p99: latency, lower is better' '
	write_result A.json 1:100:0:1000 1:100:0:1010 1:100:0:990 \
		1:100:0:1020 1:100:0:980 &&
	write_result B.json 1:100:0:2000 1:100:0:2010 1:100:0:1990 \
		1:100:0:2020 1:100:0:1980 &&
	compare_ok -m p99 A.json B.json &&
	test_grep "^Metric: p99 latency (lower is better), median of runs, relative to A at 1 client (= 1\\.00us)\$" out &&
	marks out >got &&
	echo "1 +100.0% *" >expect &&
	test_cmp expect got &&
	test_grep "^Never marked: a change under 1% (--threshold), or under 3\\.2% for p99 (the resolution of the latency histograms)\$" out
'

# p99s in neighbouring histogram buckets, no spread: separated samples,
# but +1.7% is within what the buckets alone can make (2/63 = 3.2%)
test_expect_success 'p99: no mark below the histogram'"'"'s resolution' '
	write_result A.json 1:1:0:353 1:1:0:353 1:1:0:353 1:1:0:353 1:1:0:353 &&
	write_result B.json 1:1:0:359 1:1:0:359 1:1:0:359 1:1:0:359 1:1:0:359 &&
	compare_ok -p -m p99 A.json B.json &&
	test_grep "^      1  1\\.00 +/-0\\.0% (5)  1\\.02 +1\\.7% \\[+1\\.7,+1\\.7\\] ~ p=0\\.0079 (5)\$" out &&
	write_result B.json 1:1:0:371 1:1:0:371 1:1:0:371 1:1:0:371 1:1:0:371 &&
	compare_ok -m p99 A.json B.json &&
	marks out >got &&
	echo "1 +5.1% *" >expect &&
	test_cmp expect got
'

test_expect_success '--threshold: no mark below it; +0.0% is never marked' '
	write_result A.json $(five 1 100) &&
	write_result B.json $(five 1 103) &&
	compare_ok A.json B.json &&
	marks out >got &&
	echo "1 +3.0% *" >expect &&
	test_cmp expect got &&
	compare_ok --threshold 5 A.json B.json &&
	marks out >got &&
	echo "1 +3.0% ~" >expect &&
	test_cmp expect got &&
	test_grep "^Never marked: a change under 5% (--threshold)\$" out &&
	compare_ok --threshold 0 A.json A.json &&
	marks out >got &&
	echo "1 +0.0% ~" >expect &&
	test_cmp expect got &&
	for t in -1 abc 5% 1000; do
		test_expect_code 2 vfsbench compare --threshold $t A.json A.json \
			>out 2>err &&
		test_grep "^vfsbench: bad --threshold ${SQ}$t$SQ: expected a percentage from 0 to 1000, such as 1\$" err ||
		return 1
	done
'

# 5 runs a side, one pair in the wrong order: U = 1, p = 4/252 = 0.016
test_expect_success '--confidence 99 turns a borderline * into ~' '
	write_result A.json 1:102 1:100 1:105 1:101 1:103 &&
	write_result B.json 1:107 1:104 1:109 1:106 1:108 &&
	compare_ok -p A.json B.json &&
	marks out >got &&
	echo "1 +4.9% *" >expect &&
	test_cmp expect got &&
	test_grep " \\* p=0\\.016 (5)\$" out &&
	test_grep "(false discovery rate 5%)" out &&
	compare_ok --confidence 99 A.json B.json &&
	marks out >got &&
	echo "1 +4.9% ~" >expect &&
	test_cmp expect got &&
	test_grep "(false discovery rate 1%)" out &&
	test_grep "^Cells: .* \\[99% interval\\]" out &&
	compare_ok --confidence 98 A.json B.json &&
	marks out >got &&
	echo "1 +4.9% *" >expect &&
	test_cmp expect got
'

# p = 0.016, 0.032 and 0.032 (U = 1, 2, 2 of 5 against 5). Holm: 3 x
# 0.016 = 0.048 passes, 2 x 0.032 does not; Benjamini-Hochberg: 0.032 <=
# 3/3 x 5% passes all three; uncorrected, all three.
test_expect_success '--correction: Benjamini-Hochberg, Holm, none' '
	write_result A.json 1:102 1:100 1:105 1:101 1:103 \
		2:102 2:100 2:105 2:101 2:104 4:102 4:100 4:105 4:101 4:104 &&
	write_result B.json 1:107 1:104 1:109 1:106 1:108 \
		2:107 2:103 2:109 2:106 2:108 4:107 4:103 4:109 4:106 4:108 &&
	compare_ok -p A.json B.json &&
	awk "\$1 ~ /^[0-9]+\$/ { print \$1, \$8, \$9 }" out >got &&
	printf "%s\n" "1 * p=0.016" "2 * p=0.032" "4 * p=0.032" >expect &&
	test_cmp expect got &&
	compare_ok --correction holm A.json B.json &&
	awk "\$1 ~ /^[0-9]+\$/ { print \$1, \$8 }" out >got &&
	printf "%s\n" "1 *" "2 ~" "4 ~" >expect &&
	test_cmp expect got &&
	test_grep "^Marks: Mann-Whitney U test (exact), two-sided; Holm over 3 tests (family-wise error 5%): " out &&
	compare_ok --correction none A.json B.json &&
	awk "\$1 ~ /^[0-9]+\$/ { print \$1, \$8 }" out >got &&
	printf "%s\n" "1 *" "2 *" "4 *" >expect &&
	test_cmp expect got &&
	test_grep "^Marks: Mann-Whitney U test (exact), two-sided; no correction (each row at 5%): " out
'

test_expect_success '--test welch: means, the t interval, Welch'"'"'s marks' '
	write_result A.json 1:99 1:100 1:101 &&
	write_result B.json 1:102 1:103 1:104 &&
	compare_ok --test welch A.json B.json &&
	test_grep "^Metric: ops/s, mean of runs, " out &&
	test_grep "^      1  1\\.00 +/-1\\.0% (3)  1\\.03 +3\\.0% \\[+0\\.7,+5\\.3\\] \\* (3)\$" out &&
	test_grep "^Marks: Welch${SQ}s t-test, two-sided; Benjamini-Hochberg over 1 test (false discovery rate 5%): " out &&
	test_grep "^Interval: the difference of the means, Welch${SQ}s t; " out &&
	compare_ok --test welch --confidence 99 A.json B.json &&
	marks out >got &&
	echo "1 +3.0% ~" >expect &&
	test_cmp expect got &&
	compare_ok --test welch --confidence 97.8 A.json B.json &&
	marks out >got &&
	echo "1 +3.0% *" >expect &&
	test_cmp expect got &&
	write_result A.json 1:99 1:101 &&
	compare_ok --test welch A.json B.json &&
	test_grep "^too few samples: under 3 runs on a side, no test\$" out &&
	test_expect_code 2 vfsbench compare --test t A.json B.json >out 2>err &&
	test_grep "^vfsbench: bad --test ${SQ}t$SQ: expected mwu or welch\$" err
'

test_expect_success 'starved runs and idle clients that could explain a rise: ?, with the reason' '
	write_result A.json 1:100 1:101 1:99:0:0:complete:true 1:102 1:98 \
		2:200 2:201 2:199:0:0:complete:false:1 2:202 2:198 &&
	write_result B.json $(five 1 150) $(five 2 300) &&
	compare_ok A.json B.json &&
	awk "\$1 ~ /^[0-9]+\$/ { print \$1, \$8 }" out >got &&
	printf "%s\n" "1 ?" "2 ?" >expect &&
	test_cmp expect got &&
	test_grep "^? B at 1 client: starved: 1 of 5 runs of A\$" out &&
	test_grep "^? B at 2 clients: with idle clients: 1 of 5 runs of A\$" out
'

# Starvation, idle clients and an overrun only pull a run's ops/s down:
# B higher than A while B's runs are the flagged ones, or a change beyond
# the factor the flagged runs could account for (1 / cpu_share, clients
# / measuring clients, window / -t), keeps its '*', with a note saying
# so; a change within it is a '?'.
test_expect_success 'a planted 10x change under starvation is *, a 5% change under the same starvation ?' '
	write_result A.json $(five 2 1000) &&
	write_result B.json 2:100 2:98 2:102:0:0:complete:true:0:0:0.4 2:99 \
		2:101 &&
	compare_ok A.json B.json &&
	marks out >got &&
	echo "2 -90.0% *" >expect &&
	test_cmp expect got &&
	test_grep "^\* B at 2 clients: starved: 1 of 5 runs of B: they could account for a factor of 2.5 at most (A 1, B 2.5), the change is beyond it: the mark stands\$" out &&
	write_result B.json 2:950 2:948 2:952:0:0:complete:true:0:0:0.4 2:949 \
		2:951 &&
	compare_ok A.json B.json &&
	marks out >got &&
	echo "2 -5.0% ?" >expect &&
	test_cmp expect got &&
	test_grep "^? B at 2 clients: starved: 1 of 5 runs of B\$" out &&
	! grep "could account" out &&
	write_result B.json $(five 1 150) 2:3000 2:3001 \
		2:2999:0:0:complete:false:1 2:3002 2:2998 &&
	write_result A.json $(five 1 100) $(five 2 200) &&
	compare_ok A.json B.json &&
	marks out >got &&
	printf "%s\n" "1 +50.0% *" "2 +1400.0% *" >expect &&
	test_cmp expect got &&
	test_grep "^\* B at 2 clients: with idle clients: 1 of 5 runs of B: they could account for a factor of 2 at most (A 1, B 2), the change is beyond it: the mark stands\$" out
'

# runs[].incomplete (overran, rank_late, unmeasured_clients): treated as
# starved runs are, their bound the window over -t.
test_expect_success 'incomplete runs: ?, with the reason, unless beyond their bound' '
	write_result A.json loops=0 time_ns=1000000000 $(five 2 1000) &&
	write_result B.json loops=0 time_ns=1000000000 2:950 2:948 \
		2:952:0:0:complete:false:0:0::overran 2:949 2:951 &&
	compare_ok A.json B.json &&
	marks out >got &&
	echo "2 -5.0% ?" >expect &&
	test_cmp expect got &&
	test_grep "^? B at 2 clients: incomplete: 1 of 5 runs of B\$" out &&
	write_result B.json loops=0 time_ns=1000000000 2:100 2:98 \
		2:102:0:0:complete:false:0:0::overran,rank_late 2:99 2:101 &&
	compare_ok A.json B.json &&
	marks out >got &&
	echo "2 -90.0% *" >expect &&
	test_cmp expect got &&
	test_grep "^\* B at 2 clients: incomplete: 1 of 5 runs of B: they could account for a factor of 2 at most (A 1, B 2), the change is beyond it: the mark stands\$" out
'

# Two variants of one file, run interleaved: starved runs spread over
# both sides alike (2 and 1 of 5, Fisher p = 1) are a note and the mark
# stands; all 5 of one side and none of the other (p = 0.008) are a '?'.
# A trend over run order in such a file is a note, not a '?'.
test_expect_success 'variants of one file: flags spread alike, a note; unequal, ?' '
	write_result V.json variants=2 \
		1:100:0:0:complete:true:0:0 1:150:0:0:complete:false:0:1 \
		1:102:0:0:complete:false:0:0 1:152:0:0:complete:true:0:1 \
		1:98:0:0:complete:true:0:0 1:148:0:0:complete:false:0:1 \
		1:101:0:0:complete:false:0:0 1:151:0:0:complete:false:0:1 \
		1:99:0:0:complete:false:0:0 1:149:0:0:complete:false:0:1 &&
	compare_ok V.json &&
	marks out >got &&
	echo "1 +50.0% *" >expect &&
	test_cmp expect got &&
	test_grep "^Note: v1 at 1 client: starved: 1 of 5 runs of v1, 2 of 5 runs of v0: run interleaved and no more on one side than chance allows (Fisher), the mark stands\$" out &&
	write_result V.json variants=2 \
		1:100:0:0:complete:true:0:0 1:150:0:0:complete:false:0:1 \
		1:102:0:0:complete:true:0:0 1:152:0:0:complete:false:0:1 \
		1:98:0:0:complete:true:0:0 1:148:0:0:complete:false:0:1 \
		1:101:0:0:complete:true:0:0 1:151:0:0:complete:false:0:1 \
		1:99:0:0:complete:true:0:0 1:149:0:0:complete:false:0:1 &&
	compare_ok V.json &&
	marks out >got &&
	echo "1 +50.0% ?" >expect &&
	test_cmp expect got &&
	test_grep "^? v1 at 1 client: starved: 5 of 5 runs of v0\$" out &&
	write_result V.json variants=2 \
		1:100:0:0:complete:false:0:0 1:150:0:0:complete:false:0:1 \
		1:101:0:0:complete:false:0:0 1:151:0:0:complete:false:0:1 \
		1:102:0:0:complete:false:0:0 1:152:0:0:complete:false:0:1 \
		1:103:0:0:complete:false:0:0 1:153:0:0:complete:false:0:1 \
		1:104:0:0:complete:false:0:0 1:154:0:0:complete:false:0:1 \
		1:105:0:0:complete:false:0:0 1:155:0:0:complete:false:0:1 &&
	compare_ok V.json &&
	marks out >got &&
	echo "1 +48.8% *" >expect &&
	test_cmp expect got &&
	test_grep "^Note: v0: the runs trend over their order (Mann-Kendall, p = 0\\.0028)\$" out
'

# A rises over its run order (strata 1 and 2 clients), B does not: the
# seasonal Mann-Kendall test finds A drifting; the files did not run
# interleaved. The drift moved A's runs by a factor of 1 + span at most:
# every within-count slope is 1 op/s a run, 1 / 102.5 of A's median at 1
# client and 1 / 192.5 at 2; the median of the 30 slopes is their mean,
# and 5 steps make a span of 5 x (1/102.5 + 1/192.5) / 2 = 0.0374. B 50%
# above A is beyond that, and keeps its '*'; B 2% above is within, a '?'.
test_expect_success 'drift over run order between files: ?, with the reason, unless beyond its bound' '
	write_result A.json 1:100 2:190 1:101 2:191 1:102 2:192 1:103 2:193 \
		1:104 2:194 1:105 2:195 &&
	write_result B.json 1:150 2:250 1:148 2:252 1:151 2:249 1:149 2:251 \
		1:152 2:248 1:147 2:253 &&
	compare_ok A.json B.json &&
	awk "\$1 ~ /^[0-9]+\$/ { print \$1, \$8 }" out >got &&
	printf "%s\n" "1 *" "2 *" >expect &&
	test_cmp expect got &&
	test_grep "^\* B at 1 client: drift: it could account for a factor of 1\.04 at most (A 1\.04, B 1), the change is beyond it: the mark stands\$" out &&
	test_grep "^\* B at 2 clients: drift: it could account for a factor of 1\.04 at most (A 1\.04, B 1), the change is beyond it: the mark stands\$" out &&
	! grep "^? B: drift" out &&
	test_grep "^Note: A: the runs trend over their order (Mann-Kendall, p = 3\.9e-06)\$" out &&
	write_result B.json 1:105 2:196 1:104 2:197 1:106 2:195 1:104.5 2:196.5 \
		1:105.5 2:195.5 1:104.8 2:196.2 &&
	compare_ok A.json B.json &&
	awk "\$1 ~ /^[0-9]+\$/ { print \$1, \$8 }" out >got &&
	printf "%s\n" "1 ?" "2 ?" >expect &&
	test_cmp expect got &&
	test_grep "^? B: drift: the runs of A (${SQ}A\\.json$SQ) trend over their order (Mann-Kendall, p = 3\\.9e-06), and A and B did not run interleaved\$" out &&
	! grep "could account" out
'

test_expect_success 'runs that did not complete are left out, with notes' '
	write_result A.json $(five 1 100) &&
	write_result B.json complete=false $(five 1 150) 1:10:0:0:signal &&
	compare_ok A.json B.json &&
	marks out >got &&
	echo "1 +50.0% *" >expect &&
	test_cmp expect got &&
	test_grep "^Note: B: the sweep stopped early\$" out &&
	test_grep "^Note: B: 1 run left out: ended early (--strict, --max-errors or a signal)\$" out
'

test_expect_success 'three files: a column each, each against A' '
	write_result A.json $(five 1 100) &&
	write_result B.json $(five 1 150) &&
	write_result C.json $(five 1 100) &&
	compare_ok A.json B.json C.json &&
	test_grep "^Clients  A                 B                                C\$" out &&
	test_grep "^      1  1\\.00 +/-1\\.6% (5)  1\\.50 +50\\.0% \\[+46\\.5,+53\\.5\\] \\* (5)  1\\.00 +0\\.0% \\[-2\\.9,+3\\.0\\] ~ (5)\$" out &&
	test_grep "Benjamini-Hochberg over 2 tests" out
'

# --- several files per side ------------------------------------------------

test_expect_success 'A1 A2 -- B1 B2: the runs of each side pooled' '
	write_result A1.json 1:100 1:101 1:99 &&
	write_result A2.json 1:102 1:98 1:100 &&
	write_result B1.json 1:150 1:151 1:149 &&
	write_result B2.json 1:152 1:148 1:150 &&
	compare_ok A1.json A2.json -- B1.json B2.json &&
	test_grep "^Clients  A1+A2             B1+B2\$" out &&
	test_grep "^      1  1\\.00 +/-1\\.4% (6)  1\\.50 +50\\.0% \\[+47\\.5,+52\\.5\\] \\* (6)\$" out &&
	test_grep "^Note: A1+A2: 2 files, 6 runs pooled\$" out &&
	test_grep "^Note: B1+B2: 2 files, 6 runs pooled\$" out &&
	compare_ok -m ops -- A1.json A2.json -- B1.json -- B2.json &&
	test_grep "^Clients  A1+A2  *B1  *B2\$" out
'

test_expect_success 'sides: an empty one is a usage error, unlike files warned' '
	for args in "A1.json -- -- B1.json" "A1.json --" "-- -- A1.json"; do
		# shellcheck disable=SC2086
		test_expect_code 2 vfsbench compare $args >out 2>err &&
		test_grep "^vfsbench: an empty side: ${SQ}--$SQ separates the files of one side from the next, as in ${SQ}A1\\.json A2\\.json -- B1\\.json B2\\.json$SQ\$" err &&
		test ! -s out || return 1
	done &&
	write_result A3.json engine=posix 1:100 1:101 1:99 &&
	vfsbench compare A1.json A3.json -- B1.json B2.json >out 2>err &&
	test_grep "^warning: NOT LIKE FOR LIKE: ${SQ}A1\\.json$SQ and ${SQ}A3\\.json$SQ differ in: engine null vs posix\$" err
'

# --- like for like ---------------------------------------------------------

# not_alike DIFF KEY=VALUE...: B.json made with the KEYs differs from
# A.json in DIFF: the warning before the table, on stderr, exit 0.
not_alike() {
	want=$1
	shift
	write_result A.json 1:100 1:101 1:99 &&
	write_result B.json "$@" 1:100 1:101 1:99 &&
	vfsbench compare A.json B.json >out 2>err &&
	echo "# WARNING: NOT LIKE FOR LIKE: A and B differ in: $want" >expect &&
	head -n 1 out >got &&
	test_cmp expect got &&
	echo "warning: NOT LIKE FOR LIKE: ${SQ}A.json$SQ and ${SQ}B.json$SQ differ in: $want" >expect &&
	test_cmp expect err &&
	test_grep "^Metric: ops/s" out &&
	test_grep "^      1  1\\.00 +/-1\\.0% (3)  1\\.00 +0\\.0% too few samples (3)\$" out
}

test_expect_success 'like for like: no warning, whatever the seed, runs, clients' '
	write_result A.json 1:100 1:101 1:99 &&
	write_result B.json clients=1,2,4 1:100 1:101 1:99 2:180 &&
	compare_ok A.json B.json &&
	! grep "WARNING" out
'

test_expect_success 'not like for like: another engine' '
	not_alike "engine null vs posix" engine=posix
'

test_expect_success 'not like for like: another --depth' '
	not_alike "depth 0 vs 3" depth=3
'

test_expect_success 'not like for like: the loadfile changed (sha256)' '
	not_alike "loadfile sha256 (${SQ}t.load$SQ changed: aaaaaaaa vs bbbbbbbb)" \
		sha=$SHA_B
'

test_expect_success 'not like for like: another loadfile' '
	not_alike "loadfile sha256 (${SQ}t.load$SQ vs ${SQ}u.load$SQ)" \
		sha=$SHA_B loadfile=u.load
'

test_expect_success 'the same loadfile under another name is like for like' '
	write_result A.json 1:100 1:101 1:99 &&
	write_result B.json loadfile=copy.load 1:100 1:101 1:99 &&
	compare_ok A.json B.json &&
	! grep "WARNING" out
'

test_expect_success 'not like for like: --loops 10 vs 20, and vs a timed run' '
	not_alike "loops 10 vs 20" loops=20 &&
	not_alike "loops 10 vs time 1.00s" loops=0 time_ns=1000000000
'

test_expect_success 'not like for like: several differences on one line' '
	not_alike "loadfile sha256 (${SQ}t.load$SQ changed: aaaaaaaa vs bbbbbbbb), engine null vs posix, depth 0 vs 2" \
		sha=$SHA_B engine=posix depth=2
'

test_expect_success 'three files: only the one unlike A is named' '
	write_result A.json 1:100 1:101 1:99 &&
	write_result B.json 1:100 1:101 1:99 &&
	write_result C.json engine=posix 1:100 1:101 1:99 &&
	vfsbench compare A.json B.json C.json >out 2>err &&
	grep "^# WARNING" out >got &&
	echo "# WARNING: NOT LIKE FOR LIKE: A and C differ in: engine null vs posix" >expect &&
	test_cmp expect got &&
	test "$(wc -l <err)" -eq 1 &&
	test_grep "^warning: NOT LIKE FOR LIKE: ${SQ}A\\.json$SQ and ${SQ}C\\.json$SQ differ in: engine null vs posix\$" err
'

# --- errors ----------------------------------------------------------------

test_expect_success 'setup: a good file' '
	write_result G.json 1:100 1:101 1:99 &&
	compare_ok G.json G.json
'

test_expect_success 'a missing file: exit 2' '
	compare_fails "error: cannot open ${SQ}nope.json$SQ: No such file or directory" \
		G.json nope.json
'

test_expect_success 'not JSON: exit 2, the file, line and column named' '
	echo "hello" >bad.json &&
	test_expect_code 2 vfsbench compare G.json bad.json >out 2>err &&
	test ! -s out &&
	test "$(wc -l <err)" -eq 1 &&
	test_grep "^error: ${SQ}bad\\.json$SQ: line 1, column [0-9]*: not valid JSON: ." err &&
	head -c 200 G.json >cut.json &&
	test_expect_code 2 vfsbench compare G.json cut.json >out 2>err &&
	test_grep "^error: ${SQ}cut\\.json$SQ: line [0-9]*, column [0-9]*: not valid JSON: ." err &&
	: >empty.json &&
	test_expect_code 2 vfsbench compare G.json empty.json >out 2>err &&
	test_grep "^error: ${SQ}empty\\.json$SQ: line [0-9]*, column [0-9]*: not valid JSON: ." err
'

test_expect_success 'JSON but not a result: exit 2' '
	echo "{\"schema\": \"other\"}" >w.json &&
	compare_fails "error: ${SQ}w.json$SQ: not a vfsbench result file (schema ${SQ}other$SQ)" \
		G.json w.json &&
	echo "{}" >e.json &&
	compare_fails "error: ${SQ}e.json$SQ: not a vfsbench result file (no \"schema\" member)" \
		G.json e.json &&
	echo "[1, 2]" >a.json &&
	compare_fails "error: ${SQ}a.json$SQ: not a vfsbench result file (no \"schema\" member)" \
		G.json a.json
'

test_expect_success 'a newer schema_version: exit 2' '
	write_result v3.json version=3 1:100 1:101 1:99 &&
	compare_fails "error: ${SQ}v3.json$SQ: schema_version 3 is newer than this vfsbench reads (2): use a newer vfsbench" \
		G.json v3.json &&
	write_result v2.json version=2 1:100 1:101 1:99 &&
	compare_fails "error: ${SQ}v2.json$SQ: variants: missing" G.json v2.json &&
	write_result v0.json version=0 1:100 1:101 1:99 &&
	compare_fails "error: ${SQ}v0.json$SQ: schema_version: 0 is not a version" \
		G.json v0.json
'

test_expect_success 'a missing field: exit 2, its JSON path named' '
	sed "/\"engine\"/d" G.json >m.json &&
	compare_fails "error: ${SQ}m.json$SQ: options.engine: missing" G.json m.json &&
	sed "/\"sha256\"/d" G.json >m.json &&
	compare_fails "error: ${SQ}m.json$SQ: loadfile.sha256: missing" G.json m.json &&
	sed "/\"complete\"/d; s/\"points\": \[\],/\"points\": []/" G.json >m.json &&
	compare_fails "error: ${SQ}m.json$SQ: complete: missing" G.json m.json &&
	sed "s/, \"p99_ns\": 0,/,/" G.json >m.json &&
	compare_fails "error: ${SQ}m.json$SQ: runs[0].p99_ns: missing" G.json m.json
'

test_expect_success 'a mistyped field: exit 2, its JSON path named' '
	write_result t.json 1:100 1:\"fast\" 1:99 &&
	compare_fails "error: ${SQ}t.json$SQ: runs[1].ops_per_sec: expected a non-negative number" \
		G.json t.json &&
	write_result t.json 1:100 1:101 1:-5 &&
	compare_fails "error: ${SQ}t.json$SQ: runs[2].ops_per_sec: expected a non-negative number" \
		G.json t.json &&
	write_result t.json depth=\"deep\" 1:100 &&
	compare_fails "error: ${SQ}t.json$SQ: options.depth: expected a non-negative integer" \
		G.json t.json
'

test_expect_success 'a run of a count not in options.clients: exit 2' '
	write_result x.json clients=1,2 1:100 3:100 &&
	compare_fails "error: ${SQ}x.json$SQ: runs[1].clients: 3 is not in options.clients" \
		G.json x.json
'

test_expect_success 'every bad file is reported, not just the first' '
	test_expect_code 2 vfsbench compare nope.json bad.json G.json >out 2>err &&
	test ! -s out &&
	test "$(wc -l <err)" -eq 2 &&
	test_grep "^error: cannot open ${SQ}nope\\.json$SQ" err &&
	test_grep "^error: ${SQ}bad\\.json$SQ: " err
'

test_expect_success 'A without a complete run: nothing to compare against' '
	write_result none.json complete=false 1:10:0:0:signal &&
	compare_fails "error: ${SQ}none.json$SQ: no run completed: nothing to compare against" \
		none.json G.json
'

test_expect_success 'an fdscale result is refused' '
	echo "{\"schema\": \"vfsbench-fdscale\", \"schema_version\": 1}" >fd.json &&
	compare_fails "error: ${SQ}fd.json$SQ: an fdscale result (vfsbench-fdscale): compare takes results of runs and sweeps (vfsbench --json)" \
		G.json fd.json
'

test_expect_success 'no file: a usage error; one of one variant: exit 2' '
	printf "%s\n" "vfsbench: compare needs result files: A.json B.json, or one file of several variants (vfsbench --json FILE ...)" \
		"Try ${SQ}vfsbench compare --help$SQ for more information." >expect &&
	test_expect_code 2 vfsbench compare >out 2>err &&
	test_cmp expect err &&
	test ! -s out &&
	compare_fails "error: nothing to compare: ${SQ}G.json$SQ holds one variant; give two result files, or one of several variants (-c given twice, or --variant)" \
		G.json
'

test_expect_success 'bad --metric and --confidence: usage errors, exit 2' '
	test_expect_code 2 vfsbench compare -m iops G.json G.json >out 2>err &&
	test_grep "^vfsbench: bad --metric ${SQ}iops$SQ: expected ops, mbps or p99\$" err &&
	for c in 50 100 0 abc 95%; do
		test_expect_code 2 vfsbench compare --confidence $c G.json G.json \
			>out 2>err &&
		test_grep "^vfsbench: bad --confidence ${SQ}$c$SQ: expected a percentage between 50 and 100, such as 95\$" err &&
		test ! -s out || return 1
	done
'

# --- the round trip ---------------------------------------------------------

test_expect_success 'two real null-engine sweeps: --json, then compare' '
	printf "%s\n" "stat a" "statfs ." >t.load &&
	canary_setup &&
	vfsbench -q -e null --loops 3 --runs 5 -c t.load -D "$TRASH/work" \
		--json old.json 1 2 >/dev/null &&
	vfsbench -q -e null --loops 3 --runs 5 -c t.load -D "$TRASH/work" \
		--json new.json 1 2 >/dev/null &&
	canary_check &&
	workdir_empty &&
	compare_ok old.json new.json &&
	! grep "WARNING" out &&
	test_grep "^Metric: ops/s, median of runs, relative to old at 1 client (= [0-9.]* ops/s)\$" out &&
	test_grep "^Clients  old  *new\$" out &&
	awk "\$1 ~ /^[0-9]+\$/ { print \$1, \$4, \$NF }" out >got &&
	printf "%s\n" "1 (5) (5)" "2 (5) (5)" >expect &&
	test_cmp expect got &&
	awk "\$1 ~ /^[0-9]+\$/ { print \$8 }" out | sort -u | grep -v "^[*~?]\$" >bad ;
	test ! -s bad &&
	awk "\$1 == 1 { print \$2 }" out >base &&
	echo 1.00 >expect &&
	test_cmp expect base
'

# Two loadfiles in one invocation: one JSON holds both; compare of that
# one file prints the table the run printed after its sweep tables.
test_expect_success 'variants in one run: one file, the same table as the run' '
	printf "%s\n" "stat a" >s.load &&
	printf "%s\n" "statfs ." >f.load &&
	canary_setup &&
	vfsbench -q -e null --loops 3 --runs 4 -c s.load -c f.load -c s.load \
		--seed 7 -D "$TRASH/work" --json v.json --ministat ms \
		--csv v.csv 1 2 >run &&
	canary_check &&
	workdir_empty &&
	sed -n "/^Variants, each against s (as vfsbench compare prints them):\$/,\$p" run |
		sed 1d >table &&
	compare_ok v.json &&
	test_cmp table out &&
	test_grep "^Clients  s  *f  *s#3\$" out &&
	! grep "WARNING" out &&
	test_grep "^runs 4 per client count, order shuffled, seed 7\$" run &&
	test "$(grep -c "^Sweep of " run)" -eq 3 &&
	test "$(grep -c "^s#3, 2 clients: " run)" -eq 4 &&
	for f in ms-s-1.txt ms-s-2.txt ms-f-1.txt ms-f-2.txt ms-s#3-1.txt; do
		test "$(wc -l <"$f")" -eq 4 || return 1
	done &&
	awk -F, "NR > 1 { print \$NF }" v.csv | sort | uniq -c |
		awk "{ print \$1, \$2 }" >got &&
	printf "%s\n" "16 \"f\"" "16 \"s\"" "16 \"s#3\"" >expect &&
	test_cmp expect got &&
	vfsbench compare v.json v.json >out 2>err &&
	grep "^Clients" out >actual &&
	printf "%s\n" "Clients  v:s v:s#2" "Clients  v:f v:f#2" \
		"Clients  v:s#3 v:s#3#2" >expect &&
	sed "s/  *\$//; s/\(v:[^ ]*\)  */\1 /g" actual >got &&
	test_cmp expect got
'

test_expect_success '--variant: every value of an option, and the cross product' '
	canary_setup &&
	vfsbench -q -e null --loops 2 --runs 2 -c s.load -c f.load \
		--variant depth=0,2 -D "$TRASH/work" --json x.json 1 >run &&
	canary_check &&
	workdir_empty &&
	compare_ok x.json &&
	test_grep "^Clients  s,depth=0  *s,depth=2  *f,depth=0  *f,depth=2\$" out &&
	test_grep "^    engine null  cwd private  fs_struct private  fd table shared  depth 2  dcache warm  placement none\$" run &&
	test_expect_code 2 vfsbench -e null --loops 1 -c s.load \
		--variant depth=1 1 >out 2>err &&
	test_grep "^vfsbench: bad --variant ${SQ}depth=1$SQ: give two values or more (one value is the option itself: --depth)\$" err &&
	test_expect_code 2 vfsbench -e null --loops 1 --variant loops=1,2 1 \
		>out 2>err &&
	test_grep "^vfsbench: bad --variant ${SQ}loops=1,2$SQ: expected one of engine, cwd, fs-struct, fd-table, depth, prefix, resolve, dialect, fsinfo, placement, dcache, uring-depth, uring-fixed (for loadfiles, give -c several times)\$" err &&
	test_expect_code 2 vfsbench -e null --loops 1 --variant depth=1,x 1 \
		>out 2>err &&
	test_grep "^vfsbench: bad --depth ${SQ}x$SQ: expected 0 to 1000\$" err &&
	test_expect_code 2 vfsbench -e null --loops 1 --variant depth=1,,2 1 \
		>out 2>err &&
	test_grep "^vfsbench: bad --variant ${SQ}depth=1,,2$SQ: expected OPTION=V1,V2,..., such as depth=0,3\$" err &&
	test_expect_code 2 vfsbench -e null --loops 1 -c s.load \
		--variant fsinfo=statfs,statvfs 1 >out 2>err &&
	test_grep "^error: --variant fsinfo: ${SQ}s.load$SQ is a native loadfile: " err &&
	test_expect_code 2 vfsbench -e null --loops 1 --cwd shared \
		--variant cwd=shared,private --fs-struct shared 1 >out 2>err &&
	test_grep "^vfsbench: variant cwd=private: --fs-struct shared needs --cwd shared" err
'

test_done
