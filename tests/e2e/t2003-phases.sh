#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='exact counts in every phase combination: --loops or -t, warmup by time, by passes or none, and a stop in each phase'
. "$srcdir/tests/e2e/lib.sh"

# The null engine and --loops make every count exact: a measured pass is
# always whole (the switch from warmup to measurement waits for a pass
# boundary), warmup ops are never counted, and a --strict or --max-errors
# stop with one client lands on a known op. With -t the counts depend on
# time, but each client's ops and passes obey exact bounds.

NOPS=5

test_expect_success 'setup: a loadfile of 5 ops and 100 bytes a pass' '
	cat >five.load <<-\EOF &&
	[setup]
	mkdir    s${client}
	[run]
	stat     s${client}
	statfs   .
	open     f${client}  rdwr,creat  @1
	pwrite   @1  0  100
	close    @1
	EOF
	cat >fail.load <<-\EOF
	[run]
	access   a
	stat     b
	statfs   c
	EOF
'

# check_exact OUT FLAT CLIENTS LOOPS: the report and the JSON (from
# json_flat) of one run of five.load: every op CLIENTS x LOOPS times, each
# client LOOPS passes of NOPS ops, 100 bytes a pass.
check_exact() {
	n=$(($3 * $4)) &&
	test_grep "^$3 clients*: $((n * NOPS)) ops in " "$1" &&
	for op in stat statfs open pwrite close; do
		test "$(op_count "$1" $op)" = "$n" || return 1
	done &&
	test_grep "^Total: .* ($n passes, $((n * 100)) bytes, " "$1" &&
	test "$(jget "$2" "runs[0].ops")" = $((n * NOPS)) &&
	test "$(jget "$2" "runs[0].passes")" = "$n" &&
	test "$(jget "$2" "runs[0].bytes")" = $((n * 100)) &&
	test "$(jget "$2" "runs[0].unexpected")" = 0 &&
	test "$(jget "$2" "runs[0].end")" = complete &&
	c=0 &&
	while test $c -lt "$3"; do
		test "$(jget "$2" "runs[0].clients_detail[$c].passes")" = "$4" &&
		test "$(jget "$2" "runs[0].clients_detail[$c].ops")" = \
			$(($4 * NOPS)) &&
		c=$((c + 1)) || return 1
	done
}

for cwd in private shared; do
	for warmup in 0 3p 50ms; do
		for clients in 1 3; do
			test_expect_success "--loops 4, warmup $warmup, $clients client(s), cwd $cwd: exact counts" '
				canary_setup &&
				vfsbench -q -e null --loops 4 --warmup '"$warmup"' \
					--cwd '"$cwd"' -c five.load --json r.json \
					-D "$TRASH/work" '"$clients"' >out &&
				json_flat r.json >r.flat &&
				check_exact out r.flat '"$clients"' 4 &&
				canary_check &&
				workdir_empty
			'
		done
	done
done

test_expect_success '--loops 3 --runs 2 --warmup 2p, sweep 1 2 3: every run exact' '
	canary_setup &&
	vfsbench -q -e null --loops 3 --runs 2 --warmup 2p -c five.load \
		--json r.json -D "$TRASH/work" 1 2 3 >out &&
	json_flat r.json >r.flat &&
	r=0 &&
	while test $r -lt 6; do
		c=$(jget r.flat "runs[$r].clients") &&
		test "$(jget r.flat "runs[$r].ops")" = $((c * 3 * NOPS)) &&
		test "$(jget r.flat "runs[$r].passes")" = $((c * 3)) &&
		r=$((r + 1)) || return 1
	done &&
	canary_check &&
	workdir_empty
'

# The warmup's passes are not counted, but they run: with O_APPEND each
# pass adds one byte to the client's file (pwrite appends, whatever its
# offset), so the file holds warmup + measured passes bytes.
test_expect_success '--loops 4 --warmup 3p, posix: 3 warmup passes run, 4 counted' '
	cat >append.load <<-\EOF &&
	[run]
	open     log  wronly,creat,append  @1
	pwrite   @1  0  1
	close    @1
	EOF
	canary_setup &&
	vfsbench -q --loops 4 --warmup 3p --skip-cleanup -c append.load \
		-D "$TRASH/work" 2 >out 2>err &&
	test "$(op_count out pwrite)" = 8 &&
	set -- "$TRASH"/work/vfsbench.* &&
	test $# -eq 1 &&
	test "$(stat -c %s "$1/run0/clients/client0/log")" -eq 7 &&
	test "$(stat -c %s "$1/run0/clients/client1/log")" -eq 7 &&
	rm -rf "$1" &&
	canary_check &&
	workdir_empty
