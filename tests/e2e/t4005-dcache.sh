#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='--dcache warm, cold and negative=N: usage errors, the lookups and the drop, the JSON'
# shellcheck disable=SC2154
. "$srcdir/tests/e2e/lib.sh"

SQ="'"

printf '%s\n' "[setup]" "create f" "[run]" "stat f" "stat missing ENOENT" \
	>s.load

# usage_error MESSAGE -D DIR ARGS...: exit 2, MESSAGE and the hint on
# stderr, nothing on stdout.
usage_error() {
	printf '%s\n' "vfsbench: $1" \
		"Try ${SQ}vfsbench --help${SQ} for more information." >expect &&
	shift &&
	test_expect_code 2 "$@" >out 2>err &&
	test_cmp expect err &&
	test ! -s out
}

# --- usage errors ----------------------------------------------------------------

test_expect_success 'bad values: exit 2, the message, nothing created' '
	canary_setup &&
	for v in hot negative=0 negative=10000001 negative= negative=-1 \
		negative=1x Negative=3 cold,warm; do
		usage_error "bad --dcache ${SQ}$v${SQ}: expected warm, cold or negative=N (N from 1 to 10000000)" \
			vfsbench -c s.load --loops 1 -D "$TRASH/work" \
			--dcache "$v" 1 || return 1
	done &&
	usage_error "bad --dcache ${SQ}hot${SQ}: expected warm, cold or negative=N (N from 1 to 10000000)" \
		vfsbench -c s.load --loops 1 -D "$TRASH/work" \
		--variant dcache=warm,hot 1 &&
	canary_check &&
	workdir_empty
'

# as_nobody CMD...: CMD as user nobody, no groups.
nobody_skip=
if test "$(id -u)" -ne 0; then
	nobody_skip='not root: the test switches to user nobody'
elif ! setpriv --reuid=nobody --regid=nogroup --clear-groups true 2>/dev/null; then
	nobody_skip='setpriv cannot switch to user nobody'
else
	# nobody must reach the binary and a -D it may write
	chmod 755 "$TRASH"
	if ! setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$VFSBENCH" --version >/dev/null 2>&1; then
		nobody_skip="user nobody cannot run $VFSBENCH"
	fi
fi

if test -n "$nobody_skip"; then
	test_skip '--dcache cold as a user other than root' "$nobody_skip"
else
	test_expect_success '--dcache cold as a user other than root: exit 2, nothing created' '
		canary_setup &&
		mkdir -p nwork &&
		chmod 777 nwork &&
		usage_error "--dcache cold needs root: the caches are dropped through /proc/sys/vm/drop_caches (effective uid $(id -u nobody))" \
			setpriv --reuid=nobody --regid=nogroup --clear-groups \
			"$VFSBENCH" -c "$TRASH/s.load" --loops 1 -D "$TRASH/nwork" \
			--dcache cold 1 &&
		usage_error "--dcache cold needs root: the caches are dropped through /proc/sys/vm/drop_caches (effective uid $(id -u nobody))" \
			setpriv --reuid=nobody --regid=nogroup --clear-groups \
			"$VFSBENCH" -c "$TRASH/s.load" --loops 1 -D "$TRASH/nwork" \
			--variant dcache=warm,cold 1 &&
		test "$(find nwork -mindepth 1 | wc -l)" -eq 0 &&
		setpriv --reuid=nobody --regid=nogroup --clear-groups \
			"$VFSBENCH" -c "$TRASH/s.load" --loops 1 -q \
			-D "$TRASH/nwork" --dcache negative=3 1 >out 2>err &&
		test ! -s err &&
		test "$(find nwork -mindepth 1 | wc -l)" -eq 0 &&
		canary_check &&
		workdir_empty
	'
fi

shm=
if test -d /dev/shm && test "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs; then
	shm=$(mktemp -d /dev/shm/vb-t4005.XXXXXX) || shm=
fi
if test -z "$shm"; then
	test_skip '--dcache cold on tmpfs' 'no tmpfs at /dev/shm to make a directory in'
