#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='faults: ENOSPC, EMFILE, EACCES, the work directory removed or renamed'
. "$srcdir/tests/e2e/lib.sh"

# Each test checks the message, the exit status of vfsbench(1) EXIT STATUS,
# that vfsbench did not crash or hang, and that the canary beside the work
# directory survived. Tests that need root, a mount or another user skip
# with the reason when they cannot run.

# A single quote, for messages inside single-quoted test bodies.
SQ="'"

# --- helpers ---------------------------------------------------------------

# The ENOSPC tests mount a small tmpfs on $TRASH/work (so the canary inside
# it is on the full filesystem too). Unmount it however the script ends.
umount_small() {
	while umount "$TRASH/work" 2>/dev/null; do :; done
	return 0
}
trap 'umount_small; cd /; rm -rf "$TRASH"' EXIT

# mount_small OPTIONS: a fresh tmpfs (mount -o OPTIONS) on $TRASH/work,
# with the canary.
mount_small() {
	umount_small &&
	mkdir -p "$TRASH/work" &&
	mount -t tmpfs -o "$1" vfsbench-test "$TRASH/work" &&
	canary_setup
}

# df_field N: field N of df -P for $TRASH/work (3: used, 4: available).
df_field() {
	df -P -k "$TRASH/work" | awk -v f="$1" 'NR == 2 { print $f }'
}

# inodes_used: the inodes in use on $TRASH/work.
inodes_used() {
	df -P -i "$TRASH/work" | awk 'NR == 2 { print $3 }'
}

# The "Unexpected results" section of a report, without its heading.
unexpected_lines() {
	sed -n -e '/^Unexpected results/,/^Total:/{/^  /p;}' "$1"
}

# The sum of the unexpected column of the (last) run's table.
unexpected_sum() {
	awk '$1 == "Operation" { t = 1; s = 0; next }
		$1 == "Unexpected" || $1 == "Total:" { t = 0 }
		t { s += $NF }
		END { print s + 0 }' "$1"
}

# Nothing in the work directory but the canary and the files named.
workdir_only() {
	n=0
	for f in "$TRASH"/work/* "$TRASH"/work/.[!.]*; do
		test -e "$f" || test -h "$f" || continue
		case "${f##*/}" in
		canary) ;;
		*)
			for keep in "$@"; do
				test "${f##*/}" = "$keep" && continue 2
			done
			say "left in the work directory: $f" >&2
			n=$((n + 1))
			;;
		esac
	done
	test "$n" -eq 0
}

# RLIMIT_NOFILE: `ulimit -S -n` and `ulimit -H -n` are not POSIX, but dash,
# bash, busybox sh, mksh and zsh all have them.
# with_nofile SOFT HARD CMD...: run CMD with the soft (and, unless HARD is
# -, the hard) limit lowered; exit 125 if the limits cannot be set.
with_nofile() {
	(
		soft=$1 hard=$2
		shift 2
		# shellcheck disable=SC3045
		ulimit -S -n "$soft" || exit 125
		if test "$hard" != -; then
			# shellcheck disable=SC3045
			ulimit -H -n "$hard" || exit 125
		fi
		exec "$@"
	)
}

# --- what this machine allows ----------------------------------------------

enospc_skip=
if test "$(id -u)" -ne 0; then
	enospc_skip='not root: the ENOSPC tests mount a small tmpfs'
elif ! mkdir "$TRASH/probe" ||
	! mount -t tmpfs -o size=64k vfsbench-test "$TRASH/probe" 2>/dev/null; then
	enospc_skip='cannot mount a tmpfs here (no CAP_SYS_ADMIN in this namespace?)'
else
	umount "$TRASH/probe"
fi
rmdir "$TRASH/probe" 2>/dev/null

emfile_skip=
# shellcheck disable=SC3045
if ! (ulimit -S -n 20 && ulimit -H -n 20) 2>/dev/null; then
	emfile_skip='this shell cannot lower RLIMIT_NOFILE (ulimit -S/-H -n)'
