#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='the unit of every figure: the report, the JSON and the CSV of one run agree with its raw counts'
. "$srcdir/tests/e2e/lib.sh"

# A single quote, for messages inside single-quoted test bodies.
SQ="'"

# No timing is asserted. Each figure is worked out here from the raw counts
# of the same result (ops, bytes, passes, elapsed_ns) and compared with what
# vfsbench printed, so a figure in the wrong unit (x1000, MiB for MB) fails.
# The raw times themselves are held between bounds that load cannot break:
# above by the wall-clock time of the whole command, below by what must
# have happened (a Sleep lasts at least its time; 1000 mkdirs take more
# than 100 ns each; a -t 500ms run measures from its first client's first
# op to past the deadline, which is more than 100 ms unless that client
# waited 400 ms for a CPU after the gate opened).

# wall_ns CMD...: run CMD, its wall-clock time in ns in $wall.
wall_ns() {
	t0=$(date +%s%N) &&
	"$@" &&
	t1=$(date +%s%N) &&
	wall=$((t1 - t0))
}

# The awk functions shared by the checks: near(a, b, rel) and the value in
# ns of a figure printed by units_format_ns ("30ns", "45.8us", "1.44ms").
AWK_LIB='
function near(a, b, rel) {
	d = a - b
	if (d < 0)
		d = -d
	return d <= rel * (b < 0 ? -b : b) + 1e-9
}
function ns(s, v) {
	v = s
	if (sub(/ns$/, "", v)) return v + 0
	if (sub(/us$/, "", v)) return v * 1e3
	if (sub(/ms$/, "", v)) return v * 1e6
	if (sub(/s$/, "", v)) return v * 1e9
	return -1
}
# a printed time: 3 significant digits of the value in ns, the mean
# truncated to whole ns first
function near_ns(printed, want) {
	return ns(printed) >= 0 && (near(ns(printed), want, 0.006) ||
		ns(printed) - want <= 1 && want - ns(printed) <= 1)
}
function bad(what) {
	print "bad: " what > "/dev/stderr"
	failed = 1
}
'

# check_text FLAT OUT: every figure of the text report against the JSON
# (FLAT, from json_flat) of the same invocation, run by run.
check_text() {
	awk "$AWK_LIB"'
	FILENAME == ARGV[1] { split($0, kv, "\t"); j[kv[1]] = kv[2]; next }
	# the text report, one block per run, in the JSON runs[] order
	/^[0-9]+ clients?: [0-9]+ ops in / {
		r = "runs[" nrun++ "]"
		split($0, w, " ")
		el = j[r ".elapsed_ns"]
		if (w[1] != j[r ".clients"] || w[3] != j[r ".ops"])
			bad($0 ": clients or ops differ from " r)
		if (w[6] != sprintf("%.3f", el / 1e9))
			bad($0 ": not " el " ns in s")
		nop = 0
		next
	}
	/^Operation / { intable = 1; next }
	intable && NF == 9 {
		o = r ".ops_detail[" nop++ "]"
		split($0, f, " ")
		if (f[1] != j[o ".op"] || f[2] != j[o ".count"])
			bad($0 ": op or count differ from " o)
		if (f[3] != sprintf("%.2f", f[2] * 1e9 / el))
			bad($0 ": ops/s is not count x 1e9 / elapsed_ns")
		if (!near_ns(f[4], j[o ".mean_ns"]) ||
		    !near_ns(f[5], j[o ".p50_ns"]) ||
		    !near_ns(f[6], j[o ".p99_ns"]) ||
		    !near_ns(f[7], j[o ".p999_ns"]) ||
		    !near_ns(f[8], j[o ".max_ns"]))
			bad($0 ": a latency differs from " o)
		next
	}
	{ intable = 0 }
	/^Total: / {
		split($0, f, " ")
		ops = j[r ".ops"]; bytes = j[r ".bytes"]; passes = j[r ".passes"]
		if (f[2] != sprintf("%.2f", ops * 1e9 / el) ||
		    f[2] != sprintf("%.2f", j[r ".ops_per_sec"]))
			bad($0 ": ops/s")
		if (f[4] != sprintf("%.2f", bytes * 1e3 / el) ||
		    f[4] != sprintf("%.2f", j[r ".mb_per_sec"]))
			bad($0 ": MB/s is not bytes / 10^6 per s")
		if (f[6] != sprintf("%.2f", passes * 1e9 / el))
			bad($0 ": passes/s")
		if (f[8] != "(" passes || f[10] != bytes)
			bad($0 ": passes or bytes")
		s = f[15]
		sub(/\)$/, "", s)
		if (!near_ns(s, j[r ".setup_ns"]))
			bad($0 ": setup and release is not setup_ns " j[r ".setup_ns"])
		next
	}
	/^Time per pass per client: / {
		split($0, f, " ")
		min = max = sum = 0
		for (c = 0; (r ".clients_detail[" c "].ns_per_pass") in j; c++) {
			p = j[r ".clients_detail[" c "].ns_per_pass"]
			e = j[r ".clients_detail[" c "].elapsed_ns"]
			q = j[r ".clients_detail[" c "].passes"]
			if (!near(p, e / q, 1e-9))
				bad(r " client " c ": ns_per_pass is not elapsed_ns / passes")
			if (!c || p < min) min = p
			if (!c || p > max) max = p
			sum += p
		}
		if (!c || !near_ns(f[7], int(min)) || !near_ns(f[11], int(max)) ||
		    !near_ns(f[9], int(sum / c)))
			bad($0 ": not the clients_detail of " r)
		next
	}
	/^Throughput / {
		split($0, f, " ")
		if (f[2] != sprintf("%g", j[r ".bytes"] * 1e3 / el))
			bad($0 ": MB/sec is not bytes / 10^6 per s")
		m = f[8]
		sub(/^max_latency=/, "", m)
		if (m != sprintf("%.3f", j[r ".max_latency_ns"] / 1e6))
			bad($0 ": max_latency is not max_latency_ns in ms")
		if (f[4] != j[r ".clients"] || f[6] != j[r ".clients"])
			bad($0 ": clients and procs")
		nthroughput++
	}
	END {
		if (!nrun || nthroughput != nrun || ("runs[" nrun "].ops") in j)
			bad("runs: " nrun " in the report, throughput lines " nthroughput)
		exit failed
	}' "$1" "$2"
}

