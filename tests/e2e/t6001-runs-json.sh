#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='--runs, --order, --seed, --cv-warn; --json, --csv, --ministat'
. "$srcdir/tests/e2e/lib.sh"

# The loadfile of most tests: 5 ops and 4096 bytes a pass.
LOOPS=4

# A single quote, for messages inside single-quoted test bodies.
SQ="'"

# The client count of each run of a report, in order, one a line.
run_order() {
	sed -n 's/^\([0-9][0-9]*\) clients\{0,1\}: [0-9][0-9]* ops in .*/\1/p' "$1"
}

# The ops of each run of a report ("N clients: X ops"), one a line.
run_ops() {
	sed -n 's/^[0-9][0-9]* clients\{0,1\}: \([0-9][0-9]*\) ops in .*/\1/p' "$1"
}

# Every run of a report made with t.load and --loops LOOPS has exact
# counts: each op c x LOOPS times, 5 c LOOPS ops, c LOOPS passes and
# c LOOPS 4096 bytes. Prints how many runs it checked; fails on a
# mismatch (shown on stderr).
check_run_counts() {
	awk -v loops="$2" '
		function bad(msg) { print "run " nrun ": " msg >"/dev/stderr"; err = 1 }
		$2 ~ /^clients?:$/ && $4 == "ops" {
			nrun++
			c = $1
			if ($3 != 5 * c * loops)
				bad($3 " ops, want " 5 * c * loops)
			next
		}
		$1 ~ /^(stat|open|pread|close|statfs)$/ && NF == 9 {
			seen[nrun, $1] = 1
			if ($2 != c * loops)
				bad($1 " count " $2 ", want " c * loops)
			if ($NF != 0)
				bad($1 " unexpected " $NF)
		}
		$1 == "Total:" {
			want = "(" c * loops " passes, " c * loops * 4096 " bytes,"
			if (index($0, want) == 0)
				bad("total: " $0 ", want " want)
		}
		END {
			for (r = 1; r <= nrun; r++) {
				split("stat open pread close statfs", ops, " ")
				for (i = 1; i <= 5; i++)
					if (!((r, ops[i]) in seen))
						bad("no row for " ops[i])
			}
			print nrun
			exit err
		}' "$1"
}

# The rows of the sweep table as "clients runs".
sweep_runs() {
	sed -n -e '/^Sweep:/,$p' "$1" |
	awk '$1 ~ /^[0-9]+$/ && (NF == 8 || (NF == 9 && $9 == "!")) { print $1, $6 }'
}

# jall FLAT REGEX: the values of every path matching REGEX, in order.
jall() {
	awk -F '\t' -v re="$2" '$1 ~ re { print $2 }' "$1"
}

# The values of FIELD of every run, in order.
jruns() {
	jall "$1" "^runs\\[[0-9]+\\]\\.$2\$"
}

# The index of the point (in points[]) of N clients.
jpoint() {
	awk -F '\t' -v n="$2" '
		$1 ~ /^points\[[0-9]+\]\.clients$/ && $2 == n {
			p = $1; sub(/^points\[/, "", p); sub(/\].*/, "", p); print p; f = 1
		}
		END { exit !f }' "$1"
}

# near A B: A and B agree to a relative 1e-6 (ministat prints 8 digits,
# --ministat files hold 6 decimals).
near() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		d = a - b; if (d < 0) d = -d
		m = a < 0 ? -a : a
		if (d <= 1e-6 * m + 1e-6) exit 0
		print "not near: " a " and " b >"/dev/stderr"; exit 1
	}'
}

test_expect_success 'setup: loadfile' '
	cat >t.load <<-\EOF
	# 5 ops, 4096 bytes a pass
	[run]
	stat     a
	open     f  rdwr  @1
	pread    @1  0  4k
	close    @1
	statfs   .
	EOF
'

# --- execution order and counts ------------------------------------------

test_expect_success '--order sequential: 1 1 1 2 2 2, exact counts in every run' '
	canary_setup &&
	vfsbench -q -e null --loops $LOOPS --runs 3 --order sequential \
		-c t.load -D "$TRASH/work" 1 2 >seq.out &&
	run_order seq.out >order &&
	printf "%s\n" 1 1 1 2 2 2 >expect &&
	test_cmp expect order &&
	test "$(check_run_counts seq.out $LOOPS)" = 6 &&
	canary_check &&
	workdir_empty