fi
# shellcheck disable=SC3045
hard=$(ulimit -H -n 2>/dev/null)
raise_skip=$emfile_skip
if test -z "$raise_skip" && test "$hard" != unlimited &&
	test "${hard:-0}" -lt 1024; then
	raise_skip="the hard RLIMIT_NOFILE is $hard: too low to test raising the soft limit"
fi
private_skip=
if test "${VB_SANITIZER:-}" = thread; then
	private_skip="ThreadSanitizer reports private fd tables' fds as races"
fi

# as_nobody CMD...: CMD as user nobody (uid and gid 65534), no groups.
eacces_skip=
if test "$(id -u)" -ne 0; then
	eacces_skip='not root: the EACCES tests run vfsbench as user nobody'
elif setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
	as_nobody() {
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	}
elif su -s /bin/sh -c true nobody 2>/dev/null; then
	as_nobody() {
		# shellcheck disable=SC2016
		su -s /bin/sh -c 'exec "$0" "$@"' nobody -- "$@"
	}
else
	eacces_skip='neither setpriv nor su can switch to user nobody'
fi
if test -z "$eacces_skip"; then
	# nobody must reach the binary and the trash directory
	chmod 755 "$TRASH"
	if ! as_nobody "$VFSBENCH" --version >/dev/null 2>&1; then
		eacces_skip="user nobody cannot run $VFSBENCH (a directory above it not world-searchable?)"
	fi
fi

test_expect_success 'setup: loadfiles' '
	cat >fill.load <<-\EOF &&
	# the first write fills a 1 MiB tmpfs, the second cannot get a block
	[run]
	open     big  rdwr,creat  @1  0600
	pwrite   @1  0    1m
	pwrite   @1  1m   64k
	close    @1
	EOF
	cat >sfill.load <<-\EOF &&
	[setup]
	mkdir    d
	open     d/big  rdwr,creat  @1  0600
	pwrite   @1  0    1m
	pwrite   @1  1m   64k
	close    @1
	[run]
	stat     d
	EOF
	{
		echo "[setup]" &&
		echo "create f" &&
		echo "[run]" &&
		i=1 &&
		while test $i -le 32; do
			echo "open f rdonly @$i" &&
			i=$((i + 1)) || return 1
		done &&
		i=1 &&
		while test $i -le 32; do
			echo "close @$i" &&
			i=$((i + 1)) || return 1
		done
	} >handles.load &&
	cat >st.load <<-\EOF
	[setup]
	create   f
	[run]
	stat     f
	statfs   .
	EOF
'

# --- ENOSPC ----------------------------------------------------------------

test_if "$enospc_skip" 'ENOSPC in [run]: pwrite: ENOSPC x N, exit 0, space freed' '
	mount_small size=1m &&
	used=$(df_field 3) &&
	vfsbench -q --loops 3 -c fill.load -D "$TRASH/work" 1 >out 2>err &&
	test "$(op_count out open)" = 3 &&
	test "$(op_count out pwrite)" = 6 &&
	test "$(op_count out close)" = 3 &&
	echo "  pwrite: ENOSPC x 3" >expect &&
	unexpected_lines out >actual &&
	test_cmp expect actual &&
	test "$(unexpected_sum out)" -eq 3 &&
	! grep "^note:" out &&
	test ! -s err &&
	canary_check &&
	workdir_empty &&
	test "$(df_field 3)" -eq "$used" &&
	umount_small
'

test_if "$enospc_skip" 'ENOSPC in [run], 4 clients: every write past 1m fails' '
	mount_small size=1m &&
	vfsbench -q --loops 3 -c fill.load -D "$TRASH/work" 4 >out 2>err &&
	test "$(op_count out pwrite)" = 24 &&
	n=$(sed -n "s/^  pwrite: ENOSPC x \([0-9]*\)$/\1/p" out) &&
	test "$n" -ge 12 && test "$n" -le 24 &&
	test "$(unexpected_lines out | wc -l)" -eq 1 &&
	canary_check &&
	workdir_empty &&
	umount_small
