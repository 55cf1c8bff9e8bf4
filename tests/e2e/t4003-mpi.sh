#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='MPI: clients over ranks, one merged result, shared and local work directories'
. "$srcdir/tests/e2e/lib.sh"

have_mpi || test_skip_all 'built without MPI (./configure --with-mpi) or no mpirun'

# The Count of OP in the table of the run with N clients.
run_count() {
	awk -v n="$2" -v op="$3" '
		$2 == "client:" || $2 == "clients:" { cur = $1 }
		cur == n && $1 == op { print $2 }' "$1"
}

# jq -r EXPR FILE, one value a line.
jqr() {
	jq -r "$1" "$2"
}

test_expect_success 'setup' '
	canary_setup &&
	cat >two.load <<-\EOF
	[run]
	stat a
	statfs .
	EOF
'

test_expect_success '-np 2: exact counts at 1 to 4 clients, the sum over ranks and clients' '
	mpi_run 2 -e null -c two.load --loops 50 -D work -q --json r2.json \
		1 2 3 4 >out 2>err &&
	for n in 1 2 3 4; do
		test "$(run_count out $n stat)" = $((n * 50)) &&
		test "$(run_count out $n statfs)" = $((n * 50)) || return 1
	done &&
	test "$(jqr "[.runs[].ops] | join(\" \")" r2.json)" = "100 200 300 400" &&
	test "$(jqr "[.runs[] | ([.ranks[].ops] | add)] | join(\" \")" r2.json)" = \
		"100 200 300 400" &&
	test "$(jqr "[.runs[] | [.ranks[].clients] | join(\"+\")] | join(\" \")" r2.json)" = \
		"1+0 1+1 2+1 2+2" &&
	test "$(jqr ".runs[3].clients_detail | length" r2.json)" = 4 &&
	test "$(jqr "[.runs[3].clients_detail[].passes] | join(\" \")" r2.json)" = \
		"50 50 50 50" &&
	# the usage merged on rank 0: the sum over every client
	test "$(jqr "[.runs[] | [.clients_detail[]] as \$c | .rusage |
		.voluntary_switches == ([\$c[].voluntary_switches] | add) and
		.involuntary_switches == ([\$c[].involuntary_switches] | add) and
		.migrations == ([\$c[].migrations] | add)] | all" r2.json)" = true &&
	canary_check && workdir_empty
'

test_expect_success '-np 2: merged percentiles are those of all ranks merged again' '
	jq -r -f "$abs_top_srcdir/tests/e2e/merge.jq" r2.json >m2 &&
	test "$(wc -l <m2)" -eq 8 &&
	! grep false m2
'

test_expect_success 'the merge check fails on a wrong percentile or a lost bucket' '
	jq ".runs[3].ops_detail[0].p50_ns += 1" r2.json >bad.json &&
	jq -r -f "$abs_top_srcdir/tests/e2e/merge.jq" bad.json >mbad &&
	test "$(grep -c false mbad)" = 1 &&
	grep "^3	stat	true	true	true	false	true	true	true$" mbad &&
	jq ".runs[3].ranks[1].ops_detail[1].buckets[0][1] += 7 |
		.runs[3].ranks[1].ops_detail[1].count += 7" r2.json >bad.json &&
	jq -r -f "$abs_top_srcdir/tests/e2e/merge.jq" bad.json >mbad &&
	grep "^3	statfs	false	" mbad
'

test_expect_success '-np 3: exact counts, percentiles, clients dealt round-robin' '
	mpi_run 3 -e null -c two.load --loops 40 -D work -q --json r3.json \
		1 2 5 >out 2>err &&
	for n in 1 2 5; do
		test "$(run_count out $n stat)" = $((n * 40)) || return 1
	done &&
	test "$(jqr "[.runs[] | [.ranks[].clients] | join(\"+\")] | join(\" \")" r3.json)" = \
		"1+0+0 1+1+0 2+2+1" &&
	jq -r -f "$abs_top_srcdir/tests/e2e/merge.jq" r3.json >m3 &&
	test "$(wc -l <m3)" -eq 6 &&
	! grep false m3 &&
	test "$(jqr ".mpi.ranks" r3.json)" = 3 &&
	test "$(jqr ".mpi.rank_detail | map(.shared_directory) | all" r3.json)" = true &&
	test "$(jqr ".mpi.rank_detail | map(.environment.kernel.release) | unique | length" r3.json)" = 1 &&
	# every rank its own clock, recorded: one host, one choice
	src=$(jqr .environment.clock.source r3.json) &&
	test "$(jqr "[.mpi.rank_detail[].environment.clock.source] | join(\" \")" r3.json)" = \
		"$src $src $src" &&
	if test "$src" = tsc
	then
		test "$(jqr "[.mpi.rank_detail[].environment.clock.tsc_hz | select(. > 0)] | length" r3.json)" = 3
	fi &&
	canary_check && workdir_empty
'

test_expect_success 'the report: the same as on one host, and a table of the hosts' '
	mpi_run 2 -e null -c two.load --loops 50 -D work -q 1 2 >mpi.out 2>err &&
	vfsbench -e null -c two.load --loops 50 -D work -q 1 2 >one.out 2>err &&
	for f in mpi.out one.out; do
		for n in 1 2; do
			echo $n $(run_count $f $n stat) $(run_count $f $n statfs)
		done >$f.counts || return 1
	done &&
	printf "1 50 50\n2 100 100\n" >expect &&
	test_cmp expect one.out.counts &&
	test_cmp expect mpi.out.counts &&
	grep "^Sweep: relative to 1 client, by ops/s$" mpi.out &&
	test "$(grep -c "^Host " mpi.out)" = 2 &&
	grep "^ranks 2 on 1 host, clients round-robin; the work directory shared by 2 of 2 ranks$" mpi.out &&
	grep "^Start skew between ranks: " mpi.out &&
	grep -A1 "^Host " mpi.out | grep -v "^Host \|^--" |
		awk "{ print \$1, \$2, \$3 }" >hosts &&
	printf "%s 0-1 %s\n" "$(hostname)" 1 "$(hostname)" 2 >expect &&
	test_cmp expect hosts &&
	for f in mpi.out one.out; do
		grep "^Throughput " $f |
			awk -F "[ =]" "{ print \$3, \$5, \$6, \$8, \$9, \$11, \$13 }" ||
			return 1
	done >fields &&
	printf "MB/sec %s clients %s procs max_latency ms\n" 1 1 2 2 1 1 2 2 >expect &&
	test_cmp expect fields &&
	grep -v "^ranks \|^Start skew\|^Host \|^$(hostname) \|^directory " mpi.out |
		sed -E "s/[0-9.]*[0-9](ns|us|ms|s)?/N/g" | tr -s " " >mpi.shape &&
	grep -v "^directory " one.out |
		sed -E "s/[0-9.]*[0-9](ns|us|ms|s)?/N/g" | tr -s " " >one.shape &&
	test_cmp one.shape mpi.shape &&
	canary_check && workdir_empty
'

test_expect_success 'JSON: every key of one host is there; compare and plot read it' '
	vfsbench -e null -c two.load --loops 50 -D work -q --json one.json 1 2 3 4 >/dev/null &&
	for f in one.json r2.json; do
		jq -c "[.runs[] | [.index, .variant, .repeat, .clients, .clients_set_up,
			.idle_clients, .end, .ops, .passes, .bytes, .unexpected, .skipped,
			.interrupted, .stuck_clients,
			([.ops_detail[] | [.op, .count]]),
			([.clients_detail[] | .passes])]], [.points[] | .clients],
			.complete" $f >$f.same || return 1
	done &&
	test_cmp one.json.same r2.json.same &&
	jq -r "[paths | map(tostring) | join(\".\")] | .[]" one.json |
		sed -e "s/\.[0-9][0-9]*/.N/g" | sort -u >one.keys &&
	jq -r "[paths | map(tostring) | join(\".\")] | .[]" r2.json |
		sed -e "s/\.[0-9][0-9]*/.N/g" | sort -u >mpi.keys &&
	comm -23 one.keys mpi.keys >missing &&
	test_cmp /dev/null missing &&
	vfsbench compare one.json r2.json >cmp.out &&
	grep "^ *2 " cmp.out &&
	if command -v gnuplot >/dev/null 2>&1; then
		vfsbench plot -o p.svg r2.json && test -s p.svg
	fi
