#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='every stop ends the run: clients blocked in a system call are interrupted; a stuck one is left, named'
. "$srcdir/tests/e2e/lib.sh"

# vfsbench(1) SIGNALS, "Every stop ends the run". The clients block on
# the open of a FIFO in the trash directory that nobody writes (reached
# through a link, so with --links-out), or in dbench's Sleep. The test
# knows they are blocked from /proc/PID/task/*/wchan (wait_for_partner:
# a FIFO's open; hrtimer_nanosleep: a sleep), never from a sleep of its
# own; and it checks only that vfsbench ends, never how fast.

SQ="'"


INTR='interrupted by the stop (EINTR), not an unexpected result'

test_expect_success 'setup: FIFOs and loadfiles' '
	fifo_load &&
	mkfifo "$TRASH/go" &&
	cat >setup.load <<-EOF &&
	[setup]
	symlink  "$TRASH/fifo"  f
	open     f  rdonly  @1
	close    @1
	[run]
	stat     .
	EOF
	cat >maxerr.load <<-EOF &&
	# client 0 blocks on fifo; client 1, once the test opens go, fails
	[setup]
	symlink  "$TRASH/fifo"  f0
	symlink  "$TRASH/go"  f1
	[run]
	open     f\${client}  rdonly  @1
	close    @1
	stat     missing
	EOF
	printf "%s\n" "Sleep 60000000 NT_STATUS_OK" >sleep.txt
'

test_expect_success 'SIGINT while every client is blocked in open(): exit 130, ops interrupted' '
	canary_setup &&
	start_vfsbench -q -t 30s --warmup 0 --links-out -c fifo.load \
		-D "$TRASH/work" 3 &&
	blocked 3 wait_for_partner &&
	kill -INT "$pid" &&
	ends 130 &&
	test_grep "^note: interrupted by a signal: partial results$" out &&
	printf "%s\n" "  open: $INTR x 3" >expect &&
	unexpected_lines out >actual &&
	test_cmp expect actual &&
	test "$(op_count out open)" = 3 &&
	awk "\$1 == \"open\" && \$NF != 0 { exit 1 }" out &&
	! grep "files left" err &&
	canary_check &&
	workdir_empty
'

test_expect_success 'SIGTERM likewise: exit 143' '
	canary_setup &&
	start_vfsbench -q -t 30s --warmup 0 --links-out -c fifo.load \
		-D "$TRASH/work" 2 &&
	blocked 2 wait_for_partner &&
	kill -TERM "$pid" &&
	ends 143 &&
	test_grep "^  open: $INTR x 2$" out &&
	canary_check &&
	workdir_empty
'

test_expect_success 'the time limit ends a run of blocked clients: complete, exit 0' '
	canary_setup &&
	bounded "$VFSBENCH" -q -t 500ms --warmup 0 --links-out -c fifo.load \
		-D "$TRASH/work" --json r.json 2 >out 2>err &&
	! grep "^note:" out &&
	test_grep "^  open: $INTR x 2$" out &&
	json_flat r.json >flat &&
	test "$(jget flat runs[0].end)" = complete &&
	test "$(jget flat runs[0].interrupted)" = 2 &&
	test "$(jget flat runs[0].unexpected)" = 0 &&
	test "$(jget flat runs[0].ops_detail[0].unexpected.interrupted)" = 2 &&
	canary_check &&
	workdir_empty
'

test_expect_success '--max-errors ends a run with a blocked client: exit 1' '
	canary_setup &&
	start_vfsbench -q -t 30s --warmup 0 --links-out --max-errors 1 \
		-c maxerr.load -D "$TRASH/work" 2 &&
	blocked 2 wait_for_partner &&
	: >"$TRASH/go" &&
	ends 1 &&
	test_grep "^note: stopped by --max-errors: partial results$" out &&
	printf "%s\n" "  open: $INTR x 1" "  stat: ENOENT x 1" >expect &&
	unexpected_lines out >actual &&
	test_cmp expect actual &&
	canary_check &&
	workdir_empty
'

test_expect_success '--strict likewise: exit 1, the reason is --strict' '
	canary_setup &&
	start_vfsbench -q -t 30s --warmup 0 --links-out --strict \
		-c maxerr.load -D "$TRASH/work" 2 &&
	blocked 2 wait_for_partner &&
	: >"$TRASH/go" &&
	ends 1 &&
	test_grep "^note: stopped by --strict at an unexpected result: partial results$" out &&
	test_grep "^  open: $INTR x 1$" out &&
	canary_check &&
	workdir_empty
'