'

test_if "$enospc_skip" 'ENOSPC with --strict: stopped at the first, exit 1' '
	mount_small size=1m &&
	used=$(df_field 3) &&
	test_expect_code 1 vfsbench -q --strict --loops 3 -c fill.load \
		-D "$TRASH/work" 1 >out 2>err &&
	test_grep "^note: stopped by --strict" out &&
	echo "  pwrite: ENOSPC x 1" >expect &&
	unexpected_lines out >actual &&
	test_cmp expect actual &&
	canary_check &&
	workdir_empty &&
	test "$(df_field 3)" -eq "$used" &&
	umount_small
'

test_if "$enospc_skip" 'ENOSPC with --max-errors 2: stopped at the second, exit 1' '
	mount_small size=1m &&
	test_expect_code 1 vfsbench -q --max-errors 2 --loops 5 -c fill.load \
		-D "$TRASH/work" 1 >out 2>err &&
	test_grep "^note: stopped by --max-errors" out &&
	echo "  pwrite: ENOSPC x 2" >expect &&
	unexpected_lines out >actual &&
	test_cmp expect actual &&
	canary_check &&
	workdir_empty &&
	umount_small
'

test_if "$enospc_skip" 'ENOSPC in [setup]: exit 3, the line named, cleaned up' '
	mount_small size=1m &&
	used=$(df_field 3) &&
	test_expect_code 3 vfsbench -q --loops 3 -c sfill.load \
		-D "$TRASH/work" 1 >out 2>err &&
	echo "error: sfill.load:5: [setup] of client 0: pwrite: unexpected result ENOSPC (No space left on device)" >expect &&
	test_cmp expect err &&
	! grep "^Total:" out &&
	canary_check &&
	workdir_empty &&
	test "$(df_field 3)" -eq "$used" &&
	umount_small
'

test_if "$enospc_skip" 'ENOSPC before the run: no marker file, exit 3, nothing left' '
	mount_small size=256k &&
	{ dd if=/dev/zero of="$TRASH/work/filler" bs=4096 count=1024 \
		2>/dev/null || :; } &&
	test "$(df_field 4)" -eq 0 &&
	size=$(wc -c <"$TRASH/work/filler") &&
	test_expect_code 3 vfsbench -q --loops 1 -c statfs -D "$TRASH/work" 1 \
		>out 2>err &&
	test_grep "^error: cannot write marker file ${SQ}$TRASH/work/vfsbench\.[A-Za-z0-9]*/\.vfsbench-workdir${SQ}: No space left on device$" err &&
	test "$(wc -l <err)" -eq 1 &&
	test ! -s out &&
	canary_check &&
	workdir_only filler &&
	test "$(wc -c <"$TRASH/work/filler")" -eq "$size" &&
	umount_small
'

test_if "$enospc_skip" 'no free inodes for the client directories: exit 3, cleaned up' '
	mount_small size=1m,nr_inodes=32 &&
	inodes=$(inodes_used) &&
	test_expect_code 3 vfsbench -q --loops 1 -c statfs -D "$TRASH/work" 40 \
		>out 2>err &&
	test_grep "^error: cannot create ${SQ}$TRASH/work/vfsbench\.[A-Za-z0-9]*/run0/clients/client[0-9]*${SQ}: No space left on device$" err &&
	! grep "^Total:" out &&
	canary_check &&
	workdir_empty &&
	test "$(inodes_used)" -eq "$inodes" &&
	umount_small
'

# --- EMFILE ----------------------------------------------------------------

test_if "$raise_skip" 'EMFILE: soft limit 20, 4 x 32 handles: raised, exit 0' '
	canary_setup &&
	with_nofile 20 - "$VFSBENCH" -q --loops 2 -c handles.load \
		-D "$TRASH/work" 4 >out 2>err &&
	test "$(op_count out open)" = 256 &&
	test "$(op_count out close)" = 256 &&
	test "$(unexpected_sum out)" -eq 0 &&
	test ! -s err &&
	canary_check &&
	workdir_empty
