#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='vfsbench compare: table, Welch marks, like-for-like checks, errors'
. "$srcdir/tests/e2e/lib.sh"

# A single quote, for messages inside single-quoted test bodies.
SQ="'"

SHA_A=aaaaaaaa11111111aaaaaaaa11111111aaaaaaaa11111111aaaaaaaa11111111
SHA_B=bbbbbbbb22222222bbbbbbbb22222222bbbbbbbb22222222bbbbbbbb22222222

# write_result FILE [KEY=VALUE...] RUN...
#
# A minimal result file in the schema of doc/json-schema.md, with every
# member src/compare/resultfile.c reads. A RUN is CLIENTS:OPS_PER_SEC[:MB_PER_SEC
# [:P99_NS[:END]]] (defaults 0, 0 and "complete"). KEYs: engine (null),
# depth (0), sha ($SHA_A), loadfile (t.load), loops (10), time_ns (0),
# complete (true), version (1), schema (vfsbench-result), clients (the
# runs' counts in order of first use, comma-separated).
write_result() {
	wr_file=$1
	shift
	wr_engine=null wr_depth=0 wr_sha=$SHA_A wr_loadfile=t.load wr_loops=10
	wr_time=0 wr_complete=true wr_version=1 wr_schema=vfsbench-result
	wr_clients=
	while test $# -gt 0; do
		case $1 in
		engine=*) wr_engine=${1#*=} ;;
		depth=*) wr_depth=${1#*=} ;;
		sha=*) wr_sha=${1#*=} ;;
		loadfile=*) wr_loadfile=${1#*=} ;;
		loops=*) wr_loops=${1#*=} ;;
		time_ns=*) wr_time=${1#*=} ;;
		complete=*) wr_complete=${1#*=} ;;
		version=*) wr_version=${1#*=} ;;
		schema=*) wr_schema=${1#*=} ;;
		clients=*) wr_clients=${1#*=} ;;
		*) break ;;
		esac
		shift
	done
	printf '%s\n' "$@" | awk -F : \
		-v engine="$wr_engine" -v depth="$wr_depth" -v sha="$wr_sha" \
		-v loadfile="$wr_loadfile" -v loops="$wr_loops" \
		-v time_ns="$wr_time" -v complete="$wr_complete" \
		-v version="$wr_version" -v schema="$wr_schema" \
		-v clients="$wr_clients" '
	NF {
		n++
		c[n] = $1; ops[n] = $2
		mb[n] = NF >= 3 ? $3 : 0
		p99[n] = NF >= 4 ? $4 : 0
		end[n] = NF >= 5 ? $5 : "complete"
		if (!($1 in seen)) {
			seen[$1] = 1
			order = order (order == "" ? "" : ",") $1
		}
	}
	END {
		if (clients == "")
			clients = order
		printf "{\n \"schema\": \"%s\",\n \"schema_version\": %s,\n", schema, version
		printf " \"created\": \"2024-01-01T00:00:00Z\",\n"
		printf " \"options\": {\n  \"clients\": [%s],\n", clients
		printf "  \"loadfile\": \"%s\",\n  \"directory\": \"/tmp\",\n", loadfile
		printf "  \"engine\": \"%s\",\n  \"time_ns\": %s,\n  \"loops\": %s,\n", engine, time_ns, loops
		printf "  \"warmup\": {\"kind\": \"ns\", \"value\": 0},\n"
		printf "  \"cwd\": \"private\",\n  \"fs_struct\": \"private\",\n  \"fd_table\": \"shared\",\n"
		printf "  \"depth\": %s,\n  \"runs\": 3,\n  \"order\": \"interleaved\",\n  \"seed\": 1,\n", depth
		printf "  \"strict\": false,\n  \"max_errors\": 0,\n"
		printf "  \"dbench\": {\"sync_open\": false, \"sync_dirs\": false, \"fsync\": false, \"resolve\": true, \"fsinfo\": \"statvfs\"}\n"
		printf " },\n"
		printf " \"loadfile\": {\n  \"name\": \"%s\",\n  \"sha256\": \"%s\",\n  \"dialect\": \"native\",\n  \"ops\": 1,\n  \"setup_ops\": 0\n },\n", loadfile, sha
		printf " \"runs\": [\n"
		for (i = 1; i <= n; i++)
			printf "  {\"index\": %d, \"clients\": %s, \"end\": \"%s\", \"ops_per_sec\": %s, \"mb_per_sec\": %s, \"p99_ns\": %s}%s\n",
				i - 1, c[i], end[i], ops[i], mb[i], p99[i], i < n ? "," : ""
		printf " ],\n \"points\": [],\n \"complete\": %s\n}\n", complete
	}' >"$wr_file"
}

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

# The marks column of file B for each client count: "clients change mark".
marks() {
	awk '$1 ~ /^[0-9]+$/ { print $1, $5, $6 }' "$1"
}

# --- the table -------------------------------------------------------------

