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
	mkfifo fifo &&
	cat >fifo.load <<-EOF &&
	[setup]
	symlink  "$TRASH/fifo"  f
	[run]
	open     f  rdonly  @1
	close    @1
	EOF
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

test_done
