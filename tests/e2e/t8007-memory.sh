#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='memory: the clients must fit before anything is created'
. "$srcdir/tests/e2e/lib.sh"

# vfsbench(1) MEMORY: before creating anything, vfsbench adds up what the
# clients of the largest run will allocate and compares it with what
# RLIMIT_AS, MemAvailable and the memory cgroup leave. (An allocation that
# fails after that, in a run, fails the run through its cleanup: the unit
# test test-run.c test_out_of_memory_cleans_up, under a cap of its own.)
# ASan and TSan map terabytes of shadow memory: no `ulimit -v` there.

SQ="'"

# shellcheck disable=SC3045
if test -n "${VB_SANITIZER:-}"; then
	test_skip_all 'a sanitizer needs more address space than ulimit -v leaves'
elif ! (ulimit -v 1000000) 2>/dev/null; then
	test_skip_all 'this shell cannot set ulimit -v'
fi

# capped KIB ARGS...: vfsbench ARGS with at most KIB KiB of address space.
capped() {
	(
		# shellcheck disable=SC3045
		ulimit -v "$1" || exit 125
		shift
		exec "$VFSBENCH" "$@"
	)
}

test_expect_success 'setup: a loadfile of 16 MiB writes' '
	printf "%s\n" "open f wronly,creat @1" "pwrite @1 0 16m" "close @1" \
		>big.load
'

# issue 12: 200 clients under ulimit -v 1000000 said "fatal: out of
# memory" and left run0/clients/* behind.
test_expect_success '200 clients of 16 MiB under ulimit -v 1000000: exit 3, the figures, nothing created' '
	canary_setup &&
	test_expect_code 3 capped 1000000 -q -t 1s -c big.load \
		-D "$TRASH/work" 200 >out 2>err &&
	test "$(wc -l <err)" -eq 1 &&
	test_grep "^error: 200 clients need 3\.[0-9][0-9] GiB of address space (16\.[0-9] MiB a client: 16\.0 MiB of pread/pwrite buffer, [0-9.]* KiB of statistics, 260\.0 KiB of stack), but RLIMIT_AS (ulimit -v) leaves [0-9.]* MiB: use fewer clients or a smaller pread/pwrite size$" err &&
	test ! -s out &&
	canary_check &&
	workdir_empty
'

test_expect_success 'the same in a sweep: the largest count decides, before the first run' '
	canary_setup &&
	test_expect_code 3 capped 1000000 -q -t 1s -c big.load \
		-D "$TRASH/work" 1 2 200 >out 2>err &&
	test_grep "^error: 200 clients need " err &&
	test ! -s out &&
	canary_check &&
	workdir_empty
'

test_expect_success 'a count that fits runs under the same cap' '
	canary_setup &&
	capped 1000000 -q --loops 1 -c big.load -D "$TRASH/work" 8 \
		>out 2>err &&
	test ! -s err &&
	test "$(op_count out pwrite)" = 8 &&
	canary_check &&
	workdir_empty
'

# No machine has 1.5 TiB available; without a cap the message names the
# memory the machine has (or, in a container, its cgroup).
test_expect_success '100000 clients of 16 MiB: more than the machine has, exit 3' '
	canary_setup &&
	test_expect_code 3 vfsbench -q -t 1s -c big.load -D "$TRASH/work" \
		100000 >out 2>err &&
	grep -E "^error: 100000 clients need [0-9.]+ GiB of (memory|address space) \\(16\\.[0-9] MiB a client: .*\\), but (the machine has available \\(MemAvailable\\)|the memory cgroup leaves|RLIMIT_AS \\(ulimit -v\\) leaves) [0-9.]+ [GMK]iB: use fewer clients or a smaller pread/pwrite size$" err &&
	test ! -s out &&
	canary_check &&
	workdir_empty
'

test_done