# check_json FLAT: each run's rates and maxima against its own raw counts,
# and each point against its runs.
check_json() {
	awk "$AWK_LIB"'
	{ split($0, kv, "\t"); j[kv[1]] = kv[2] }
	END {
		for (i = 0; ("runs[" i "].ops") in j; i++) {
			r = "runs[" i "]"
			el = j[r ".elapsed_ns"]
			if (!near(j[r ".ops_per_sec"], j[r ".ops"] * 1e9 / el, 1e-12))
				bad(r ".ops_per_sec")
			if (!near(j[r ".mb_per_sec"], j[r ".bytes"] * 1e3 / el, 1e-12))
				bad(r ".mb_per_sec is not bytes / 10^6 per s")
			ops = 0; max = 0
			for (k = 0; (r ".ops_detail[" k "].count") in j; k++) {
				o = r ".ops_detail[" k "]"
				ops += j[o ".count"]
				if (j[o ".max_ns"] > max) max = j[o ".max_ns"]
				if (!(j[o ".min_ns"] <= j[o ".p50_ns"] &&
				      j[o ".p50_ns"] <= j[o ".p90_ns"] &&
				      j[o ".p90_ns"] <= j[o ".p99_ns"] &&
				      j[o ".p99_ns"] <= j[o ".p999_ns"] &&
				      j[o ".p999_ns"] <= j[o ".max_ns"] &&
				      j[o ".min_ns"] <= j[o ".mean_ns"] &&
				      j[o ".mean_ns"] <= j[o ".max_ns"]))
					bad(o ": percentiles out of order")
			}
			if (ops != j[r ".ops"])
				bad(r ": ops is not the sum of ops_detail counts")
			if (max != j[r ".max_latency_ns"])
				bad(r ": max_latency_ns is not the largest max_ns")
			passes = 0
			for (c = 0; (r ".clients_detail[" c "].passes") in j; c++) {
				passes += j[r ".clients_detail[" c "].passes"]
				if (j[r ".clients_detail[" c "].elapsed_ns"] > el)
					bad(r ": a client measured longer than the run")
			}
			if (passes != j[r ".passes"] || c != j[r ".clients"])
				bad(r ": passes or clients_detail")
			run_clients[i] = j[r ".clients"]
		}
		nruns = i
		for (p = 0; ("points[" p "].clients") in j; p++) {
			pt = "points[" p "]"
			split("ops_per_sec mb_per_sec p99_ns", m, " ")
			for (k = 1; k <= 3; k++) {
				n = 0; sum = 0; mn = 0; mx = 0
				for (q = 0; (pt ".runs[" q "]") in j; q++) {
					v = j["runs[" j[pt ".runs[" q "]"] "]." m[k]]
					if (run_clients[j[pt ".runs[" q "]"]] != j[pt ".clients"])
						bad(pt ": a run of another client count")
					x[n++] = v
					sum += v
					if (q == 0 || v < mn) mn = v
					if (q == 0 || v > mx) mx = v
				}
				mean = sum / n
				ss = 0
				for (q = 0; q < n; q++) ss += (x[q] - mean) ^ 2
				sd = n > 1 ? sqrt(ss / (n - 1)) : 0
				s = pt "." m[k]
				if (j[s ".n"] != n || !near(j[s ".mean"], mean, 1e-12) ||
				    !near(j[s ".min"], mn, 0) || !near(j[s ".max"], mx, 0) ||
				    !near(j[s ".stddev"], sd, 1e-9) ||
				    !near(j[s ".cv"], sd / mean, 1e-9))
					bad(s ": not the summary of its runs")
				if (n == 2 && !near(j[s ".median"], mean, 1e-12))
					bad(s ".median of 2 runs is not their mean")
			}
		}
		if (!nruns || !p)
			bad("no runs or no points")
		exit failed
	}' "$1"
}