'

test_if "$raise_skip$private_skip" 'EMFILE: soft limit 20, --fd-table private: raised, exit 0' '
	canary_setup &&
	with_nofile 20 - "$VFSBENCH" -q --loops 2 --fd-table private \
		-c handles.load -D "$TRASH/work" 4 >out 2>err &&
	test "$(op_count out open)" = 256 &&
	test "$(unexpected_sum out)" -eq 0 &&
	test ! -s err &&
	canary_check &&
	workdir_empty
'

test_if "$emfile_skip" 'EMFILE: hard limit 20, 4 x 32 handles: exit 3, names the limit' '
	canary_setup &&
	test_expect_code 3 with_nofile 20 20 "$VFSBENCH" -q --loops 2 \
		-c handles.load -D "$TRASH/work" 4 >out 2>err &&
	head -n 1 err >first &&
	test_grep "^error: this run needs [0-9]* file descriptors but the hard limit RLIMIT_NOFILE is 20; raise it (ulimit -Hn, or fs.nr_open)$" first &&
	test "$(wc -l <err)" -eq 1 &&
	! grep "^Total:" out &&
	canary_check &&
	workdir_empty
'

test_if "$emfile_skip$private_skip" 'EMFILE: hard limit 20, --fd-table private: exit 3, names the limit' '
	canary_setup &&
	test_expect_code 3 with_nofile 20 20 "$VFSBENCH" -q --loops 2 \
		--fd-table private -c handles.load -D "$TRASH/work" 4 >out 2>err &&
	head -n 1 err >first &&
	test_grep "^error: this run needs [0-9]* file descriptors but the hard limit RLIMIT_NOFILE is 20; raise it (ulimit -Hn, or fs.nr_open)$" first &&
	canary_check &&
	workdir_empty
'

# The fd table is sized for what the loadfile can hold open: statfs holds
# none, so 200 clients fit in 64 descriptors (the client directories are
# opened one at a time, as each client starts); readdir holds one, so 200
# clients need more than 200.
test_if "$raise_skip" 'EMFILE: soft limit 20, 200 clients: raised, exit 0' '
	canary_setup &&
	with_nofile 20 - "$VFSBENCH" -q --loops 2 -c statfs \
		-D "$TRASH/work" 200 >out 2>err &&
	test "$(op_count out statfs)" = 400 &&
	test "$(unexpected_sum out)" -eq 0 &&
	test ! -s err &&
	canary_check &&
	workdir_empty
'

for mode in "" "--cwd shared" "--fd-table private"; do
	skip=$emfile_skip
	test "$mode" = "--fd-table private" && skip=$skip$private_skip
	test_if "$skip" "EMFILE: hard limit 64, 200 clients of statfs${mode:+, $mode}: exit 0" '
		canary_setup &&
		with_nofile 64 64 "$VFSBENCH" -q --loops 2 $mode -c statfs \
			-D "$TRASH/work" 200 >out 2>err &&
		test "$(op_count out statfs)" = 400 &&
		test "$(unexpected_sum out)" -eq 0 &&
		test ! -s err &&
		canary_check &&
		workdir_empty
	'
done

test_expect_success 'setup: a readdir loadfile' '
	echo "readdir ." >rd.load
'

test_if "$emfile_skip" 'EMFILE: hard limit 64, 200 clients of readdir: exit 3, names the limit' '
	canary_setup &&
	test_expect_code 3 with_nofile 64 64 "$VFSBENCH" -q --loops 2 \
		-c rd.load -D "$TRASH/work" 200 >out 2>err &&
	test_grep "^error: this run needs 2[0-9][0-9] file descriptors but the hard limit RLIMIT_NOFILE is 64; raise it (ulimit -Hn, or fs.nr_open)$" err &&
	test "$(wc -l <err)" -eq 1 &&
	canary_check &&
	workdir_empty