'

test_expect_success '--order interleaved: 1 2 1 2 1 2, exact counts' '
	canary_setup &&
	vfsbench -q -e null --loops $LOOPS --runs 3 --order interleaved \
		-c t.load -D "$TRASH/work" 1 2 >out &&
	run_order out >order &&
	printf "%s\n" 1 2 1 2 1 2 >expect &&
	test_cmp expect order &&
	test "$(check_run_counts out $LOOPS)" = 6 &&
	canary_check &&
	workdir_empty
'

test_expect_success 'the default order is interleaved, in command-line order' '
	canary_setup &&
	vfsbench -q -e null --loops $LOOPS --runs 2 -c t.load \
		-D "$TRASH/work" 4 1 2 >out &&
	run_order out >order &&
	printf "%s\n" 4 1 2 4 1 2 >expect &&
	test_cmp expect order &&
	test "$(check_run_counts out $LOOPS)" = 6 &&
	canary_check &&
	workdir_empty
'

test_expect_success '--order random --seed 7: a permutation, the same twice' '
	canary_setup &&
	vfsbench -q -e null --loops $LOOPS --runs 3 --order random --seed 7 \
		-c t.load -D "$TRASH/work" 1 2 >out1 &&
	vfsbench -q -e null --loops $LOOPS --runs 3 --order random --seed 7 \
		-c t.load -D "$TRASH/work" 1 2 >out2 &&
	run_order out1 >order1 &&
	run_order out2 >order2 &&
	test_cmp order1 order2 &&
	sort -n order1 >sorted &&
	printf "%s\n" 1 1 1 2 2 2 >expect &&
	test_cmp expect sorted &&
	test "$(check_run_counts out1 $LOOPS)" = 6 &&
	canary_check &&
	workdir_empty
'

test_expect_success '--order random without --seed: the printed seed replays it' '
	canary_setup &&
	vfsbench -q -e null --loops 1 --runs 2 --order random -c t.load \
		-D "$TRASH/work" 1 2 3 >out1 &&
	seed=$(sed -n "s/^runs 2 per client count, order random, seed \([0-9][0-9]*\)\$/\1/p" out1) &&
	test -n "$seed" &&
	vfsbench -q -e null --loops 1 --runs 2 --order random --seed "$seed" \
		-c t.load -D "$TRASH/work" 1 2 3 >out2 &&
	run_order out1 >order1 &&
	run_order out2 >order2 &&
	test_cmp order1 order2 &&
	test "$(wc -l <order1)" -eq 6 &&
	canary_check &&
	workdir_empty
'

test_expect_success 'the header line names --runs and the order (and the seed)' '
	canary_setup &&
	for o in sequential interleaved random; do
		vfsbench -q -e null --loops 1 --runs 2 --order $o --seed 99 \
			-c t.load -D "$TRASH/work" 1 >out &&
		sed -n "/^runs /p" out >got &&
		case $o in
		random) echo "runs 2 per client count, order random, seed 99" ;;
		*) echo "runs 2 per client count, order $o" ;;
		esac >expect &&
		test_cmp expect got || return 1
	done &&
	vfsbench -q -e null --loops 1 --runs 2 -c t.load -D "$TRASH/work" 1 >out &&
	sed -n "/^runs /p" out >got &&
	echo "runs 2 per client count, order interleaved" >expect &&
	test_cmp expect got &&
	vfsbench -q -e null --loops 1 --order random -c t.load \
		-D "$TRASH/work" 1 2 >out &&
	test_grep "^runs 1 per client count, order random, seed [0-9][0-9]*\$" out &&
	vfsbench -q -e null --loops 1 -c t.load -D "$TRASH/work" 1 2 >out &&
	! grep "^runs " out &&
	canary_check &&
	workdir_empty
'

test_expect_success 'the sweep table: median of 3 runs, runs column 3' '
	test_grep "^Sweep: relative to 1 client, by ops/s (median of 3 runs)\$" seq.out &&
	sweep_runs seq.out >rows &&
	printf "%s\n" "1 3" "2 3" >expect &&
	test_cmp expect rows
'

