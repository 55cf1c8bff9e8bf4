#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='--profile: perf lock contention top locks per point of the same windows, or the reason perf gave'
. "$srcdir/tests/e2e/lib.sh"

command -v jq >/dev/null 2>&1 || test_skip_all "jq is not installed"
SQ="'"

# A perf that speaks the control protocol. As perf record it creates its
# -o file and acknowledges every command until SIGINT; perf stat prints
# nothing; perf script prints one cpu-clock sample. As perf lock record it writes "fake lock data" to its -o
# file, its mount namespace to $FAKE_LOCK_NS and the commands it got to
# $FAKE_LOCK_CMDS; with $FAKE_LOCK_FAIL it prints that as its message
# and exits 1 at once. As perf lock -i FILE contention it prints
# $FAKE_CONTENTION on its standard error (where perf 6.1 prints its
# table) and exits with $FAKE_CONTENTION_RC, or says the file is not
# the one perf lock record wrote. In bash: the fds may pass 9.
test_expect_success 'setup: a fake perf, a loadfile' '
	canary_setup &&
	printf "[run]\nstat .\n" >s.load &&
	mkdir -p fake &&
	cat >fake/perf <<-\EOF &&
	#!/usr/bin/env bash
	if test "$1" = script; then
		printf "1 250000 cpu-clock: \n\tffffffff81000000 do_sys_open ([kernel.kallsyms])\n\n"
		exit 0
	fi
	if test "$1 $2" = "lock -i"; then
		if test "$(cat "$3")" != "fake lock data"; then
			echo "not the file perf lock record wrote: $3" >&2
			exit 3
		fi
		printf "%s" "$FAKE_CONTENTION" >&2
		exit "${FAKE_CONTENTION_RC:-0}"
	fi
	sub=$1
	test "$sub $2" = "lock record" && sub=lockrec
	while test $# -gt 0; do
		case $1 in
		--control) ctl=${2#fd:}; shift ;;
		-o) out=$2; shift ;;
		esac
		shift
	done
	case $sub in
	stat) trap "" INT ;;
	lockrec)
		readlink /proc/self/ns/mnt >"$FAKE_LOCK_NS"
		if test -n "$FAKE_LOCK_FAIL"; then
			printf "%s\n" "$FAKE_LOCK_FAIL" >&2
			exit 1
		fi
		echo "fake lock data" >"$out" ;;
	*) : >"$out" ;;
	esac
	while eval "read -r cmd <&${ctl%,*}"; do
		test "$sub" = lockrec && echo "$cmd" >>"$FAKE_LOCK_CMDS"
		eval "printf \"ack\\n\" >&${ctl#*,}"
	done
	exit 0
	EOF
	chmod +x fake/perf &&
	printf "%s\n" \
		" contended   total wait     max wait     avg wait         type   caller" \
		"" \
		"        19    265.31 ms     45.76 ms     13.96 ms      rwsem:W   do_filp_open+0x106" \
		"        11    109.11 ms     28.40 ms      9.92 ms      rwsem:W   __x64_sys_unlink+0x3b" \
		"        41      1.06 ms    102.41 us     25.96 us        mutex   perf_try_init_event+0x3a" \
		"         3       850 ns       400 ns       283 ns     spinlock   d_alloc_parallel+0x1a" \
		"         2     20.19 us     19.06 us     10.10 us     rwlock:R   kernel_wait4+0xe3" \
		"         1      1.50 us      1.50 us      1.50 us      rwsem:R   walk_component+0x40" \
		>table
'

run_fake() {
	env PATH="$TRASH/fake:$PATH" FAKE_LOCK_CMDS="$TRASH/lock.cmds" \
		FAKE_LOCK_NS="$TRASH/lock.ns" \
		"$VFSBENCH" -q -c s.load --loops 1 -D "$TRASH/work" "$@"
}