elif test "$(id -u)" -ne 0; then
	test_skip '--dcache cold on tmpfs' 'not root: the root check comes first'
else
	test_expect_success '--dcache cold on tmpfs: exit 2, nothing created' '
		canary_setup &&
		printf "shm canary\n" >"$shm/canary" &&
		usage_error "--dcache cold: ${SQ}$shm${SQ} is on tmpfs or ramfs, which keeps its dentries as the only copy of the tree: they cannot be dropped" \
			vfsbench -c s.load --loops 1 -D "$shm" --dcache cold 1 &&
		usage_error "--dcache cold: ${SQ}$shm${SQ} is on tmpfs or ramfs, which keeps its dentries as the only copy of the tree: they cannot be dropped" \
			vfsbench -c s.load --loops 1 -D "$shm" \
			--variant dcache=negative=2,cold 1 &&
		test "$(cat "$shm/canary")" = "shm canary" &&
		test "$(find "$shm" -mindepth 1 ! -name canary | wc -l)" -eq 0 &&
		canary_check &&
		workdir_empty
	'
	rm -rf "$shm"
fi

# --- negative=N ------------------------------------------------------------------

# neg_lookups TRACE: per thread, "PID COUNT" of ENOENT lookups of
# .vb-neg-*; and the distinct names.
neg_lookups() {
	grep '"\.vb-neg-[0-9]*", .* = -1 ENOENT' "$1" |
		awk '{ n[$1]++ } END { for (p in n) print n[p] }' | sort
}

strace_test '--dcache negative=7: exactly 7 ENOENT lookups per client, of .vb-neg-0 to 6' '
	canary_setup &&
	ASAN_OPTIONS=detect_leaks=0 strace -f -o tr -e trace=newfstatat,statx "$VFSBENCH" -c s.load \
		--loops 2 -D "$TRASH/work" --dcache negative=7 \
		--json r.json 2 >out 2>err &&
	test ! -s err &&
	printf "%s\n" 7 7 >expect &&
	neg_lookups tr >got &&
	test_cmp expect got &&
	test "$(grep -c "\.vb-neg-" tr)" = 14 &&
	for i in 0 1 2 3 4 5 6; do
		test "$(grep -c "\"\.vb-neg-$i\"" tr)" = 2 || return 1
	done &&
	test_grep "  depth 0  dcache negative=7  placement none\$" out &&
	json_flat r.json >flat &&
	test "$(jget flat options.dcache)" = negative=7 &&
	test "$(jget flat "variants[0].options.dcache")" = negative=7 &&
	canary_check &&
	workdir_empty
'

strace_test '--dcache negative=5 --cwd shared: client 0 makes them, once' '
	canary_setup &&
	ASAN_OPTIONS=detect_leaks=0 strace -f -o tr -e trace=newfstatat,statx "$VFSBENCH" -c s.load \
		--loops 1 -q -D "$TRASH/work" --dcache negative=5 --cwd shared \
		2 >out 2>err &&
	test ! -s err &&
	echo 5 >expect &&
	neg_lookups tr >got &&
	test_cmp expect got &&
	canary_check &&
	workdir_empty
'

test_expect_success 'a .vb-neg- name that exists fails the setup, exit 3' '
	canary_setup &&
	printf "%s\n" "[setup]" "create .vb-neg-3" "[run]" "stat .vb-neg-3" \
		>exists.load &&
	test_expect_code 3 vfsbench -c exists.load --loops 1 -q \
		-D "$TRASH/work" --dcache negative=5 1 >out 2>err &&
	test_grep "^error: client 0: --dcache negative=5: ${SQ}\.vb-neg-3${SQ} in its directory: File exists (each name must be missing)\$" err &&
	canary_check &&
	workdir_empty
'

