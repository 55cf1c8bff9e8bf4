#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='vfsbench record and vfsbench suite end on SIGINT, SIGTERM and SIGHUP with 130, 143, 129, and leave nothing behind'
. "$srcdir/tests/e2e/lib.sh"

# vfsbench(1) SIGNALS. Each test knows the command runs from what it
# shows (a file the traced command writes, the suite's work directory),
# never from a sleep of its own.

# record: the command writes its pid below the root, then sleeps. The
# signal goes to vfsbench alone (as from kill or a harness, not a ^C at a
# terminal): strace would detach and leave the command running, so
# vfsbench ends the command's whole process group.
record_stop() {
	canary_setup &&
	rm -rf root tmp &&
	mkdir root tmp &&
	TMPDIR=$TRASH/tmp start_vfsbench record --root "$TRASH/root" \
		-o "$TRASH/r.load" -- sh -c "echo \$\$ >$TRASH/root/pid.tmp &&
			mv $TRASH/root/pid.tmp $TRASH/root/pid && $2" &&
	wait_for . root/pid &&
	cmdpid=$(cat root/pid) &&
	kill "-$1" "$pid" &&
	ends "$3" &&
	gone "$cmdpid" &&
	test ! -e r.load &&
	test -z "$(ls tmp)" &&
	canary_check
}

for s in INT:130 TERM:143 HUP:129; do
	sig=${s%:*}
	code=${s#*:}
	strace_test "record: SIG$sig, exit $code, the command ended, no loadfile" "
		record_stop $sig 'exec sleep 300' $code &&
		echo 'error: stopped by a signal: the command was terminated, no loadfile written' >expect &&
		test_cmp expect err
	"
done

# A command that ignores SIGTERM: strace may end on the SIGTERM to the
# group (and would leave the command running) or wait for the command
# until the SIGKILL at the end of the grace; either way the group ends.
strace_test 'record: a command that ignores SIGTERM is still ended' '
	record_stop TERM "trap \"\" TERM; while :; do sleep 1; done" 143 &&
	test_grep "^error: stopped by a signal: the command was \(terminated\|killed\), no loadfile written\$" err &&
	test "$(wc -l <err)" -eq 1
'

# A command whose child makes a session of its own (setsid), out of the
# process group that the stop ends: it is ended too, by the tree vfsbench
# keeps as its subreaper; before, it was left running.
cat >session.sh <<'EOF'
setsid sh -c 'echo $$ >"$1/spid.tmp" && mv "$1/spid.tmp" "$1/spid" && exec sleep 300' sh "$1" &
echo $$ >"$1/pid.tmp" && mv "$1/pid.tmp" "$1/pid"
wait
EOF

for s in INT:130 TERM:143; do
	sig=${s%:*}
	code=${s#*:}
	strace_test "record: SIG$sig, a child in a session of its own ended too" "
		canary_setup &&
		rm -rf root tmp && mkdir root tmp &&
		TMPDIR=\$TRASH/tmp start_vfsbench record --root \"\$TRASH/root\" \
			-o \"\$TRASH/r.load\" -- sh \"\$TRASH/session.sh\" \"\$TRASH/root\" &&
		wait_for . root/pid && wait_for . root/spid &&
		spid=\$(cat root/spid) &&
		test \"\$(ps -o sid= -p \"\$spid\")\" -eq \"\$spid\" &&
		kill -$sig \"\$pid\" &&
		ends $code &&
		gone \"\$(cat root/pid)\" &&
		if ! gone \"\$spid\"; then kill \"\$spid\"; false; fi &&
		test ! -e r.load &&
		test -z \"\$(ls tmp)\" &&
		canary_check
	"
done

# A stop while vfsbench record waits on a FIFO: for its log's writer
# (--from-trace FIFO), or for the reader of its loadfile (-o FIFO). The
# open returns EINTR (no SA_RESTART), which was an error of its own: exit
# 2 "Interrupted system call" and exit 3. Now the signal's status.
printf "10 1.0 newfstatat(AT_FDCWD<%s/froot>, \".\", 0x1, 0) = 0\n10 1.1 +++ exited with 0 +++\n" \
	"$TRASH" >fifo.log
mkdir froot

for s in INT:130 TERM:143; do
	sig=${s%:*}
	code=${s#*:}
	test_expect_success "record --from-trace FIFO without a writer: SIG$sig, exit $code" "
		rm -f log.fifo && mkfifo log.fifo &&
		start_vfsbench record --root froot -o f.load --from-trace log.fifo &&
		blocked 1 wait_for_partner &&
		kill -$sig \"\$pid\" &&
		ends $code &&
		echo 'error: stopped by a signal while the log was read: no loadfile written' >expect &&
		test_cmp expect err &&
		test ! -e f.load
	"

	test_expect_success "record -o FIFO without a reader: SIG$sig, exit $code" "
		rm -f out.fifo && mkfifo out.fifo &&
		start_vfsbench record --root froot -o out.fifo --force \
			--from-trace fifo.log &&
		wait_for 'waiting for a reader' err &&
		kill -$sig \"\$pid\" &&
		ends $code &&
		printf '%s\n' \"warning: 'out.fifo' is a FIFO that no one reads: waiting for a reader (a stop signal gives up)\" \
			\"warning: 'out.fifo': not written: stopped by a signal while waiting for a reader\" >expect &&
		test_cmp expect err &&
		test -p out.fifo
	"
done

# suite: its work directory shows it runs (wait_workdir, lib.sh).
for s in INT:130 TERM:143 HUP:129; do
	sig=${s%:*}
	code=${s#*:}
	test_expect_success "suite: SIG$sig, exit $code, partial results said, cleaned up" "
		canary_setup &&
		start_vfsbench suite wis -t 60s --warmup 0 -D \"\$TRASH/work\" 1 &&
		wait_workdir &&
		kill -$sig \"\$pid\" &&
		ends $code &&
		test_grep '^note: the sweep stopped early (interrupted by a signal); the runs above are all that finished\$' out &&
		canary_check &&
		workdir_empty
	"
done

test_done