test_expect_success '--runs 2 with one client count: a sweep table of one row' '
	canary_setup &&
	vfsbench -q -e null --loops $LOOPS --runs 2 -c t.load \
		-D "$TRASH/work" 3 >out &&
	run_order out >order &&
	printf "%s\n" 3 3 >expect &&
	test_cmp expect order &&
	test_grep "^Sweep: relative to 3 clients, by ops/s (median of 2 runs)\$" out &&
	sweep_runs out >rows &&
	echo "3 2" >expect &&
	test_cmp expect rows &&
	canary_check &&
	workdir_empty
'

test_expect_success 'bad --runs, --order, --seed, --cv-warn: usage errors, exit 2' '
	canary_setup &&
	for a in "--runs 0" "--runs 10001" "--runs x" "--order chaos" \
		"--seed 9223372036854775808" "--seed -1" "--cv-warn 0" \
		"--cv-warn -5" "--cv-warn 5%"; do
		opt=${a% *} &&
		val=${a#* } &&
		test_expect_code 2 vfsbench -q -e null --loops 1 -c t.load \
			-D "$TRASH/work" "$opt" "$val" 1 >out 2>err &&
		test ! -s out &&
		case $opt in
		--runs) want="bad --runs $SQ$val$SQ: expected 1 to 10000" ;;
		--order) want="bad --order $SQ$val$SQ: expected sequential, interleaved, shuffled or random" ;;
		--seed) want="bad --seed $SQ$val$SQ: expected a number below 2^63" ;;
		--cv-warn) want="bad --cv-warn $SQ$val$SQ: expected a percentage such as 5" ;;
		esac &&
		test "$(head -n 1 err)" = "vfsbench: $want" || return 1
	done &&
	canary_check &&
	workdir_empty
'

# --- --json ----------------------------------------------------------------

test_expect_success 'setup: a sequential sweep with --json, --csv, --ministat' '
	canary_setup &&
	vfsbench -q -e null --loops $LOOPS --runs 3 --order sequential \
		--seed 12345 -c t.load -D "$TRASH/work" --json r.json \
		--csv r.csv --ministat m 1 2 >report &&
	json_flat r.json >r.flat &&
	test -s r.flat &&
	canary_check &&
	workdir_empty
'

test_expect_success 'the JSON parses, and compare reads it back' '
	json_valid r.json &&
	vfsbench compare --test welch r.json r.json >cmp 2>cmperr &&
	test ! -s cmperr &&
	awk "\$1 ~ /^[0-9]+\$/ { print \$1, \$4, \$6, \$8, \$9 }" cmp >rows &&
	printf "%s\n" "1 (3) +0.0% ~ (3)" "2 (3) +0.0% ~ (3)" >expect &&
	test_cmp expect rows &&
	vfsbench compare r.json r.json >cmp 2>cmperr &&
	test ! -s cmperr &&
	awk "\$1 ~ /^[0-9]+\$/ { print \$1, \$4, \$6, \$7, \$8, \$9, \$10 }" cmp >rows &&
	printf "%s\n" "1 (3) +0.0% too few samples (3)" \
		"2 (3) +0.0% too few samples (3)" >expect &&
	test_cmp expect rows
'

test_expect_success 'JSON: schema, version, complete, options' '
	test "$(jget r.flat schema)" = vfsbench-result &&
	test "$(jget r.flat schema_version)" = 2 &&
	test "$(jget r.flat complete)" = true &&
	jget r.flat created | grep "^[0-9]\{4\}-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z\$" &&
	test "$(jget r.flat options.runs)" = 3 &&
	test "$(jget r.flat options.order)" = sequential &&
	test "$(jget r.flat options.seed)" = 12345 &&
	test "$(jget r.flat options.loops)" = $LOOPS &&
	test "$(jget r.flat options.time_ns)" = 0 &&
	test "$(jget r.flat options.engine)" = null &&
	test "$(jget r.flat options.loadfile)" = t.load &&
	test "$(jget r.flat options.directory)" = "$TRASH/work" &&
	jall r.flat "^options\\.clients\\[" >clients &&
	printf "%s\n" 1 2 >expect &&
	test_cmp expect clients &&
	test "$(jget r.flat "options.command[0]")" = "$VFSBENCH" &&
	test "$(jget r.flat "variants[0].label")" = t &&
	test "$(jget r.flat "variants[0].options.loadfile")" = t.load &&
	test "$(jget r.flat "variants[0].loadfile.sha256")" = \
		"$(jget r.flat loadfile.sha256)" &&
	test -z "$(jget r.flat "variants[1].label")" &&
	jruns r.flat variant | sort -u >variants &&
	echo 0 >expect &&
	test_cmp expect variants
