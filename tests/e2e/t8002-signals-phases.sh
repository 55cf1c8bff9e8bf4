#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='SIGINT and SIGTERM in each phase (setup, warmup, measurement, cleanup); cleanup never escapes'
. "$srcdir/tests/e2e/lib.sh"

# t4002-signals.sh covers SIGINT in the warmup and the measurement, SIGTERM
# in the measurement and two signals at once; this script adds the [setup]
# and cleanup phases, SIGTERM in the warmup, a second signal while the
# cleanup is known to be in progress, and symlinks out of the work
# directory under signals.

# --- helpers ---------------------------------------------------------------

# The complete report of a run with N clients: no note line.
check_complete() {
	test_grep "^$1 clients*: [0-9]* ops in " out &&
	! grep "^note:" out &&
	test "$(grep -c "^Throughput .* MB/sec  $1 clients  $1 procs  max_latency=" out)" -eq 1
}

# After a second signal: exactly one "files left in" line, naming the
# work directory $wd; it still exists (and is then removed here).
check_left() {
	test "$(grep -c "files left in" err)" -eq 1 &&
	test_grep "^vfsbench: cleanup [a-z ]* a second signal: files left in ${SQ}.*${SQ}\$" err &&
	left=$(sed -n -e "s/^vfsbench: cleanup .* a second signal: files left in ${SQ}\(.*\)${SQ}\$/\1/p" err) &&
	if test "$left" != "$wd"; then
		say "left ${SQ}$left${SQ}, not the work directory $wd" >&2
		return 1
	fi &&
	test -d "$left" &&
	test -f "$left/.vfsbench-workdir"
}

SQ="'"

# The cleanup tests need a cleanup that takes a while: NDIRS directories
# per client made by [setup] ("dirs.load"), 2 clients.
NDIRS=600

# entries: the number of entries in the client directories of run0, that
# is 2 * NDIRS once both clients are set up, 0 once all are removed.
entries() {
	n=0
	for c in "$wd"/run0/clients/client*; do
		test -d "$c" || continue
		# ls -f: unsorted, with . and ..
		k=$(ls -f "$c" 2>/dev/null | wc -l)
		test "$k" -ge 2 && n=$((n + k - 2))
	done
	echo "$n"
}

# catch_cleanup [SIG]: once both clients are set up, send SIG (if given),
# wait for the first entry to go (the cleanup of run0 has begun), stop
# vfsbench with SIGSTOP and check that entries are left. Returns 1, with
# vfsbench running again, if the cleanup was over too soon to catch.
catch_cleanup() {
	full=$((2 * NDIRS))
	i=0
	while test "$(entries)" -lt "$full"; do
		i=$((i + 1))
		if grep -q "^State:.*zombie" "/proc/$pid/status" 2>/dev/null; then
			say "vfsbench ended before it was seen set up" >&2
			return 1
		fi
		if test $i -gt 600; then
			say "not set up after 30 s" >&2
			return 1
		fi
		sleep 0.05
	done
	if test -n "${1-}"; then
		kill "-$1" "$pid" || return 1
	fi
	i=0
	while test "$(entries)" -ge "$full"; do
		i=$((i + 1))
		if test $i -gt 10000; then
			say "no cleanup began" >&2
			return 1
		fi
	done
	kill -STOP "$pid" || return 1
	left_entries=$(entries)
	if test "$left_entries" -le 0; then
		kill -CONT "$pid"
		say "the cleanup was over before vfsbench could be stopped" >&2
		return 1
	fi
	return 0
}

# start_in_cleanup [SIG] ARGS...: canary_setup, then start vfsbench with
# ARGS and -c dirs.load 2 and catch it, stopped, in the cleanup of run0
# (after SIG, if not -). Up to 3 tries, for a fast filesystem.
start_in_cleanup() {
	sig=$1
	shift
	test "$sig" = - && sig=
	for try in 1 2 3; do
		canary_setup &&
		start_vfsbench "$@" -c dirs.load -D "$TRASH/work" 2 &&
		wait_workdir || return 1
		if catch_cleanup $sig; then
			return 0
		fi
		kill -CONT "$pid" 2>/dev/null
		wait "$pid"
		rm -rf "$TRASH"/work/vfsbench.*
		say "try $try: the cleanup was not caught" >&2
	done
	return 1
}

