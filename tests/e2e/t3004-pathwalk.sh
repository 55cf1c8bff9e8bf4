#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='path walks: --depth in every path, --resolve cwd|dirfd|abs|beneath, --prefix, the RCU-walk probe'
. "$srcdir/tests/e2e/lib.sh"

SQ="'"

# How: a 1-client --loops 1 run under strace -ff writes one trace per
# thread; the client's, cut between the marker lookups m/mark.0 and
# m/mark.1, gives each op's call, the fd its lookup starts from and its
# path strings (walkcalls.awk), compared line by line with what the mode
# must issue.

# calls MODE LOADFILE ARGS...: the client's calls, in calls.MODE
calls() {
	mode=$1
	lf=$2
	shift 2
	rm -rf tr && mkdir tr &&
	ASAN_OPTIONS=detect_leaks=0 strace -ff -qq -o tr/t "$VFSBENCH" -D "$TRASH/work" -c "$lf" --loops 1 \
		--resolve "$mode" "$@" 1 >"out.$mode" 2>"err.$mode" &&
	abs=$(cd "$TRASH/work" && pwd -P) &&
	t=$(grep -l 'm/mark\.0"' tr/t.*) &&
	awk -v abs="$abs/vfsbench\\.[A-Za-z0-9]*" \
		-f "$abs_top_srcdir/tests/e2e/walkcalls.awk" "$t" >"calls.$mode"
}

test_expect_success 'setup: a loadfile of every native op that resolves a path' '
	cat >ops.load <<-\EOF &&
	[setup]
	mkdir    a
	create   a/f
	create   a/g
	symlink  a/f  ln
	mkdir    a/rd
	[run]
	access   m/mark.0  ENOENT
	stat     a/f
	lstat    ln
	access   a/f  r
	statfs   a
	statvfs  a
	open     a/f  rdonly  @1
	close    @1
	create   a/c
	unlink   a/c
	mkdir    a/m
	rmdir    a/m
	rename   a/g  a/h
	rename   a/h  a/g
	link     a/f  a/l
	unlink   a/l
	symlink  a/f  a/s
	unlink   a/s
	readlink ln
	readdir  a/rd
	utimens  a/f
	probe    a/f
	access   m/mark.1  ENOENT
	EOF
	cat >beneath.load <<-\EOF
	[setup]
	mkdir    a
	create   a/f
	mkdir    a/rd
	[run]
	probe    m/mark.0  ENOENT
	open     a/f  rdonly  @1
	close    @1
	create   a/c
	readdir  a/rd
	probe    a/f
	probe    m/mark.1  ENOENT
	EOF
'

strace_test '--resolve cwd --depth 2: the plain calls, two more components in each path' '
	canary_setup &&
	calls cwd ops.load --depth 2 &&
	cat >expect <<-\EOF &&
	newfstatat AT_FDCWD "d/d/a/f"
	newfstatat AT_FDCWD "d/d/ln" AT_SYMLINK_NOFOLLOW
	access "d/d/a/f"
	statfs "d/d/a"
	statfs "d/d/a"
	openat AT_FDCWD "d/d/a/f"
	openat AT_FDCWD "d/d/a/c"
	unlink "d/d/a/c"
	mkdir "d/d/a/m"
	rmdir "d/d/a/m"
	rename "d/d/a/g" "d/d/a/h"
	rename "d/d/a/h" "d/d/a/g"
	link "d/d/a/f" "d/d/a/l"
	unlink "d/d/a/l"
	symlink "a/f" "d/d/a/s"
	unlink "d/d/a/s"
	readlink "d/d/ln" "a/f"
	openat AT_FDCWD "d/d/a/rd"
	utimensat AT_FDCWD "d/d/a/f"
	openat2 AT_FDCWD "d/d/a/f" RESOLVE_CACHED
	EOF
	test_cmp expect calls.cwd &&
	test_grep "a lookup walks 2 components before the loadfile" out.cwd &&
	canary_check && workdir_empty
'

