#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='every op issues exactly its system calls, with their flags and arguments, and does what it says to the file'
. "$srcdir/tests/e2e/lib.sh"

# How: a loadfile puts a marker op (access or Qpathinfo of m/mark.N, where
# m does not exist) before each op under test, and one after the last. A
# 1-client --loops 1 run under strace -ff writes one trace per thread; the
# client's trace, cut at the markers, gives each op's calls, normalised
# (fd numbers, buffer addresses, struct contents and alignment taken out)
# and compared line by line with what the op must issue. The effects on
# the files are checked without strace, so they hold where strace cannot
# run too.

# A spec file: "> LOADFILE LINE" lines, each followed by the calls that line
# must issue. spec_loadfile SPEC DIALECT SETUP-FILE: the loadfile.
spec_loadfile() {
	awk -v dialect="$2" -v setup="$3" '
	function marker(n) {
		if (dialect == "dbench")
			printf "QUERY_PATH_INFORMATION \"\\clients\\client1\\m\\mark.%d\" 1004 NT_STATUS_OBJECT_PATH_NOT_FOUND\n", n
		else
			printf "access  m/mark.%d  ENOENT\n", n
	}
	BEGIN {
		if (dialect != "dbench") {
			print "[setup]"
			while ((getline l < setup) > 0)
				print l
			print "[run]"
		} else {
			while ((getline l < setup) > 0)
				print l
		}
	}
	/^> / { marker(++n); print substr($0, 3) }
	END { marker(n + 1) }' "$1"
}

