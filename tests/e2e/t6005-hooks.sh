#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='--exec-before and --exec-after: around every run, told which; a failing hook stops the sweep'
. "$srcdir/tests/e2e/lib.sh"

SQ="'"
# what each hook saw, one line
LOGLINE='echo "$VFSBENCH_HOOK run=$VFSBENCH_RUN clients=$VFSBENCH_CLIENTS repeat=$VFSBENCH_REPEAT variant=$VFSBENCH_VARIANT end=${VFSBENCH_END-unset} pid=$VFSBENCH_PID" >>'"'$TRASH/hooks.log'"

test_expect_success 'setup' '
	canary_setup &&
	printf "[run]\nstat .\n" >a.load &&
	printf "[run]\nstatfs .\n" >b.load
'

test_expect_success 'before and after each run, in the order of the sweep' '
	rm -f hooks.log &&
	start_vfsbench -q -e null --loops 2 --runs 2 -D "$TRASH/work" 1 3 \
		--exec-before "$LOGLINE" --exec-after "$LOGLINE" &&
	finish 0 &&
	sed -e "s/ pid=$pid\$/ pid=OK/" hooks.log >got &&
	cat >expect <<-EOF &&
	before run=0 clients=1 repeat=0 variant=default end=unset pid=OK
	after run=0 clients=1 repeat=0 variant=default end=complete pid=OK
	before run=1 clients=3 repeat=0 variant=default end=unset pid=OK
	after run=1 clients=3 repeat=0 variant=default end=complete pid=OK
	before run=2 clients=1 repeat=1 variant=default end=unset pid=OK
	after run=2 clients=1 repeat=1 variant=default end=complete pid=OK
	before run=3 clients=3 repeat=1 variant=default end=unset pid=OK
	after run=3 clients=3 repeat=1 variant=default end=complete pid=OK
	EOF
	test_cmp expect got &&
	canary_check && workdir_empty
'

test_expect_success 'the variant of each run, with several -c' '
	rm -f hooks.log &&
	vfsbench -q -e null --loops 1 --order sequential -c a.load -c b.load \
		-D "$TRASH/work" 2 --exec-before "$LOGLINE" >out &&
	sed -e "s/ pid=[0-9]*\$//" hooks.log >got &&
	cat >expect <<-EOF &&
	before run=0 clients=2 repeat=0 variant=a end=unset
	before run=1 clients=2 repeat=0 variant=b end=unset
	EOF
	test_cmp expect got &&
	canary_check && workdir_empty
'

test_expect_success 'the hook sees the run directory, and its output goes to stderr' '
	vfsbench -q -e null --loops 1 -D "$TRASH/work" 1 --skip-cleanup \
		--exec-after "echo hook-output; ls \"\$VFSBENCH_WORKDIR\"" \
		>out 2>err &&
	! grep hook-output out &&
	test_grep "^hook-output\$" err &&
	test_grep "^run0\$" err &&
	rm -rf "$TRASH"/work/vfsbench.* &&
	canary_check && workdir_empty
'

test_expect_success 'a failing --exec-before stops the sweep before the run, status named' '
	rm -f hooks.log &&
	test_expect_code 3 vfsbench -q -e null --loops 1 -D "$TRASH/work" 1 2 \
		--exec-before "$LOGLINE; test \$VFSBENCH_RUN = 0 || exit 7" \
		--json r.json >out 2>err &&
	test_grep "^error: --exec-before ${SQ}.*${SQ} exited with status 7, before run 1 (2 clients): the sweep stops\$" err &&
	test "$(grep -c "^1 client: " out)" -eq 1 &&
	! grep "^2 clients: " out &&
	test "$(wc -l <hooks.log)" -eq 2 &&
	grep "\"complete\": false" r.json &&
	canary_check && workdir_empty
'

test_expect_success 'a failing --exec-after stops the sweep after its run' '
	test_expect_code 3 vfsbench -q -e null --loops 1 -D "$TRASH/work" 1 2 \
		--exec-after "exit 1" >out 2>err &&
	test_grep "^error: --exec-after ${SQ}exit 1${SQ} exited with status 1, after run 0 (1 client): the sweep stops\$" err &&
	test "$(grep -c "^1 client: " out)" -eq 1 &&
	! grep "^2 clients: " out &&
	test_grep "^note: the sweep stopped early; the runs above are all that finished\$" out &&
	canary_check && workdir_empty
'

test_expect_success 'a hook killed by a signal: named, the sweep stops' '
	test_expect_code 3 vfsbench -q -e null --loops 1 -D "$TRASH/work" 1 \
		--exec-before "kill -KILL \$\$" >out 2>err &&
	test_grep "^error: --exec-before ${SQ}kill -KILL \\\$\\\$${SQ} was killed by signal 9 (Killed), before run 0 (1 client): the sweep stops\$" err &&
	! grep "^1 client: " out &&
	canary_check && workdir_empty
'

test_expect_success 'an empty hook is a usage error' '
	test_expect_code 2 vfsbench -q -e null --loops 1 -D "$TRASH/work" 1 \
		--exec-after "" >out 2>err &&
	test_grep "^vfsbench: --exec-after: the command is empty\$" err &&
	canary_check && workdir_empty
'

test_expect_success 'the hooks are recorded in the result file' '
	vfsbench -q -e null --loops 1 -D "$TRASH/work" 1 --exec-before true \
		--json h.json >out &&
	json_flat h.json >flat &&
	test "$(jget flat options.exec_before)" = true &&
	test "$(jget flat options.exec_after)" = null
'

test_done