'

test_if "$emfile_skip" 'EMFILE: hard limit 20, 200 clients, --cwd shared: exit 3, names the limit' '
	canary_setup &&
	test_expect_code 3 with_nofile 20 20 "$VFSBENCH" -q --loops 2 \
		--cwd shared -c rd.load -D "$TRASH/work" 200 >out 2>err &&
	test_grep "RLIMIT_NOFILE is 20; raise it (ulimit -Hn, or fs.nr_open)$" err &&
	canary_check &&
	workdir_empty
'

# --- EACCES ----------------------------------------------------------------

test_if "$eacces_skip" 'EACCES setup: nobody runs vfsbench in a directory it owns' '
	canary_setup &&
	chown 65534:65534 "$TRASH/work" &&
	as_nobody "$VFSBENCH" -q --loops 2 -c st.load -D "$TRASH/work" 2 \
		>out 2>err &&
	test "$(op_count out stat)" = 4 &&
	test "$(unexpected_sum out)" -eq 0 &&
	chown 0:0 "$TRASH/work" &&
	canary_check &&
	workdir_empty
'

# Exit 3, not 2: the directory exists and is one (2 is for a -D that is
# missing, not a directory or a symlink: a mistake on the command line);
# that it cannot be written is the environment, as ENOSPC is, and
# vfsbench(1) lists "the work directory cannot be created" under 3.
test_if "$eacces_skip" 'EACCES: -D a root-owned 0755 directory, as nobody: exit 3' '
	canary_setup &&
	chown 0:0 "$TRASH/work" &&
	chmod 755 "$TRASH/work" &&
	test_expect_code 3 as_nobody "$VFSBENCH" -q --loops 1 -c statfs \
		-D "$TRASH/work" 1 >out 2>err &&
	echo "error: cannot create work directory in ${SQ}$TRASH/work${SQ}: Permission denied" >expect &&
	test_cmp expect err &&
	test ! -s out &&
	canary_check &&
	workdir_empty
'

test_if "$eacces_skip" 'EACCES: -D below a directory nobody cannot search: exit 3' '
	canary_setup &&
	mkdir -p "$TRASH/locked/work" &&
	chmod 700 "$TRASH/locked" &&
	test_expect_code 3 as_nobody "$VFSBENCH" -q --loops 1 -c statfs \
		-D "$TRASH/locked/work" 1 >out 2>err &&
	echo "error: cannot access work directory parent ${SQ}$TRASH/locked/work${SQ}: Permission denied" >expect &&
	test_cmp expect err &&
	test ! -s out &&
	test -z "$(ls -A "$TRASH/locked/work")" &&
	canary_check &&
	workdir_empty
'

test_if "$eacces_skip" 'EACCES: a loadfile nobody cannot read: exit 2' '
	canary_setup &&
	chown 65534:65534 "$TRASH/work" &&
	cp st.load secret.load &&
	chmod 600 secret.load &&
	test_expect_code 2 as_nobody "$VFSBENCH" -q --loops 1 \
		-c "$TRASH/secret.load" -D "$TRASH/work" 1 >out 2>err &&
	echo "error: cannot read loadfile ${SQ}$TRASH/secret.load${SQ}: Permission denied" >expect &&
	test_cmp expect err &&
	test ! -s out &&
	chown 0:0 "$TRASH/work" &&
	canary_check &&
	workdir_empty
'