test_expect_success 'dbench Sleep is interrupted by SIGINT: exit 130' '
	canary_setup &&
	start_vfsbench -q -t 30s --warmup 0 -c sleep.txt -D "$TRASH/work" 2 &&
	blocked 2 hrtimer_nanosleep &&
	kill -INT "$pid" &&
	ends 130 &&
	printf "%s\n" "  Sleep: $INTR x 2" >expect &&
	unexpected_lines out >actual &&
	test_cmp expect actual &&
	canary_check &&
	workdir_empty
'

test_expect_success 'dbench Sleep longer than 10 minutes is a load error' '
	canary_setup &&
	printf "%s\n" "Sleep 600000001 NT_STATUS_OK" >long.txt &&
	test_expect_code 2 vfsbench -q -t 1s -c long.txt -D "$TRASH/work" 1 \
		>out 2>err &&
	printf "%s\n" "long.txt:1:7: Sleep of 600000001 us is longer than 600000000 (10 minutes)" >expect &&
	test_cmp expect err &&
	printf "%s\n" "Sleep 600000000 NT_STATUS_OK" >long.txt &&
	vfsbench -e null -q --loops 1 -c long.txt -D "$TRASH/work" 1 >out &&
	canary_check &&
	workdir_empty
'

# A [setup] that blocks: the main thread waits for client 0's setup, and a
# signal must interrupt it there too. The report says that no client was
# set up and how long the setup took (not the raw clock: issue 12, 6).
test_expect_success 'SIGINT while client 0 is blocked in its [setup]: exit 130, nothing set up' '
	canary_setup &&
	t0=$(date +%s) &&
	start_vfsbench -t 30s --warmup 0 --links-out -c setup.load \
		-D "$TRASH/work" --json r.json 50 &&
	blocked 1 wait_for_partner &&
	kill -INT "$pid" &&
	ends 130 &&
	t1=$(date +%s) &&
	test_grep "^note: interrupted by a signal: partial results$" out &&
	test_grep "^note: stopped during the setup: 0 of 50 clients were set up, none measured$" out &&
	! grep "clients measured no op" out &&
	! grep "unexpected result" err &&
	json_flat r.json >flat &&
	test "$(jget flat runs[0].clients_set_up)" = 0 &&
	setup_ns=$(jget flat runs[0].setup_ns) &&
	test "$setup_ns" -le $(((t1 - t0 + 1) * 1000000000)) &&
	sed -n -e "s/.*setup and release \([0-9.]*\)\([mun]*s\)).*/\1 \2/p" out >setup &&
	read -r v u <setup &&
	case $u in
	ns | us | ms) ;;
	s) test "${v%.*}" -le $((t1 - t0 + 1)) ;;
	*) false ;;
	esac &&
	canary_check &&
	workdir_empty
'

test_expect_success 'a stop during the warmup gate (passes) interrupts blocked clients' '
	canary_setup &&
	start_vfsbench -q --loops 2 --warmup 5p --links-out -c fifo.load \
		-D "$TRASH/work" 2 &&
	blocked 2 wait_for_partner &&
	kill -INT "$pid" &&
	ends 130 &&
	test_grep "^note: interrupted by a signal: partial results$" out &&
	canary_check &&
	workdir_empty
'

# start_stdout ARGS...: vfsbench ARGS in the background, its standard
# output the FIFO "stdout"; its pid in $pid.
start_stdout() {
	"$VFSBENCH" "$@" >stdout 2>err &
	pid=$!
}

# vfsbench | head: standard output is a FIFO here so that the test has
# vfsbench's own exit status. head exits after the first line (the header,
# written at once), during the run; or after 12 lines, in the report of
# the second of 50 runs.
test_expect_success 'standard output closed during a run: 141, cleaned up, result files written' '
	canary_setup &&
	rm -f stdout r.json r.csv &&
	mkfifo stdout &&
	start_stdout -t 30s -c statfs -D "$TRASH/work" --json r.json \
		--csv r.csv 2 &&
	head -n 1 stdout >got &&
	ends 141 &&
	test_grep "^vfsbench .* loadfile statfs\.load (built-in)" got &&
	test ! -s err &&
	json_flat r.json >flat &&
	test "$(jget flat runs[0].end)" = signal &&
	test "$(jget flat complete)" = false &&
	test_grep "^run,clients," r.csv &&
	canary_check &&
	workdir_empty
'

test_expect_success 'standard output closed during the report: 141, the sweep stops' '
	canary_setup &&
	rm -f r.json &&
	start_stdout -q -e null --loops 1 --runs 50 -c statfs \
		-D "$TRASH/work" --json r.json 1 &&
	head -n 12 stdout >got &&
	ends 141 &&
	test ! -s err &&
	json_flat r.json >flat &&
	test "$(jget flat complete)" = false &&
	n=$(grep -c "^runs\[[0-9]*\]\.index" flat) &&
	test "$n" -ge 1 &&
	test "$n" -lt 50 &&
	canary_check &&
	workdir_empty
