#!/bin/sh
# shellcheck disable=SC2034
test_description='vfsbench record --keep-outside and vfsbench --read-outside'
# shellcheck disable=SC2154
. "$srcdir/tests/e2e/lib.sh"

SQ="'"

# snapshot DIR: every entry below DIR with its type, mode, size, mtime and
# link target, and every file's bytes, so that two snapshots are equal
# only when nothing below DIR was created, changed or removed.
snapshot() {
	(cd "$1" && find . -printf '%p %y %m %s %T@ %l\n' | sort &&
		find . -type f -exec cksum {} + | sort)
}

# read_error LINE: vfsbench --read-outside rejects lf.load with exactly
# LINE, exit status 2, nothing on stdout, nothing made, nothing outside
# changed.
read_error() {
	canary_setup &&
	snapshot outside >before &&
	printf '%s\n' "$1" >expect &&
	test_expect_code 2 vfsbench --read-outside -c lf.load -q --loops 1 \
		-D "$TRASH/work" 1 >out 2>err &&
	test_cmp expect err &&
	test ! -s out &&
	snapshot outside >after &&
	test_cmp before after &&
	canary_check &&
	workdir_empty
}

umask 022

# The program: read-only lookups of a file, a link and a directory in the
# directory argv[1] (outside the root), one write there (an append), and
# a file written in the root, its working directory.
test_expect_success 'setup: the program, its root and the outside tree' '
	cat >outside.c <<-\EOT &&
	#include <fcntl.h>
	#include <stdio.h>
	#include <sys/stat.h>
	#include <sys/syscall.h>
	#include <unistd.h>

	int main(int argc, char **argv)
	{
		char p[4096], buf[4096];
		struct stat st;
		int fd;

		if (argc < 2)
			return 1;
		snprintf(p, sizeof(p), "%s/f", argv[1]);
		if (stat(p, &st) || access(p, R_OK))
			return 1;
		fd = open(p, O_RDONLY);
		if (fd < 0 || read(fd, buf, 100) != 6 || close(fd))
			return 1;
		snprintf(p, sizeof(p), "%s/l", argv[1]);
		if (lstat(p, &st) || readlink(p, buf, sizeof(buf)) != 1)
			return 1;
		snprintf(p, sizeof(p), "%s/d", argv[1]);
		fd = open(p, O_RDONLY | O_DIRECTORY);
		if (fd < 0 || syscall(SYS_getdents64, fd, buf, 4096) <= 0 ||
		    close(fd))
			return 1;
		snprintf(p, sizeof(p), "%s/missing", argv[1]);
		if (!stat(p, &st))
			return 1;
		snprintf(p, sizeof(p), "%s/w", argv[1]);
		fd = open(p, O_WRONLY | O_APPEND);
		if (fd < 0 || write(fd, "x", 1) != 1 || close(fd))
			return 1;
		fd = open("new", O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || write(fd, "hello", 5) != 5 || close(fd))
			return 1;
		return stat("new", &st) != 0;
	}
	EOT
	cc -O0 -o prog outside.c &&
	mkdir root outside outside/d &&
	printf "outer\n" >outside/f &&
	ln -s f outside/l &&
	printf e >outside/d/e &&
	printf keep >outside/w
'

O="$TRASH/outside"