'

# With -t, per client: ops = passes x NOPS + the ops of the pass cut by
# the stop (< NOPS), + with a timed warmup the ops of the pass the
# measurement began in (< NOPS). Warmups of passes and none begin the
# measurement at a pass boundary.
# check_timed FLAT CLIENTS EXTRA: each client's ops within those bounds,
# EXTRA the partial passes allowed (1 or 2); the run's sums too, and its
# bytes (a partial pass may have done its pwrite).
check_timed() {
	awk -v clients="$2" -v extra="$3" -v nops=$NOPS '
	{ split($0, kv, "\t"); j[kv[1]] = kv[2] }
	END {
		r = "runs[0]"
		for (c = 0; c < clients; c++) {
			d = r ".clients_detail[" c "]"
			o = j[d ".ops"]; p = j[d ".passes"]
			if (!(o >= p * nops && o < (p + extra) * nops)) {
				print d ": " o " ops in " p " passes" > "/dev/stderr"
				bad = 1
			}
			ops += o; passes += p
		}
		if (ops != j[r ".ops"] || passes != j[r ".passes"] ||
		    j[r ".bytes"] < passes * 100 ||
		    j[r ".bytes"] > (passes + extra * clients) * 100 ||
		    !passes || j[r ".end"] != "complete")
			bad = 1
		exit bad
	}' "$1"
}

