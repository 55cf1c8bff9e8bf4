#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='trees left behind: reported at start, removed by vfsbench clean, only ours and only gone'
. "$srcdir/tests/e2e/lib.sh"

SQ="'"
W="$TRASH/work"

# killed_tree: a run killed by SIGKILL while its client is blocked in the
# open of a FIFO (so the tree is there, whole); its tree's name in $tree,
# its pid in $dead.
killed_tree() {
	start_vfsbench -q -t 60s --warmup 0 --links-out -c fifo.load -D "$W" 1 &&
	blocked 1 wait_for_partner &&
	dead=$pid &&
	kill -KILL "$pid" &&
	{ wait "$pid"; test $? -eq 137; } &&
	tree=$(cd "$W" && ls -d vfsbench.*) &&
	test "$(printf "%s\n" "$tree" | wc -l)" -eq 1 &&
	test -f "$W/$tree/.vfsbench-workdir"
}

# fresh: an empty work directory and a new canary for each test
fresh() {
	rm -rf "$W" &&
	canary_setup
}

if setpriv --reuid=nobody --regid=nogroup --clear-groups true 2>/dev/null; then
	have_nobody=t
else
	have_nobody=
fi

test_expect_success 'setup' '
	fifo_load &&
	printf "[run]\nstat .\n" >s.load &&
	mkdir outside &&
	echo keep >outside/file
'

test_expect_success 'SIGKILL leaves a tree; the next run names it on stderr; clean removes it, not following links' '
	fresh &&
	killed_tree &&
	vfsbench -q -e null -c s.load --loops 1 -D "$W" 1 >out 2>err &&
	cat >expect <<-EOF &&
	warning: ${SQ}$W/$tree${SQ} was left behind by vfsbench pid $dead, which is gone
	warning: remove it with: vfsbench clean -D ${SQ}$W${SQ}
	EOF
	test_cmp expect err &&
	! grep "$tree" out &&
	test -d "$W/$tree" &&
	canary_check &&
	# vfsbench clean removes it, exit 0; a symlink in it is not followed
	ln -s "$TRASH/outside" "$W/$tree/link" &&
	ln -s "$TRASH/outside/file" "$W/$tree/flink" &&
	vfsbench clean -D "$W" >out 2>err &&
	echo "vfsbench clean: removed ${SQ}$W/$tree${SQ} (left by pid $dead)" >expect &&
	test_cmp expect err &&
	test_cmp /dev/null out &&
	test ! -e "$W/$tree" &&
	test "$(cat outside/file)" = keep &&
	canary_check && workdir_empty &&
	vfsbench clean -D "$W" >out 2>err &&
	test_cmp /dev/null err
'

test_expect_success 'the tree of a live run is named and never touched' '
	fresh &&
	start_vfsbench -q -t 60s --warmup 0 --links-out -c fifo.load -D "$W" 1 &&
	blocked 1 wait_for_partner &&
	live=$(cd "$W" && ls -d vfsbench.*) &&
	"$VFSBENCH" clean -D "$W" >cout 2>cerr &&
	echo "warning: ${SQ}$W/$live${SQ} is in use by vfsbench pid $pid, which is running: left in place" >expect &&
	test_cmp expect cerr &&
	test -f "$W/$live/.vfsbench-workdir" &&
	kill -INT "$pid" &&
	ends 130 &&
	canary_check && workdir_empty
'

test_expect_success 'usage: no -D, a missing -D, an extra argument: exit 2' '
	test_expect_code 2 vfsbench clean 2>err &&
	test_grep "^vfsbench: clean needs -D DIR\$" err &&
	test_expect_code 2 vfsbench clean -D "$TRASH/missing" 2>err &&
	test_grep "^error: work directory parent ${SQ}$TRASH/missing${SQ} does not exist\$" err &&
	test_expect_code 2 vfsbench clean -D "$W" extra 2>err &&
	test_grep "unexpected argument ${SQ}extra${SQ}" err
'

test_expect_success 'a tree with an entry another user owns is refused: exit 3, nothing removed' '
	fresh &&
	killed_tree &&
	ln -s "$TRASH/outside" "$W/$tree/planted" &&
	chown -h nobody "$W/$tree/planted" &&
	test_expect_code 3 vfsbench clean -D "$W" >out 2>err &&
	test_grep "planted" err &&
	test -L "$W/$tree/planted" &&
	test -f "$W/$tree/.vfsbench-workdir" &&
	test "$(cat outside/file)" = keep &&
	rm -f "$W/$tree/planted" &&
	vfsbench clean -D "$W" 2>err &&
	test ! -e "$W/$tree" &&
	canary_check && workdir_empty