# check_csv FLAT CSV: every CSV row against the JSON run and op it names.
check_csv() {
	awk "$AWK_LIB"'
	FILENAME == ARGV[1] { split($0, kv, "\t"); j[kv[1]] = kv[2]; next }
	FNR == 1 { next }
	{
		split($0, c, ",")
		r = "runs[" c[1] "]"
		el = j[r ".elapsed_ns"]
		if (c[2] != j[r ".clients"] || c[17] != el)
			bad($0 ": clients or elapsed_ns")
		if (c[15] != sprintf("%.3f", j[r ".ops"] * 1e9 / el) ||
		    c[16] != sprintf("%.6f", j[r ".bytes"] * 1e3 / el))
			bad($0 ": run_ops_per_sec or run_mb_per_sec (MB = 10^6 bytes)")
		if (c[5] == "all") {
			if (c[6] != j[r ".ops"] || c[13] != j[r ".max_latency_ns"] ||
			    c[11] != j[r ".p99_ns"])
				bad($0 ": the all row is not the run")
			nall++
			next
		}
		o = ""
		for (k = 0; (r ".ops_detail[" k "].op") in j; k++)
			if (j[r ".ops_detail[" k "].op"] == c[5])
				o = r ".ops_detail[" k "]"
		if (o == "")
			bad($0 ": no such op in the JSON")
		if (c[6] != j[o ".count"] || c[8] != sprintf("%.1f", j[o ".mean_ns"]) ||
		    c[9] != j[o ".p50_ns"] || c[10] != j[o ".p90_ns"] ||
		    c[11] != j[o ".p99_ns"] || c[12] != j[o ".p999_ns"] ||
		    c[13] != j[o ".max_ns"])
			bad($0 ": count or a latency differs from " o)
		if (c[7] != sprintf("%.3f", c[6] * 1e9 / el))
			bad($0 ": op_per_sec is not count x 1e9 / elapsed_ns")
		nrows++
	}
	END {
		if (!nall || !nrows)
			bad("no rows")
		exit failed
	}' "$1" "$2"
}