strace_test '--keep-outside: the reads outside kept, absolute, in order' '
	(cd root && vfsbench record --keep-outside -o ../o.load \
		-- ../prog "$O" 2>../err) &&
	test_grep "^vfsbench record: ../o.load: [0-9]* ops from [0-9]* calls of 1 tasks$" err &&
	test "$(cat outside/w)" = keepx &&
	sed -n "\\|^stat $O/f\$|,\$p" o.load >actual &&
	sed "s|@O@|$O|g" >expect <<-\EOT &&
	stat @O@/f
	access @O@/f r
	open @O@/f rdonly @1
	pread @1 0 100
	close @1
	lstat @O@/l
	readlink @O@/l
	open @O@/d rdonly,directory @1
	getdents @1 4096
	close @1
	stat @O@/missing ENOENT
	open new wronly,creat,trunc @1 644
	pwrite @1 0 5
	close @1
	stat new
	EOT
	test_cmp expect actual &&
	test_grep "^# kept outside the root (--keep-outside): [0-9]* read-only ops on absolute paths;$" o.load &&
	test_grep "^#   replay with vfsbench --read-outside, which lets only ops that read name them$" o.load &&
	sed -n "/^# dropped, outside the root:/,/^# [^ ]/p" o.load >dropped &&
	test_grep "^#   openat  *1$" dropped &&
	test_grep "^#   write  *1$" dropped &&
	test_grep "^#   close  *1$" dropped
'

# A log written by hand: what --keep-outside keeps and what it drops
# outside (a write, an unlink, a rename, an open for writing, and a
# write, fsync and ftruncate through an fd opened read-only outside).
test_expect_success '--keep-outside of a log: kept and dropped, exactly' '
	mkdir -p r &&
	sed "s|@R@|$TRASH/r|g; s|@O@|$O|g" >log <<-\EOT &&
	10 1.01 newfstatat(AT_FDCWD</@R@>, "../outside/f", {st_mode=S_IFREG|0644, st_size=6, ...}, 0) = 0
	10 1.02 openat(AT_FDCWD</@R@>, "@O@/f", O_RDONLY|O_CLOEXEC) = 3</@O@/f>
	10 1.03 read(3</@O@/f>, "outer\n", 4096) = 6
	10 1.04 write(3</@O@/f>, "x", 1) = -1 EBADF (Bad file descriptor)
	10 1.05 fsync(3</@O@/f>) = 0
	10 1.06 ftruncate(3</@O@/f>, 0) = -1 EINVAL (Invalid argument)
	10 1.07 fstat(3</@O@/f>, {st_mode=S_IFREG|0644, st_size=6, ...}) = 0
	10 1.08 close(3</@O@/f>) = 0
	10 1.09 openat(AT_FDCWD</@R@>, "@O@/w", O_WRONLY|O_APPEND) = 3</@O@/w>
	10 1.10 write(3</@O@/w>, "x", 1) = 1
	10 1.11 close(3</@O@/w>) = 0
	10 1.12 unlink("@O@/gone") = -1 ENOENT (No such file or directory)
	10 1.13 rename("@O@/a", "@O@/b") = -1 ENOENT (No such file or directory)
	10 1.14 openat(AT_FDCWD</@R@>, "@O@/t", O_RDONLY|O_TRUNC) = -1 ENOENT (No such file or directory)
	10 1.15 access("@O@/none", F_OK) = -1 ENOENT (No such file or directory)
	10 1.16 openat(AT_FDCWD</@R@>, "x", O_WRONLY|O_CREAT|O_TRUNC, 0644) = 3</@R@/x>
	10 1.17 close(3</@R@/x>) = 0
	10 1.18 +++ exited with 0 +++
	EOT
	vfsbench record --keep-outside --root r -o log.load --from-trace log \
		2>err &&
	sed -n "/^# calls traced/,\$p" log.load >actual &&
	sed "s|@O@|$O|g" >expect <<-\EOT &&
	# calls traced: 17, replayed as ops: 8
	# replayed: 8
	#   access                   1
	#   close                    2
	#   fstat                    1
	#   newfstatat               1
	#   openat                   2
	#   read                     1
	# kept outside the root (--keep-outside): 3 read-only ops on absolute paths;
	#   replay with vfsbench --read-outside, which lets only ops that read name them
	# dropped, outside the root: 9
	#   close                    1
	#   fsync                    1
	#   ftruncate                1
	#   openat                   2
	#   rename                   1
	#   unlink                   1
	#   write                    2
	# dropped, no op in the loadfile language: 0
	# dropped, on an fd not opened below the root in the trace: 0
	# replayed without O_NONBLOCK or O_NOCTTY: 0
	# closed at the end, as the kernel closed them at exit: 0
	# [setup] makes 0 directories, 0 files (their sizes, not their data), 0 symlinks
	# not made: 0 symlinks whose targets lead out, 0 special files or unnamable paths
	[setup]
	[run]
	stat @O@/f
	open @O@/f rdonly,cloexec @1
	pread @1 0 4096
	fstat @1
	close @1
	access @O@/none ENOENT
	open x wronly,creat,trunc @1 644
	close @1
	EOT
	test_cmp expect actual