'

if test -n "$have_nobody"; then
	test_expect_success 'trees planted by user nobody are refused with the reason' '
		fresh &&
		chmod 0711 "$TRASH" &&
		mkdir -p shared &&
		chmod 1777 shared &&
		killed_tree &&
		marker=$(cat "$W/$tree/.vfsbench-workdir") &&
		vfsbench clean -D "$W" 2>/dev/null &&
		setpriv --reuid=nobody --regid=nogroup --clear-groups sh -c "
			mkdir shared/vfsbench.evil1 &&
			printf \"%s\\n\" \"\$1\" >shared/vfsbench.evil1/.vfsbench-workdir &&
			echo x >shared/vfsbench.evil1/f &&
			ln -s \"$TRASH/outside\" shared/vfsbench.evil2
		" sh "$marker" &&
		test_expect_code 3 vfsbench clean -D "$TRASH/shared" >out 2>err &&
		cat >expect <<-EOF &&
		error: ${SQ}$TRASH/shared/vfsbench.evil1${SQ} belongs to uid $(id -u nobody), not to us (uid 0): another user${SQ}s tree is never removed
		error: ${SQ}$TRASH/shared/vfsbench.evil2${SQ} is not a directory (symlinks are not followed): not removing it
		EOF
		test_cmp expect err &&
		test -f shared/vfsbench.evil1/f &&
		test -L shared/vfsbench.evil2 &&
		test "$(cat outside/file)" = keep &&
		canary_check
	'
else
	test_skip 'trees planted by user nobody are refused with the reason' 'setpriv cannot switch to user nobody'
fi

# in_pipe_write: wait (up to ~10 s) until vfsbench ($pid) is blocked
# writing to a full pipe (its stderr).
in_pipe_write() {
	i=0
	until grep -q "pipe_write" /proc/"$pid"/wchan 2>/dev/null; do
		i=$((i + 1))
		test $i -lt 1000 || { say "not in pipe_write: $(cat /proc/"$pid"/wchan)" >&2; return 1; }
		sleep 0.01
	done
}

# SIG and its status: clean is held in a write to its stderr, a pipe that
# is full, at its first message (a tree it refuses, sorted first), before
# the tree left by a killed run; the signal there stops it.
for sig in INT TERM HUP; do
	case $sig in INT) want=130 ;; TERM) want=143 ;; HUP) want=129 ;; esac
	test_expect_success "SIG$sig while clean is blocked: exit $want, nothing removed after it" '
		fresh &&
		killed_tree &&
		mkdir "$W/vfsbench.0" &&
		rm -f errpipe && mkfifo errpipe &&
		exec 3<>errpipe &&
		dd if=/dev/zero bs=65536 count=1 of=errpipe 2>/dev/null &&
		{ perl -e "\$SIG{$sig} = q(DEFAULT); exec { \$ARGV[0] } @ARGV" \
			"$VFSBENCH" clean -D "$W" >out 2>errpipe & } &&
		pid=$! &&
		in_pipe_write &&
		kill -"$sig" "$pid" &&
		ends '"$want"' &&
		exec 3<&- &&
		test -f "$W/$tree/.vfsbench-workdir" &&
		test_expect_code 3 vfsbench clean -D "$W" 2>err &&
		test_grep "vfsbench.0${SQ} has no vfsbench marker file" err &&
		test ! -e "$W/$tree" &&
		rmdir "$W/vfsbench.0" &&
		canary_check && workdir_empty
	'
done

# --- markers of another PID namespace or boot ---------------------------------

# The marker says where its pid means something: the PID namespace (the
# inode of /proc/self/ns/pid) and the boot (its boot id). One written
# elsewhere is never judged by our /proc: a live instance there would
# look gone.
here_ns=$(stat -L -c %i /proc/self/ns/pid)
here_boot=$(cat /proc/sys/kernel/random/boot_id)