'

test_expect_success 'JSON: the loadfile sha256 is sha256sum of the file' '
	sum=$(sha256sum t.load) &&
	sum=${sum%% *} &&
	test "$(jget r.flat loadfile.sha256)" = "$sum" &&
	test "$(jget r.flat loadfile.name)" = t.load &&
	test "$(jget r.flat loadfile.dialect)" = native &&
	test "$(jget r.flat loadfile.ops)" = 5 &&
	test "$(jget r.flat loadfile.setup_ops)" = 0
'

test_expect_success 'JSON: runs in execution order, figures as in the report' '
	jruns r.flat index >got &&
	printf "%s\n" 0 1 2 3 4 5 >expect &&
	test_cmp expect got &&
	jruns r.flat clients >got &&
	run_order report >expect &&
	test_cmp expect got &&
	printf "%s\n" 1 1 1 2 2 2 >expect &&
	test_cmp expect got &&
	jruns r.flat repeat >got &&
	printf "%s\n" 0 1 2 0 1 2 >expect &&
	test_cmp expect got &&
	jruns r.flat end | sort -u >got &&
	echo complete >expect &&
	test_cmp expect got &&
	jruns r.flat ops >got &&
	run_ops report >expect &&
	test_cmp expect got &&
	printf "%s\n" 20 20 20 40 40 40 >expect &&
	test_cmp expect got &&
	jruns r.flat passes >got &&
	printf "%s\n" 4 4 4 8 8 8 >expect &&
	test_cmp expect got &&
	jruns r.flat bytes >got &&
	printf "%s\n" 16384 16384 16384 32768 32768 32768 >expect &&
	test_cmp expect got &&
	jruns r.flat unexpected | sort -u >got &&
	echo 0 >expect &&
	test_cmp expect got
'

test_expect_success 'JSON: per-op counts and per-client samples of each run' '
	jall r.flat "^runs\\[[0-9]+\\]\\.ops_detail\\[[0-9]+\\]\\.op\$" >got &&
	for r in 0 1 2 3 4 5; do
		printf "%s\n" stat open pread close statfs || return 1
	done >expect &&
	test_cmp expect got &&
	jall r.flat "^runs\\[[0-9]+\\]\\.ops_detail\\[[0-9]+\\]\\.count\$" >got &&
	for c in 1 1 1 2 2 2; do
		for op in 1 2 3 4 5; do
			echo $((c * LOOPS)) || return 1
		done
	done >expect &&
	test_cmp expect got &&
	jall r.flat "^runs\\[[0-9]+\\]\\.clients_detail\\[[0-9]+\\]\\.passes\$" >got &&
	for i in 1 2 3 4 5 6 7 8 9; do
		echo $LOOPS || return 1
	done >expect &&
	test_cmp expect got &&
	jall r.flat "^runs\\[[0-9]+\\]\\.clients_detail\\[[0-9]+\\]\\.ops\$" | sort -u >got &&
	echo $((5 * LOOPS)) >expect &&
	test_cmp expect got
'