test_expect_success 'warm is the default; a --variant dcache axis is recorded per variant' '
	canary_setup &&
	vfsbench -c s.load -e null --loops 1 -D "$TRASH/work" \
		--json w.json 1 >out 2>err &&
	test_grep "  depth 0  dcache warm  placement none\$" out &&
	json_flat w.json >flat &&
	test "$(jget flat options.dcache)" = warm &&
	vfsbench -c s.load -e null --loops 1 -D "$TRASH/work" \
		--variant dcache=warm,negative=3 --json v.json 1 >out 2>err &&
	json_flat v.json >flat &&
	test "$(jget flat "variants[0].label")" = dcache=warm &&
	test "$(jget flat "variants[0].options.dcache")" = warm &&
	test "$(jget flat "variants[1].options.dcache")" = negative=3 &&
	canary_check &&
	workdir_empty
'

# --- cold ------------------------------------------------------------------------

cold_skip=
if test "$(id -u)" -ne 0; then
	cold_skip='not root: only root may drop the caches'
elif test "$(stat -f -c %T "$TRASH")" = tmpfs; then
	cold_skip="the trash directory $TRASH is on tmpfs, where --dcache cold is refused"
fi

# cold_test TITLE BODY: strace_test where --dcache cold can drop the
# caches here, a skip saying why where it cannot.
cold_test() {
	if test -n "$cold_skip"; then
		test_skip "$1" "$cold_skip"
	else
		strace_test "$1" "$2"
	fi
}

# cold_order: in strace's log tr, the [setup]'s create of f, each drop of
# the caches and each stat of f, in their order, a word a line.
cold_order() {
	grep -n -e '"f", O_WRONLY|O_CREAT|O_TRUNC' \
		-e 'write([0-9]*, "2", 1)' \
		-e '(AT_FDCWD, "f", ' tr |
		sed -e 's/:.*"f", O_WRONLY.*/ create/' \
			-e 's/:.*write(.*/ drop/' -e 's/:.*"f", .*/ stat/' |
		awk '{ print $2 }'
}

cold_test '--dcache cold: the drop after the setup, before the first op' '
	canary_setup &&
	ASAN_OPTIONS=detect_leaks=0 strace -f -o tr -e trace=openat,write,newfstatat,statx \
		"$VFSBENCH" -c s.load --loops 1 -D "$TRASH/work" \
		--dcache cold --json c.json 1 2 >out 2>err &&
	test ! -s err &&
	test_grep "  depth 0  dcache cold  placement none\$" out &&
	json_flat c.json >flat &&
	test "$(jget flat options.dcache)" = cold &&
	test "$(grep -c "openat(AT_FDCWD, \"/proc/sys/vm/drop_caches\", O_WRONLY|O_CLOEXEC) = [0-9]" tr)" = 2 &&
	test "$(grep -c "write([0-9]*, \"2\", 1) *= 1\$" tr)" = 2 &&
	# each run: the [setup] create, then the drop, then the ops
	cold_order | uniq >got &&
	printf "%s\n" create drop stat create drop stat >expect &&
	test_cmp expect got &&
	canary_check &&
	workdir_empty
'

# --- a stop while the names are made -------------------------------------------

# 10 million lookups take a minute and a half on a loaded machine, and
# the loop made them all, whatever the stop: the client was stuck past
# --stop-timeout, the tree left, exit 3. The names are made a slice at a
# time, with a look for the stop between two. The [setup] line makes
# "ready" just before the names: the handshake.
has_ready() {
	test -n "$(find "$TRASH/work" -name ready 2>/dev/null)"
}

test_expect_success 'SIGINT while negative=10000000 is made: exit 130, no stuck client, the tree removed' '
	canary_setup &&
	printf "%s\n" "[setup]" "create ready" "[run]" "stat ." >ready.load &&
	start_vfsbench -q -c ready.load --loops 1 \
		--dcache negative=10000000 -D "$TRASH/work" 1 &&
	wait_until "no [setup] done" has_ready &&
	kill -INT "$pid" &&
	ends 130 &&
	! grep -q "could not be stopped\|stuck" err &&
	! grep -q "^error" err &&
	canary_check &&
	workdir_empty
'