# normalise WORK: a trace on stdin, cut at the markers, as "> LINE" and
# calls; WORK (the -D directory) is written WORK.
normalise() {
	awk -v work="$1" -v spec="$2" -v san="${VB_SANITIZER-}" -v tsan="$tsan" '
	BEGIN {
		while ((getline l < spec) > 0)
			if (l ~ /^> /)
				line[++nlines] = l
	}
	/"m\/mark\.[0-9]+"/ {
		n = $0
		sub(/.*"m\/mark\./, "", n)
		sub(/".*/, "", n)
		cur = n + 0
		if (cur <= nlines)
			print line[cur]
		next
	}
	# the scan of the missing m by a dbench marker
	/^openat\(AT_FDCWD, "m", / { next }
	!cur || cur > nlines { next }
	{
		while ((i = index($0, work)) > 0)
			$0 = substr($0, 1, i - 1) "WORK" substr($0, i + length(work))
		sub(/\) +=/, ") =")
		sub(/ = -1 [A-Z]+ \(.*\)$/, "&@")
		if ($0 ~ /@$/) {
			sub(/ \(.*\)@$/, "")
		}
		gsub(/\{st_mode=[^}]*\}/, "{st}")
		sub(/, 0x[0-9a-f]+, /, ", 0xADDR, ")
		sub(/\{f_type=.*f_flags=[^}]*\}/, "{statfs}")
		sub(/0x[0-9a-f]+ \/\* [0-9]+ entries \*\//, "BUF")
		if ($0 ~ /^getdents64\(/)
			sub(/ = [1-9][0-9]*$/, " = N")
		if ($0 ~ /^openat\(/)
			sub(/ = [0-9]+$/, " = FD")
		if (match($0, /^[a-z0-9_]+\([0-9]+[,)]/)) {
			p = index($0, "(")
			rest = substr($0, p + 1)
			sub(/^[0-9]+/, "FD", rest)
			$0 = substr($0, 1, p) rest
		}
		# the runtime of a sanitizer maps memory of its own at any time
		if (san && $0 ~ /^(mmap|munmap|madvise|mprotect|brk)\(/)
			next
		# the fstat() interceptor of ThreadSanitizer issues fstat(2)
		# itself, where glibc 2.36 issues newfstatat(fd, "")
		if (tsan && $0 ~ /^fstat\(FD, \{st\}\) = /)
			sub(/^fstat\(FD, \{st\}\)/, "newfstatat(FD, \"\", {st}, AT_EMPTY_PATH)")
		# the mount table scan of statvfs_legacy: one line for any
		# number of reads and mount point stats
		if ($0 ~ /^newfstatat\(AT_FDCWD, "\//)
			$0 = "newfstatat(AT_FDCWD, MOUNT POINT, {st}, 0) = 0"
		if ($0 ~ /^read\(FD, ""\.\.\., 65535\) = /)
			$0 = "read(FD, MOUNTS, 65535)"
		if ($0 == prev && ($0 ~ /MOUNT/))
			next
		prev = $0
		print
	}'
}

tsan=
test "${VB_SANITIZER-}" = thread && tsan=t

# trace SPEC DIALECT SETUP OPTIONS...: run the spec's loadfile under strace
# (1 client, 1 pass) and write its normalised calls to "got".
trace() {
	spec=$1
	dialect=$2
	setup=$3
	shift 3
	spec_loadfile "$spec" "$dialect" "$setup" >traced.load &&
	rm -f tr.* &&
	canary_setup &&
	# LeakSanitizer cannot run under ptrace (see t5001)
	ASAN_OPTIONS=detect_leaks=0 \
	strace -ff -qq -s 0 -o tr "$VFSBENCH" -q --loops 1 "$@" \
		-c traced.load -D "$TRASH/work" 1 >out 2>err &&
	canary_check &&
	workdir_empty &&
	client=$(grep -l "m/mark\\.1\"" tr.*) &&
	test "$(echo "$client" | wc -l)" -eq 1 &&
	normalise "$TRASH/work" "$spec" <"$client" >got &&
	test_cmp "$spec" got
}

test_expect_success 'setup: the native ops and their calls' '
	cat >native.setup <<-\EOF &&
	mkdir    dir
	create   dir/a  0600
	EOF
	cat >native.spec <<-\EOF
	> readdir  dir
	openat(AT_FDCWD, "dir", O_RDONLY|O_CLOEXEC|O_DIRECTORY) = FD
	getdents64(FD, BUF, 65536) = N
	getdents64(FD, BUF, 65536) = 0
	close(FD) = 0
	> rename  dir/a  dir/b
	rename("dir/a", "dir/b") = 0
	> symlink  b  dir/s
	symlink("b", "dir/s") = 0
	> stat  dir/s
	newfstatat(AT_FDCWD, "dir/s", {st}, 0) = 0
	> lstat  dir/s
	newfstatat(AT_FDCWD, "dir/s", {st}, AT_SYMLINK_NOFOLLOW) = 0
	> readlink  dir/s
	readlink("dir/s", ""..., 65536) = 1
	> utimens  dir/b
	utimensat(AT_FDCWD, "dir/b", NULL, 0) = 0
	> access  dir/b  rw
	access("dir/b", R_OK|W_OK) = 0
	> access  dir/b
	access("dir/b", F_OK) = 0
	> access  dir/b  x  EACCES
	access("dir/b", X_OK) = -1 EACCES
	> statfs  .
	statfs(".", {statfs}) = 0
	> statvfs  dir
	statfs("dir", {statfs}) = 0
	> statvfs_legacy  dir
	statfs("dir", {statfs}) = 0
	newfstatat(AT_FDCWD, "dir", {st}, 0) = 0
	openat(AT_FDCWD, "/proc/self/mounts", O_RDONLY|O_CLOEXEC) = FD
	read(FD, MOUNTS, 65535)
	newfstatat(AT_FDCWD, MOUNT POINT, {st}, 0) = 0
	close(FD) = 0
	> open  dir/b  rdwr  @1
	openat(AT_FDCWD, "dir/b", O_RDWR) = FD
	> pwrite  @1  0  8k
	pwrite64(FD, ""..., 8192, 0) = 8192
	> pread  @1  4k  4k
	pread64(FD, ""..., 4096, 4096) = 4096
	> fstat  @1
	newfstatat(FD, "", {st}, AT_EMPTY_PATH) = 0
	> fstatfs  @1
	fstatfs(FD, {statfs}) = 0
	> fstatvfs  @1
	fstatfs(FD, {statfs}) = 0
	> ftruncate  @1  1k
	ftruncate(FD, 1024) = 0
	> fsync  @1
	fsync(FD) = 0
	> fdatasync  @1
	fdatasync(FD) = 0
	> close  @1
	close(FD) = 0
	> open  dir/n  wronly,creat,excl  @2  0640
	openat(AT_FDCWD, "dir/n", O_WRONLY|O_CREAT|O_EXCL, 0640) = FD
	> close  @2
	close(FD) = 0
	> open  dir  rdonly,directory,nofollow  @3
	openat(AT_FDCWD, "dir", O_RDONLY|O_NOFOLLOW|O_DIRECTORY) = FD
	> close  @3
	close(FD) = 0
	> create  dir/t
	openat(AT_FDCWD, "dir/t", O_WRONLY|O_CREAT|O_TRUNC, 0644) = FD
	close(FD) = 0
	> create  dir/u  0604
	openat(AT_FDCWD, "dir/u", O_WRONLY|O_CREAT|O_TRUNC, 0604) = FD
	close(FD) = 0
	> unlink  dir/s
	unlink("dir/s") = 0
	> link  dir/b  dir/l
	link("dir/b", "dir/l") = 0
	> unlink  dir/l
	unlink("dir/l") = 0
	> mkdir  dir/sub  0700
	mkdir("dir/sub", 0700) = 0
	> rmdir  dir/sub
	rmdir("dir/sub") = 0
	> mkdir  dir/sub
	mkdir("dir/sub", 0755) = 0
	> rmdir  dir/sub
	rmdir("dir/sub") = 0
	> stat  dir/nothing  ENOENT
	newfstatat(AT_FDCWD, "dir/nothing", 0xADDR, 0) = -1 ENOENT
	> rename  dir/b  dir/a
	rename("dir/b", "dir/a") = 0
	> unlink  dir/t
	unlink("dir/t") = 0
	> unlink  dir/u
	unlink("dir/u") = 0
	> unlink  dir/n
	unlink("dir/n") = 0
	EOF
'

strace_test 'native ops: the calls, their flags and arguments' '
	trace native.spec native native.setup
'

# dbench's ops, as ../shared/reference/dbench.md section 1.4 and
# doc/dbench-fidelity.md say dbench 4.0's fileio backend issues them: the
# resolve step (a stat; on a miss a case-insensitive scan of the parent,
# which stops at a match), NTCreateX's flags per disposition (2: O_CREAT;
# 4 and 5: O_CREAT|O_TRUNC; 0, 1, 3: neither), its directory form (mkdir
# 0700 always tried, then O_DIRECTORY) and its EISDIR fallback, WriteX
# and ReadX at their offsets, LockX/UnlockX as F_SETLKW locks, Flush as
# fsync, Sfileinfo's fstat then utimensat through the name, Find's second
# read of a wildcard's directory, Qfsinfo on the -D directory, Deltree by
# fds without following links, Mkdir 0777, Sleep in microseconds.
test_expect_success 'setup: the dbench ops and their calls' '
	echo "Deltree \"\\clients\\client1\" NT_STATUS_OK" >dbench.setup &&
	cat >dbench.spec <<-\EOF &&
	> NTCreateX "\clients\client1\f" 0x0 0x2 1 NT_STATUS_OK
	newfstatat(AT_FDCWD, "f", 0xADDR, 0) = -1 ENOENT
	openat(AT_FDCWD, ".", O_RDONLY|O_NONBLOCK|O_CLOEXEC|O_DIRECTORY) = FD
	newfstatat(FD, "", {st}, AT_EMPTY_PATH) = 0
	getdents64(FD, BUF, 32768) = N
	getdents64(FD, BUF, 32768) = 0
	close(FD) = 0
	openat(AT_FDCWD, "f", O_RDWR|O_CREAT|O_CLOEXEC, 0600) = FD
	newfstatat(FD, "", {st}, AT_EMPTY_PATH) = 0
	> WriteX 1 100 50 50 NT_STATUS_OK
	pwrite64(FD, ""..., 50, 100) = 50
	> ReadX 1 0 4096 150 NT_STATUS_OK
	pread64(FD, ""..., 4096, 0) = 150
	> LockX 1 10 20 NT_STATUS_OK
	fcntl(FD, F_SETLKW, {l_type=F_WRLCK, l_whence=SEEK_SET, l_start=10, l_len=20}) = 0
	> UnlockX 1 10 20 NT_STATUS_OK
	fcntl(FD, F_SETLKW, {l_type=F_UNLCK, l_whence=SEEK_SET, l_start=10, l_len=20}) = 0
	> Flush 1 NT_STATUS_OK
	fsync(FD) = 0
	> QUERY_FILE_INFORMATION 1 1004 NT_STATUS_OK
	newfstatat(FD, "", {st}, AT_EMPTY_PATH) = 0
	> SET_FILE_INFORMATION 1 1004 NT_STATUS_OK
	newfstatat(FD, "", {st}, AT_EMPTY_PATH) = 0
	utimensat(AT_FDCWD, "f", [...], 0) = 0
	> Close 1 NT_STATUS_OK
	close(FD) = 0
	> NTCreateX "\clients\client1\f" 0x0 0x1 2 NT_STATUS_OK
	newfstatat(AT_FDCWD, "f", {st}, 0) = 0
	openat(AT_FDCWD, "f", O_RDWR|O_CLOEXEC) = FD
	newfstatat(FD, "", {st}, AT_EMPTY_PATH) = 0
	> Close 2 NT_STATUS_OK
	close(FD) = 0
	> NTCreateX "\clients\client1\f" 0x0 0x3 3 NT_STATUS_OK
	newfstatat(AT_FDCWD, "f", {st}, 0) = 0
	openat(AT_FDCWD, "f", O_RDWR|O_CLOEXEC) = FD
	newfstatat(FD, "", {st}, AT_EMPTY_PATH) = 0
	> Close 3 NT_STATUS_OK
	close(FD) = 0
	> NTCreateX "\clients\client1\f" 0x0 0x5 4 NT_STATUS_OK
	newfstatat(AT_FDCWD, "f", {st}, 0) = 0
	openat(AT_FDCWD, "f", O_RDWR|O_CREAT|O_TRUNC|O_CLOEXEC, 0600) = FD
	newfstatat(FD, "", {st}, AT_EMPTY_PATH) = 0
	> Close 4 NT_STATUS_OK
	close(FD) = 0
	> NTCreateX "\clients\client1\f" 0x0 0x0 9 NT_STATUS_OK
	newfstatat(AT_FDCWD, "f", {st}, 0) = 0
	openat(AT_FDCWD, "f", O_RDWR|O_CLOEXEC) = FD
	newfstatat(FD, "", {st}, AT_EMPTY_PATH) = 0
	> Close 9 NT_STATUS_OK
	close(FD) = 0
	> NTCreateX "\clients\client1\f" 0x0 0x4 10 NT_STATUS_OK
	newfstatat(AT_FDCWD, "f", {st}, 0) = 0
	openat(AT_FDCWD, "f", O_RDWR|O_CREAT|O_TRUNC|O_CLOEXEC, 0600) = FD
	newfstatat(FD, "", {st}, AT_EMPTY_PATH) = 0
	> Close 10 NT_STATUS_OK
	close(FD) = 0
	> NTCreateX "\clients\client1\d" 0x1 0x2 5 NT_STATUS_OK
	newfstatat(AT_FDCWD, "d", 0xADDR, 0) = -1 ENOENT
	openat(AT_FDCWD, ".", O_RDONLY|O_NONBLOCK|O_CLOEXEC|O_DIRECTORY) = FD
	newfstatat(FD, "", {st}, AT_EMPTY_PATH) = 0
	getdents64(FD, BUF, 32768) = N
	getdents64(FD, BUF, 32768) = 0
	close(FD) = 0
	mkdir("d", 0700) = 0
	openat(AT_FDCWD, "d", O_RDONLY|O_CLOEXEC|O_DIRECTORY) = FD
	newfstatat(FD, "", {st}, AT_EMPTY_PATH) = 0
	> Close 5 NT_STATUS_OK
	close(FD) = 0
	> NTCreateX "\clients\client1\d" 0x0 0x1 6 NT_STATUS_OK
	newfstatat(AT_FDCWD, "d", {st}, 0) = 0
	openat(AT_FDCWD, "d", O_RDWR|O_CLOEXEC) = -1 EISDIR
	openat(AT_FDCWD, "d", O_RDONLY|O_CLOEXEC|O_DIRECTORY) = FD
	newfstatat(FD, "", {st}, AT_EMPTY_PATH) = 0
	> Close 6 NT_STATUS_OK
	close(FD) = 0
	> NTCreateX "\clients\client1\nothere" 0x0 0x1 7 NT_STATUS_OBJECT_NAME_NOT_FOUND
	newfstatat(AT_FDCWD, "nothere", 0xADDR, 0) = -1 ENOENT
	openat(AT_FDCWD, ".", O_RDONLY|O_NONBLOCK|O_CLOEXEC|O_DIRECTORY) = FD
	newfstatat(FD, "", {st}, AT_EMPTY_PATH) = 0
	getdents64(FD, BUF, 32768) = N
	getdents64(FD, BUF, 32768) = 0
	close(FD) = 0
	openat(AT_FDCWD, "nothere", O_RDWR|O_CLOEXEC) = -1 ENOENT
	> Mkdir "\clients\client1\e" NT_STATUS_OK
	newfstatat(AT_FDCWD, "e", 0xADDR, 0) = -1 ENOENT
	openat(AT_FDCWD, ".", O_RDONLY|O_NONBLOCK|O_CLOEXEC|O_DIRECTORY) = FD
	newfstatat(FD, "", {st}, AT_EMPTY_PATH) = 0
	getdents64(FD, BUF, 32768) = N
	getdents64(FD, BUF, 32768) = 0
	close(FD) = 0
	mkdir("e", 0777) = 0
	> QUERY_PATH_INFORMATION "\clients\client1\e" 1004 NT_STATUS_OK
	newfstatat(AT_FDCWD, "e", {st}, 0) = 0
	> QUERY_PATH_INFORMATION "\clients\client1\E" 1004 NT_STATUS_OK
	newfstatat(AT_FDCWD, "E", 0xADDR, 0) = -1 ENOENT
	openat(AT_FDCWD, ".", O_RDONLY|O_NONBLOCK|O_CLOEXEC|O_DIRECTORY) = FD
	newfstatat(FD, "", {st}, AT_EMPTY_PATH) = 0
	getdents64(FD, BUF, 32768) = N
	close(FD) = 0
	> Rename "\clients\client1\f" "\clients\client1\e\g" NT_STATUS_OK
	newfstatat(AT_FDCWD, "f", {st}, 0) = 0
	newfstatat(AT_FDCWD, "e/g", 0xADDR, 0) = -1 ENOENT
	openat(AT_FDCWD, "e", O_RDONLY|O_NONBLOCK|O_CLOEXEC|O_DIRECTORY) = FD
	newfstatat(FD, "", {st}, AT_EMPTY_PATH) = 0
	getdents64(FD, BUF, 32768) = N
	getdents64(FD, BUF, 32768) = 0
	close(FD) = 0
	rename("f", "e/g") = 0
	> Unlink "\clients\client1\e\g" 0x6 NT_STATUS_OK
	newfstatat(AT_FDCWD, "e/g", {st}, 0) = 0
	unlink("e/g") = 0
	> Rmdir "\clients\client1\e" NT_STATUS_OK
	newfstatat(AT_FDCWD, "e", {st}, 0) = 0
	rmdir("e") = 0
	> FIND_FIRST "\clients\client1\*.txt" 260 1366 1 NT_STATUS_OK
	newfstatat(AT_FDCWD, "*.txt", 0xADDR, 0) = -1 ENOENT
	openat(AT_FDCWD, ".", O_RDONLY|O_NONBLOCK|O_CLOEXEC|O_DIRECTORY) = FD
	newfstatat(FD, "", {st}, AT_EMPTY_PATH) = 0
	getdents64(FD, BUF, 32768) = N
	getdents64(FD, BUF, 32768) = 0
	close(FD) = 0
	openat(AT_FDCWD, ".", O_RDONLY|O_NONBLOCK|O_CLOEXEC|O_DIRECTORY) = FD
	newfstatat(FD, "", {st}, AT_EMPTY_PATH) = 0
	getdents64(FD, BUF, 32768) = N
	getdents64(FD, BUF, 32768) = 0
	close(FD) = 0
	> FIND_FIRST "\clients\client1\d" 260 1366 1 NT_STATUS_OK
	newfstatat(AT_FDCWD, "d", {st}, 0) = 0
	> QUERY_FS_INFORMATION 259 NT_STATUS_OK
	statfs("WORK", {statfs}) = 0
	> NTCreateX "\clients\client1\d\h" 0x0 0x2 8 NT_STATUS_OK
	newfstatat(AT_FDCWD, "d/h", 0xADDR, 0) = -1 ENOENT
	openat(AT_FDCWD, "d", O_RDONLY|O_NONBLOCK|O_CLOEXEC|O_DIRECTORY) = FD
	newfstatat(FD, "", {st}, AT_EMPTY_PATH) = 0
	getdents64(FD, BUF, 32768) = N
	getdents64(FD, BUF, 32768) = 0
	close(FD) = 0
	openat(AT_FDCWD, "d/h", O_RDWR|O_CREAT|O_CLOEXEC, 0600) = FD
	newfstatat(FD, "", {st}, AT_EMPTY_PATH) = 0
	> Close 8 NT_STATUS_OK
	close(FD) = 0
	> Deltree "\clients\client1\d" NT_STATUS_OK
	openat(AT_FDCWD, "d", O_RDONLY|O_NOFOLLOW|O_CLOEXEC|O_DIRECTORY) = FD
	newfstatat(FD, "", {st}, AT_EMPTY_PATH) = 0
	lseek(FD, 0, SEEK_SET) = 0
	getdents64(FD, BUF, 32768) = N
	newfstatat(FD, "h", {st}, AT_SYMLINK_NOFOLLOW) = 0
	unlinkat(FD, "h", 0) = 0
	getdents64(FD, BUF, 32768) = 0
	close(FD) = 0
	rmdir("d") = 0
	> Sleep 1500 NT_STATUS_OK
	clock_nanosleep(CLOCK_REALTIME, 0, {tv_sec=0, tv_nsec=1500000}, NULL) = 0
	EOF
	cat >options.spec <<-\EOF
	> NTCreateX "\clients\client1\f" 0x0 0x2 1 NT_STATUS_OK
	newfstatat(AT_FDCWD, "f", 0xADDR, 0) = -1 ENOENT
	openat(AT_FDCWD, "f", O_RDWR|O_CREAT|O_SYNC|O_CLOEXEC, 0600) = FD
	newfstatat(FD, "", {st}, AT_EMPTY_PATH) = 0
	> WriteX 1 100 50 50 NT_STATUS_OK
	pwrite64(FD, ""..., 50, 100) = 50
	fsync(FD) = 0
	> Close 1 NT_STATUS_OK
	close(FD) = 0
	> NTCreateX "\clients\client1\f" 0x0 0x0 2 NT_STATUS_OK
	newfstatat(AT_FDCWD, "f", {st}, 0) = 0
	openat(AT_FDCWD, "f", O_RDWR|O_SYNC|O_CLOEXEC) = FD
	newfstatat(FD, "", {st}, AT_EMPTY_PATH) = 0
	> Close 2 NT_STATUS_OK
	close(FD) = 0
	> NTCreateX "\clients\client1\f" 0x0 0x4 3 NT_STATUS_OK
	newfstatat(AT_FDCWD, "f", {st}, 0) = 0
	openat(AT_FDCWD, "f", O_RDWR|O_CREAT|O_TRUNC|O_SYNC|O_CLOEXEC, 0600) = FD
	newfstatat(FD, "", {st}, AT_EMPTY_PATH) = 0
	> Close 3 NT_STATUS_OK
	close(FD) = 0
	> Mkdir "\clients\client1\e" NT_STATUS_OK
	newfstatat(AT_FDCWD, "e", 0xADDR, 0) = -1 ENOENT
	mkdir("e", 0777) = 0
	> Rename "\clients\client1\f" "\clients\client1\e\g" NT_STATUS_OK
	newfstatat(AT_FDCWD, "f", {st}, 0) = 0
	newfstatat(AT_FDCWD, "e/g", 0xADDR, 0) = -1 ENOENT
	rename("f", "e/g") = 0
	openat(AT_FDCWD, "e", O_RDONLY|O_CLOEXEC) = FD
	fdatasync(FD) = 0
	close(FD) = 0
	> Unlink "\clients\client1\e\g" 0x6 NT_STATUS_OK
	newfstatat(AT_FDCWD, "e/g", {st}, 0) = 0
	unlink("e/g") = 0
	openat(AT_FDCWD, "e", O_RDONLY|O_CLOEXEC) = FD
	fdatasync(FD) = 0
	close(FD) = 0
	> Rmdir "\clients\client1\e" NT_STATUS_OK
	newfstatat(AT_FDCWD, "e", {st}, 0) = 0
	rmdir("e") = 0
	openat(AT_FDCWD, ".", O_RDONLY|O_CLOEXEC) = FD
	fdatasync(FD) = 0
	close(FD) = 0
	> QUERY_FS_INFORMATION 259 NT_STATUS_OK
	statfs("WORK", {statfs}) = 0
	newfstatat(AT_FDCWD, "WORK", {st}, 0) = 0
	openat(AT_FDCWD, "/proc/self/mounts", O_RDONLY|O_CLOEXEC) = FD
	read(FD, MOUNTS, 65535)
	newfstatat(AT_FDCWD, MOUNT POINT, {st}, 0) = 0
	close(FD) = 0
	EOF
'

strace_test 'dbench ops: the calls, their flags and arguments' '
	trace dbench.spec dbench dbench.setup
'

strace_test 'dbench ops with -s -S -F --no-resolve --fsinfo statvfs_legacy' '
	trace options.spec dbench dbench.setup -s -S -F --no-resolve \
		--fsinfo statvfs_legacy
'

# --- what the ops do to the files (no strace) ------------------------------

# left_client: the client directory a 1-client --skip-cleanup run left,
# in $cdir; remove_left removes that run's work directory.
left_client() {
	set -- "$TRASH"/work/vfsbench.*
	test $# -eq 1 && test -f "$1/.vfsbench-workdir" &&
	cdir=$1/run0/clients/client0 &&
	test -d "$cdir"
}

# clean_left: what an earlier failed test may have left.
clean_left() {
	rm -rf "$TRASH"/work/vfsbench.*
}

remove_left() {
	rm -rf "$TRASH"/work/vfsbench.* &&
	canary_check &&
	workdir_empty
}

# The unexpected column's sum, from the per-op table.
unexpected_sum() {
	awk '$1 == "Operation" { t = 1; next } $1 == "Total:" { t = 0 }
		t && NF == 9 { s += $NF } END { print s + 0 }' "$1"
}

test_expect_success 'native ops: sizes, data at offsets, modes, links, times' '
	cat >effects.load <<-\EOF &&
	[run]
	open      data  rdwr,creat  @1  0640
	pwrite    @1  4k  100
	pread     @1  4k  100
	close     @1
	open      cut  wronly,creat  @2
	pwrite    @2  0  8k
	ftruncate @2  3000
	close     @2
	create    made  0604
	create    plain
	mkdir     d711  0711
	mkdir     d755
	symlink   nowhere  dangling
	lstat     dangling
	stat      dangling  ENOENT
	readlink  dangling
	access    dangling  ENOENT
	link      made  hard
	rename    plain  moved
	mkdir     gone
	rmdir     gone
	create    gone2
	unlink    gone2
	create    touched
	utimens   touched
	EOF
	clean_left &&
	canary_setup &&
	before=$(date +%s) &&
	(umask 022 && vfsbench -q --loops 1 --skip-cleanup -c effects.load \
		-D "$TRASH/work" 1 >out 2>err) &&
	test "$(unexpected_sum out)" -eq 0 &&
	left_client &&
	# pwrite: 100 bytes of "v" at 4096, a hole of zeros before
	test "$(stat -c %s "$cdir/data")" -eq 4196 &&
	test "$(od -An -v -c -j 4096 "$cdir/data" | tr -d " \n")" = \
		"$(printf "v%.0s" $(seq 100))" &&
	test "$(od -An -v -tx1 -N 4096 "$cdir/data" | tr -d " \n" | tr -d 0)" = "" &&
	test "$(stat -c %s "$cdir/cut")" -eq 3000 &&
	test "$(stat -c %a "$cdir/data")" = 640 &&
	test "$(stat -c %a "$cdir/cut")" = 644 &&
	test "$(stat -c %a "$cdir/made")" = 604 &&
	test "$(stat -c %a "$cdir/moved")" = 644 &&
	test "$(stat -c %s "$cdir/made")" -eq 0 &&
	test "$(stat -c %a "$cdir/d711")" = 711 &&
	test "$(stat -c %a "$cdir/d755")" = 755 &&
	test -h "$cdir/dangling" &&
	test "$(readlink "$cdir/dangling")" = nowhere &&
	test "$(stat -c %i "$cdir/made")" = "$(stat -c %i "$cdir/hard")" &&
	test "$(stat -c %h "$cdir/made")" -eq 2 &&
	! test -e "$cdir/plain" &&
	test -f "$cdir/moved" &&
	! test -e "$cdir/gone" &&
	! test -e "$cdir/gone2" &&
	# utimens with NULL times: atime, mtime and ctime all set to now
	set -- $(stat -c "%x|%y|%z" "$cdir/touched" | tr "|" " " | awk "{ print \$2, \$5, \$8 }") &&
	test "$1" = "$2" &&
	test "$2" = "$3" &&
	test "$(stat -c %Y "$cdir/touched")" -ge "$before" &&
	remove_left
'

# Sfileinfo sets atime to atime - 10 s and mtime to mtime - 12 s, whole
# seconds, through the name the handle was opened by: on a file just
# created (atime = mtime = ctime) that leaves atime - mtime = 2 s,
# nanoseconds 0, and the change time at least 12 s after the mtime.
test_expect_success 'dbench ops: sizes, modes, Sfileinfo times, Deltree' '
	cat >effects.txt <<-\EOF &&
	Deltree "\clients\client1" NT_STATUS_OK
	NTCreateX "\clients\client1\f" 0x0 0x2 1 NT_STATUS_OK
	WriteX 1 4096 100 100 NT_STATUS_OK
	Close 1 NT_STATUS_OK
	NTCreateX "\clients\client1\t" 0x0 0x2 2 NT_STATUS_OK
	SET_FILE_INFORMATION 2 1004 NT_STATUS_OK
	Close 2 NT_STATUS_OK
	NTCreateX "\clients\client1\cut" 0x0 0x2 3 NT_STATUS_OK
	WriteX 3 0 5000 5000 NT_STATUS_OK
	Close 3 NT_STATUS_OK
	NTCreateX "\clients\client1\cut" 0x0 0x5 4 NT_STATUS_OK
	Close 4 NT_STATUS_OK
	NTCreateX "\clients\client1\kept" 0x0 0x2 5 NT_STATUS_OK
	WriteX 5 0 5000 5000 NT_STATUS_OK
	Close 5 NT_STATUS_OK
	NTCreateX "\clients\client1\kept" 0x0 0x3 6 NT_STATUS_OK
	Close 6 NT_STATUS_OK
	Mkdir "\clients\client1\m" NT_STATUS_OK
	NTCreateX "\clients\client1\nd" 0x1 0x2 7 NT_STATUS_OK
	Close 7 NT_STATUS_OK
	Mkdir "\clients\client1\tree" NT_STATUS_OK
	Mkdir "\clients\client1\tree\sub" NT_STATUS_OK
	NTCreateX "\clients\client1\tree\sub\x" 0x0 0x2 8 NT_STATUS_OK
	Close 8 NT_STATUS_OK
	Deltree "\clients\client1\tree" NT_STATUS_OK
	Rename "\clients\client1\f" "\clients\client1\m\f" NT_STATUS_OK
	EOF
	clean_left &&
	canary_setup &&
	(umask 022 && vfsbench -q --loops 1 --skip-cleanup -c effects.txt \
		-D "$TRASH/work" 1 >out 2>err) &&
	! grep "^Unexpected" out &&
	left_client &&
	test "$(stat -c %s "$cdir/m/f")" -eq 4196 &&
	test "$(od -An -v -tx1 "$cdir/m/f" | tr -d " \n" | tr -d 0)" = "" &&
	test "$(stat -c %a "$cdir/m/f")" = 600 &&
	test "$(stat -c %s "$cdir/cut")" -eq 0 &&
	test "$(stat -c %s "$cdir/kept")" -eq 5000 &&
	test "$(stat -c %a "$cdir/m")" = 755 &&
	test "$(stat -c %a "$cdir/nd")" = 700 &&
	! test -e "$cdir/tree" &&
	x=$(stat -c %X "$cdir/t") && y=$(stat -c %Y "$cdir/t") &&
	z=$(stat -c %Z "$cdir/t") &&
	test $((x - y)) -eq 2 &&
	test $((z - y)) -ge 12 &&
	stat -c "%x %y" "$cdir/t" | grep "\.000000000 .*\.000000000 " >/dev/null &&
	remove_left
'

test_done