test_expect_success 'JSON: one point per count, n = 3, its runs, summaries of them' '
	test "$(jpoint r.flat 1)" = 0 &&
	test "$(jpoint r.flat 2)" = 1 &&
	jall r.flat "^points\\[0\\]\\.runs\\[" >got &&
	printf "%s\n" 0 1 2 >expect &&
	test_cmp expect got &&
	jall r.flat "^points\\[1\\]\\.runs\\[" >got &&
	printf "%s\n" 3 4 5 >expect &&
	test_cmp expect got &&
	for p in 0 1; do
		for m in ops_per_sec mb_per_sec p99_ns; do
			test "$(jget r.flat "points[$p].$m.n")" = 3 || return 1
		done
	done &&
	for p in 0 1; do
		jall r.flat "^runs\\[$((3 * p))\\]\\.ops_per_sec\$|^runs\\[$((3 * p + 1))\\]\\.ops_per_sec\$|^runs\\[$((3 * p + 2))\\]\\.ops_per_sec\$" |
		sort -g >v &&
		test "$(wc -l <v)" -eq 3 &&
		mean=$(awk "{ s += \$1 } END { printf \"%.17g\", s / NR }" v) &&
		near "$(jget r.flat "points[$p].ops_per_sec.mean")" "$mean" &&
		near "$(jget r.flat "points[$p].ops_per_sec.median")" "$(sed -n 2p v)" &&
		near "$(jget r.flat "points[$p].ops_per_sec.min")" "$(sed -n 1p v)" &&
		near "$(jget r.flat "points[$p].ops_per_sec.max")" "$(sed -n 3p v)" ||
		return 1
	done
'

# One statistic in every table: the sweep table's ops/s and MB/s are the
# median of the runs (the JSON's runs, sorted here), as the table of
# variants and compare's are, not their mean.
test_expect_success 'the sweep table: ops/s and MB/s are the median of the runs' '
	for c in 1 2; do
		jq -r "[.runs[] | select(.clients == $c) | .ops_per_sec] | sort | .[1]" r.json >med &&
		jq -r "[.runs[] | select(.clients == $c) | .mb_per_sec] | sort | .[1]" r.json >mbmed &&
		awk -v c=$c "/^Clients/ { t = 1; next } t && \$1 == c { print \$2, \$3 }" report >row &&
		printf "%.2f %.2f\n" "$(cat med)" "$(cat mbmed)" >expect &&
		test_cmp expect row || return 1
	done &&
	test_grep "^Sweep: relative to 1 client, by ops/s (median of 3 runs)\$" report
'

test_expect_success 'JSON: environment is this machine' '
	test "$(jget r.flat environment.kernel.sysname)" = "$(uname -s)" &&
	test "$(jget r.flat environment.kernel.release)" = "$(uname -r)" &&
	test "$(jget r.flat environment.kernel.machine)" = "$(uname -m)" &&
	test "$(jget r.flat environment.hostname)" = "$(uname -n)" &&
	test "$(jget r.flat environment.cpus_online)" = "$(getconf _NPROCESSORS_ONLN)" &&
	version=$(sed -n "1s/^vfsbench \([^ ]*\) .*/\1/p" report) &&
	test -n "$version" &&
	test "$(jget r.flat environment.vfsbench_version)" = "$version"
'

if command -v findmnt >/dev/null 2>&1; then
	test_expect_success 'JSON: target fs_type and mount point as findmnt sees -D' '
		test "$(jget r.flat environment.target.fs_type)" = \
			"$(findmnt -n -o FSTYPE -T "$TRASH/work")" &&
		test "$(jget r.flat environment.target.mount_point)" = \
			"$(findmnt -n -o TARGET -T "$TRASH/work")"
	'
else
	test_skip 'JSON: target fs_type and mount point as findmnt sees -D' \
		'findmnt not installed (apt-get install util-linux)'
fi

# --- --csv -----------------------------------------------------------------

test_expect_success '--csv: the header, one row per run and op, an "all" row' '
	echo "run,clients,repeat,end,op,count,op_per_sec,mean_ns,p50_ns,p90_ns,p99_ns,p999_ns,max_ns,unexpected,run_ops_per_sec,run_mb_per_sec,elapsed_ns,variant" >expect &&
	head -n 1 r.csv >got &&
	test_cmp expect got &&
	test "$(wc -l <r.csv)" -eq $((1 + 6 * 6)) &&
	awk -F, "NR > 1 { print \$1, \$2, \$3, \$4, \$5, \$6 }" r.csv >got &&
	for r in 0 1 2 3 4 5; do
		c=$((r < 3 ? 1 : 2)) &&
		for op in stat open pread close statfs; do
			echo "$r $c $((r % 3)) complete $op $((c * LOOPS))" || return 1
		done &&
		echo "$r $c $((r % 3)) complete all $((5 * c * LOOPS))" || return 1
	done >expect &&
	test_cmp expect got &&
	awk -F, "NR > 1 && NF != 18 { exit 1 }" r.csv
'