'

test_expect_success 'shared work directory: one tree, every rank'"'"'s clients in it' '
	mpi_run 2 -e null -c two.load --loops 1 -D work -q --skip-cleanup 3 >out 2>err &&
	test "$(find work -mindepth 1 -maxdepth 1 -name "vfsbench.*" | wc -l)" -eq 1 &&
	(cd work/vfsbench.* && ls -d run0/clients/client*) >dirs &&
	printf "run0/clients/client%s\n" 0 1 2 >expect &&
	test_cmp expect dirs &&
	grep -c "files left in" err >n && test "$(cat n)" = 1 &&
	rm -rf work/vfsbench.* && canary_check
'

# In a shared directory, client 0 (rank 0) makes d0 .. d2 in [setup]
# before any other rank sets up; then every client sees every name.
test_expect_success 'setup: a loadfile that sees the other ranks'"'"' files' '
	cat >see.load <<-\EOF
	[setup]
	mkdir d${client}
	[run]
	stat d0
	stat d1
	stat d2
	EOF
	true
'

test_expect_success '--cwd shared across ranks: each sees the others'"'"' directories' '
	mpi_run 2 -c see.load --cwd shared --loops 10 -D work -q 3 >out 2>err &&
	test "$(run_count out 3 stat)" = 90 &&
	! grep "^Unexpected" out &&
	canary_check && workdir_empty