test_expect_success 'top locks perf printed: in the JSON and the report, exactly' '
	rm -f lock.cmds &&
	FAKE_CONTENTION="$(cat table)" FAKE_CONTENTION_RC=0 \
		run_fake 1 --profile 1 --json c.json >out 2>err &&
	test "$(jq -r ".profiles[0].lock_file" c.json)" = perf-1.lock.data &&
	test "$(jq -r ".profiles[0].locks_absent" c.json)" = null &&
	test "$(jq -c ".profiles[0].locks[0]" c.json)" = \
		"{\"caller\":\"do_filp_open+0x106\",\"type\":\"rwsem:W\",\"contended\":19,\"wait_total_ns\":265310000,\"wait_max_ns\":45760000,\"wait_avg_ns\":13960000}" &&
	test "$(jq -r ".profiles[0].locks | length" c.json)" = 6 &&
	test "$(jq -r "[.profiles[0].locks[] | .contended] | @csv" c.json)" = \
		"19,11,41,3,2,1" &&
	test "$(jq -r "[.profiles[0].locks[3] | .wait_total_ns, .wait_max_ns, .wait_avg_ns] | @csv" c.json)" = \
		"850,400,283" &&
	test "$(jq -r "[.profiles[0].locks[2] | .wait_total_ns, .wait_max_ns, .wait_avg_ns] | @csv" c.json)" = \
		"1060000,102410,25960" &&
	test "$(jq -r ".profiles[0].locks[5].type" c.json)" = rwsem:R &&
	sed -n "/^    locks/,/^[^ ]/p" out | sed "/^[^ ]/d;/^\$/d" >got &&
	printf "%s\n" \
		"    locks (perf-1.lock.data), by total wait:" \
		"       contended   total wait     max wait     avg wait  type       caller" \
		"              19    265.31 ms     45.76 ms     13.96 ms  rwsem:W    do_filp_open+0x106" \
		"              11    109.11 ms     28.40 ms      9.92 ms  rwsem:W    __x64_sys_unlink+0x3b" \
		"              41      1.06 ms    102.41 us     25.96 us  mutex      perf_try_init_event+0x3a" \
		"               3       850 ns       400 ns       283 ns  spinlock   d_alloc_parallel+0x1a" \
		"               2     20.19 us     19.06 us     10.10 us  rwlock:R   kernel_wait4+0xe3" \
		"      (1 more in the JSON)" >want &&
	test_cmp want got &&
	# the same windows as perf record: off at start, on and off around
	# the measurement of the one run
	test "$(tr "\n" " " <lock.cmds)" = "disable enable disable " &&
	test "$(cat perf-1.lock.data)" = "fake lock data" &&
	rm perf-1.data perf-1.folded perf-1.lock.data &&
	canary_check && workdir_empty
'

# Without CAP_SYS_ADMIN there is no namespace to make, and none needed:
# perf cannot mount tracefs either.
if unshare -m true 2>/dev/null; then
	test_expect_success 'perf lock record runs in a mount namespace of its own' '
		test -s lock.ns &&
		test "$(cat lock.ns)" != "$(readlink /proc/self/ns/mnt)"
	'
else
	test_skip 'perf lock record runs in a mount namespace of its own' 'unshare -m is not permitted here'
fi

test_expect_success 'a table without rows: nothing contended, an empty list' '
	FAKE_CONTENTION="$(head -n 2 table)" \
		run_fake 1 2 --profile 2 --json e.json >out 2>err &&
	test "$(jq -c "[.profiles[0] | .clients, .locks, .locks_absent]" e.json)" = \
		"[2,[],null]" &&
	test_grep "^    locks (perf-2.lock.data): none contended\$" out &&
	rm perf-2.data perf-2.folded perf-2.lock.data &&
	canary_check && workdir_empty
'

test_expect_success 'perf lock contention fails: the reason perf gave, per point' '
	FAKE_CONTENTION="No trace sample to read. Did you call ${SQ}perf lock record${SQ}?
" FAKE_CONTENTION_RC=234 run_fake 1 2 --profile all --json f.json \
		>out 2>err &&
	reason="perf lock contention exited with status 234: No trace sample to read. Did you call ${SQ}perf lock record${SQ}?" &&
	for c in 1 2; do
		p=".profiles[] | select(.clients == $c)" &&
		test "$(jq -r "$p | .locks" f.json)" = null &&
		test "$(jq -r "$p | .locks_absent" f.json)" = "$reason" &&
		# the file perf lock contention could not read is kept
		test "$(jq -r "$p | .lock_file" f.json)" = perf-$c.lock.data ||
		return 1
	done &&
	test "$(grep -c "^    locks: none ($reason)\$" out)" = 2 &&
	rm perf-1.data perf-1.folded perf-1.lock.data &&
	rm perf-2.data perf-2.folded perf-2.lock.data &&
	canary_check && workdir_empty
'

test_expect_success 'perf lock record cannot start: the profile goes on, its message recorded' '
	FAKE_LOCK_FAIL="event syntax error: ${SQ}lock:contention_begin${SQ}" \
		run_fake 1 --profile 1 --json s.json >out 2>err &&
	reason="perf lock record exited with status 1 before it was attached: event syntax error: ${SQ}lock:contention_begin${SQ}" &&
	test "$(jq -r ".profiles[0].locks_absent" s.json)" = "$reason" &&
	test "$(jq -r ".profiles[0].locks, .profiles[0].lock_file" s.json | tr "\n" " ")" = "null null " &&
	test_grep "^  1 client: perf-1.data, perf-1.folded\$" out &&
	test_grep "^    locks: none ($reason)\$" out &&
	! test -e perf-1.lock.data &&
	test "$(ls perf-1.lock.data.tmp* 2>/dev/null | wc -l)" = 0 &&
	rm perf-1.data perf-1.folded &&
	canary_check && workdir_empty
'