strace_test '--resolve dirfd: the *at() calls from the client directory fd' '
	canary_setup &&
	calls dirfd ops.load --depth 2 &&
	cat >expect <<-\EOF &&
	newfstatat DIRFD "d/d/a/f"
	newfstatat DIRFD "d/d/ln" AT_SYMLINK_NOFOLLOW
	faccessat2 DIRFD "d/d/a/f"
	openat DIRFD "d/d/a"
	openat DIRFD "d/d/a"
	openat DIRFD "d/d/a/f"
	openat DIRFD "d/d/a/c"
	unlinkat DIRFD "d/d/a/c"
	mkdirat DIRFD "d/d/a/m"
	unlinkat DIRFD "d/d/a/m" AT_REMOVEDIR
	renameat DIRFD "d/d/a/g" DIRFD "d/d/a/h"
	renameat DIRFD "d/d/a/h" DIRFD "d/d/a/g"
	linkat DIRFD "d/d/a/f" DIRFD "d/d/a/l"
	unlinkat DIRFD "d/d/a/l"
	symlinkat "a/f" DIRFD "d/d/a/s"
	unlinkat DIRFD "d/d/a/s"
	readlinkat DIRFD "d/d/ln" "a/f"
	openat DIRFD "d/d/a/rd"
	utimensat DIRFD "d/d/a/f"
	openat2 DIRFD "d/d/a/f" RESOLVE_CACHED
	EOF
	test_cmp expect calls.dirfd &&
	canary_check && workdir_empty
'

strace_test '--resolve abs: absolute paths from /, through the work directory' '
	canary_setup &&
	calls abs ops.load --depth 1 &&
	P=ABS/run0/clients/client0/d &&
	cat >expect <<-EOF &&
	newfstatat AT_FDCWD "$P/a/f"
	newfstatat AT_FDCWD "$P/ln" AT_SYMLINK_NOFOLLOW
	access "$P/a/f"
	statfs "$P/a"
	statfs "$P/a"
	openat AT_FDCWD "$P/a/f"
	openat AT_FDCWD "$P/a/c"
	unlink "$P/a/c"
	mkdir "$P/a/m"
	rmdir "$P/a/m"
	rename "$P/a/g" "$P/a/h"
	rename "$P/a/h" "$P/a/g"
	link "$P/a/f" "$P/a/l"
	unlink "$P/a/l"
	symlink "a/f" "$P/a/s"
	unlink "$P/a/s"
	readlink "$P/ln" "a/f"
	openat AT_FDCWD "$P/a/rd"
	utimensat AT_FDCWD "$P/a/f"
	openat2 AT_FDCWD "$P/a/f" RESOLVE_CACHED
	EOF
	test_cmp expect calls.abs &&
	n=$(cd "$TRASH/work" && pwd -P | tr / "\n" | grep -c .) &&
	test_grep "a lookup walks $((n + 5)) components before the loadfile.s path, then the path.s own (1.8 on average), $((n + 1)) of them from / to the work directory" out.abs &&
	canary_check && workdir_empty
'

strace_test '--resolve beneath: openat2 RESOLVE_BENEATH from the directory fd' '
	canary_setup &&
	calls beneath beneath.load --depth 1 &&
	cat >expect <<-\EOF &&
	openat2 DIRFD "d/a/f" RESOLVE_BENEATH
	openat2 DIRFD "d/a/c" RESOLVE_BENEATH
	openat2 DIRFD "d/a/rd" RESOLVE_BENEATH
	openat2 DIRFD "d/a/f" RESOLVE_BENEATH|RESOLVE_CACHED
	EOF
	test_cmp expect calls.beneath &&
	canary_check && workdir_empty
'

strace_test '--prefix shared: one chain for the run, then the client.s own directory' '
	canary_setup &&
	calls cwd beneath.load --depth 3 --prefix shared &&
	test_grep "openat AT_FDCWD \"d/d/d/client0/a/f\"" calls.cwd &&
	test_grep "a lookup walks 4 components" out.cwd &&
	canary_check && workdir_empty
'

test_expect_success '--resolve beneath refuses an op with no openat2() form, nothing created' '
	canary_setup &&
	printf "[run]\nstat .\n" >stat.load &&
	test_expect_code 2 vfsbench -D "$TRASH/work" -c stat.load --loops 1 \
		--resolve beneath 1 >out 2>err &&
	test_grep "^stat.load:2:1: op .stat. has no openat2() form: --resolve beneath takes open, create, readdir, probe and the ops on handles" err &&
	canary_check && workdir_empty
'

test_expect_success 'a dbench loadfile under --depth 2: its Deltree of the client directory keeps it, nothing unexpected' '
	canary_setup &&
	vfsbench -D "$TRASH/work" -c "$TEST_DATA/dbench-sample.txt" --loops 1 \
		--depth 2 1 >out 2>err &&
	! grep "^Unexpected results" out &&
	test "$(op_count out Deltree)" = 2 &&
	canary_check && workdir_empty
'

test_expect_success 'dbench ops resolve from the cwd only: --resolve dirfd refuses them' '
	canary_setup &&
	test_expect_code 2 vfsbench -D "$TRASH/work" \
		-c "$TEST_DATA/dbench-sample.txt" --loops 1 --resolve dirfd 1 \
		>out 2>err &&
	test_grep "dbench-sample.txt:3:1: op .Deltree. has no form that resolves from a directory fd (--resolve dirfd)$" err &&
	canary_check && workdir_empty