'

test_expect_success 'a -D of its own per rank: each rank makes and cleans its own' '
	mkdir -p work/a work/b &&
	mpirun_local -np 1 "$VFSBENCH" -c see.load --cwd shared --loops 10 \
		-D work/a -q --json loc.json 3 : \
		-np 1 "$VFSBENCH" -c see.load --cwd shared --loops 10 \
		-D work/b -q 3 >out 2>err &&
	grep "^ranks 2 on 1 host, clients round-robin; the work directory shared by 1 of 2 ranks (the others have their own)$" out &&
	test "$(jqr "[.mpi.rank_detail[].shared_directory] | join(\" \")" loc.json)" = "true false" &&
	unexpected_lines out >u &&
	printf "  stat: ENOENT x %s\n" 40 >expect &&
	test_cmp expect u &&
	test "$(jqr "[.runs[0].ranks[].unexpected] | join(\" \")" loc.json)" = "20 20" &&
	test "$(find work/a work/b -mindepth 1 | wc -l)" -eq 0 &&
	rmdir work/a work/b && canary_check
'

test_expect_success 'a -D of its own per rank, kept: the clients split between them' '
	mkdir -p work/a work/b &&
	mpirun_local -np 1 "$VFSBENCH" -e null -c two.load --loops 1 -D work/a \
		-q --skip-cleanup 3 : \
		-np 1 "$VFSBENCH" -e null -c two.load --loops 1 -D work/b \
		-q --skip-cleanup 3 >out 2>err &&
	(cd work/a/vfsbench.* && ls -d run0/clients/client*) >a &&
	(cd work/b/vfsbench.* && ls -d run0/clients/client*) >b &&
	printf "run0/clients/client%s\n" 0 2 >expect.a &&
	printf "run0/clients/client%s\n" 1 >expect.b &&
	test_cmp expect.a a && test_cmp expect.b b &&
	test "$(grep -c "files left in" err)" = 2 &&
	rm -rf work/a work/b && canary_check
'