# With a warmup, the drop comes after it, before the measurement: by
# time (the default with -t), the drop is between the warmup's ops and
# the measurement's; in passes, likewise. Before, it came before the
# warmup, which filled the cache again.
cold_test '--dcache cold with the default warmup: the drop after the warmup' '
	canary_setup &&
	ASAN_OPTIONS=detect_leaks=0 strace -f -o tr -e trace=openat,write,newfstatat,statx \
		"$VFSBENCH" -c s.load -t 1s -D "$TRASH/work" \
		--dcache cold 1 >out 2>err &&
	test_grep "^time 1.00s  warmup 200ms\$" out &&
	test "$(grep -c "write([0-9]*, \"2\", 1) *= 1\$" tr)" = 1 &&
	cold_order | uniq >got &&
	printf "%s\n" create stat drop stat >expect &&
	test_cmp expect got &&
	ASAN_OPTIONS=detect_leaks=0 strace -f -o tr -e trace=openat,write,newfstatat,statx \
		"$VFSBENCH" -c s.load --loops 2 --warmup 3p -D "$TRASH/work" \
		--dcache cold 1 >out 2>err &&
	cold_order >got &&
	printf "%s\n" create stat stat stat drop stat stat >expect &&
	test_cmp expect got &&
	canary_check &&
	workdir_empty
'

# The probe's counts on ext4 (a loop-mounted image in a private mount
# namespace), where a drop empties the dcache: a pass walks a/b/f with
# three probes (openat2 RESOLVE_CACHED, which never fills the cache),
# then a stat that fills it. After 2 warmup passes and a drop, the first
# measured pass's probes miss and the others' hit: 1 to 3 misses per
# client (how much of the chain the drop freed), none after it; with
# the drop before the warmup, as before, none missed at all.
if test "$(id -u)" = 0 && command -v mkfs.ext4 >/dev/null 2>&1 &&
	command -v unshare >/dev/null 2>&1 &&
	unshare -m true 2>/dev/null; then
	test_expect_success '--dcache cold after a warmup on ext4: the first measured pass misses, the probe counts it' '
		truncate -s 64M img.ext4 &&
		mkfs.ext4 -q -F img.ext4 &&
		mkdir -p mnt &&
		cat >cold.load <<-\EOF &&
		[setup]
		mkdir    a
		mkdir    a/b
		create   a/b/f
		[run]
		probe    a
		probe    a/b
		probe    a/b/f
		stat     a/b/f
		EOF
		unshare -m sh -c "mount --make-rprivate / &&
			mount -o loop img.ext4 mnt &&
			echo canary >mnt/canary &&
			\"\$VFSBENCH\" -D mnt -c cold.load --loops 3 --warmup 2p \
				--depth 2 --dcache cold 2 --json c.json >out 2>err;
			rc=\$?;
			test \"\$(cat mnt/canary)\" = canary && test \"\$(ls mnt)\" = \"canary
lost+found\" || rc=99;
			umount mnt; exit \$rc" &&
		jq -e "[.. | objects | select(.op == \"probe\")][0] | .count == 18 and .cached + .uncached == 18 and .uncached >= 2 and .uncached <= 6 and .unexpected == {}" c.json >/dev/null &&
		test_grep "^RCU-walk probe: 1[2-6] of 18 lookups completed in RCU-walk mode" out
	'
else
	test_skip '--dcache cold after a warmup on ext4' 'needs root, mkfs.ext4 and unshare -m'
fi

# --- compare ---------------------------------------------------------------------

test_expect_success 'compare: a file without dcache is warm; cold vs warm is not like for like' '
	write_result A.json 1:100 1:101 1:99 &&
	sed -e "s/\"depth\": 0,/\"depth\": 0, \"dcache\": \"warm\",/" A.json >W.json &&
	sed -e "s/\"depth\": 0,/\"depth\": 0, \"dcache\": \"cold\",/" A.json >C.json &&
	grep -q "\"dcache\": \"cold\"" C.json &&
	vfsbench compare A.json W.json >out 2>err &&
	test ! -s err &&
	vfsbench compare A.json C.json >out 2>err &&
	echo "warning: NOT LIKE FOR LIKE: ${SQ}A.json${SQ} and ${SQ}C.json${SQ} differ in: dcache warm vs cold" >expect &&
	test_cmp expect err
'

test_done