test_expect_success '--csv: run_ops_per_sec of each "all" row is the run'"'"'s' '
	awk -F, "NR > 1 && \$5 == \"all\" { print \$15 }" r.csv >csv &&
	jruns r.flat ops_per_sec >json &&
	test "$(wc -l <csv)" -eq 6 &&
	paste -d " " csv json | while read -r a b; do
		near "$a" "$b" || exit 1
	done
'

test_expect_success '--csv: a label with a quote and a comma is one RFC 4180 field' '
	mkdir -p q &&
	cp t.load "q/a\"b,c.load" &&
	cp t.load q/plain.load &&
	canary_setup &&
	vfsbench -q -e null --loops 1 -D "$TRASH/work" -c "q/a\"b,c.load" \
		-c q/plain.load --order sequential --csv q.csv 1 >out 2>err &&
	canary_check &&
	test "$(grep -c ",\"a\"\"b,c\"\$" q.csv)" -eq 6 &&
	test "$(grep -c ",\"plain\"\$" q.csv)" -eq 6 &&
	test "$(wc -l <q.csv)" -eq 13
'

# --- --ministat ------------------------------------------------------------

test_expect_success '--ministat: PREFIX-1.txt and PREFIX-2.txt, the runs'"'"' ops/s' '
	ls m-* >files &&
	printf "%s\n" m-1.txt m-2.txt >expect &&
	test_cmp expect files &&
	test "$(wc -l <m-1.txt)" -eq 3 &&
	test "$(wc -l <m-2.txt)" -eq 3 &&
	jruns r.flat ops_per_sec >json &&
	head -n 3 json >want1 &&
	tail -n 3 json >want2 &&
	paste -d " " m-1.txt want1 >pairs1 &&
	paste -d " " m-2.txt want2 >pairs2 &&
	cat pairs1 pairs2 | while read -r a b; do
		near "$a" "$b" || exit 1
	done
'

test_expect_success '--ministat with --relative mbps: the runs'"'"' MB/s' '
	canary_setup &&
	vfsbench -q -e null --loops $LOOPS --runs 3 --relative mbps \
		-c t.load -D "$TRASH/work" --json mb.json --ministat mb 2 >out &&
	json_flat mb.json >mb.flat &&
	test "$(wc -l <mb-2.txt)" -eq 3 &&
	jruns mb.flat mb_per_sec >want &&
	paste -d " " mb-2.txt want | while read -r a b; do
		near "$a" "$b" || exit 1
	done &&
	canary_check &&
	workdir_empty
'

if command -v ministat >/dev/null 2>&1; then
	test_expect_success 'ministat on the --ministat files agrees with the JSON points' '
		ministat -n m-1.txt m-2.txt >ms &&
		awk "NF == 7 && (\$1 == \"x\" || \$1 == \"+\")" ms >rows &&
		test "$(wc -l <rows)" -eq 2 &&
		p=0 &&
		while read -r mark n min max median avg stddev; do
			test "$n" = "$(jget r.flat "points[$p].ops_per_sec.n")" &&
			near "$min" "$(jget r.flat "points[$p].ops_per_sec.min")" &&
			near "$max" "$(jget r.flat "points[$p].ops_per_sec.max")" &&
			near "$median" "$(jget r.flat "points[$p].ops_per_sec.median")" &&
			near "$avg" "$(jget r.flat "points[$p].ops_per_sec.mean")" &&
			near "$stddev" "$(jget r.flat "points[$p].ops_per_sec.stddev")" ||
			return 1
			p=$((p + 1))
		done <rows &&
		test $p -eq 2
	'
else
	test_skip 'ministat on the --ministat files agrees with the JSON points' \
		'ministat not installed (apt-get install ministat)'
fi

# --- --cv-warn -------------------------------------------------------------

