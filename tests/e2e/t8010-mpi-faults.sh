#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='MPI: a rank that fails its setup, hits --strict, dies or is signalled'
. "$srcdir/tests/e2e/lib.sh"

have_mpi || test_skip_all 'built without MPI (./configure --with-mpi) or no mpirun'

# The ranks' pids are mpirun's children on this machine.
command -v pgrep >/dev/null 2>&1 || test_skip_all 'no pgrep'

# The rank with the given OMPI_COMM_WORLD_RANK signalled with SIG, once
# the run measures (rank 0's progress line says "execute").
signal_rank() {
	wait_for " execute " err &&
	r=$(rank_pid "$1") &&
	kill "-$2" "$r"
}

test_expect_success 'setup' '
	canary_setup &&
	cat >stat.load <<-\EOF &&
	[run]
	stat a
	EOF
	# in a shared directory, client 0 (rank 0) makes d0 alone: client
	# 1, rank 1'"'"'s, finds no d1
	cat >setup.load <<-\EOF &&
	[setup]
	mkdir d0
	stat d${client}
	[run]
	stat d0
	EOF
	cat >run.load <<-\EOF
	[setup]
	mkdir d0
	[run]
	stat d${client}
	EOF
'

test_expect_success 'a rank that fails its setup: every rank stops, rank 0 names it, exit 3' '
	test_expect_code 3 mpi_run 2 -c setup.load --cwd shared --loops 5 \
		-D work -q 2 >out 2>err &&
	grep "^rank 1 (host [^)]*): error: setup.load:3: \[setup\] of client 1: stat: unexpected result ENOENT (No such file or directory)$" err &&
	grep "^rank 0 (host [^)]*): error: rank 1 (host [^)]*): its setup of run 0 failed (No such file or directory): the run is stopped on every rank$" err &&
	! grep "^Throughput" out &&
	canary_check && workdir_empty
'

test_expect_success 'a rank whose work directory fails: the others remove theirs, exit 2' '
	mkdir -p work/a &&
	test_expect_code 2 mpirun_local -np 1 "$VFSBENCH" -e null -c stat.load \
		--loops 5 -D work/a -q 2 : -np 1 "$VFSBENCH" -e null \
		-c stat.load --loops 5 -D work/missing -q 2 >out 2>err &&
	grep "^rank 1 (host [^)]*): error: work directory parent .work/missing. does not exist$" err &&
	grep "^rank 0 (host [^)]*): error: rank 1 (host [^)]*): cannot set up its work directory (No such file or directory): every rank stops$" err &&
	test "$(find work/a -mindepth 1 | wc -l)" -eq 0 &&
	rmdir work/a && canary_check && workdir_empty
'

test_expect_success 'a rank that hits --strict stops every rank: exit 1, the rank named' '
	test_expect_code 1 mpi_run 2 -c run.load --cwd shared -t 60s --warmup 0 \
		--strict -D work -q --json strict.json 2 >out 2>err &&
	grep "^note: stopped by --strict at an unexpected result: partial results$" out &&
	grep "^note: the stop came from rank 1 (host [^)]*)$" out &&
	unexpected_lines out >u &&
	printf "  stat: ENOENT x 1\n" >expect &&
	test_cmp expect u &&
	test "$(jq -r "[.runs[0].end, .runs[0].stopped_by_rank, (.runs[0].ranks | map(.end) | join(\",\"))] | join(\" \")" strict.json)" = \
		"strict 1 strict,strict" &&
	canary_check && workdir_empty
'

test_expect_success 'SIGINT to mpirun: the partial report of every rank, the cleanup' '
	start_mpi -np 2 "$VFSBENCH" -e null -c stat.load -t 60s --warmup 0 \
		-D work --json int.json 2 &&
	wait_for " execute " err &&
	kill -INT "$pid" &&
	finish 1 &&
	grep "^note: interrupted by a signal: partial results$" out &&
	test "$(jq -r ".runs[0].end" int.json)" = signal &&
	test "$(jq -r ".complete" int.json)" = false &&
	ops=$(jq -r ".runs[0].ops" int.json) && test "$ops" -gt 0 &&
	test "$(jq -r "[.runs[0].ranks[].ops] | add" int.json)" = "$ops" &&
	test "$(jq -r "[.runs[0].ranks[].ops] | map(select(. > 0)) | length" int.json)" = 2 &&
	# one progress line a second, rank 0'"'"'s, of its 1 client
	grep " execute " err >progress &&
	awk "{ print \$1, \$2 }" progress | sort -u >who &&
	printf "1 client\n" >expect &&
	test_cmp expect who &&
	awk "{ print \$4 }" progress | sort | uniq -d >twice &&
	test_cmp /dev/null twice &&
	canary_check && workdir_empty
'

test_expect_success 'SIGINT to one rank: it tells the others, exit 130' '
	start_mpi -np 2 "$VFSBENCH" -e null -c stat.load -t 60s --warmup 0 \
		-D work 2 &&
	signal_rank 1 INT &&
	finish 130 &&
	grep "^note: interrupted by a signal: partial results$" out &&
	grep "^note: the stop came from rank 1 (host [^)]*)$" out &&
	canary_check && workdir_empty
'

test_expect_success 'a rank that dies: rank 0 names it, cleans up, the job fails' '
	start_mpi -np 2 "$VFSBENCH" -e null -c stat.load -t 60s --warmup 0 \
		-D work 2 &&
	signal_rank 1 KILL &&
	finish 137 &&
	grep "^rank 0 (host [^)]*): error: rank 1 (host [^)]*) did not come to the end of a run within 0.5 s of SIGTERM: it may have died$" err &&
	grep "process rank 1 .* exited on signal 9" err &&
	canary_check && workdir_empty
'

test_done