test_expect_success 'hosts: round-robin over hosts, or host by host' '
	mpirun_local -np 1 -x VFSBENCH_HOST=hosta "$VFSBENCH" -e null \
		-c two.load --loops 5 -D work -q --json rr.json 1 2 4 : \
		-np 1 -x VFSBENCH_HOST=hostb "$VFSBENCH" -e null \
		-c two.load --loops 5 -D work -q 1 2 4 >rr.out 2>err &&
	test "$(jqr "[.runs[] | [.ranks[].clients] | join(\"+\")] | join(\" \")" rr.json)" = \
		"1+0 1+1 2+2" &&
	test "$(jqr "[.mpi.hosts[].name] | join(\" \")" rr.json)" = "hosta hostb" &&
	grep "^hosta  *0  *2 " rr.out && grep "^hostb  *1  *2 " rr.out &&
	mpirun_local -np 1 -x VFSBENCH_HOST=hosta "$VFSBENCH" -e null \
		-c two.load --loops 5 -D work -q --distribute host-by-host \
		--json hh.json 1 2 4 : \
		-np 1 -x VFSBENCH_HOST=hostb "$VFSBENCH" -e null \
		-c two.load --loops 5 -D work -q --distribute host-by-host \
		1 2 4 >hh.out 2>err &&
	test "$(jqr "[.runs[] | [.ranks[].clients] | join(\"+\")] | join(\" \")" hh.json)" = \
		"1+0 2+0 2+2" &&
	test "$(jqr ".mpi.distribute" hh.json)" = host-by-host &&
	canary_check && workdir_empty
'

# Each rank pins its first client to the list's first CPU: CPU 0 on
# both hosts is two CPUs, on one host it is one CPU shared. The samples
# own their affinity masks: rank 0 frees each once (a double free before).
test_expect_success '--placement over ranks: CPU 0 of two hosts is not one CPU' '
	mpirun_local -np 1 -x VFSBENCH_HOST=hosta "$VFSBENCH" -e null \
		-c two.load --loops 5 -D work --placement 0,1 --json pa.json 2 : \
		-np 1 -x VFSBENCH_HOST=hostb "$VFSBENCH" -e null \
		-c two.load --loops 5 -D work --placement 0,1 2 >pa.out 2>err &&
	test "$(jqr "[.runs[0].clients_detail[].cpu] | join(\" \")" pa.json)" = "0 0" &&
	test "$(jqr "[.runs[0].clients_detail[].affinity] | map(. // \"null\") | join(\" \")" pa.json)" = "0 null" &&
	! grep "shared CPUs" pa.out &&
	mpi_run 2 -e null -c two.load --loops 5 -D work --placement 0,1 \
		--json pb.json 2 >pb.out 2>err &&
	test "$(jqr "[.runs[0].clients_detail[].cpu] | join(\" \")" pb.json)" = "0 0" &&
	grep "^warning: pinned clients shared CPUs (2 clients on [^)]*): CPU 0: clients 0,1\$" pb.out &&
	canary_check && workdir_empty
'

test_expect_success 'ranks that were given other options or loadfiles: exit 2, named' '
	test_expect_code 2 mpirun_local -np 1 "$VFSBENCH" -e null -c two.load \
		--loops 5 -D work -q 2 : -np 1 "$VFSBENCH" -e null -c two.load \
		--loops 6 -D work -q 2 >out 2>err &&
	grep "^rank 0 (host [^)]*): error: rank 1 (host [^)]*): its options differ from rank 0.s" err &&
	printf "[run]\nstat b\n" >other.load &&
	test_expect_code 2 mpirun_local -np 1 "$VFSBENCH" -e null -c two.load \
		--loops 5 -D work -q 2 : -np 1 "$VFSBENCH" -e null -c other.load \
		--loops 5 -D work -q 2 >out 2>err &&
	grep "rank 1 (host [^)]*): its loadfile differs from rank 0.s (sha256 " err &&
	test_must_fail grep "^Throughput" out &&
	canary_check && workdir_empty
'

test_expect_success 'the dbench personality under mpirun: exit 2, nothing made' '
	test_expect_code 2 mpi_run 2 dbench -D work -t 1 1 >out 2>err &&
	test "$(grep -c "^error: the dbench personality runs as one process, not under mpirun: " err)" = 2 &&
	test_cmp /dev/null out &&
	canary_check && workdir_empty
'

test_done