test_if "$eacces_skip" 'EACCES in [run]: counted as unexpected, or expected; exit 0' '
	canary_setup &&
	chown 65534:65534 "$TRASH/work" &&
	echo secret >"$TRASH/secret" &&
	chmod 600 "$TRASH/secret" &&
	cat >acc.load <<-EOF &&
	[setup]
	symlink  "$TRASH/secret"  s
	[run]
	stat     s
	access   s  r  EACCES
	open     s  rdonly  @1
	pread    @1  0  4k
	close    @1
	EOF
	as_nobody "$VFSBENCH" -q --loops 2 --links-out -c acc.load \
		-D "$TRASH/work" 1 >out 2>err &&
	printf "%s\n" "  open: EACCES x 2" \
		"  pread: skipped (handle dead: its open failed) x 2" \
		"  close: skipped (handle dead: its open failed) x 2" >expect &&
	unexpected_lines out >actual &&
	test_cmp expect actual &&
	test "$(op_count out access)" = 2 &&
	test "$(cat "$TRASH/secret")" = secret &&
	chown 0:0 "$TRASH/work" &&
	canary_check &&
	workdir_empty
'

# --- the work directory removed or renamed during a run ----------------------

# What happens (main.c finish_workdir, workdir.c workdir_check): the
# clients work through directory fds, so after a rename they go on
# undisturbed and after a removal their ops fail (counted as unexpected);
# at the end vfsbench removes nothing that is not still its own work
# directory in its place: "has vanished" (-ENOENT), "was moved away" or
# "is no longer our work directory (replaced)" (-ESTALE), each followed
# by "cleanup of ... failed". The status stays 130/143 after a signal and
# is 3 (cleanup failed) after a run that would otherwise exit 0.

test_expect_success 'work directory removed, then SIGINT: exit 130, errors counted' '
	canary_setup &&
	start_vfsbench -q -t 30s --warmup 0 -c st.load -D "$TRASH/work" 2 &&
	wait_workdir &&
	wait_exists "$wd/run0/clients/client1/f" &&
	sleep 0.3 &&
	rm -rf "$wd" &&
	sleep 0.5 &&
	kill -INT "$pid" &&
	finish 130 &&
	test_grep "^note: interrupted by a signal: partial results$" out &&
	test_grep "^  stat: ENOENT x [1-9][0-9]*$" out &&
	printf "%s\n" \
		"error: work directory ${SQ}$wd${SQ} has vanished" \
		"error: cleanup of ${SQ}$wd${SQ} failed: No such file or directory" \
		>expect &&
	test_cmp expect err &&
	! test -e "$wd" &&
	canary_check &&
	workdir_empty
'

test_expect_success 'work directory renamed, then SIGINT: exit 130, not removed' '
	canary_setup &&
	start_vfsbench -q -t 30s --warmup 0 -c st.load -D "$TRASH/work" 2 &&
	wait_workdir &&
	wait_exists "$wd/run0/clients/client1/f" &&
	mv "$wd" "$TRASH/moved" &&
	sleep 0.3 &&
	kill -INT "$pid" &&
	finish 130 &&
	test_grep "^note: interrupted by a signal: partial results$" out &&
	test "$(unexpected_sum out)" -eq 0 &&
	printf "%s\n" \
		"error: work directory ${SQ}$wd${SQ} was moved away; not removing it" \
		"error: cleanup of ${SQ}$wd${SQ} failed: Stale file handle" \
		>expect &&
	test_cmp expect err &&
	test -d "$TRASH/moved" &&
	test -f "$TRASH/moved/.vfsbench-workdir" &&
	canary_check &&
	workdir_empty &&
	rm -rf "$TRASH/moved"
'

test_expect_success 'work directory replaced by another: the other one is kept' '
	canary_setup &&
	start_vfsbench -q -t 30s --warmup 0 -c st.load -D "$TRASH/work" 2 &&
	wait_workdir &&
	wait_exists "$wd/run0/clients/client1/f" &&
	mv "$wd" "$TRASH/moved" &&
	mkdir "$wd" &&
	echo impostor >"$wd/file" &&
	: >"$wd/.vfsbench-workdir" &&
	sleep 0.3 &&
	kill -INT "$pid" &&
	finish 130 &&
	printf "%s\n" \
		"error: ${SQ}$wd${SQ} is no longer our work directory (replaced); not removing it" \
		"error: cleanup of ${SQ}$wd${SQ} failed: Stale file handle" \
		>expect &&
	test_cmp expect err &&
	test "$(cat "$wd/file")" = impostor &&
	test -f "$wd/.vfsbench-workdir" &&
	test -f "$TRASH/moved/.vfsbench-workdir" &&
	canary_check &&
	rm -rf "$wd" "$TRASH/moved" &&
	workdir_empty