# check_sweep FLAT OUT: the sweep table against the JSON points (their
# medians, and "!" where runs starved), row by row in command-line order. The baseline is worked out here: the first
# point of 1 client, else the first of the smallest count; efficiency
# scales by what the clients could use at once (vfsbench(1), Sweep).
check_sweep() {
	awk "$AWK_LIB"'
	# used(c): what c clients can use at once, themselves or the CPUs
	# the run could use (runs[].rusage.cpus), whichever is fewer
	function used(c) {
		return cpus[c] > 0 && cpus[c] < c ? cpus[c] : c
	}
	FILENAME == ARGV[1] {
		split($0, kv, "\t")
		j[kv[1]] = kv[2]
		if (kv[1] ~ /^runs\[[0-9]+\]\.rusage\.cpus$/) {
			r = kv[1]
			sub(/\.rusage\.cpus$/, ".clients", r)
			cpus[j[r]] = kv[2]
		}
		next
	}
	/^Sweep: relative to / {
		t = 1
		b = -1
		for (p = 0; ("points[" p "].clients") in j; p++) {
			c = j["points[" p "].clients"]
			if (b < 0) {
				b = p
				continue
			}
			bc = j["points[" b "].clients"]
			if (bc != 1 && (c == 1 || c < bc))
				b = p
		}
		base = j["points[" b "].ops_per_sec.median"]
		basec = j["points[" b "].clients"]
		if ($4 != basec)
			bad($0 ": not relative to " basec)
		next
	}
	t && $0 ~ /^Clients / { next }
	# a row of starved runs ends in "!" (points[].starved_runs)
	t && (NF == 8 || (NF == 9 && $9 == "!")) {
		split($0, f, " ")
		pt = "points[" nrow++ "]"
		if (f[1] != j[pt ".clients"])
			bad($0 ": not " pt)
		if ((NF == 9) != (j[pt ".starved_runs"] > 0))
			bad($0 ": the ! of starved runs")
		if (f[2] != sprintf("%.2f", j[pt ".ops_per_sec.median"]) ||
		    f[3] != sprintf("%.2f", j[pt ".mb_per_sec.median"]))
			bad($0 ": ops/s or MB/s is not the points median")
		rel = j[pt ".ops_per_sec.median"] / base
		if (f[4] != sprintf("%.2f", rel) ||
		    f[5] != sprintf("%.2f", rel / (used(f[1]) / used(basec))))
			bad($0 ": relative or efficiency")
		if (f[6] != j[pt ".ops_per_sec.n"] ||
		    !near_ns(f[7], int(j[pt ".p99_ns.median"])) ||
		    f[8] != sprintf("%.1f%%", j[pt ".ops_per_sec.cv"] * 100))
			bad($0 ": runs, p99 or CV")
		next
	}
	{ t = t && (NF == 8 || (NF == 9 && $9 == "!")) }
	END {
		if (nrow < 2 || ("points[" nrow "].clients") in j)
			bad("sweep rows: " nrow)
		exit failed
	}' "$1" "$2"
}

test_expect_success 'setup: a sweep of 2 runs each of 1 and 2 clients, -t 500ms' '
	{
		echo "[setup]" &&
		i=0 &&
		while test $i -lt 1000; do
			echo "mkdir d$i" &&
			i=$((i + 1)) || return 1
		done &&
		cat <<-\EOF
		[run]
		stat      d0
		open      f  rdwr,creat  @1
		pwrite    @1  0  4k
		pread     @1  0  1000
		close     @1
		EOF
	} >io.load &&
	canary_setup &&
	wall_ns vfsbench -q -t 500ms --warmup 0 --runs 2 -c io.load \
		-D "$TRASH/work" --json r.json --csv r.csv 1 2 >out 2>err &&
	echo "$wall" >wall &&
	json_flat r.json >r.flat &&
	canary_check &&
	workdir_empty
'

test_expect_success 'elapsed_ns and setup_ns are in ns: at least what must have happened, at most the wall clock' '
	wall=$(cat wall) &&
	awk -F "\t" -v wall="$wall" "
		\$1 ~ /^runs\\[[0-9]+\\]\\.elapsed_ns\$/ &&
		    !(\$2 >= 100000000 && \$2 <= wall) { bad = 1; print }
		\$1 ~ /^runs\\[[0-9]+\\]\\.setup_ns\$/ &&
		    !(\$2 >= 100000 && \$2 <= wall) { bad = 1; print }
		\$1 ~ /^runs\\[[0-9]+\\]\\.elapsed_ns\$/ { n++ }
		END { exit bad || n != 4 }" r.flat
'

test_expect_success 'the text report: every figure from the raw counts and the JSON' '
	check_text r.flat out
'

test_expect_success 'the JSON: rates from counts, maxima, points from their runs' '
	check_json r.flat
'

test_expect_success 'the CSV: every row from the JSON run and op' '
	check_csv r.flat r.csv
'

test_expect_success 'the sweep table: the points, relative and efficiency' '
	check_sweep r.flat out
'

