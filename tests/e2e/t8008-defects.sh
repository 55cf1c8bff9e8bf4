#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='issue 12, 6: names that are not UTF-8, -t overflow, -D /proc, a FIFO loadfile, messages'
. "$srcdir/tests/e2e/lib.sh"

# One test (or a few) per defect of issue 12, part 6. The setup time of a
# run stopped in its [setup], and "N of M clients measured no op", are in
# t8006-stop.sh and test-run.c.

SQ="'"

# --- JSON keeps strings that are not UTF-8 -----------------------------------

test_expect_success 'a loadfile and a -D that are not UTF-8: kept in the JSON, compare reads them' '
	canary_setup &&
	name=$(printf "bad\377.load") &&
	dir=$(printf "w\377d") &&
	mkdir -p "$TRASH/work/$dir" &&
	printf "%s\n" "stat ." >"$name" &&
	for f in a b; do
		vfsbench -q -e null --loops 2 --runs 3 -c "$name" \
			-D "$TRASH/work/$dir" --json $f.json 1 2 >out 2>err &&
		test ! -s err || return 1
	done &&
	json_valid a.json &&
	grep "^  \"name\": \"\\\\u0000bad\\\\\\\\xff\\.load\",$" a.json &&
	grep "^  \"directory\": \"\\\\u0000$TRASH/work/w\\\\\\\\xffd\",$" a.json &&
	if command -v python3 >/dev/null 2>&1; then
		python3 -c "import json, sys