# The [setup] gate: gate.load's [setup] opens two FIFOs for reading,
# gates/${client}.a and gates/${client}.b, through a link to $TRASH/gates. The test holds .a open first (read-write: never blocks),
# so client 0's open of .a returns at once; seeing vfsbench hold .a, the
# test knows client 0 is in its [setup], at or in its open of .b, which
# waits for a writer. The test signals vfsbench, then opens .b to let
# client 0 go on. No timing: once kill returns, the signal is pending on
# the main thread (the only one not blocking it), which handles it before
# it runs any more of its own code, so before it sees client 0's setup end.
# gates/1.a and above do not exist: a client after client 0 that began
# its [setup] would fail it at once (ENOENT, exit 3) instead of hanging.
#
# The link points outside the client directory (the FIFOs must exist
# before the run begins), hence --links-out; the loadfile only reads.
gate_open() {
	rm -rf "$TRASH/gates" &&
	mkdir "$TRASH/gates" &&
	mkfifo "$TRASH/gates/0.a" "$TRASH/gates/0.b"
}

# gate_held: vfsbench has gates/0.a open.
gate_held() {
	for f in "/proc/$pid/fd"/*; do
		test "$(readlink "$f" 2>/dev/null)" = "$TRASH/gates/0.a" && return 0
	done
	return 1
}

# wait_gate: open gates/0.a read-write on fd 3 and wait, up to ~30 s,
# until client 0 has it open too.
wait_gate() {
	exec 3<>"$TRASH/gates/0.a" || return 1
	i=0
	while ! gate_held; do
		i=$((i + 1))
		if test $i -gt 600 || ! kill -0 "$pid" 2>/dev/null; then
			say "client 0 did not open the gate" >&2
			kill_again KILL
			cat out err >&2
			return 1
		fi
		sleep 0.05
	done
}

# release_gate: open gates/0.b (client 0's open of it returns), then close
# both FIFOs.
release_gate() {
	exec 4<>"$TRASH/gates/0.b" &&
	exec 3>&- 4>&-
}

# dirs.load for the cleanup tests, gate.load for the [setup] tests.
test_expect_success 'setup: loadfiles' '
	{
		echo "[setup]" &&
		i=0 &&
		while test $i -lt $NDIRS; do
			echo "mkdir d$i" &&
			i=$((i + 1)) || return 1
		done &&
		echo "[run]" &&
		echo "stat d0"
	} >dirs.load &&
	cat >gate.load <<-EOF
	[setup]
	symlink  "$TRASH/gates"  gates
	open     gates/\${client}.a  rdonly  @1
	open     gates/\${client}.b  rdonly  @2
	close    @1
	close    @2
	[run]
	stat     .
	EOF
'

# --- [setup] ---------------------------------------------------------------

test_expect_success 'SIGINT during [setup]: exit 130, partial report, cleaned up' '
	canary_setup &&
	gate_open &&
	start_vfsbench -q -t 30s --links-out -c gate.load -D "$TRASH/work" 4 &&
	wait_gate &&
	kill -INT "$pid" &&
	release_gate &&
	finish 130 &&
	check_report 4 &&
	test -z "$(op_count out stat)" &&
	test "$(grep "^Left out" out)" = "Left out, no call measured: stat" &&
	! grep "files left" err &&
	canary_check &&
	workdir_empty
'

test_expect_success 'SIGTERM during [setup]: exit 143, partial report, cleaned up' '
	canary_setup &&
	gate_open &&
	start_vfsbench -q -t 30s --links-out -c gate.load -D "$TRASH/work" 4 &&
	wait_gate &&
	kill -TERM "$pid" &&
	release_gate &&
	finish 143 &&
	check_report 4 &&
	test -z "$(op_count out stat)" &&
	canary_check &&
	workdir_empty
'

# vfsbench(1): "The first one stops the current run as if its time were
# up". run.c start_clients() sets client 0 up alone and looks at
# signals.count before starting each further client, so a signal in
# client 0's [setup] leaves clients 1 to 15 not set up: had client 1 begun
# its [setup], it would have failed on the missing gates/1.a (exit 3,
# "[setup] of client 1").
test_expect_success 'a signal during [setup] stops it: later clients are not set up' '
	canary_setup &&
	gate_open &&
	start_vfsbench -q -t 30s --links-out --skip-cleanup -c gate.load \
		-D "$TRASH/work" 16 &&
	wait_gate &&
	kill -INT "$pid" &&
	release_gate &&
	finish 130 &&
	! grep "client 1" err &&
	set -- "$TRASH"/work/vfsbench.* &&
	test $# -eq 1 &&
	test -h "$1/run0/clients/client0/gates" &&
	! test -e "$1/run0/clients/client1" &&
	rm -rf "$1" &&
	canary_check &&
	workdir_empty
'

# --- warmup and measurement ------------------------------------------------

test_expect_success 'SIGTERM during a timed warmup: exit 143, report, cleanup' '
	canary_setup &&
	start_vfsbench -q -t 30s --warmup 30s -c statfs -D "$TRASH/work" 2 &&
	wait_workdir &&
	sleep 0.5 &&
	kill -TERM "$pid" &&
	finish 143 &&
	check_report 2 &&
	test -z "$(op_count out statfs)" &&
	test "$(grep "^Left out" out)" = "Left out, no call measured: statfs" &&
	canary_check &&
	workdir_empty
'

test_expect_success 'SIGINT during a warmup of passes: no hang, exit 130' '
	canary_setup &&
	start_vfsbench -q -t 30s --warmup 1000000000p -c statfs \
		-D "$TRASH/work" 3 &&
	wait_workdir &&
	sleep 0.5 &&
	kill -INT "$pid" &&
	finish 130 &&
	check_report 3 &&
	test -z "$(op_count out statfs)" &&
	test "$(grep "^Left out" out)" = "Left out, no call measured: statfs" &&
	canary_check &&
	workdir_empty
'

test_expect_success 'SIGINT during a warmup of passes with --loops: exit 130' '
	canary_setup &&
	start_vfsbench -q --loops 5 --warmup 1000000000p -c statfs \
		-D "$TRASH/work" 3 &&
	wait_workdir &&
	sleep 0.5 &&
	kill -INT "$pid" &&
	finish 130 &&
	check_report 3 &&
	canary_check &&
	workdir_empty
'

test_expect_success 'SIGTERM during the measurement, mixed, shared cwd, depth 3' '
	canary_setup &&
	start_vfsbench -q -t 30s --warmup 0 -c mixed --cwd shared --depth 3 \
		-D "$TRASH/work" 4 &&
	wait_workdir &&
	sleep 0.5 &&
	kill -TERM "$pid" &&
	finish 143 &&
	check_report 4 &&
	test "$(grep -c "^  " out)" -eq 0 &&
	canary_check &&
	workdir_empty
'

# --- cleanup ---------------------------------------------------------------

# A first signal while a complete run is being cleaned up: the cleanup
# goes on, the report is the complete one, and the exit status is that of
# the signal (vfsbench(1) EXIT STATUS: 130 "Interrupted by SIGINT").
# The run ends by itself: its window must outlast the poll that sees the
# tree set up, or a loaded machine misses it (seen at load 20 and above
# with -t 500ms); 4 s leaves room for that, and a miss is tried again.
test_expect_success 'SIGINT during the cleanup of a complete run: exit 130, cleaned up' '
	start_in_cleanup - -q -t 4s --warmup 0 &&
	kill -INT "$pid" &&
	kill -CONT "$pid" &&
	finish 130 &&
	check_complete 2 &&
	! grep "files left" err &&
	canary_check &&
	workdir_empty
'

test_expect_success 'SIGTERM during the cleanup of a complete run: exit 143, cleaned up' '
	start_in_cleanup - -q -t 4s --warmup 0 &&
	kill -TERM "$pid" &&
	kill -CONT "$pid" &&
	finish 143 &&
	check_complete 2 &&
	! grep "files left" err &&
	canary_check &&
	workdir_empty
'

test_expect_success 'SIGINT, then a second SIGINT during the cleanup: files left named, 130' '
	start_in_cleanup INT -q -t 30s --warmup 0 &&
	kill -INT "$pid" &&
	kill -CONT "$pid" &&
	finish 130 &&
	check_report 2 &&
	check_left &&
	cp err err.cut &&
	n=$(find "$wd" -mindepth 1 | wc -l) &&
	test "$n" -gt 1 &&
	test "$n" -lt $((2 * NDIRS + 5)) &&
	canary_check &&
	rm -rf "$wd" &&
	workdir_empty
'

# vfsbench(1) SIGNALS: "A second signal abandons the cleanup, or skips it
# if it has not started", with a message for each. Above, the second
# SIGINT came after part of run0 was removed: "interrupted".
test_expect_success 'a second signal in the middle of the cleanup says "interrupted"' '
	test_grep "^vfsbench: cleanup interrupted by a second signal: files left in " err.cut
'

test_expect_success 'SIGTERM, then SIGINT during the cleanup: files left named, 143' '
	start_in_cleanup TERM -q -t 30s --warmup 0 &&
	kill -INT "$pid" &&
	kill -CONT "$pid" &&
	finish 143 &&
	check_report 2 &&
	check_left &&
	canary_check &&
	rm -rf "$wd" &&
	workdir_empty
'

# --- cleanup never escapes -------------------------------------------------

# t4001-isolation.sh has links to outside directories after a run that ends
# by itself; here: relative links up to the work directory and to -D and
# an absolute one to -D (all with --links-out, so the loadfile only
# reads), after one SIGINT and after two.
test_expect_success 'setup: links out of the work directory' '
	mkdir -p "$TRASH/outside/deep" &&
	echo outside >"$TRASH/outside/canary" &&
	echo deep >"$TRASH/outside/deep/file" &&
	cat >esc.load <<-EOF
	# the client directory is WD/run0/clients/clientN
	[setup]
	symlink  "$TRASH/outside"  out
	symlink  "$TRASH/work"  dparent
	symlink  ../../..  self
	symlink  ../../../..  dotdot
	symlink  "$TRASH"  up
	mkdir    sub
	symlink  "$TRASH/outside/deep"  deep
	symlink  "$TRASH/outside/canary"  .vfsbench-workdir
	[run]
	stat     out/canary
	readdir  out
	readdir  dparent
	stat     self/.vfsbench-workdir
	readdir  dotdot
	lstat    up
	readdir  deep
	stat     .vfsbench-workdir
	EOF
'

# outside_intact: the outside tree as made (esc.load, with --links-out,
# can only read it).
outside_intact() {
	test "$(cat "$TRASH/outside/canary")" = outside &&
	test "$(cat "$TRASH/outside/deep/file")" = deep &&
	test "$(find "$TRASH/outside" | wc -l)" -eq 4 &&
	test -f esc.load &&
	test -f dirs.load
}

test_expect_success 'links out: a run that ends by itself removes only the links' '
	canary_setup &&
	vfsbench -q --loops 2 --links-out -c esc.load -D "$TRASH/work" 3 \
		>out 2>err &&
	test "$(op_count out stat)" = 18 &&
	test "$(op_count out readdir)" = 24 &&
	! grep "^  " out &&
	outside_intact &&
	canary_check &&
	workdir_empty
'

test_expect_success 'links out, SIGINT during the measurement: only the links removed' '
	canary_setup &&
	start_vfsbench -q -t 30s --warmup 0 --links-out -c esc.load \
		-D "$TRASH/work" 3 &&
	wait_workdir &&
	sleep 0.5 &&
	kill -INT "$pid" &&
	finish 130 &&
	check_report 3 &&
	! grep "^  " out &&
	outside_intact &&
	canary_check &&
	workdir_empty
'

test_expect_success 'links out, two SIGINTs: what is left is still links, outside intact' '
	canary_setup &&
	start_vfsbench -q -t 30s --warmup 0 --links-out -c esc.load \
		-D "$TRASH/work" 3 &&
	wait_workdir &&
	sleep 0.5 &&
	kill -INT "$pid" &&
	kill_again INT &&
	finish 130 &&
	outside_intact &&
	canary_check &&
	if grep "files left in" err >/dev/null; then
		check_left &&
		for l in "$wd"/run0/clients/client*/out \
			"$wd"/run0/clients/client*/self; do
			test -e "$l" || test -h "$l" || continue
			test -h "$l" || return 1
		done &&
		rm -rf "$wd" &&
		outside_intact
	fi &&
	canary_check &&
	workdir_empty
'

# A link to / is tested only where a wrong turn can do no harm: as user
# nobody (uid 65534), who can remove nothing outside the test. nobody runs
# a copy of the binary in the trash directory: the build tree may be where
# nobody cannot go (a clone in /root, mode 0700). The binary is one file
# (its own code linked in statically, the loadfiles compiled in).
NOBODY_VFSBENCH="$TRASH/nobody/vfsbench"

# as_nobody CMD...: CMD as user nobody, with SIGINT and SIGTERM at their
# defaults (perl resets them and execs CMD: setpriv, perl and CMD are one
# process, so $! of "setpriv ... &" is CMD's pid; see start_vfsbench).
DEFAULT_SIGNALS='$SIG{INT} = "DEFAULT"; $SIG{TERM} = "DEFAULT";
	exec { $ARGV[0] } @ARGV or die "exec $ARGV[0]: $!\n"'
as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		perl -e "$DEFAULT_SIGNALS" "$@"
}