'

test_expect_success 'the JSON records the walk; compare names a walk that differs' '
	canary_setup &&
	printf "[setup]\ncreate f\n[run]\nstat f\n" >s.load &&
	vfsbench -q -e null -D "$TRASH/work" -c s.load --loops 2 1 \
		--json A.json >out 2>err &&
	vfsbench -q -e null -D "$TRASH/work" -c s.load --loops 2 --depth 3 \
		--resolve abs --prefix shared 1 --json B.json >out 2>err &&
	jq -e ".options.resolve == \"cwd\" and .options.prefix == \"private\" and .options.walk.added_components == 0" A.json >/dev/null &&
	jq -e ".options.resolve == \"abs\" and .options.prefix == \"shared\" and .options.walk.added_components > 6 and .options.walk.loadfile_components == 1" B.json >/dev/null &&
	vfsbench compare A.json B.json >out 2>err &&
	echo "warning: NOT LIKE FOR LIKE: ${SQ}A.json${SQ} and ${SQ}B.json${SQ} differ in: depth 0 vs 3, resolve cwd vs abs, prefix private vs shared" >expect &&
	test_cmp expect err &&
	canary_check && workdir_empty
'

test_expect_success 'bad --resolve and --prefix values are usage errors' '
	test_expect_code 2 vfsbench --resolve up 1 >out 2>err &&
	test_grep "bad --resolve .up.: expected cwd, dirfd, abs or beneath" err &&
	test_expect_code 2 vfsbench --prefix ours 1 >out 2>err &&
	test_grep "bad --prefix .ours.: expected private or shared" err
'

# Every mode and prefix, creating, renaming and removing under a deep
# prefix: the work directory goes, the canaries and a scratch "outside"
# beside it stay. churn.load for the modes that have every op, bchurn.load
# for beneath's.
test_expect_success 'setup: the escape tests' '
	cat >churn.load <<-\EOF &&
	[setup]
	mkdir    t
	[run]
	create   t/f${client}
	rename   t/f${client}  t/g${client}
	mkdir    t/d${client}
	symlink  g${client}  t/d${client}/l
	unlink   t/d${client}/l
	rmdir    t/d${client}
	unlink   t/g${client}
	EOF
	cat >bchurn.load <<-\EOF
	[setup]
	mkdir    t
	symlink  t  l
	[run]
	create   t/f${client}
	open     t/f${client}  rdwr  @1
	pwrite   @1  0  4k
	close    @1
	readdir  t
	probe    l/f${client}
	EOF
'

# escape LOADFILE MODE PREFIX OP COUNT: 2 clients, 3 passes, --depth 4;
# OP was done COUNT times, and nothing but the work directory was touched
escape() {
	canary_setup &&
	mkdir -p outside && echo keep >outside/keep &&
	vfsbench -D "$TRASH/work" -c "$1" --loops 3 --depth 4 \
		--resolve "$2" --prefix "$3" 2 >out 2>err &&
	test "$(op_count out "$4")" = "$5" &&
	test "$(cat outside/keep)" = keep &&
	test "$(ls outside)" = keep &&
	canary_check && workdir_empty
}

for prefix in private shared; do
	for mode in cwd dirfd abs; do
		test_expect_success "escape: --resolve $mode --prefix $prefix removes only its own tree" "
			escape churn.load $mode $prefix unlink 12
		"
	done
	test_expect_success "escape: --resolve beneath --prefix $prefix removes only its own tree" "
		escape bchurn.load beneath $prefix pwrite 6
	"
done

test_expect_success 'the RCU-walk probe on a fresh tmpfs tree: every cached lookup succeeds, counts exact' '
	test -d /dev/shm && test -w /dev/shm || { say "no writable /dev/shm"; exit 0; }
	shm=$(mktemp -d /dev/shm/vb-probe.XXXXXX) &&
	echo canary >"$shm/canary" &&
	cat >probe.load <<-\EOF &&
	[setup]
	mkdir    a
	mkdir    a/b
	create   a/b/f
	[run]
	probe    a
	probe    a/b
	probe    a/b/f
	EOF
	vfsbench -D "$shm" -c probe.load --loops 100 --depth 8 2 --json p.json >out 2>err &&
	test_grep "^RCU-walk probe: 600 of 600 lookups completed in RCU-walk mode (100.00%), 0 left it (EAGAIN), 0 unexpected" out &&
	jq -e "[.. | objects | select(.op == \"probe\")][0] | .count == 600 and .cached == 600 and .uncached == 0" p.json >/dev/null &&
	test "$(cat "$shm/canary")" = canary &&
	test "$(ls "$shm")" = canary &&
	rm -rf "$shm"