test_expect_success 'compare: each side'"'"'s top locks per client count, untested; the reason where a side has none' '
	printf "%s\n" \
		" contended   total wait     max wait     avg wait         type   caller" \
		"" \
		"        25    300.00 ms     50.00 ms     12.00 ms      rwsem:W   do_filp_open+0x106" \
		"         4      2.00 ms      1.00 ms    500.00 us        mutex   new_lock+0x10" \
		>table-b &&
	FAKE_CONTENTION="$(cat table)" run_fake 1 2 --profile all \
		--json a.json >out 2>err &&
	FAKE_CONTENTION="$(cat table-b)" run_fake 1 2 --profile 1 \
		--json b.json >out 2>err &&
	vfsbench compare a.json b.json >cmp 2>err &&
	sed -n "/^Top locks/,\$p" cmp >got &&
	printf "%s\n" \
		"Top locks (perf lock contention), ${SQ}a${SQ} against ${SQ}b${SQ}" \
		"(counts of one run a side, not tested; - not among the file${SQ}s listed ones)" \
		"Clients  Caller                           type       contended  contended  total wait  total wait" \
		"                                                             a          b           a           b" \
		"      1  do_filp_open+0x106               rwsem:W           19         25   265.31 ms   300.00 ms" \
		"      1  __x64_sys_unlink+0x3b            rwsem:W           11          -   109.11 ms           -" \
		"      1  perf_try_init_event+0x3a         mutex             41          -     1.06 ms           -" \
		"      1  d_alloc_parallel+0x1a            spinlock           3          -      850 ns           -" \
		"      1  kernel_wait4+0xe3                rwlock:R           2          -    20.19 us           -" \
		"      1  new_lock+0x10                    mutex              -          4           -     2.00 ms" \
		>want &&
	test_cmp want got &&
	FAKE_CONTENTION="No trace sample to read." FAKE_CONTENTION_RC=234 \
		run_fake 1 --profile 1 --json n.json >out 2>err &&
	vfsbench compare a.json n.json >cmp 2>err &&
	test_grep "^      1  ${SQ}n${SQ}: no locks (perf lock contention exited with status 234: No trace sample to read.)\$" cmp &&
	test_grep "^      1  do_filp_open+0x106               rwsem:W           19          -   265.31 ms           -\$" cmp &&
	rm -f perf-1.* perf-2.* &&
	canary_check && workdir_empty
'

# The real perf, in a mount namespace of the test's own where tracefs is
# not mounted: perf lock record mounts it in its own namespace, which
# leaves nothing behind here. Whether this kernel contends in the window
# is up to the machine, so the check is on the structure: each point has
# either its locks (each row whole) or the reason perf gave, never both.
if ! command -v perf >/dev/null 2>&1; then
	test_skip 'lock contention with the real perf' 'perf is not installed (linux-perf)'
elif ! perf record -q -e cpu-clock -o "$TRASH/probe.data" true \
	>"$TRASH/probe.out" 2>&1; then
	test_skip 'lock contention with the real perf' "perf record cannot run here: $(tr '\n' ' ' <"$TRASH/probe.out")"
elif ! unshare -m --propagation private true 2>/dev/null; then
	test_skip 'lock contention with the real perf' 'no mount namespace for the test'
else
	test_expect_success 'lock contention with the real perf: the top locks or the reason, and no mount left' '
		unshare -m --propagation private sh -c "
			umount -a -t tracefs &&
			! grep -q \" - tracefs \" /proc/self/mountinfo &&
			\"\$VFSBENCH\" -q -c create-unlink.load --cwd shared \
				-t 500ms -D \"\$1\" 1 2 --profile all \
				--json r.json >out 2>err &&
			! grep -q \" - tracefs \" /proc/self/mountinfo
		" sh "$TRASH/work" &&
		test "$(jq -r "[.profiles[].clients] | @csv" r.json)" = "1,2" &&
		test "$(jq -r "[.profiles[] | select((.locks == null) == (.locks_absent == null))] | length" r.json)" = 0 &&
		test "$(jq -r "[.profiles[] | select(.locks != null and .lock_file == null)] | length" r.json)" = 0 &&
		test "$(jq -r "[.profiles[] | .locks // [] | .[] |
			select((.caller | type) != \"string\" or (.type | type) != \"string\" or
				.contended < 1 or .wait_max_ns > .wait_total_ns or
				.wait_avg_ns > .wait_max_ns)] | length" r.json)" = 0 &&
		for c in 1 2; do
			p=".profiles[] | select(.clients == $c)" &&
			if test "$(jq -r "$p | .locks_absent" r.json)" = null; then
				test -s perf-$c.lock.data &&
				test_grep "^    locks (perf-$c.lock.data)" out
			else
				test_grep "^    locks: none (" out
			fi || return 1
		done &&
		rm -f perf-1.* perf-2.* &&
		canary_check && workdir_empty
	'
fi

test_done
