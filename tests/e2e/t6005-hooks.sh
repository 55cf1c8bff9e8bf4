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

test_expect_success 'a signal before the first run: exit 130, and the report says why it has no run' '
	canary_setup &&
	test_expect_code 130 vfsbench -q -t 30s --warmup 0 -D "$TRASH/work" \
		--exec-before "kill -INT \$PPID; exec sleep 1000" 2 >out 2>err &&
	! grep "^2 clients: " out &&
	test_grep "^note: the sweep stopped early (interrupted by a signal); the runs above are all that finished\$" out &&
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

# The hook's shell: the leader of its own group, no signal of 1-31
# ignored or blocked (vfsbench ignores SIGPIPE and SIGXFSZ and blocks
# SIGUSR1), stdin /dev/null. The shell reads its own masks: a child
# (grep) would read them while dash waits for it with every signal
# blocked, and so failed this test now and then.
test_expect_success 'a hook: its own process group, default signals, stdin /dev/null' '
	rm -f hook.txt &&
	sed "s|@OUT@|$TRASH/hook.txt|" >hook.sh <<-\EOF &&
	sed -e "s/.*) . [0-9]* \([0-9]*\).*/pgid \1/" /proc/$$/stat >"@OUT@"
	echo "pid $$" >>"@OUT@"
	while read -r k v; do
		case $k in SigIgn: | SigBlk:) echo "$k $v" ;; esac
	done </proc/$$/status >>"@OUT@"
	readlink /proc/$$/fd/0 >>"@OUT@"
	EOF
	bounded "$VFSBENCH" -q -e null --loops 1 -D "$TRASH/work" 1 \
		--exec-before ". \"$TRASH/hook.sh\"" >out 2>err &&
	test ! -s err &&
	test "$(sed -n "s/^pgid //p" hook.txt)" = "$(sed -n "s/^pid //p" hook.txt)" &&
	test "$(sed -n "s/^pgid //p" hook.txt)" != "$(sed -e "s/.*) . [0-9]* \([0-9]*\).*/\1/" /proc/$$/stat)" &&
	ign=$(sed -n "s/^SigIgn:[[:space:]]*//p" hook.txt) &&
	blk=$(sed -n "s/^SigBlk:[[:space:]]*//p" hook.txt) &&
	test $((0x${ign#????????} & 0x7fffffff)) -eq 0 &&
	test $((0x${blk#????????} & 0x7fffffff)) -eq 0 &&
	test_grep "^/dev/null\$" hook.txt &&
	canary_check && workdir_empty
'

# With SIGPIPE ignored, as vfsbench has it, the loop would write for ever.
test_expect_success 'a pipeline hook ends at once: SIGPIPE has its default' '
	bounded "$VFSBENCH" -q -e null --loops 1 -D "$TRASH/work" 1 \
		--exec-before "while :; do echo x; done | head -1" \
		>out 2>err &&
	printf "x\n" >expect &&
	test_cmp expect err &&
	test "$(grep -c "^1 client: " out)" -eq 1 &&
	canary_check && workdir_empty
'

# The hook writes the pid of its background sleep, which shares its
# process group but is not its leader: the SIGTERM reaches the group.
test_expect_success 'SIGTERM during a sleeping hook: the group ends, exit 143, cleaned up' '
	rm -f sleep.pid &&
	start_vfsbench -q -e null --loops 1 -D "$TRASH/work" 1 \
		--exec-before "sleep 1000 & echo \$! >\"$TRASH/sleep.pid\"; wait" &&
	wait_file sleep.pid &&
	kill -TERM "$pid" &&
	ends 143 &&
	gone "$(cat sleep.pid)" &&
	test ! -s err &&
	! grep "^1 client: " out &&
	canary_check && workdir_empty
'

test_expect_success 'SIGINT during --exec-after: the hook is stopped, exit 130' '
	rm -f sleep.pid &&
	start_vfsbench -q -e null --loops 1 -D "$TRASH/work" 1 \
		--exec-after "sleep 1000 & echo \$! >\"$TRASH/sleep.pid\"; wait" &&
	wait_file sleep.pid &&
	kill -INT "$pid" &&
	ends 130 &&
	gone "$(cat sleep.pid)" &&
	test ! -s err &&
	test "$(grep -c "^1 client: " out)" -eq 1 &&
	canary_check && workdir_empty
'

# A hook that ignores SIGTERM: SIGKILL after the grace period, said.
test_expect_success 'a hook that ignores SIGTERM: SIGKILL after 2 s, said, exit 143' '
	rm -f sleep.pid &&
	start_vfsbench -q -e null --loops 1 -D "$TRASH/work" 1 \
		--exec-before "trap \"\" TERM; echo \$\$ >\"$TRASH/sleep.pid\"; exec sleep 1000" &&
	wait_file sleep.pid &&
	kill -TERM "$pid" &&
	ends 143 &&
	gone "$(cat sleep.pid)" &&
	printf "%s\n" "warning: --exec-before ${SQ}trap \"\" TERM; echo \$\$ >\"$TRASH/sleep.pid\"; exec sleep 1000${SQ} still ran 2 s after SIGTERM: its process group was killed (SIGKILL)" >expect &&
	test_cmp expect err &&
	canary_check && workdir_empty
'

test_done
