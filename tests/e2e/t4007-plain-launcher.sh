#!/bin/sh
# shellcheck disable=SC2034
test_description='a build without MPI under an MPI launcher refuses, exit 2, before anything is made'
# shellcheck disable=SC2154
. "$srcdir/tests/e2e/lib.sh"

# shellcheck disable=SC2154
# The MPI build joins the job these variables name: t4003 tests that.
grep -q '^#define HAVE_MPI 1' "$abs_top_builddir/config.h" &&
	test_skip_all 'built with MPI: it joins the job (t4003)'

MPI_BUILD="under mpirun, run the MPI build, vfsbench-mpi (Debian package vfsbench-mpi; in the source tree, sh tools/quickstart.sh --mpi)"

# refused MESSAGE-HEAD ENV... -- ARGS...: vfsbench ARGS in a fake
# launcher's environment exits 2 with exactly "error: MESSAGE-HEAD: "
# and the way to the MPI build, and prints nothing on stdout.
refused() {
	rf_want="error: $1: $MPI_BUILD"
	shift
	vars=
	while [ "$1" != -- ]; do
		vars="$vars $1"
		shift
	done
	shift
	# shellcheck disable=SC2086
	test_expect_code 2 env $vars "$VFSBENCH" "$@" >out 2>err &&
	printf "%s\n" "$rf_want" >expect &&
	test_cmp expect err &&
	test ! -s out
}

# nothing_made: -D holds its canary alone, and no result file exists.
nothing_made() {
	canary_check &&
	test "$(ls -A work)" = canary &&
	test "$(find "$TRASH" -mindepth 1 -maxdepth 1 ! -name work \
		! -name canary ! -name expect ! -name out ! -name err \
		! -name .out ! -name vfsbench-dbench)" = ""
}

SIZE2='this vfsbench is built without MPI, but an MPI launcher started it as one of 2 processes (OMPI_COMM_WORLD_SIZE=2), each of which would run a sweep of its own'

test_expect_success 'mpirun -np 2 (OMPI_COMM_WORLD_SIZE=2): refused, nothing made' '
	canary_setup &&
	refused "$SIZE2" OMPI_COMM_WORLD_SIZE=2 OMPI_COMM_WORLD_RANK=0 \
		PMIX_RANK=0 -- -D work -e null --loops 5 --json m.json \
		--csv m.csv 1 2 &&
	nothing_made
'

test_expect_success 'PMI (PMI_SIZE=4, PMI_RANK=3): refused, nothing made' '
	canary_setup &&
	refused "this vfsbench is built without MPI, but an MPI launcher started it as one of 4 processes (PMI_SIZE=4), each of which would run a sweep of its own" \
		PMI_SIZE=4 PMI_RANK=3 -- -D work --json m.json 1 &&
	nothing_made
'

test_expect_success 'PMIx and PMI ranks without a size: refused, nothing made' '
	canary_setup &&
	refused "this vfsbench is built without MPI, but an MPI launcher started it (PMIX_RANK=0) in a job of a size it does not say, each of whose processes would run a sweep of its own" \
		PMIX_RANK=0 -- -D work --json m.json 1 &&
	nothing_made &&
	refused "this vfsbench is built without MPI, but an MPI launcher started it (PMI_RANK=1) in a job of a size it does not say, each of whose processes would run a sweep of its own" \
		PMI_RANK=1 -- -D work --json m.json 1 &&
	nothing_made
'

test_expect_success 'the dbench personality, fdscale and a listing are refused too' '
	canary_setup &&
	refused "$SIZE2" OMPI_COMM_WORLD_SIZE=2 -- dbench -D work -t 1 1 &&
	nothing_made &&
	ln -s "$VFSBENCH" vfsbench-dbench &&
	test_expect_code 2 env OMPI_COMM_WORLD_SIZE=2 ./vfsbench-dbench \
		-D work -t 1 1 2>err &&
	test_grep "^error: $SIZE2: " err &&
	rm vfsbench-dbench &&
	refused "$SIZE2" OMPI_COMM_WORLD_SIZE=2 -- fdscale --max 64 \
		--json f.json &&
	nothing_made &&
	refused "$SIZE2" OMPI_COMM_WORLD_SIZE=2 -- --list-loadfiles
'

test_expect_success 'a job of one (OMPI_COMM_WORLD_SIZE=1) runs as without a launcher' '
	canary_setup &&
	env OMPI_COMM_WORLD_SIZE=1 OMPI_COMM_WORLD_RANK=0 PMIX_RANK=0 \
		"$VFSBENCH" -D work -e null --loops 5 -q --json m.json 1 >out &&
	test_grep "^Throughput" out &&
	json_valid m.json &&
	canary_check &&
	test "$(ls -A work)" = canary
'

test_done