test_expect_success 'a clear difference (*) and identical distributions (~)' '
	write_result A.json 1:100 1:101 1:99 2:180 2:181 2:179 &&
	write_result B.json 1:150 1:151 1:149 2:180 2:181 2:179 &&
	compare_ok A.json B.json &&
	cat >expect <<-\EOF &&
	Metric: ops/s, mean of runs, relative to A at 1 client (= 100.00 ops/s)
	Cells: relative value, change vs A at the same count, mark, (runs)
	Clients  A         B
	      1  1.00 (3)  1.50 +50.0% * (3)
	      2  1.80 (3)  1.80  +0.0% ~ (3)
	Marks (Welch'"'"'s t-test, two-sided): * significant at 95%, ~ not significant
	EOF
	test_cmp expect out
'

test_expect_success 'the order of the runs in the file does not matter' '
	write_result A2.json 2:179 1:99 2:181 1:101 2:180 1:100 &&
	write_result B2.json 1:149 2:180 1:150 2:181 1:151 2:179 &&
	compare_ok A2.json B2.json &&
	marks out >got &&
	printf "%s\n" "1 +50.0% *" "2 +0.0% ~" >expect &&
	test_cmp expect got
'

test_expect_success 'B worse than A: a negative change, still *' '
	write_result A.json 1:100 1:101 1:99 &&
	write_result W.json 1:50 1:51 1:49 &&
	compare_ok A.json W.json &&
	marks out >got &&
	echo "1 -50.0% *" >expect &&
	test_cmp expect got &&
	test_grep "^      1  1\\.00 (3)  0\\.50 -50\\.0% \\* (3)\$" out
'

test_expect_success 'too few samples, a count only B has, a count only A has' '
	write_result A.json 1:100 1:101 1:99 2:180 2:181 2:179 \
		8:400 8:401 8:399 &&
	write_result B.json 1:150 1:152 2:180 2:181 2:179 \
		4:300 4:301 4:299 &&
	compare_ok A.json B.json &&
	cat >expect <<-\EOF &&
	Metric: ops/s, mean of runs, relative to A at 1 client (= 100.00 ops/s)
	Cells: relative value, change vs A at the same count, mark, (runs)
	Clients  A         B
	      1  1.00 (3)  1.51 +51.0% too few samples (2)
	      2  1.80 (3)  1.80  +0.0% ~               (3)
	      4     -      3.00                        (3)
	      8  4.00 (3)     -
	Marks (Welch'"'"'s t-test, two-sided): * significant at 95%, ~ not significant
	too few samples: under 3 runs on a side, no test
	Note: no change or test where A has no result
	EOF
	test_cmp expect out
'

test_expect_success 'too few samples on A'"'"'s side too' '
	write_result A.json 1:99 1:101 &&
	write_result B.json 1:150 1:151 1:149 &&
	compare_ok A.json B.json &&
	test_grep "^      1  1\\.00 (2)  1\\.50 +50\\.0% too few samples (3)\$" out &&
	test_grep "^too few samples: under 3 runs on a side, no test\$" out
'

test_expect_success 'no 1-client result in A: relative to its smallest count' '
	write_result A.json 2:200 2:201 2:199 4:380 4:381 4:379 &&
	write_result B.json 1:100 1:101 1:99 2:200 2:201 2:199 \
		4:380 4:381 4:379 &&
	compare_ok A.json B.json &&
	test_grep "^Metric: ops/s, mean of runs, relative to A at 2 clients (= 200\\.00 ops/s; A has no 1-client result)\$" out &&
	awk "\$1 ~ /^[0-9]+\$/ { print \$1, \$2 }" out >got &&
	printf "%s\n" "1 -" "2 1.00" "4 1.90" >expect &&
	test_cmp expect got &&
	test_grep "^      1     -      0\\.50 *(3)\$" out &&
	test_grep "^Note: no change or test where A has no result\$" out
'

test_expect_success 'relative values to A at 1 client: 100 -> 180 -> 350 is 1.80, 3.50' '
	write_result A.json 1:100 1:100 1:100 2:180 2:180 2:180 \
		4:350 4:350 4:350 &&
	write_result B.json 1:100 1:100 1:100 2:200 2:200 2:200 \
		4:400 4:400 4:400 &&
	compare_ok A.json B.json &&
	awk "\$1 ~ /^[0-9]+\$/ { print \$1, \$2, \$4, \$5, \$6 }" out >got &&
	printf "%s\n" "1 1.00 1.00 +0.0% ~" "2 1.80 2.00 +11.1% *" \
		"4 3.50 4.00 +14.3% *" >expect &&
	test_cmp expect got
'

test_expect_success '--metric mbps: MB/s, not ops/s' '
	write_result A.json 1:100:10 1:100:11 1:100:9 2:100:20 2:100:21 \
		2:100:19 &&
	write_result B.json 1:500:10 1:500:11 1:500:9 2:100:30 2:100:31 \
		2:100:29 &&
	compare_ok -m mbps A.json B.json &&
	test_grep "^Metric: MB/s, mean of runs, relative to A at 1 client (= 10\\.00 MB/s)\$" out &&
	awk "\$1 ~ /^[0-9]+\$/ { print \$1, \$2, \$4, \$5, \$6 }" out >got &&
	printf "%s\n" "1 1.00 1.00 +0.0% ~" "2 2.00 3.00 +50.0% *" >expect &&
	test_cmp expect got &&
	compare_ok --metric mbps A.json B.json &&
	test_grep "^Metric: MB/s," out
'

test_expect_success '--metric p99: latency, lower is better' '
	write_result A.json 1:100:0:1000 1:100:0:1010 1:100:0:990 &&
	write_result B.json 1:100:0:2000 1:100:0:2010 1:100:0:1990 &&
	compare_ok -m p99 A.json B.json &&
	test_grep "^Metric: p99 latency (lower is better), mean of runs, relative to A at 1 client (= 1\\.00us)\$" out &&
	marks out >got &&
	echo "1 +100.0% *" >expect &&
	test_cmp expect got &&
	test_grep "^      1  1\\.00 (3)  2\\.00 +100\\.0% \\* (3)\$" out
'

test_expect_success '--confidence 99 turns a borderline * into ~' '
	write_result A.json 1:99 1:100 1:101 &&
	write_result B.json 1:102 1:103 1:104 &&
	compare_ok A.json B.json &&
	test_grep "^      1  1\\.00 (3)  1\\.03 +3\\.0% \\* (3)\$" out &&
	test_grep "\\* significant at 95%, ~ not significant\$" out &&
	compare_ok --confidence 99 A.json B.json &&
	test_grep "^      1  1\\.00 (3)  1\\.03 +3\\.0% ~ (3)\$" out &&
	test_grep "\\* significant at 99%, ~ not significant\$" out &&
	compare_ok --confidence 97.8 A.json B.json &&
	test_grep "^      1  1\\.00 (3)  1\\.03 +3\\.0% \\* (3)\$" out
'

test_expect_success 'runs that did not complete are left out, with notes' '
	write_result A.json 1:100 1:101 1:99 &&
	write_result B.json complete=false 1:150 1:151 1:149 \
		1:10:0:0:signal &&
	compare_ok A.json B.json &&
	test_grep "^      1  1\\.00 (3)  1\\.50 +50\\.0% \\* (3)\$" out &&
	test_grep "^Note: B: the sweep stopped early\$" out &&
	test_grep "^Note: B: 1 run left out: ended early (--strict, --max-errors or a signal)\$" out
'

test_expect_success 'three files: a column each, each against A' '
	write_result A.json 1:100 1:101 1:99 &&
	write_result B.json 1:150 1:151 1:149 &&
	write_result C.json 1:100 1:101 1:99 &&
	compare_ok A.json B.json C.json &&
	test_grep "^Clients  A         B                  C\$" out &&
	test_grep "^      1  1\\.00 (3)  1\\.50 +50\\.0% \\* (3)  1\\.00 +0\\.0% ~ (3)\$" out
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
	test_grep "^      1  1\\.00 (3)  1\\.00 +0\\.0% ~ (3)\$" out
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
	write_result v2.json version=2 1:100 1:101 1:99 &&
	compare_fails "error: ${SQ}v2.json$SQ: schema_version 2 is newer than this vfsbench reads (1): use a newer vfsbench" \
		G.json v2.json &&
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
	sed "s/, \"p99_ns\": 0}/}/" G.json >m.json &&
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

test_expect_success 'one file, or none: a usage error, exit 2' '
	printf "%s\n" "vfsbench: compare needs at least two result files (vfsbench --json FILE ...)" \
		"Try ${SQ}vfsbench compare --help$SQ for more information." >expect &&
	test_expect_code 2 vfsbench compare G.json >out 2>err &&
	test_cmp expect err &&
	test ! -s out &&
	test_expect_code 2 vfsbench compare >out 2>err &&
	test_cmp expect err
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
	vfsbench -q -e null --loops 3 --runs 3 -c t.load -D "$TRASH/work" \
		--json old.json 1 2 >/dev/null &&
	vfsbench -q -e null --loops 3 --runs 3 -c t.load -D "$TRASH/work" \
		--json new.json 1 2 >/dev/null &&
	canary_check &&
	workdir_empty &&
	compare_ok old.json new.json &&
	! grep "WARNING" out &&
	test_grep "^Metric: ops/s, mean of runs, relative to old at 1 client (= [0-9.]* ops/s)\$" out &&
	test_grep "^Clients  old  *new\$" out &&
	awk "\$1 ~ /^[0-9]+\$/ { print \$1, \$3, \$6, \$7 }" out >rows &&
	sed -e "s/ [*~] / M /" rows >got &&
	printf "%s\n" "1 (3) M (3)" "2 (3) M (3)" >expect &&
	test_cmp expect got &&
	awk "\$1 == 1 { print \$2 }" out >base &&
	echo 1.00 >expect &&
	test_cmp expect base
'

test_done