nobody_skip=
if test "$(id -u)" -ne 0; then
	nobody_skip='not root: the link to / is only followed as user nobody'
elif ! command -v perl >/dev/null 2>&1; then
	nobody_skip='no perl to start vfsbench with default signal handling'
elif ! why=$(setpriv --reuid=65534 --regid=65534 --clear-groups true 2>&1); then
	nobody_skip="setpriv cannot switch to user nobody: $why"
else
	chmod 755 "$TRASH" &&
	mkdir -m 755 "$TRASH/nobody" &&
	cp "$VFSBENCH" "$NOBODY_VFSBENCH" &&
	chmod 755 "$NOBODY_VFSBENCH"
	if ! as_nobody "$NOBODY_VFSBENCH" --version >/dev/null 2>&1; then
		nobody_skip="user nobody cannot run a copy of vfsbench in $TRASH/nobody"
	fi
fi

# nobody VFSBENCH-ARGS...: vfsbench as user nobody, in the foreground.
nobody() {
	as_nobody "$NOBODY_VFSBENCH" "$@"
}

# start_nobody ARGS...: start_vfsbench as user nobody ($pid is vfsbench's).
start_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		perl -e "$DEFAULT_SIGNALS" "$NOBODY_VFSBENCH" "$@" >out 2>err &
	pid=$!
}

if test -n "$nobody_skip"; then
	test_skip 'a link to /, as nobody: a run and a SIGINT leave / alone' \
		"$nobody_skip"
else
	test_expect_success 'a link to /, as nobody: a run and a SIGINT leave / alone' '
		canary_setup &&
		chown 65534:65534 "$TRASH/work" &&
		cat >root.load <<-\EOF &&
		[setup]
		symlink  /  root
		symlink  /etc  etc
		symlink  /  sub${client}
		[run]
		readdir  root
		stat     root/etc
		readdir  etc
		EOF
		nobody -q --loops 2 --links-out -c root.load -D "$TRASH/work" 2 \
			>out 2>err &&
		! grep "^  " out &&
		test "$(op_count out readdir)" = 8 &&
		test -d /etc &&
		canary_check &&
		workdir_empty &&
		start_nobody -q -t 30s --warmup 0 --links-out -c root.load \
			-D "$TRASH/work" 2 &&
		wait_workdir &&
		sleep 0.5 &&
		kill -INT "$pid" &&
		finish 130 &&
		check_report 2 &&
		! grep "files left" err &&
		test -d /etc &&
		chown 0:0 "$TRASH/work" &&
		canary_check &&
		workdir_empty
	'
fi

test_done