for warmup in 0:1 2p:1 100ms:2; do
	w=${warmup%:*}
	extra=${warmup#*:}
	test_expect_success "-t 200ms, warmup $w, 2 clients: ops within a pass or two of the passes" '
		canary_setup &&
		vfsbench -q -e null -t 200ms --warmup '"$w"' -c five.load \
			--json r.json -D "$TRASH/work" 2 >out &&
		json_flat r.json >r.flat &&
		check_timed r.flat 2 '"$extra"' &&
		canary_check &&
		workdir_empty
	'
done

# --- a stop in each phase -------------------------------------------------

# fail.load with --null-fail stat:EIO: op 2 of each pass fails with EIO,
# which is unexpected.

test_expect_success 'a stop in [setup]: exit 3, the line named, nothing measured' '
	cat >setup-fail.load <<-\EOF &&
	[setup]
	mkdir    d
	mkdir    d
	[run]
	stat     d
	EOF
	canary_setup &&
	test_expect_code 3 vfsbench -q --loops 2 -c setup-fail.load \
		-D "$TRASH/work" 2 >out 2>err &&
	test_grep "^error: setup-fail.load:3: \[setup\] of client 0: mkdir: unexpected result EEXIST (File exists)\$" err &&
	! grep "^Total:" out &&
	canary_check &&
	workdir_empty
'

test_expect_success '--strict in the measurement: stops at op 2 of pass 1, exit 1' '
	canary_setup &&
	test_expect_code 1 vfsbench -q -e null --strict --loops 5 --null-fail stat:EIO -c fail.load \
		--json r.json -D "$TRASH/work" 1 >out &&
	test_grep "^1 client: 2 ops in " out &&
	test "$(op_count out access)" = 1 &&
	test "$(op_count out stat)" = 1 &&
	test -z "$(op_count out statfs)" &&
	sed -n -e "/^note: /p" out >notes &&
	cat >expect <<-\EOF &&
	note: stopped by --strict at an unexpected result: partial results
	note: --strict tripped at fail.load:3: stat: unexpected result EIO (Input/output error), client 0
	note: the sweep stopped early; the runs above are all that finished
	EOF
	test_cmp expect notes &&
	json_flat r.json >r.flat &&
	test "$(jget r.flat "runs[0].passes")" = 0 &&
	test "$(jget r.flat "runs[0].unexpected")" = 1 &&
	test "$(jget r.flat "runs[0].end")" = strict &&
	canary_check &&
	workdir_empty
'

test_expect_success '--max-errors 3 in the measurement: stops at op 2 of pass 3, exit 1' '
	canary_setup &&
	test_expect_code 1 vfsbench -q -e null --max-errors 3 --loops 10 \
		--null-fail stat:EIO -c fail.load --json r.json -D "$TRASH/work" 1 >out &&
	test_grep "^1 client: 8 ops in " out &&
	test "$(op_count out access)" = 3 &&
	test "$(op_count out stat)" = 3 &&
	test "$(op_count out statfs)" = 2 &&
	sed -n -e "/^note: /p" out >notes &&
	cat >expect <<-\EOF &&
	note: stopped by --max-errors: partial results
	note: --max-errors tripped at fail.load:3: stat: unexpected result EIO (Input/output error), client 0
	note: the sweep stopped early; the runs above are all that finished
	EOF
	test_cmp expect notes &&
	json_flat r.json >r.flat &&
	test "$(jget r.flat "runs[0].passes")" = 2 &&
	test "$(jget r.flat "runs[0].unexpected")" = 3 &&
	test "$(jget r.flat "runs[0].end")" = max-errors &&
	canary_check &&
	workdir_empty
'

test_expect_success '--max-errors 3 not reached in 2 passes: complete, exit 0' '
	canary_setup &&
	vfsbench -q -e null --max-errors 3 --loops 2 --null-fail stat:EIO -c fail.load \
		-D "$TRASH/work" 1 >out &&
	test_grep "^1 client: 6 ops in " out &&
	! grep "^note:" out &&
	canary_check &&
	workdir_empty
'

# A stop in the warmup measures nothing, at once: the timed warmup of 30 s
# and the measurement of 30 s are not waited for.
for w in 30s 3p; do
	test_expect_success "--strict in a warmup of $w: nothing measured, exit 1, no wait" '
		canary_setup &&
		test_expect_code 1 vfsbench -q -e null --strict -t 30s \
			--warmup '"$w"' --null-fail stat:EIO -c fail.load --json r.json \
			-D "$TRASH/work" 2 >out &&
		# no "0 ops in 0.000 s", as if that were a result
		test_grep "^2 clients: stopped in the warmup, nothing measured\$" out &&
		! grep " ops in " out &&
		test_grep "^note: stopped by --strict in the warmup: nothing measured\$" out &&
		test_grep "^note: --strict tripped at fail.load:3: stat: unexpected result EIO (Input/output error), client [01]\$" out &&
		! grep "^Total:\|^Throughput" out &&
		json_flat r.json >r.flat &&
		test "$(jget r.flat "runs[0].end")" = strict &&
		test "$(jget r.flat "runs[0].ops")" = 0 &&
		test "$(jget r.flat "runs[0].idle_clients")" = 2 &&
		canary_check &&
		workdir_empty
	'
done

test_expect_success '--max-errors 2 in a warmup of 3 passes: the line, op and errno named, nothing measured' '
	canary_setup &&
	test_expect_code 1 vfsbench -q -e null --max-errors 2 --loops 5 \
		--warmup 3p --null-fail stat:EIO -c fail.load -D "$TRASH/work" 1 >out &&
	sed -n -e "/^1 client/,\$p" out >got &&
	cat >expect <<-\EOF &&
	1 client: stopped in the warmup, nothing measured
	note: stopped by --max-errors in the warmup: nothing measured
	note: --max-errors tripped at fail.load:3: stat: unexpected result EIO (Input/output error), client 0
	note: the sweep stopped early; the runs above are all that finished
	EOF
	test_cmp expect got &&
	canary_check &&
	workdir_empty
'

test_expect_success '--strict and a [setup] line that fails: the line, op and errno named, exit 3' '
	canary_setup &&
	printf "[setup]\nmkdir d\nstat d/missing\n[run]\nstat d\n" >setupfail.load &&
	test_expect_code 3 vfsbench -q --strict --loops 1 -c setupfail.load \
		-D "$TRASH/work" 1 >out 2>err &&
	echo "error: setupfail.load:3: [setup] of client 0: stat: unexpected result ENOENT (No such file or directory)" >expect &&
	test_cmp expect err &&
	! grep " ops in " out &&
	canary_check &&
	workdir_empty
'

test_expect_success '--strict with --loops and a warmup of passes: nothing measured' '
	canary_setup &&
	test_expect_code 1 vfsbench -q -e null --strict --loops 5 --warmup 2p \
		--null-fail stat:EIO -c fail.load -D "$TRASH/work" 3 >out &&
	test_grep "^3 clients: stopped in the warmup, nothing measured\$" out &&
	! grep " ops in " out &&
	canary_check &&
	workdir_empty
'

# The sweep stops after the run a stop ended: no later client count runs.
test_expect_success '--strict in the first run of a sweep: no later run' '
	canary_setup &&
	test_expect_code 1 vfsbench -q -e null --strict --loops 5 --null-fail stat:EIO -c fail.load \
		-D "$TRASH/work" 1 2 >out &&
	test "$(grep -c "^[0-9]* clients*: " out)" -eq 1 &&
	! grep "^Sweep" out &&
	canary_check &&
	workdir_empty
'

test_done