# The warning lines expected for the points of FLAT whose CV is above
# LIMIT (a fraction), the threshold shown as T.
cv_warnings() {
	awk -F '\t' -v limit="$2" '
		$1 ~ /^points\[[0-9]+\]\.clients$/ { c = $2 }
		$1 ~ /^points\[[0-9]+\]\.ops_per_sec\.n$/ { n = $2 }
		$1 ~ /^points\[[0-9]+\]\.ops_per_sec\.cv$/ { cv = $2 }
		$1 ~ /^points\[[0-9]+\]\.ops_per_sec\.min$/ { min = $2 }
		$1 ~ /^points\[[0-9]+\]\.ops_per_sec\.max$/ {
			if (n > 1 && cv + 0 > limit + 0)
				printf "warning: %d client%s: coefficient of variation %.1f%% is above T%% (min %.2f, max %.2f): the runs disagree\n",
					c, c == 1 ? "" : "s", cv * 100, min, $2 + 0
		}' "$1"
}

test_expect_success '--cv-warn 0.0001: a warning for each point whose runs differ' '
	canary_setup &&
	vfsbench -q -e null --loops $LOOPS --runs 3 --cv-warn 0.0001 \
		-c t.load -D "$TRASH/work" --json cv.json 1 2 >out &&
	json_flat cv.json >cv.flat &&
	cv_warnings cv.flat 0.000001 >expect &&
	grep "^warning: " out | sed "s/ is above [0-9.]*% / is above T% /" >got &&
	test_cmp expect got &&
	jall cv.flat "^points\\[[0-9]+\\]\\.ops_per_sec\\.(min|max)\$" |
	paste - - | while read -r min max; do
		test "$min" = "$max" ||
		grep "(min $(printf %.2f "$min"), max $(printf %.2f "$max"))" out ||
		exit 1
	done &&
	canary_check &&
	workdir_empty
'

test_expect_success '--cv-warn 1000: never (3 positive values have CV < 174%)' '
	canary_setup &&
	vfsbench -q -e null --loops $LOOPS --runs 3 --cv-warn 1000 \
		-c t.load -D "$TRASH/work" 2 >out &&
	! grep "^warning:" out &&
	canary_check &&
	workdir_empty
'

test_expect_success '--runs 1: no CV warning, however small --cv-warn' '
	canary_setup &&
	vfsbench -q -e null --loops $LOOPS --cv-warn 0.0001 \
		-c t.load -D "$TRASH/work" 1 2 >out &&
	test_grep "^Sweep: relative to 1 client, by ops/s\$" out &&
	! grep "^warning:" out &&
	sweep_runs out >rows &&
	printf "%s\n" "1 1" "2 1" >expect &&
	test_cmp expect rows &&
	canary_check &&
	workdir_empty
'

# --- writing fails ---------------------------------------------------------

test_expect_success '--json in a missing directory: exit 3, an error, no file' '
	canary_setup &&
	test_expect_code 3 vfsbench -q -e null --loops 2 -c t.load \
		-D "$TRASH/work" --json "$TRASH/nodir/r.json" 1 >out 2>err &&
	grep "^error: cannot write $SQ$TRASH/nodir/r\\.json\\.tmp[0-9]*$SQ: No such file or directory\$" err &&
	test "$(wc -l <err)" -eq 1 &&
	test_grep "^1 client: 10 ops in " out &&
	test ! -e "$TRASH/nodir" &&
	canary_check &&
	workdir_empty
'

test_expect_success '--json under a regular file: exit 3, ENOTDIR, no file' '
	canary_setup &&
	echo plain >plain &&
	test_expect_code 3 vfsbench -q -e null --loops 2 -c t.load \
		-D "$TRASH/work" --json plain/r.json 1 >out 2>err &&
	grep "^error: cannot write ${SQ}plain/r\\.json$SQ: Not a directory\$" err &&
	test "$(cat plain)" = plain &&
	canary_check &&
	workdir_empty
'

test_expect_success '--json onto a directory: exit 3, nothing written' '
	canary_setup &&
	mkdir adir &&
	test_expect_code 3 vfsbench -q -e null --loops 2 -c t.load \
		-D "$TRASH/work" --json adir 1 >out 2>err &&
	grep "^error: cannot write ${SQ}adir$SQ: Is a directory\$" err &&
	test -d adir &&
	test "$(find adir -mindepth 1 | wc -l)" -eq 0 &&
	test "$(find . -maxdepth 1 -name "adir.tmp*" | wc -l)" -eq 0 &&
	canary_check &&
	workdir_empty
'