'

test_expect_success 'the probe counts an uncached lookup apart, and the counts add up' '
	canary_setup &&
	cat >neg.load <<-\EOF &&
	[run]
	probe    missing${client}  ENOENT
	EOF
	vfsbench -D "$TRASH/work" -c neg.load --loops 1 3 --json n.json >out 2>err &&
	jq -e "[.. | objects | select(.op == \"probe\")][0] | .count == 3 and .cached + .uncached == 3" n.json >/dev/null &&
	canary_check && workdir_empty
'

# Singular where it is one: "1 component", "1 mount point".
test_expect_success 'the walk line: one component, mount points counted in their number' '
	canary_setup &&
	vfsbench -e null -D "$TRASH/work" --loops 1 --depth 1 1 >out 2>err &&
	test_grep "^walk: resolve cwd  prefix private  a lookup walks 1 component before the loadfile${SQ}s path, then the path${SQ}s own (2.5 on average)\$" out &&
	vfsbench -e null -D "$TRASH/work" --loops 1 --resolve abs 1 >out 2>err &&
	sed -n "s/.*, crossing \([0-9]*\) mount point\(s*\)\$/\1 \2/p" out >m &&
	read -r n s <m &&
	if test "$n" = 1; then test -z "$s"; else test "$s" = s; fi &&
	canary_check && workdir_empty
'

# FxMark's MRPL against MRPH in one shared cwd: each mrpl client opens a
# file of its own (its number first in the path), every mrph client the
# one file; the --depth chain above is the shared directory's, and the
# header says so.
strace_test 'mrpl.load is private in a shared cwd, mrph.load shared; the header says prefix shared' '
	canary_setup &&
	ASAN_OPTIONS=detect_leaks=0 strace -ff -qq -e trace=openat -o tr \
		"$VFSBENCH" -D "$TRASH/work" -c mrpl.load -c mrph.load \
		--cwd shared --depth 4 --loops 1 1 2 >out 2>err &&
	sed -n "s/.*openat(AT_FDCWD, \"\(d\/d\/d\/d\/[^\"]*\)\", O_RDONLY).*/\1/p" tr.* |
		sort | uniq -c | sed "s/^ *//" >actual &&
	cat >expect <<-\EOF &&
	2 d/d/d/d/0/p1/p2/p3/file
	1 d/d/d/d/1/p1/p2/p3/file
	3 d/d/d/d/p1/p2/p3/p4/file
	EOF
	test_cmp expect actual &&
	test "$(grep -c "^    walk: resolve cwd  prefix shared  a lookup walks 4 components" out)" = 2 &&
	canary_check && workdir_empty
'

# An ext4 image mounted in a private mount namespace: after --dcache cold
# the dentries below the client's directory are gone, and a probe (which
# never fills the dcache itself) cannot complete in RCU-walk mode.
if test "$(id -u)" = 0 && command -v mkfs.ext4 >/dev/null 2>&1 &&
	command -v unshare >/dev/null 2>&1 &&
	unshare -m true 2>/dev/null; then
	test_expect_success 'the probe on ext4 after --dcache cold: some lookups leave RCU-walk, counts exact' '
		truncate -s 64M img.ext4 &&
		mkfs.ext4 -q -F img.ext4 &&
		mkdir mnt &&
		cat >cold.load <<-\EOF &&
		[setup]
		mkdir    a
		mkdir    a/b
		create   a/b/f
		[run]
		probe    a
		probe    a/b
		probe    a/b/f
		EOF
		unshare -m sh -c "mount --make-rprivate / &&
			mount -o loop img.ext4 mnt &&
			echo canary >mnt/canary &&
			\"\$VFSBENCH\" -D mnt -c cold.load --loops 1 --depth 2 \
				--dcache cold 2 --json c.json >out 2>err;
			rc=\$?;
			test \"\$(cat mnt/canary)\" = canary && test \"\$(ls mnt)\" = \"canary
lost+found\" || rc=99;
			umount mnt; exit \$rc" &&
		jq -e "[.. | objects | select(.op == \"probe\")][0] | .count == 6 and .uncached > 0 and .cached + .uncached == 6 and .unexpected == {}" c.json >/dev/null &&
		test_grep "^RCU-walk probe: [0-9]* of 6 lookups completed in RCU-walk mode" out
	'
else
	test_skip 'the probe on ext4 after --dcache cold' 'needs root, mkfs.ext4 and unshare -m'
fi

test_done
