#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='--percentiles: ab'"'"'s table per op and in total, from the histograms'
. "$srcdir/tests/e2e/lib.sh"

SQ="'"

# The lines of ab's table in FILE, header included.
ptable() {
	sed -n '/^Percentage of the ops served within a certain time$/,/(longest op)$/p' "$1"
}

# A latency as the report prints it (850ns, 1.20us, 3.0ms) in ns.
to_ns() {
	awk '{
		v = $1
		if (v ~ /ns$/) { sub(/ns$/, "", v); m = 1 }
		else if (v ~ /us$/) { sub(/us$/, "", v); m = 1e3 }
		else if (v ~ /ms$/) { sub(/ms$/, "", v); m = 1e6 }
		else { sub(/s$/, "", v); m = 1e9 }
		printf "%.0f\n", v * m
	}'
}

test_expect_success 'setup' '
	printf "%s\n" "stat a" "statfs ." "stat b" >t.load &&
	canary_setup
'

test_expect_success 'a row per percentage, a column per op and one for all' '
	# --units ns: each column picks its own unit otherwise, and test 3
	# compares the op table'"'"'s max with the 100% row as printed
	vfsbench -q -e null --loops 200 -c t.load -D "$TRASH/work" \
		--units ns --percentiles 50,66,75,80,90,95,98,99,100 2 >out &&
	canary_check &&
	workdir_empty &&
	ptable out >table &&
	test "$(wc -l <table)" -eq 11 &&
	sed -n 2p table >head &&
	echo "           stat    statfs       all" >expect &&
	test_cmp expect head &&
	awk "NR > 2 { print \$1 }" table >pcts &&
	printf "%s\n" 50% 66% 75% 80% 90% 95% 98% 99% 100% >expect &&
	test_cmp expect pcts &&
	test "$(awk "NR > 2 && NF != 4 && !/longest op/" table | wc -l)" -eq 0 &&
	tail -n 1 table | grep " (longest op)\$"
'

# Each column rises with the percentage, and 100% is the op table's max.
test_expect_success 'percentiles ascend; 100% is the maximum' '
	for col in 2 3 4; do
		awk -v c=$col "NR > 2 { print \$c }" table | to_ns >v &&
		sort -n v >sorted &&
		test_cmp v sorted || return 1
	done &&
	awk "\$1 == \"stat\" && NF == 9 { print \$8 }" out >max &&
	tail -n 1 table | awk "{ print \$2 }" >p100 &&
	test_cmp max p100 &&
	awk "\$1 == \"statfs\" && NF == 9 { print \$8 }" out >max &&
	tail -n 1 table | awk "{ print \$3 }" >p100 &&
	test_cmp max p100
'

test_expect_success 'one table per run; none without the option' '
	vfsbench -q -e null --loops 10 -c t.load -D "$TRASH/work" --runs 2 \
		--percentiles 50 1 2 >out &&
	test "$(grep -c "^Percentage of the ops served within a certain time\$" out)" -eq 4 &&
	vfsbench -q -e null --loops 10 -c t.load -D "$TRASH/work" 1 >out &&
	! grep "^Percentage" out &&
	canary_check &&
	workdir_empty
'

test_expect_success 'bad --percentiles: usage errors, exit 2' '
	for v in 0 101 50,,90 abc 50, -5 \
		1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33; do
		test_expect_code 2 vfsbench -q -e null --loops 1 -c t.load \
			-D "$TRASH/work" --percentiles "$v" 1 >out 2>err &&
		test ! -s out &&
		test "$(head -n 1 err)" = "vfsbench: bad --percentiles $SQ$v$SQ: expected up to 32 percentages above 0 and up to 100, comma-separated, such as 50,66,75,80,90,95,98,99,100" ||
		return 1
	done &&
	canary_check &&
	workdir_empty
'

test_done