test_expect_success '--csv and --ministat that cannot be written: exit 3' '
	canary_setup &&
	test_expect_code 3 vfsbench -q -e null --loops 2 -c t.load \
		-D "$TRASH/work" --csv nodir/r.csv 1 >out 2>err &&
	grep "^error: cannot write ${SQ}nodir/r\\.csv\\.tmp[0-9]*$SQ: No such file or directory\$" err &&
	test_expect_code 3 vfsbench -q -e null --loops 2 -c t.load \
		-D "$TRASH/work" --ministat nodir/m 1 >out 2>err &&
	grep "^error: cannot write ${SQ}nodir/m-1\\.txt\\.tmp[0-9]*$SQ: No such file or directory\$" err &&
	test ! -e nodir &&
	canary_check &&
	workdir_empty
'

# --- early stops -----------------------------------------------------------

test_expect_success '--strict stops the sweep: JSON complete false, the run kept' '
	canary_setup &&
	test_expect_code 1 vfsbench -q -e null --null-fail stat:EIO --strict \
		--loops 5 --runs 3 -c t.load -D "$TRASH/work" --json s.json \
		1 2 >out &&
	json_flat s.json >s.flat &&
	test "$(jget s.flat complete)" = false &&
	jruns s.flat end >got &&
	echo strict >expect &&
	test_cmp expect got &&
	test "$(jget s.flat "points[0].ops_per_sec.n")" = 0 &&
	test "$(jget s.flat "points[1].ops_per_sec.n")" = 0 &&
	test "$(jget s.flat "points[0].runs")" = "[]" &&
	canary_check &&
	workdir_empty
'

test_expect_success 'no run completed: no sweep table relative to 0 clients' '
	canary_setup &&
	test_expect_code 1 vfsbench -q -e null --null-fail stat:EIO --strict \
		--loops 5 --runs 3 -c t.load -D "$TRASH/work" 1 2 >out &&
	test "$(run_order out)" = 1 &&
	! grep "relative to 0 clients" out &&
	canary_check &&
	workdir_empty
'

test_expect_success 'compare notes a stopped sweep and its left-out run' '
	vfsbench compare r.json s.json >cmp &&
	test_grep "^Note: s: the sweep stopped early\$" cmp &&
	test_grep "^Note: s: 1 run left out: ended early (--strict, --max-errors or a signal)\$" cmp &&
	awk "\$1 == 1 { print \$NF }" cmp >got &&
	echo - >expect &&
	test_cmp expect got
'

test_expect_success '--strict stopping the only run: JSON complete false' '
	canary_setup &&
	test_expect_code 1 vfsbench -q -e null --null-fail stat:EIO --strict \
		--loops 5 -c t.load -D "$TRASH/work" --json one.json 1 >out &&
	json_flat one.json >one.flat &&
	jruns one.flat end >got &&
	echo strict >expect &&
	test_cmp expect got &&
	test "$(jget one.flat complete)" = false &&
	canary_check &&
	workdir_empty
'

test_expect_success 'SIGINT stopping the only run: exit 130, JSON complete false' '
	canary_setup &&
	start_vfsbench -q -e null -t 30s --warmup 0 -c t.load \
		-D "$TRASH/work" --json one-int.json 2 &&
	wait_threads 3 &&
	kill -INT "$pid" &&
	finish 130 &&
	json_flat one-int.json >one-int.flat &&
	jruns one-int.flat end >got &&
	echo signal >expect &&
	test_cmp expect got &&
	test "$(jget one-int.flat complete)" = false &&
	canary_check &&
	workdir_empty
'

test_expect_success 'SIGINT stops a sweep: exit 130, JSON written, complete false' '
	canary_setup &&
	start_vfsbench -q -e null -t 30s --warmup 0 --runs 3 -c t.load \
		-D "$TRASH/work" --json int.json 1 2 &&
	wait_threads 2 &&
	kill -INT "$pid" &&
	finish 130 &&
	json_flat int.json >int.flat &&
	test "$(jget int.flat complete)" = false &&
	jruns int.flat end >got &&
	echo signal >expect &&
	test_cmp expect got &&
	test "$(jget int.flat "points[0].ops_per_sec.n")" = 0 &&
	test "$(find . -maxdepth 1 -name "int.json.tmp*" | wc -l)" -eq 0 &&
	json_valid int.json &&
	canary_check &&
	workdir_empty
'

test_done