'

strace_test 'without --read-outside its replay is refused, as any absolute path' '
	canary_setup &&
	first=$(grep -n "^[a-z]* /" o.load | head -n 1) &&
	line=${first%%:*} &&
	path=$(echo "$first" | cut -d " " -f 2) &&
	op=${first#*:} && op=${op%% *} &&
	col=$((${#op} + 2)) &&
	echo "o.load:$line:$col: absolute path $SQ$path$SQ: paths are relative to the client directory" >expect &&
	test_expect_code 2 vfsbench -c o.load -q --loops 1 -D "$TRASH/work" 1 \
		>out 2>err &&
	test_cmp expect err &&
	test ! -s out &&
	canary_check &&
	workdir_empty
'

strace_test 'with --read-outside the replay issues the reads outside, changes nothing there' '
	canary_setup &&
	snapshot outside >before &&
	mkdir -p rw &&
	for n in 1 2; do
		ASAN_OPTIONS=detect_leaks=0 \
		strace -f -qq -o "tr$n" -e trace=%file,%desc \
			"$VFSBENCH" --read-outside -c o.load --loops $n \
			-D "$TRASH/work" 1 >report || return 1
		grep -F "\"$O/" "tr$n" | sed "s/^[0-9]* *//; s/(.*//" |
			sort | uniq -c >"c$n" || return 1
	done &&
	test "$(unexpected_total report)" = 0 &&
	cat >expect <<-\EOT &&
	      1 access
	      3 newfstatat
	      2 openat
	      1 readlink
	EOT
	test_cmp expect c1 &&
	cat >expect <<-\EOT &&
	      2 access
	      6 newfstatat
	      4 openat
	      2 readlink
	EOT
	test_cmp expect c2 &&
	! grep -F "\"$O/w\"" tr2 &&
	snapshot outside >after &&
	test_cmp before after &&
	canary_check &&
	workdir_empty
'

test_expect_success 'with -e null: each read outside counted once a pass' '
	canary_setup &&
	sed -n "/^\\[run\\]/,\$p" o.load >run &&
	n=$(grep -c "^readlink " run) &&
	s=$(grep -c "^stat " run) &&
	vfsbench --read-outside -e null -c o.load --loops 3 \
		-D "$TRASH/work" 1 >report &&
	test "$(op_count report readlink)" = $((3 * n)) &&
	test "$(op_count report stat)" = $((3 * s)) &&
	canary_check &&
	workdir_empty
'

test_expect_success 'a read outside, written by hand: replayed with --read-outside only, also where paths get a prefix (--depth)' '
	canary_setup &&
	snapshot outside >before &&
	printf "[run]\nstat %s/f\nopen %s/f rdonly @1\npread @1 0 6\nfstat @1\nclose @1\nstat %s/nothing ENOENT\n" \
		"$O" "$O" "$O" >lf.load &&
	vfsbench --read-outside -e null -c lf.load --loops 2 \
		-D "$TRASH/work" --json r.json 1 >report &&
	test "$(op_count report stat)" = 4 &&
	json_flat r.json >r.flat &&
	test "$(jget r.flat options.read_outside)" = true &&
	vfsbench --read-outside -c lf.load --loops 2 \
		-D "$TRASH/work" 1 >report &&
	test "$(unexpected_total report)" = 0 &&
	test "$(op_count report pread)" = 2 &&
	vfsbench --read-outside --depth 3 -c lf.load --loops 2 \
		-D "$TRASH/work" 2 >report &&
	test "$(unexpected_total report)" = 0 &&
	test "$(op_count report stat)" = 8 &&
	snapshot outside >after &&
	test_cmp before after &&
	canary_check &&
	workdir_empty &&
	load_error "lf.load:2:6: absolute path $SQ$O/f$SQ: paths are relative to the client directory"
'

test_expect_success 'unlink of an absolute path: refused even with --read-outside' '
	printf "[run]\nstat a ENOENT\nunlink %s/f\n" "$O" >lf.load &&
	read_error "lf.load:3:8: absolute path $SQ$O/f$SQ in ${SQ}unlink$SQ, which changes the filesystem: with --read-outside only ops that read may name a path outside the client directory"
'

test_expect_success 'create of an absolute path: refused even with --read-outside' '
	printf "[run]\ncreate %s/new 644\n" "$O" >lf.load &&
	read_error "lf.load:2:8: absolute path $SQ$O/new$SQ in ${SQ}create$SQ, which changes the filesystem: with --read-outside only ops that read may name a path outside the client directory"
'

test_expect_success 'open for writing, creat or trunc outside: refused' '
	printf "[run]\nopen %s/f wronly @1\nclose @1\n" "$O" >lf.load &&
	read_error "lf.load:2:6: absolute path $SQ$O/f$SQ in ${SQ}open$SQ, which opens with write access, creat or trunc: with --read-outside only ops that read may name a path outside the client directory" &&
	printf "[run]\nopen %s/f rdonly,trunc @1\nclose @1\n" "$O" >lf.load &&
	read_error "lf.load:2:6: absolute path $SQ$O/f$SQ in ${SQ}open$SQ, which opens with write access, creat or trunc: with --read-outside only ops that read may name a path outside the client directory" &&
	printf "[setup]\nopen %s/n rdonly,creat @1\nclose @1\n[run]\nstat a ENOENT\n" "$O" >lf.load &&
	read_error "lf.load:2:6: absolute path $SQ$O/n$SQ in ${SQ}open$SQ, which opens with write access, creat or trunc: with --read-outside only ops that read may name a path outside the client directory"
'

test_expect_success 'rename, mkdir, symlink to an absolute path: refused' '
	printf "[run]\nrename a %s/a ENOENT\n" "$O" >lf.load &&
	read_error "lf.load:2:10: absolute path $SQ$O/a$SQ in ${SQ}rename$SQ, which changes the filesystem: with --read-outside only ops that read may name a path outside the client directory" &&
	printf "[run]\nmkdir %s/m\n" "$O" >lf.load &&
	read_error "lf.load:2:7: absolute path $SQ$O/m$SQ in ${SQ}mkdir$SQ, which changes the filesystem: with --read-outside only ops that read may name a path outside the client directory" &&
	printf "[run]\nsymlink x %s/s\n" "$O" >lf.load &&
	read_error "lf.load:2:11: absolute path $SQ$O/s$SQ in ${SQ}symlink$SQ, which changes the filesystem: with --read-outside only ops that read may name a path outside the client directory"
'

test_expect_success 'a write through a handle opened outside: refused' '
	printf "[run]\nopen %s/f rdonly @1\npwrite @1 0 1 EBADF\nclose @1\n" "$O" >lf.load &&
	read_error "lf.load:3:8: ${SQ}pwrite$SQ on handle @1, opened on an absolute path: a file outside the client directory may only be read" &&
	printf "[run]\nopen %s/f rdonly @1\nfsync @1\nclose @1\n" "$O" >lf.load &&
	read_error "lf.load:3:7: ${SQ}fsync$SQ on handle @1, opened on an absolute path: a file outside the client directory may only be read" &&
	printf "[setup]\nopen %s/f rdonly @1\ndata @1 4142\nclose @1\n[run]\nstat x ENOENT\n" "$O" >lf.load &&
	read_error "lf.load:3:6: ${SQ}data$SQ on handle @1, opened on an absolute path: a file outside the client directory may only be read"
'

test_done