# start_ns [--mount-proc]: a run in a PID namespace of its own (pid 1
# there), blocked in the open of the FIFO; unshare's pid in $upid, the
# run's (as we see it) in $pid, its tree in $tree, its namespace in $ns.
start_ns() {
	start_bg unshare --pid --fork "$@" "$VFSBENCH" -q -t 60s --warmup 0 \
		--links-out -c fifo.load -D "$W" 1 &&
	upid=$pid &&
	wait_until "no child of unshare" pgrep -P "$upid" >/dev/null &&
	pid=$(pgrep -P "$upid") &&
	blocked 1 wait_for_partner &&
	ns=$(stat -L -c %i "/proc/$pid/ns/pid") &&
	test "$ns" != "$here_ns" &&
	tree=$(cd "$W" && ls -d vfsbench.*)
}

# elsewhere_msg TREE PID NS: the refusal of a tree of namespace NS.
elsewhere_msg() {
	echo "error: ${SQ}$W/$1${SQ} was made by vfsbench pid $2 in another PID namespace (pid:[$3]; this process is in pid:[$here_ns]): whether it still runs cannot be told from here; left in place (once you know it has ended: vfsbench clean --assume-gone)"
}

if ! unshare --pid --fork --mount-proc true 2>/dev/null; then
	test_skip 'a live run in another PID namespace: its marker says so; clean leaves it, exit 3' 'unshare --pid --fork --mount-proc is not permitted here'
	test_skip 'the tree of a killed run of another PID namespace: left until --assume-gone' 'unshare --pid --fork --mount-proc is not permitted here'
else
	# with its own /proc its pid 1 is ours 1, another process: the
	# marker alone said gone, and clean removed a live tree
	test_expect_success 'a live run in another PID namespace: its marker says so; clean leaves it, exit 3' '
		for proc in --mount-proc ""; do
			fresh &&
			start_ns $proc &&
			test_grep "^vfsbench work directory of pid 1 started at [0-9]* (id [0-9a-f]*) in pid namespace $ns on boot $here_boot; " \
				"$W/$tree/.vfsbench-workdir" &&
			test_expect_code 3 vfsbench clean -D "$W" >cout 2>cerr &&
			elsewhere_msg "$tree" 1 "$ns" >expect &&
			test_cmp expect cerr &&
			test_cmp /dev/null cout &&
			test -f "$W/$tree/.vfsbench-workdir" &&
			blocked 1 wait_for_partner &&
			kill -INT "$pid" &&
			pid=$upid &&
			ends 130 &&
			canary_check && workdir_empty || return 1
		done
	'

	test_expect_success 'the tree of a killed run of another PID namespace: left until --assume-gone' '
		fresh &&
		start_ns --mount-proc &&
		kill -KILL "$pid" &&
		# unshare 2.38 says "sigprocmask unblock failed" and exits 1
		# where its child died of a signal: its status is not ours
		{ wait "$upid"; true; } &&
		test -f "$W/$tree/.vfsbench-workdir" &&
		test_expect_code 3 vfsbench clean -D "$W" >cout 2>cerr &&
		elsewhere_msg "$tree" 1 "$ns" >expect &&
		test_cmp expect cerr &&
		test -d "$W/$tree" &&
		vfsbench clean -D "$W" --assume-gone >cout 2>cerr &&
		echo "vfsbench clean: removed ${SQ}$W/$tree${SQ} (left by pid 1 of another PID namespace or boot, assumed gone)" >expect &&
		test_cmp expect cerr &&
		canary_check && workdir_empty
	'
fi

# set_marker FILE PID START [NS BOOT]: a marker of this id, in the form
# of today (with NS and BOOT) or of a vfsbench before them.
set_marker() {
	if test $# -gt 3; then
		printf "vfsbench work directory of pid %s started at %s (id 0123456789abcdef) in pid namespace %s on boot %s; vfsbench removes it when the run ends\n" \
			"$2" "$3" "$4" "$5" >"$1"
	else
		printf "vfsbench work directory of pid %s started at %s (id 0123456789abcdef); vfsbench removes it when the run ends\n" \
			"$2" "$3" >"$1"
	fi
}