'

# A copy of /dev/full of this script's own, in the trash directory.
if mknod "$TRASH/full" c 1 7 2>/dev/null && test -c "$TRASH/full" &&
	! printf x >"$TRASH/full" 2>/dev/null; then
	test_expect_success 'a report that cannot be written (not a pipe): an error, exit 3' '
		canary_setup &&
		test_expect_code 3 vfsbench -q -e null --loops 1 -c statfs \
			-D "$TRASH/work" 1 >"$TRASH/full" 2>err &&
		printf "%s\n" "error: cannot write the report to standard output" >expect &&
		test_cmp expect err &&
		canary_check &&
		workdir_empty
	'
else
	test_skip 'a report that cannot be written (not a pipe): an error, exit 3' \
		'cannot make a device node here (not root, or a nodev mount)'
fi

# A client in uninterruptible sleep: an ext4 image frozen with fsfreeze
# while the clients create and unlink in it. vfsbench must give up on them
# after --stop-timeout, name them, leave the files and end; the process is
# reaped once the filesystem is thawed.
frz_skip=
if test "$(id -u)" -ne 0; then
	frz_skip='not root'
elif test -n "${VB_SANITIZER:-}"; then
	frz_skip='a sanitizer stops threads at the exit, and one is left in D state'
elif ! command -v fsfreeze >/dev/null 2>&1 ||
	! command -v mkfs.ext4 >/dev/null 2>&1; then
	frz_skip='no fsfreeze or mkfs.ext4'
else
	truncate -s 16m "$TRASH/img" &&
	mkfs.ext4 -q "$TRASH/img" 2>/dev/null &&
	mkdir "$TRASH/frz" &&
	mount -o loop "$TRASH/img" "$TRASH/frz" 2>/dev/null ||
		frz_skip='cannot mount an ext4 image on a loop device'
fi
thaw() {
	fsfreeze -u "$TRASH/frz" 2>/dev/null
	while umount "$TRASH/frz" 2>/dev/null; do :; done
	return 0
}
trap 'thaw; cd /; rm -rf "$TRASH"' EXIT

if test -n "$frz_skip"; then
	test_skip 'a client stuck in D state: named, files left, exit 130' "$frz_skip"
else
	test_expect_success 'a client stuck in D state: named, files left, exit 130' '
		printf "%s\n" "create a" "unlink a" >w.load &&
		echo canary >"$TRASH/frz/canary" &&
		start_vfsbench -q -t 30s --warmup 0 --stop-timeout 1s -c w.load \
			-D "$TRASH/frz" --json r.json 2 &&
		i=0 &&
		while ! test -d "$TRASH"/frz/vfsbench.*/run0/clients/client1; do
			i=$((i + 1)) &&
			test $i -lt 1000 &&
			sleep 0.01 || return 1
		done &&
		fsfreeze -f "$TRASH/frz" &&
		blocked 2 D state &&
		kill -INT "$pid" &&
		i=0 &&
		while ! grep "files left in" err >/dev/null; do
			i=$((i + 1)) &&
			test $i -lt 600 &&
			sleep 0.1 || { fsfreeze -u "$TRASH/frz"; return 1; }
		done &&
		fsfreeze -u "$TRASH/frz" &&
		ends 130 &&
		wd=$(echo "$TRASH"/frz/vfsbench.*) &&
		D="state D \\(uninterruptible sleep\\)(, waiting in [a-z_0-9]+)?" &&
		grep -E "^error: client 0 did not return from a system call within 1\.0 s of the stop \(thread [0-9]+: $D\); its figures are missing$" err &&
		grep -E "^error: client 1 did not return from a system call within 1\.0 s of the stop \(thread [0-9]+: $D\); its figures are missing$" err &&
		test_grep "^vfsbench: cleanup skipped: a client could not be stopped: files left in ${SQ}$wd${SQ}$" err &&
		grep -E "^warning: client 0 did not return from a system call after the stop \(thread [0-9]+: $D\); its figures are missing$" out &&
		json_flat r.json >flat &&
		test "$(jget flat runs[0].stuck_clients)" = 2 &&
		test "$(jget flat runs[0].end)" = signal &&
		test -f "$wd/.vfsbench-workdir" &&
		test -d "$wd/run0/clients/client0" &&
		test "$(cat "$TRASH/frz/canary")" = canary &&
		rm -rf "$wd"
	'
fi

test_done