d = json.load(open(\"a.json\"))
assert d[\"loadfile\"][\"name\"] == \"\\0bad\\\\xff.load\", d[\"loadfile\"]
assert d[\"loadfile\"][\"dialect\"] == \"native\"
assert \"\\0bad\\\\xff.load\" in d[\"options\"][\"command\"]"
	fi &&
	vfsbench compare a.json b.json >cmp 2>err &&
	test ! -s err &&
	test_grep "^Clients  a  *b$" cmp &&
	rmdir "$TRASH/work/$dir" &&
	canary_check &&
	workdir_empty
'

test_expect_success 'a backslash in a name that is not UTF-8 is escaped too, and comes back' '
	canary_setup &&
	name=$(printf "b\\\\x41\377.load") &&
	printf "%s\n" "stat ." >"$name" &&
	vfsbench -q -e null --loops 1 -c "$name" -D "$TRASH/work" \
		--json c.json 1 >out &&
	grep "^  \"name\": \"\\\\u0000b\\\\\\\\\\\\\\\\x41\\\\\\\\xff\\.load\",$" c.json &&
	vfsbench compare c.json c.json >cmp 2>err &&
	test ! -s err &&
	canary_check &&
	workdir_empty
'

test_expect_success 'the report header shows a name with an ESC and a newline on one line' '
	canary_setup &&
	name=$(printf "e\033[2Jn\nl.load") &&
	printf "%s\n" "stat ." >"$name" &&
	vfsbench -q -e null --loops 1 -c "$name" -D "$TRASH/work" 1 >out &&
	head -n 1 out >first &&
	printf "%s\n" "vfsbench 0.1.0  loadfile e\\x1b[2Jn\\x0al.load: 1 ops, 0 in [setup]" >expect &&
	test_cmp expect first &&
	! grep "$(printf "\033")" out &&
	canary_check &&
	workdir_empty
'

# --- durations that do not fit ---------------------------------------------

test_expect_success '-t, --warmup and --stop-timeout too long to fit: usage errors' '
	canary_setup &&
	for a in "-t 18446744073s" "-t 5124095h" "-t 100001h" \
		"--warmup 100001h" "--stop-timeout 18446744073s"; do
		opt=${a%% *} &&
		val=${a#* } &&
		case $opt in -t) long=--time ;; *) long=$opt ;; esac &&
		test_expect_code 2 bounded "$VFSBENCH" -q -e null $a \
			-D "$TRASH/work" 1 >out 2>err &&
		printf "%s\n" "vfsbench: bad $long ${SQ}$val${SQ}: at most 100000h" \
			"Try ${SQ}vfsbench --help${SQ} for more information." >expect &&
		test_cmp expect err || return 1
	done &&
	test_expect_code 2 vfsbench -q -t 100000h --loops 1 -D "$TRASH/work" 1 \
		2>err &&
	test_grep "^vfsbench: --loops and --time exclude each other$" err &&
	canary_check &&
	workdir_empty
'

# --- -D where nothing can be created -----------------------------------------

# mkdir in /proc fails with ENOENT, which looked like a missing -D (exit
# 2); the directory is there, the run cannot be set up: exit 3. (Nothing
# can be made in /proc, so the test cannot change it.)
test_expect_success '-D /proc: exit 3, as vfsbench(1) says for a work directory that cannot be created' '
	test_expect_code 3 vfsbench -q -e null --loops 1 -c statfs -D /proc 1 \
		>out 2>err &&
	printf "%s\n" "error: cannot create work directory in ${SQ}/proc${SQ}: No such file or directory" >expect &&
	test_cmp expect err &&
	test ! -s out
'

# --- a signal while the loadfile is read from a FIFO -------------------------

test_expect_success 'SIGINT while the loadfile FIFO waits for a writer: exit 130' '
	canary_setup &&
	mkfifo lf.fifo &&
	start_vfsbench -q -c lf.fifo -D "$TRASH/work" 1 &&
	blocked 1 wait_for_partner &&
	kill -INT "$pid" &&
	finish 130 &&
	test ! -s err &&
	canary_check &&
	workdir_empty
'

test_expect_success 'SIGTERM while the loadfile FIFO is read, a writer silent: exit 143' '
	canary_setup &&
	{ sleep 60 >lf.fifo & writer=$!; } &&
	start_vfsbench -q -c lf.fifo -D "$TRASH/work" 1 &&
	i=0 &&
	# pipe_read, anon_pipe_read (6.15 and later): blocked in read(2)
	while ! cat /proc/"$pid"/wchan 2>/dev/null | grep -q "pipe_read$"; do
		i=$((i + 1)) &&
		test $i -lt 1000 &&
		sleep 0.01 || return 1
	done &&
	kill -TERM "$pid" &&
	finish 143 &&
	kill "$writer" &&
	test ! -s err &&
	canary_check &&
	workdir_empty
'

# --- a second signal before the cleanup began ----------------------------------

# SIGSTOP holds vfsbench in its run; SIGINT and SIGTERM both wait, and are
# taken one after the other when it goes on: two signals before the
# cleanup could begin. It must say "skipped", and have removed nothing.
test_expect_success 'a second signal before the cleanup: "skipped", the tree all there' '
	canary_setup &&
	printf "%s\n" "[setup]" "mkdir d" "create d/f" "[run]" "stat d/f" \
		>tree.load &&
	start_vfsbench -q -t 30s --warmup 0 -c tree.load -D "$TRASH/work" 2 &&
	i=0 &&
	while ! test -f "$TRASH"/work/vfsbench.*/run0/clients/client1/d/f; do
		i=$((i + 1)) &&
		test $i -lt 1000 &&
		sleep 0.01 || return 1
	done &&
	kill -STOP "$pid" &&
	kill -INT "$pid" &&
	kill -TERM "$pid" &&
	kill -CONT "$pid" &&
	rc=0 &&
	wait "$pid" || rc=$? &&
	if test "$rc" -ne 130 && test "$rc" -ne 143; then
		say "exit $rc, not 130 or 143" >&2
		return 1
	fi &&
	wd=$(echo "$TRASH"/work/vfsbench.*) &&
	printf "%s\n" "vfsbench: cleanup skipped after a second signal: files left in ${SQ}$wd${SQ}" >expect &&
	test_cmp expect err &&
	test -f "$wd/.vfsbench-workdir" &&
	test -f "$wd/run0/clients/client0/d/f" &&
	test -f "$wd/run0/clients/client1/d/f" &&
	rm -rf "$wd" &&
	canary_check &&
	workdir_empty
'

# --- a mount point inside the tree is reported once ----------------------------

mount_skip=
if test "$(id -u)" -ne 0; then
	mount_skip='not root'
elif ! mkdir "$TRASH/m" || ! mount -t tmpfs vfsbench-test "$TRASH/m" 2>/dev/null; then
	mount_skip='cannot mount a tmpfs'
else
	umount "$TRASH/m"
fi
trap 'umount "$TRASH"/work/vfsbench.*/run0/clients/client0/mnt 2>/dev/null; cd /; rm -rf "$TRASH"' EXIT

if test -n "$mount_skip"; then
	test_skip 'a mount point inside the tree: reported once, left, exit 130' \
		"$mount_skip"
else
	test_expect_success 'a mount point inside the tree: reported once, left, exit 130' '
		canary_setup &&
		mkfifo "$TRASH/fifo" &&
		cat >m.load <<-EOF &&
		[setup]
		mkdir    mnt
		symlink  "$TRASH/fifo"  f
		[run]
		open     f  rdonly  @1
		close    @1
		EOF
		start_vfsbench -q -t 30s --warmup 0 --links-out -c m.load \
			-D "$TRASH/work" 1 &&
		blocked 1 wait_for_partner &&
		wd=$(echo "$TRASH"/work/vfsbench.*) &&
		mount -t tmpfs vfsbench-test "$wd/run0/clients/client0/mnt" &&
		echo inside >"$wd/run0/clients/client0/mnt/kept" &&
		kill -INT "$pid" &&
		finish 130 &&
		test "$(grep -c "is a mount point; left in place" err)" -eq 1 &&
		test_grep "^error: ${SQ}$wd/run0/clients/client0/mnt${SQ} is a mount point; left in place$" err &&
		test "$(cat "$wd/run0/clients/client0/mnt/kept")" = inside &&
		umount "$wd/run0/clients/client0/mnt" &&
		rm -rf "$wd" &&
		canary_check &&
		workdir_empty
	'
fi

# --- messages ------------------------------------------------------------------

test_expect_success 'a dbench line in a file read as native: the message says why' '
	canary_setup &&
	printf "%s\n" "Unlink \"\\a\" 0x10 NT_STATUS_OK extra" >u.txt &&
	test_expect_code 2 vfsbench -q -c u.txt -D "$TRASH/work" 1 >out 2>err &&
	printf "%s\n" "u.txt:1:1: unknown op ${SQ}Unlink${SQ} (${SQ}Unlink${SQ} is an op of dbench loadfiles; this file is read as native, since its first op line does not end in a status, NT_STATUS_... or 0x...: --dialect dbench reads it as dbench${SQ}s)" >expect &&
	test_cmp expect err &&
	canary_check &&
	workdir_empty
'

test_expect_success 'an offset is called an offset, a size a size' '
	canary_setup &&
	printf "%s\n" "open f rdwr @1" "pread @1 1x 4k" "close @1" >o.load &&
	test_expect_code 2 vfsbench -q -c o.load -D "$TRASH/work" 1 2>err &&
	test_grep "^o\.load:2:10: bad offset ${SQ}1x${SQ}$" err &&
	printf "%s\n" "open f rdwr @1" "pread @1 0 4x" "close @1" >o.load &&
	test_expect_code 2 vfsbench -q -c o.load -D "$TRASH/work" 1 2>err &&
	test_grep "^o\.load:2:12: bad size ${SQ}4x${SQ}$" err &&
	canary_check &&
	workdir_empty
'

test_expect_success 'the 16-token limit of a native line is the documented one' '
	canary_setup &&
	printf "%s\n" "stat 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16" >t.load &&
	test_expect_code 2 vfsbench -q -c t.load -D "$TRASH/work" 1 2>err &&
	test_grep "^t\.load:1:42: too many tokens (at most 16)$" err &&
	grep -q "^A line holds at most 16 tokens" "$abs_top_srcdir/doc/vfsbench-loadfile.5" &&
	grep -q "^\.B too many tokens (at most 16)$" "$abs_top_srcdir/doc/vfsbench-loadfile.5" &&
	canary_check &&
	workdir_empty
'

test_done
