#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='vfsbench suite: every workload of every suite with the null engine and --loops, exact counts; the table, the lines, the JSON; bad suites'
. "$srcdir/tests/e2e/lib.sh"
SQ="'"

LOOPS=3

# expected_table LOADFILE CLIENTS LOOPS: "op count" per op kind of [run],
# in order of first use (the suites' loadfiles have no quotes).
expected_table() {
	awk -v m="$(($2 * $3))" '
		{ sub(/#.*/, "") }
		NF == 0 { next }
		$1 == "[setup]" { setup = 1; next }
		$1 == "[run]" { setup = 0; next }
		setup { next }
		!($1 in n) { order[++k] = $1 }
		{ n[$1]++ }
		END { for (i = 1; i <= k; i++) print order[i], n[order[i]] * m }
	' "$1"
}

# run_table REPORT NAME CLIENTS: "op count" of the run headed
# "NAME, CLIENTS client(s):".
run_table() {
	awk -v h="$2, $3 client" '
		index($0, h) == 1 { r = 1; next }
		r && $1 == "Operation" { t = 1; next }
		r && t && /^(Unexpected|Total:)/ { exit }
		r && t && NF >= 9 { print $1, $2 }' "$1"
}

# workloads SUITE: "NAME LOADFILE WORKS" of each line of its index.
workloads() {
	sed 's/#.*//' "$LOADFILES/$1.suite" | awk 'NF { print $1, $2, $4 }'
}

for s in fxmark wis vfs-commits
do
	test_expect_success "suite $s: every workload, 1 and 2 clients, exact op counts" '
		canary_setup &&
		vfsbench suite $s -e null --loops $LOOPS -D "$TRASH/work" \
			--json r.json 1 2 >out 2>err &&
		test ! -s err &&
		test "$(unexpected_total out)" = 0 &&
		n=0 &&
		while read -r name lf works
		do
			for c in 1 2
			do
				expected_table "$LOADFILES/$lf" $c $LOOPS >expect &&
				run_table out "$name" $c >actual &&
				test_cmp expect actual || return 1
			done &&
			n=$((n + 1)) || return 1
		done <<-EOT &&
		$(workloads $s)
		EOT
		test $n -eq "$(workloads $s | wc -l)" &&
		test $n -ge 5 &&
		canary_check &&
		workdir_empty
	'

	test_expect_success "suite $s: one table row per workload, in the order of the index, and the JSON labels its variants so" '
		workloads $s | awk "{ print \$1 }" >expect &&
		awk "/^ops\\/s \\(median/ { t = 1; getline; next } t && (NF == 0 || /^! /) { exit } t { print \$1 }" out >actual &&
		test_cmp expect actual &&
		json_valid r.json &&
		json_flat r.json >flat &&
		i=0 &&
		while read -r name lf works
		do
			test "$(jget flat "variants[$i].label")" = "$name" &&
			i=$((i + 1)) || return 1
		done <<-EOT
		$(workloads $s)
		EOT
	'
done

test_expect_success 'the views: relative, efficiency and linear from the ops/s row' '
	awk "
		/^ops\\/s \\(median/ { v = \"ops\"; getline; next }
		/^relative/ { v = \"rel\"; getline; next }
		/^efficiency/ { v = \"eff\"; getline; next }
		/^linear/ { v = \"lin\"; getline; next }
		NF == 0 { v = \"\" }
		v != \"\" && NF == 3 { x[v, \$1, 1] = \$2; x[v, \$1, 2] = \$3; names[\$1] = 1 }
		END {
			for (n in names) {
				o1 = x[\"ops\", n, 1]; o2 = x[\"ops\", n, 2]
				if (o1 <= 0) { print n, \"no ops\"; bad = 1; continue }
				r = o2 / o1
				if (x[\"rel\", n, 1] != \"1.00\" || sprintf(\"%.2f\", r) - x[\"rel\", n, 2] > 0.011 || x[\"rel\", n, 2] - sprintf(\"%.2f\", r) > 0.011) { print n, \"relative\", x[\"rel\", n, 2], r; bad = 1 }
				if (x[\"eff\", n, 1] != \"1.00\" || (r / 2) - x[\"eff\", n, 2] > 0.011 || x[\"eff\", n, 2] - (r / 2) > 0.011) { print n, \"efficiency\", x[\"eff\", n, 2]; bad = 1 }
				if (x[\"lin\", n, 1] != o1 || x[\"lin\", n, 2] - 2 * o1 > 2 || 2 * o1 - x[\"lin\", n, 2] > 2) { print n, \"linear\", x[\"lin\", n, 2], o1; bad = 1 }
			}
			exit bad
		}" out
'

test_expect_success '--lines=fxmark: the lines of FxMark, works = passes x the works per pass of the index' '
	canary_setup &&
	vfsbench suite fxmark -e null --loops 2 --lines=fxmark -D "$TRASH/work" 1 2 >out 2>err &&
	test ! -s err &&
	while read -r name lf works
	do
		for c in 1 2
		do
			awk -v h="## " -v b="$name" -v c=$c "
				index(\$0, h) == 1 { split(\$0, f, \":\"); m = f[3] == b && f[4] == c && f[5] == \"bufferedio\"; next }
				m && /^# ncpu secs works works\\/sec\$/ { getline; print; m = 0 }" out >line &&
			test "$(wc -l <line)" -eq 1 &&
			set -- $(cat line) &&
			test "$1" = $c &&
			test "$3" = "$(($c * 2 * works)).000000" || return 1
		done || return 1
	done <<-EOT &&
	$(workloads fxmark)
	EOT
	canary_check
'

test_expect_success '--lines=lkp: one fxmark.MEDIA_FS_BENCH_N_IO.works/sec line per workload and count' '
	canary_setup &&
	vfsbench suite fxmark -e null --loops 2 --lines=lkp -D "$TRASH/work" 1 2 >out 2>err &&
	grep "^fxmark\\.[a-z]*_[^_]*_[A-Z]*_[12]_bufferedio\\.works/sec: [0-9.]*\$" out >lines &&
	test "$(wc -l <lines)" -eq 38 &&
	grep -q "^fxmark\\.[a-z]*_[^_]*_DWTL_2_bufferedio" lines &&
	canary_check
'

# The name column is as wide as the longest name, and every figure is
# the median of the runs (the JSON's), in the table and in LKP's lines.
test_expect_success 'the table: the name column fits the longest name; the median of the runs, in the table and the lkp lines' '
	canary_setup &&
	printf "%s\n" "a  statfs.load  private  1  short" \
		"a-much-longer-name  statfs.load  private  2  long" >names.suite &&
	vfsbench suite ./names.suite -e null --loops 50 --runs 3 \
		--lines=lkp -D "$TRASH/work" --json n.json 1 2 >out 2>err &&
	canary_check && workdir_empty &&
	test_grep "^ops/s (median of the runs)\$" out &&
	awk "/^(ops\\/s|relative|efficiency|linear) / { t = 1; next }
		t && NF == 0 { t = 0 } t" out >rows &&
	test "$(wc -l <rows)" = 12 &&
	# 18 columns of name, a blank, 12 of figure and 1 of mark, twice
	awk "{ if (substr(\$0, 31, 1) !~ /[0-9]/ || substr(\$0, 32, 1) !~ /^[ !]?\$/ ||
		substr(\$0, 45, 1) !~ /[0-9]/) { print NR \": \" \$0; bad = 1 } } END { exit bad }" rows &&
	for v in 0 1; do
		name=$(jq -r ".variants[$v].label" n.json) &&
		for c in 1 2; do
			jq -r "[.runs[] | select(.variant == $v and .clients == $c) | .ops_per_sec] | sort | .[1]" n.json >med &&
			awk -v n="$name" -v c=$c "/^ops\\/s/ { t = 1; getline; next } t && NF == 0 { exit }
				t && \$1 == n { print \$(c + 1) }" out | tr -d "!" >cell &&
			printf "%.0f\n" "$(cat med)" >expect &&
			test_cmp expect cell &&
			w=$(sed -n "s/^names\.[a-z]*_[^_]*_${name}_${c}_bufferedio\.works\/sec: //p" out) &&
			jq -r "[.runs[] | select(.variant == $v and .clients == $c) | .passes * ($v + 1) / (.elapsed_ns / 1e9)] | sort | .[1]" n.json >wmed &&
			test "$(printf "%.6f" "$(cat wmed)")" = "$w" || return 1
		done || return 1
	done
'

test_expect_success 'suite --list names each suite and its workloads' '
	vfsbench suite --list >out &&
	test_grep "^fxmark  " out &&
	test_grep "^wis  " out &&
	test_grep "^vfs-commits  " out &&
	test_grep "workloads: MRPL MRPM MRPH" out
'

test_expect_success 'a suite of the user: an index and a loadfile beside it' '
	canary_setup &&
	mkdir -p my &&
	printf "stat a\n" >my/s.load &&
	printf "# mine.suite: two workloads.\nS  s.load  private 1  a stat\nP  mrph.load  shared 1\n" >my/mine.suite &&
	vfsbench suite my/mine.suite -e null --loops 2 -D "$TRASH/work" 1 >out 2>err &&
	test_grep "^suite mine (my/mine.suite): 2 workloads" out &&
	test "$(run_table out S 1)" = "stat 2" &&
	test "$(run_table out P 1 | head -n 1)" = "open 2" &&
	canary_check
'

# An index of the user's may name a workload with any bytes: each is
# shown with its control bytes as \xNN (base/escape.c), in the tables, the
# lines, the labels and the messages, never sent to the terminal raw.
test_expect_success 'a workload name with an ESC byte: shown escaped everywhere' '
	canary_setup &&
	mkdir -p esc &&
	printf "stat a\n" >esc/s.load &&
	printf "x\033[31my  s.load  private 1  a stat\nplain  s.load  shared 1\n" >esc/esc.suite &&
	e="x\\\\x1b\[31my" &&
	for l in plain fxmark lkp; do
		lines= &&
		if test $l != plain; then lines=--lines=$l; fi &&
		vfsbench suite esc/esc.suite $lines -e null --loops 1 \
			-D "$TRASH/work" --json esc.json 1 >out.$l 2>err &&
		! grep -q "$(printf "\033")" out.$l err esc.json || return 1
	done &&
	test_grep "^$e, 1 client: " out.plain &&
	test_grep "^$e  *[0-9]" out.plain &&
	test_grep "^## [^:]*:[^:]*:$e:1:bufferedio\$" out.fxmark &&
	test_grep "^esc\.[^ ]*_${e}_1_bufferedio.works/sec: " out.lkp &&
	printf "x\033y  s.load  private 1\nx\033y  s.load  private 1\n" >esc/dup.suite &&
	test_expect_code 2 vfsbench suite esc/dup.suite -e null --loops 1 \
		-D "$TRASH/work" 1 >out 2>err &&
	echo "esc/dup.suite:2:1: workload ${SQ}x\\x1by${SQ} given twice" >expect &&
	test_cmp expect err &&
	canary_check &&
	workdir_empty
'

test_expect_success 'bad suites: exit 2, a message naming what, nothing created' '
	canary_setup &&
	test_expect_code 2 vfsbench suite nosuch -e null --loops 1 -D "$TRASH/work" 1 >out 2>err &&
	echo "error: no suite '"'"'nosuch'"'"': not an index file and not a suite of vfsbench (see vfsbench suite --list)" >expect &&
	test_cmp expect err &&
	printf "# c\nS  s.load  both 1\n" >bad.suite &&
	test_expect_code 2 vfsbench suite ./bad.suite -e null --loops 1 -D "$TRASH/work" 1 >out 2>err &&
	echo "./bad.suite:2:12: bad cwd '"'"'both'"'"' (expected private or shared)" >expect &&
	test_cmp expect err &&
	test_expect_code 2 vfsbench suite fxmark --lines=csv -e null --loops 1 -D "$TRASH/work" 1 >out 2>err &&
	test_grep "bad --lines '"'"'csv'"'"': expected fxmark or lkp" err &&
	test_expect_code 2 vfsbench suite fxmark -c mrpl -e null --loops 1 -D "$TRASH/work" 1 >out 2>err &&
	test_grep "suite: -c: the suite names its loadfiles" err &&
	test_expect_code 2 vfsbench suite -e null 1 >out 2>err &&
	test_grep "give the suite'"'"'s name first" err &&
	test ! -s out &&
	canary_check &&
	workdir_empty
'

# The outputs of a suite are named after its workloads (m-create-unlink-1.txt,
# perf-create-unlink-1.data...); the check that no two are one file saw
# the loadfiles' names instead, and --json m-create-unlink-1.txt ran and
# was overwritten by the workload's ministat file.
SQ="'"
test_expect_success 'a suite'"'"'s own output names are checked: one of them as --json is exit 2, nothing written' '
	canary_setup &&
	test_expect_code 2 vfsbench suite vfs-commits -e null --loops 1 \
		--ministat m --json m-create-unlink-1.txt -D "$TRASH/work" 1 \
		>out 2>err &&
	printf "%s\n" "vfsbench: --json ${SQ}m-create-unlink-1.txt${SQ} and --ministat ${SQ}m-create-unlink-1.txt${SQ} are the same file: each result needs a file of its own" \
		"Try ${SQ}vfsbench --help${SQ} for more information." >expect &&
	test_cmp expect err &&
	test ! -s out &&
	! test -e m-create-unlink-1.txt &&
	test_expect_code 2 vfsbench suite vfs-commits -e null --loops 1 \
		--profile 1 --csv perf-open-missing-1.folded -D "$TRASH/work" 1 \
		>out 2>err &&
	test_grep "^vfsbench: --csv ${SQ}perf-open-missing-1.folded${SQ} and --profile ${SQ}perf-open-missing-1.folded${SQ} are the same file" err &&
	! test -e perf-open-missing-1.folded &&
	canary_check &&
	workdir_empty
'

test_done