# The baseline twice, and not first: relative to the first 1-client row,
# on every row. (How far the rows are from 1.00 depends on the machine;
# test-arith checks the arithmetic on rows that are far from it.)
test_expect_success 'the sweep table of 2 1 4 1: every row relative to the first 1' '
	canary_setup &&
	vfsbench -q -e null --loops 20000 -c io.load --json s.json \
		-D "$TRASH/work" 2 1 4 1 >s.out &&
	json_flat s.json >s.flat &&
	test "$(jget s.flat "points[3].clients")" = 1 &&
	test_grep "^Sweep: relative to 1 client, by ops/s\$" s.out &&
	check_sweep s.flat s.out &&
	canary_check &&
	workdir_empty
'

# check_dbench FLAT OUT WALL: one run of sleep.txt. The Sleep of 20 ms
# lasted at least that (and at most the wall clock), so did the run's
# largest latency; WriteX's AvgLat and MaxLat in dbench's table are its
# mean_ns and max_ns in ms.
check_dbench() {
	awk -v wall="$3" "$AWK_LIB"'
	FILENAME == ARGV[1] {
		split($0, kv, "\t")
		j[kv[1]] = kv[2]
		if (kv[1] ~ /^runs\[0\]\.ops_detail\[[0-9]+\]\.op$/) {
			o = kv[1]
			sub(/\.op$/, "", o)
			op[kv[2]] = o
		}
		next
	}
	/^ Operation / { t = 1; next }
	t && NF == 4 && $1 == "WriteX" {
		w = op["WriteX"]
		if ($3 != sprintf("%.3f", j[w ".mean_ns"] / 1e6) ||
		    $4 != sprintf("%.3f", j[w ".max_ns"] / 1e6))
			bad($0 ": AvgLat or MaxLat is not in ms")
		nw++
	}
	END {
		s = op["Sleep"]
		el = j["runs[0].elapsed_ns"]
		max = j["runs[0].max_latency_ns"]
		if (!(j[s ".min_ns"] >= 20000000 && j[s ".max_ns"] <= wall &&
		      max >= j[s ".min_ns"] && max <= wall &&
		      el >= 3 * 20000000 && el <= wall))
			bad("Sleep 20000 (20 ms) is not between 20 ms and the wall clock")
		if (nw != 1)
			bad("no WriteX row in the dbench table")
		exit failed
	}' "$1" "$2"
}

# MB/s and the dbench table on a dbench loadfile: MB is 10^6 bytes, the
# latencies in ms; a Sleep of 20 ms is at least 20 ms whatever the load.
test_expect_success 'dbench: MB/s, AvgLat and MaxLat in ms, max_latency in ms' '
	cat >sleep.txt <<-\EOF &&
	Deltree "\clients\client1" NT_STATUS_OK
	NTCreateX "\clients\client1\f" 0x0 0x2 1 NT_STATUS_OK
	WriteX 1 0 1000000 1000000 NT_STATUS_OK
	ReadX 1 0 500000 500000 NT_STATUS_OK
	Close 1 NT_STATUS_OK
	Sleep 20000 NT_STATUS_OK
	EOF
	canary_setup &&
	wall_ns vfsbench -q --loops 3 -c sleep.txt -D "$TRASH/work" \
		--json d.json --csv d.csv 2 >out 2>err &&
	json_flat d.json >d.flat &&
	check_text d.flat out &&
	check_json d.flat &&
	check_csv d.flat d.csv &&
	test "$(jget d.flat runs[0].bytes)" -eq $((6 * 1500000)) &&
	check_dbench d.flat out "$wall" &&
	test_grep "^Throughput [0-9.e+]* MB/sec  2 clients  2 procs  max_latency=[2-9][0-9]\\.[0-9][0-9][0-9] ms\$" out &&
	canary_check &&
	workdir_empty
'

# The cells of the op table's latency columns (avg, p50, p99, p99.9, max),
# one line per column: "UNIT DECIMALS" of each cell.
col_shapes() {
	awk '
		$1 == "Operation" { on = 1; next }
		on && $2 !~ /^[0-9]+$/ { on = 0 }
		on {
			for (k = 4; k <= 8; k++) {
				v = $k
				u = v; sub(/^[0-9.]+/, "", u)
				d = v; sub(/[a-z]+$/, "", d)
				dec = index(d, ".") ? length(d) - index(d, ".") : 0
				shape[k] = shape[k] " " u ":" dec
			}
		}
		END { for (k = 4; k <= 8; k++) print k shape[k] }' "$1"
}