test_expect_success 'another boot (host): left with both boot ids; old markers judged by pid and start time' '
	fresh &&
	killed_tree &&
	other=00000000-0000-4000-8000-000000000000 &&
	set_marker "$W/$tree/.vfsbench-workdir" "$dead" 1 "$here_ns" "$other" &&
	test_expect_code 3 vfsbench clean -D "$W" >cout 2>cerr &&
	echo "error: ${SQ}$W/$tree${SQ} was made by vfsbench pid $dead on another host or an earlier boot (boot id $other; this boot is $here_boot): whether it still runs cannot be told from here; left in place (once you know it has ended: vfsbench clean --assume-gone)" >expect &&
	test_cmp expect cerr &&
	test -d "$W/$tree" &&
	# ours, but for the marker'"'"'s form: a live pid with its start
	# time is running, as before
	set_marker "$W/$tree/.vfsbench-workdir" $$ "$(awk "{ print \$22 }" /proc/$$/stat)" &&
	vfsbench clean -D "$W" >cout 2>cerr &&
	echo "warning: ${SQ}$W/$tree${SQ} is in use by vfsbench pid $$, which is running: left in place" >expect &&
	test_cmp expect cerr &&
	# and a dead one is gone
	set_marker "$W/$tree/.vfsbench-workdir" "$dead" 1 &&
	vfsbench clean -D "$W" >cout 2>cerr &&
	echo "vfsbench clean: removed ${SQ}$W/$tree${SQ} (left by pid $dead)" >expect &&
	test_cmp expect cerr &&
	canary_check && workdir_empty
'

# --- trees that cannot be opened or read -------------------------------------

# A tree clean cannot open, or whose marker it cannot read, was said to
# have no marker file; a -D it cannot list failed with exit 3 and no
# word. Each is now named with the system's reason, exit 3, nothing
# removed. As nobody: root opens whatever the modes say.
if test -n "$have_nobody" &&
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$VFSBENCH" --version >/dev/null 2>&1; then
	test_expect_success 'a tree, a marker or a -D that cannot be read: the reason, exit 3, nothing removed' '
		fresh &&
		chmod 0711 "$TRASH" &&
		{ sleep 0 & } &&
		gone_pid=$! &&
		wait "$gone_pid" &&
		rm -rf nb && mkdir nb && chown nobody:nogroup nb &&
		line=$(printf "vfsbench work directory of pid %s started at 1 (id 0123456789abcdef) in pid namespace %s on boot %s; x" \
			"$gone_pid" "$here_ns" "$here_boot") &&
		setpriv --reuid=nobody --regid=nogroup --clear-groups sh -c "
			mkdir -m 0700 nb/vfsbench.closed nb/vfsbench.unread &&
			printf \"%s\\n\" \"\$1\" >nb/vfsbench.closed/.vfsbench-workdir &&
			printf \"%s\\n\" \"\$1\" >nb/vfsbench.unread/.vfsbench-workdir &&
			chmod 0 nb/vfsbench.closed nb/vfsbench.unread/.vfsbench-workdir
		" sh "$line" &&
		test_expect_code 3 setpriv --reuid=nobody --regid=nogroup \
			--clear-groups "$VFSBENCH" clean -D "$TRASH/nb" >out 2>err &&
		cat >expect <<-EOF &&
		error: cannot open ${SQ}$TRASH/nb/vfsbench.closed${SQ}: Permission denied; not removing it
		error: cannot read ${SQ}$TRASH/nb/vfsbench.unread/.vfsbench-workdir${SQ}: Permission denied; not removing it
		EOF
		test_cmp expect err &&
		test -d nb/vfsbench.closed &&
		test -f nb/vfsbench.unread/.vfsbench-workdir &&
		# their modes back: nobody'"'"'s, gone, removed
		chmod 0700 nb/vfsbench.closed &&
		chmod 0600 nb/vfsbench.unread/.vfsbench-workdir &&
		setpriv --reuid=nobody --regid=nogroup --clear-groups \
			"$VFSBENCH" clean -D "$TRASH/nb" >out 2>err &&
		test "$(grep -c "^vfsbench clean: removed .* (left by pid $gone_pid)\$" err)" = 2 &&
		test -z "$(ls -A nb)" &&
		chmod 0311 nb &&
		test_expect_code 3 setpriv --reuid=nobody --regid=nogroup \
			--clear-groups "$VFSBENCH" clean -D "$TRASH/nb" >out 2>err &&
		echo "error: cannot list ${SQ}$TRASH/nb${SQ}: Permission denied" >expect &&
		test_cmp expect err &&
		chmod 0755 nb &&
		canary_check
	'
else
	test_skip 'a tree, a marker or a -D that cannot be read: the reason, exit 3, nothing removed' 'user nobody cannot run vfsbench here'
fi

test_done