'

test_expect_success 'work directory renamed, run ends by itself: exit 3 (cleanup failed)' '
	canary_setup &&
	start_vfsbench -q -t 3s --warmup 0 -c st.load -D "$TRASH/work" 2 &&
	wait_workdir &&
	mv "$wd" "$TRASH/moved" &&
	finish 3 &&
	! grep "^note:" out &&
	test_grep "^Throughput " out &&
	printf "%s\n" \
		"error: work directory ${SQ}$wd${SQ} was moved away; not removing it" \
		"error: cleanup of ${SQ}$wd${SQ} failed: Stale file handle" \
		>expect &&
	test_cmp expect err &&
	test -f "$TRASH/moved/.vfsbench-workdir" &&
	canary_check &&
	workdir_empty &&
	rm -rf "$TRASH/moved"
'

# workdir.h: workdir_clear() "returns -ENOENT without a message when relpath
# does not exist, so clear if present needs no separate check". A run
# whose tree has gone has nothing left to clear: its failed ops are
# counted, and if vfsbench still calls that a failure it must say so.
test_expect_success 'the run directory removed during a run: a failure says why' '
	canary_setup &&
	start_vfsbench -q -t 3s --warmup 0 -c st.load -D "$TRASH/work" 2 &&
	wait_workdir &&
	wait_exists "$wd/run0/clients/client1/f" &&
	rm -rf "$wd/run0" &&
	rc=0 &&
	{ wait "$pid" || rc=$?; } &&
	test_grep "^  stat: ENOENT x [1-9][0-9]*$" out &&
	if test "$rc" -ne 0; then
		test "$rc" -eq 3 &&
		test_grep "^error: .*run0" err
	fi &&
	canary_check &&
	workdir_empty
'

# SIGXFSZ is ignored: a write past ulimit -f is EFBIG, counted as any
# errno. The limit (512 KiB) leaves room for the report on stdout (a
# file here, under the same limit); the write lands at 1 GiB.
test_expect_success 'a write past ulimit -f: EFBIG counted, exit 0, cleaned up' '
	canary_setup &&
	cat >fsize.load <<-\EOF &&
	[setup]
	create   f
	[run]
	open     f  rdwr  @1
	pwrite   @1  1g  4k
	close    @1
	EOF
	(
		ulimit -f 1024 &&
		exec "$VFSBENCH" -q --loops 3 -c fsize.load -D "$TRASH/work" 1
	) >out 2>err &&
	printf "%s\n" "  pwrite: EFBIG x 3" >expect &&
	unexpected_lines out >actual &&
	test_cmp expect actual &&
	test "$(unexpected_total out)" -eq 3 &&
	test ! -s err &&
	canary_check &&
	workdir_empty
'

test_expect_success 'dbench dialect: WriteX past ulimit -f is EFBIG, counted' '
	canary_setup &&
	cat >fsize.txt <<-\EOF &&
	NTCreateX "\clients\client1\f" 0x40 0x2 2 NT_STATUS_OK
	WriteX 2 1073741824 1000 1000 NT_STATUS_OK
	Close 2 NT_STATUS_OK
	EOF
	(
		ulimit -f 1024 &&
		exec "$VFSBENCH" -q --loops 2 -c fsize.txt -D "$TRASH/work" 1
	) >out 2>err &&
	printf "%s\n" "  WriteX: EFBIG x 2" >expect &&
	unexpected_lines out >actual &&
	test_cmp expect actual &&
	test ! -s err &&
	canary_check &&
	workdir_empty
'

test_done