# Each latency column is in one unit with one number of decimals, whatever
# its values: a stat beside a statvfs_legacy (tens of times slower) and a
# pwrite. --units forces the unit of every column; the values agree with
# the JSON histograms''' max however they are printed.
test_expect_success 'units: one unit a latency column, or --units for all' '
	printf "%s\n" "open f rdwr,creat @1" "pwrite @1 0 4k" "close @1" \
		"stat f" "statvfs_legacy ." "statfs ." >u.load &&
	canary_setup &&
	vfsbench -q --loops 50 -c u.load -D "$TRASH/work" --percentiles 50,99,100 \
		--json u.json 1 >out 2>err &&
	col_shapes out >shapes &&
	test "$(wc -l <shapes)" -eq 5 &&
	awk "{ for (i = 3; i <= NF; i++) if (\$i != \$2) { print; bad = 1 } } END { exit bad }" shapes &&
	for u in ns us ms; do
		vfsbench -q --loops 50 -c u.load -D "$TRASH/work" --units $u \
			--percentiles 50,99,100 1 >out.$u 2>err &&
		col_shapes out.$u >shapes &&
		awk -v u=$u "{ for (i = 2; i <= NF; i++) if (\$i !~ \"^\" u \":\") { print; bad = 1 } } END { exit bad }" shapes &&
		grep -E "^ *[0-9.]+% " out.$u |
			awk "{ for (i = 2; i <= NF; i++) if (\$i ~ /[0-9]/) print \$i }" >pcells &&
		test "$(wc -l <pcells)" -eq 21 &&
		! grep -v "^[0-9.]*$u\$" pcells || return 1
	done &&
	vfsbench -q --loops 50 -c u.load -D "$TRASH/work" --units ns \
		--json u.json 1 >out.ns 2>err &&
	awk "\$1 == \"Operation\" { on = 1; next } on && \$2 !~ /^[0-9]+\$/ { on = 0 } on { print \$1, \$8 }" \
		out.ns >max &&
	jq -r ".runs[0].ops_detail[] | \"\\(.op) \\(.max_ns)ns\"" u.json >want &&
	test "$(wc -l <max)" -eq 6 &&
	sort max >got && sort want >wanted &&
	test_cmp wanted got &&
	canary_check &&
	workdir_empty
'

# --percentiles in the JSON: the list chosen, and per op and over all
# ops the values of the printed table (--units ns: exact), 100% the max.
test_expect_success 'percentiles: the list and the table'\''s values in the JSON' '
	canary_setup &&
	vfsbench -q --loops 20 -c u.load -D "$TRASH/work" --units ns \
		--percentiles 50,99.9,100 --json p.json 1 >out 2>err &&
	test "$(jq -c .options.percentiles p.json)" = "[50,99.9,100]" &&
	grep -E "^ *[0-9.]+% " out | sed "s/ (longest op)//" >table &&
	test "$(wc -l <table)" -eq 3 &&
	jq -r ".runs[0] | [.ops_detail[].percentiles, .percentiles] |
		transpose[] | [\"\\(.[0].pct)%\"] + [.[] | \"\\(.ns)ns\"] | join(\" \")" \
		p.json >want &&
	awk "{ \$1 = \$1; print }" table >got &&
	test_cmp want got &&
	test "$(jq "[.runs[0].ops_detail[] | select(.percentiles[2].ns != .max_ns)] | length" p.json)" -eq 0 &&
	test "$(jq ".runs[0] | .percentiles[2].ns == .max_latency_ns" p.json)" = true &&
	vfsbench -q -e null --loops 2 -c u.load -D "$TRASH/work" \
		--json n.json 1 >out 2>err &&
	test "$(jq -c "[.options.percentiles, .runs[0].percentiles, .runs[0].ops_detail[0].percentiles]" n.json)" = "[[],[],[]]" &&
	canary_check &&
	workdir_empty
'

test_expect_success 'units: a bad --units is a usage error, exit 2' '
	canary_setup &&
	test_expect_code 2 vfsbench --units s -e null --loops 1 \
		-D "$TRASH/work" 1 >out 2>err &&
	test "$(head -n 1 err)" = "vfsbench: bad --units ${SQ}s$SQ: expected ns, us or ms" &&
	test ! -s out &&
	canary_check &&
	workdir_empty
'

test_done
