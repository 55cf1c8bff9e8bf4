#!/bin/sh
# shellcheck disable=SC2034
test_description='.. in paths: allowed where an op only reads and the path stays inside, refused elsewhere with FILE:LINE:COL'
# shellcheck disable=SC2154
. "$srcdir/tests/e2e/lib.sh"

SQ="'"



# --- refused -------------------------------------------------------------------

test_expect_success 'an op that changes something: any .. is refused' '
	printf "%s\n" "[setup]" "mkdir a" "[run]" "unlink a/../b" >lf.load &&
	load_error "lf.load:4:10: ${SQ}..${SQ} in path ${SQ}a/../b${SQ}: paths must stay inside the client directory" &&
	printf "%s\n" "mkdir a" "rmdir a/b/.." >lf.load &&
	load_error "lf.load:2:11: ${SQ}..${SQ} in path ${SQ}a/b/..${SQ}: paths must stay inside the client directory" &&
	printf "%s\n" "rename a b/../c" >lf.load &&
	load_error "lf.load:1:12: ${SQ}..${SQ} in path ${SQ}b/../c${SQ}: paths must stay inside the client directory" &&
	printf "%s\n" "create x/../y" >lf.load &&
	load_error "lf.load:1:10: ${SQ}..${SQ} in path ${SQ}x/../y${SQ}: paths must stay inside the client directory"
'

test_expect_success 'open with write access, creat or trunc: .. is refused (flags after the path)' '
	printf "%s\n" "open a/../f rdwr @1" "close @1" >lf.load &&
	load_error "lf.load:1:8: ${SQ}..${SQ} in path ${SQ}a/../f${SQ}: paths must stay inside the client directory" &&
	printf "%s\n" "open a/../f wronly @1" "close @1" >lf.load &&
	load_error "lf.load:1:8: ${SQ}..${SQ} in path ${SQ}a/../f${SQ}: paths must stay inside the client directory" &&
	printf "%s\n" "open a/../f rdonly,creat @1" "close @1" >lf.load &&
	load_error "lf.load:1:8: ${SQ}..${SQ} in path ${SQ}a/../f${SQ}: paths must stay inside the client directory" &&
	printf "%s\n" "open a/../f rdonly,trunc @1" "close @1" >lf.load &&
	load_error "lf.load:1:8: ${SQ}..${SQ} in path ${SQ}a/../f${SQ}: paths must stay inside the client directory"
'

test_expect_success 'an op that reads: a path leading out is refused at the .. that leaves' '
	printf "%s\n" "stat ../x" >lf.load &&
	load_error "lf.load:1:6: ${SQ}..${SQ} in path ${SQ}../x${SQ} leads out of the client directory" &&
	printf "%s\n" "stat a/../../x" >lf.load &&
	load_error "lf.load:1:11: ${SQ}..${SQ} in path ${SQ}a/../../x${SQ} leads out of the client directory" &&
	printf "%s\n" "readdir a/./../.." >lf.load &&
	load_error "lf.load:1:16: ${SQ}..${SQ} in path ${SQ}a/./../..${SQ} leads out of the client directory" &&
	printf "%s\n" "open a/b/../../.. rdonly @1" "close @1" >lf.load &&
	load_error "lf.load:1:16: ${SQ}..${SQ} in path ${SQ}a/b/../../..${SQ} leads out of the client directory" &&
	printf "%s\n" "statvfs_legacy .." >lf.load &&
	load_error "lf.load:1:16: ${SQ}..${SQ} in path ${SQ}..${SQ} leads out of the client directory"
'

test_expect_success 'a link to its own directory and a .. are refused together' '
	printf "%s\n" "[setup]" "symlink . l" "[run]" "stat l/.." >lf.load &&
	load_error "lf.load:2:9: symlink target ${SQ}.${SQ} leads to the link${SQ}s own directory, so ${SQ}..${SQ} through the link would leave it: with ${SQ}..${SQ} in a path (line 4), a target must name something below"
'

# --- allowed -------------------------------------------------------------------

# Every read-only op with a .. that stays inside; l leads to a/b, so
# l/.. is a on disk (the kernel walks to the parent of where it is), and
# l/../b/c is a/b/c, which exists, while lexically it would be b/c.
cat >dotdot.load <<'EOF'
[setup]
mkdir a
mkdir a/b
create a/b/c
symlink a/b l
[run]
stat a/b/../b/c
lstat a/../a/b/c
access a/b/.. r
readlink a/../l
open a/b/../b/c rdonly @1
close @1
readdir a/b/..
statfs a/..
statvfs a/./b/../..
statvfs_legacy a/..
stat l/../b/c
stat a/../missing ENOENT
EOF

test_expect_success 'read-only ops with .. inside run: exact counts, no unexpected result' '
	canary_setup &&
	vfsbench -c dotdot.load -e posix --loops 2 -q -D "$TRASH/work" 1 \
		>out 2>err &&
	test ! -s err &&
	test "$(op_count out stat)" = 6 &&
	for op in lstat access readlink open close readdir statfs statvfs \
		statvfs_legacy; do
		test "$(op_count out $op)" = 2 || return 1
	done &&
	test_grep "^1 client: 24 ops in " out &&
	test "$(unexpected_total out)" = 0 &&
	! grep "^Unexpected" out &&
	canary_check &&
	workdir_empty
'

strace_test 'the path with .. is passed to the system call as written' '
	canary_setup &&
	ASAN_OPTIONS=detect_leaks=0 strace -f -o trace -e trace=newfstatat,statx "$VFSBENCH" -c dotdot.load \
		-e posix --loops 2 -q -D "$TRASH/work" 1 >out 2>err &&
	canary_check &&
	workdir_empty &&
	test "$(grep -c "(AT_FDCWD, \"a/b/\.\./b/c\", .* = 0$" trace)" = 2 &&
	test "$(grep -c "(AT_FDCWD, \"l/\.\./b/c\", .* = 0$" trace)" = 2 &&
	test "$(grep -c "(AT_FDCWD, \"a/\.\./a/b/c\", .*AT_SYMLINK_NOFOLLOW) = 0$" trace)" = 2 &&
	test "$(grep -c "(AT_FDCWD, \"a/\.\./missing\", .* = -1 ENOENT" trace)" = 2
'

test_done
