#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='the dbench personality: names, options, output, dbench tree'
. "$srcdir/tests/e2e/lib.sh"

# A small dbench loadfile that succeeds from an empty client directory:
# per pass 2 files created, 3 writes of 1000 bytes, 1 read, every kind of
# line the options touch.
cat >small.txt <<'EOF'
Deltree "\clients\client1\d" NT_STATUS_OK
NTCreateX "\clients\client1\d" 0x1 0x2 1 NT_STATUS_OK
Close 1 NT_STATUS_OK
NTCreateX "\clients\client1\d\f" 0x40 0x2 2 NT_STATUS_OK
WriteX 2 0 1000 1000 NT_STATUS_OK
WriteX 2 1000 1000 1000 NT_STATUS_OK
ReadX 2 0 1000 1000 NT_STATUS_OK
QUERY_FILE_INFORMATION 2 1004 NT_STATUS_OK
SET_FILE_INFORMATION 2 1004 NT_STATUS_OK
Close 2 NT_STATUS_OK
Mkdir "\clients\client1\d\sub" NT_STATUS_OK
NTCreateX "\clients\client1\d\g" 0x40 0x2 3 NT_STATUS_OK
WriteX 3 4999 1 1 NT_STATUS_OK
Close 3 NT_STATUS_OK
Rename "\clients\client1\d\g" "\clients\client1\d\h" NT_STATUS_OK
QUERY_PATH_INFORMATION "\clients\client1\d\h" 1004 NT_STATUS_OK
QUERY_FS_INFORMATION 259 NT_STATUS_OK
FIND_FIRST "\clients\client1\d\*" 260 1366 0 NT_STATUS_OK
Unlink "\clients\client1\d\h" 0x6 NT_STATUS_OK
EOF
SMALL="$TRASH/small.txt"
LINES=19

# A loadfile that needs small.txt's tree: fails on an empty one.
cat >needs.txt <<'EOF'
NTCreateX "\clients\client1\d\f" 0x40 0x1 5 NT_STATUS_OK
ReadX 5 0 1000 1000 NT_STATUS_OK
Close 5 NT_STATUS_OK
EOF

db() {
	vfsbench dbench "$@"
}

# The Count of OP in dbench's table.
db_count() {
	awk -v op="$2" '$1 == op && NF == 4 { print $2 }' "$1"
}

test_expect_success 'vfsbench dbench, and the binary run as dbench or vfsbench-dbench' '
	canary_setup &&
	ln -s "$VFSBENCH" dbench &&
	ln -s "$VFSBENCH" vfsbench-dbench &&
	db --run-once -D "$TRASH/work" -c "$SMALL" 2 >a &&
	./dbench --run-once -D "$TRASH/work" -c "$SMALL" 2 >b &&
	./vfsbench-dbench -D "$TRASH/work" --run-once -c "$SMALL" 2 >c &&
	for f in a b c
	do
		test_grep "^2 of 2 processes prepared for launch" $f &&
		test_grep "^releasing clients$" $f &&
		test_grep "^Throughput [0-9.e+]* MB/sec  2 clients  2 procs  max_latency=[0-9.]* ms$" $f &&
		test "$(db_count $f WriteX)" -eq 6 || return 1
	done &&
	canary_check && workdir_empty
'

test_expect_success 'the default loadfile: the paths tried, then the first there' '
	canary_setup &&
	VFSBENCH_DBENCH_LOADFILES=/nonexistent/a.txt:/nonexistent/b.txt \
		test_expect_code 2 db -D "$TRASH/work" --run-once 1 2>err &&
	test_grep "no loadfile given (-c) and dbench.s client.txt is not installed: tried /nonexistent/a.txt, /nonexistent/b.txt" err &&
	VFSBENCH_DBENCH_LOADFILES=/nonexistent/a.txt:$SMALL \
		db -D "$TRASH/work" --run-once 1 >out &&
	test_grep "with load .$SMALL. and minimum warmup 0 secs" out &&
	canary_check && workdir_empty
'

test_expect_success 'network backends and their options are refused' '
	canary_setup &&
	for o in "-B smb" "-B nfs" "-B iscsi" "-B scsi" "--server=h" \
		"--smb-share=//h/s" "--nfs=nfs://h/x" "--iscsi=x" "--block=/dev/x" \
		"--enable-nlm" "--export=/e"
	do
		# shellcheck disable=SC2086
		test_expect_code 2 db $o -c "$SMALL" -D "$TRASH/work" 1 2>err &&
		test_grep "vfsbench drives the local VFS only" err || return 1
	done &&
	test_expect_code 2 db -c "$SMALL" -D "$TRASH/work" 1 server 2>err &&
	test_grep "tbench.s SERVER is not taken: vfsbench drives the local VFS only" err &&
	db -B fileio -T TCP_NODELAY --run-once -c "$SMALL" -D "$TRASH/work" 1 >out &&
	test_grep "^Throughput" out &&
	test ! -e "$TRASH/work/clients" &&
	canary_check
'

test_expect_success '-?, --help and --usage; bad options' '
	db -? >h1 && test_grep "^Usage: dbench \[OPTION...\] NPROCS" h1 &&
	db --help >h2 && test_cmp h1 h2 &&
	test_grep "^  -t, --timelimit=integer" h1 &&
	test_grep "^      --show-execute-time" h1 &&
	db --usage >u && test_grep "NPROCS" u &&
	test_expect_code 2 db --no-such-option 1 2>err &&
	test_grep "no-such-option" err &&
	test_expect_code 2 db 2>err && test_grep "You need to specify NPROCS" err &&
	test_expect_code 2 db -t 0 1 2>err && test_grep "bad --timelimit 0" err &&
	test_expect_code 2 db --clients-per-process 256 1 2>err &&
	test_grep "bad --clients-per-process 256" err &&
	test_expect_code 2 db -R -1 1 2>err &&
	test_grep "bad --target-rate -1: expected MB/sec (0: no pacing)" err
'

test_expect_success 'mmtests prepare step: --run-once --skip-cleanup, then a run in that tree' '
	canary_setup &&
	db --run-once --skip-cleanup -D "$TRASH/work" -c "$SMALL" 2 >prep &&
	test -f "$TRASH/work/clients/.vfsbench-workdir" &&
	test -f "$TRASH/work/clients/client0/d/f" &&
	test -f "$TRASH/work/clients/client1/d/f" &&
	db --run-once -D "$TRASH/work" -c needs.txt --vfsbench-report 2 >run 2>err &&
	test "$(db_count run ReadX)" -eq 2 &&
	! grep "Unexpected results" run &&
	test ! -s err &&
	test ! -e "$TRASH/work/clients" &&
	canary_check && workdir_empty
'

test_expect_success 'without the prepare step, the same run fails its ops' '
	canary_setup &&
	db --run-once -D "$TRASH/work" -c needs.txt --vfsbench-report 1 >run 2>err &&
	test_grep "NTCreateX: ENOENT x 1" run &&
	test_grep "^warning: 1 unexpected results (each op and errno: --vfsbench-report)$" err &&
	canary_check && workdir_empty
'

test_expect_success 'a DIR/clients vfsbench did not make: refused, untouched; --adopt-clients' '
	canary_setup &&
	mkdir -p "$TRASH/work/clients/client0" &&
	echo theirs >"$TRASH/work/clients/theirs" &&
	test_expect_code 2 db --run-once -D "$TRASH/work" -c "$SMALL" 1 >out 2>err &&
	test_grep "was not made by vfsbench" err &&
	test_grep "adopt-clients" err &&
	test ! -s out &&
	test "$(find "$TRASH/work/clients" | wc -l)" -eq 3 &&
	db --adopt-clients --run-once -D "$TRASH/work" -c "$SMALL" 1 >out 2>err &&
	test_grep "left in place" err &&
	test "$(cat "$TRASH/work/clients/theirs")" = theirs &&
	test -f "$TRASH/work/clients/client0/d/f" &&
	test ! -e "$TRASH/work/clients/.vfsbench-workdir" &&
	rm -r "$TRASH/work/clients" &&
	canary_check
'

test_expect_success '--run-once: each client replays the loadfile once, all of it counted' '
	canary_setup &&
	db --run-once -D "$TRASH/work" -c "$SMALL" 3 >out &&
	test "$(db_count out NTCreateX)" -eq 9 &&
	test "$(db_count out WriteX)" -eq 9 &&
	test "$(db_count out Close)" -eq 9 &&
	test "$(db_count out Unlink)" -eq 3 &&
	canary_check && workdir_empty
'

test_expect_success '--clients-per-process: K clients per thread, in their own directories' '
	canary_setup &&
	db --clients-per-process 3 --run-once --skip-cleanup --show-execute-time \
		-D "$TRASH/work" -c "$SMALL" 2 >out &&
	test_grep "^Throughput .*  6 clients  2 procs  max_latency=" out &&
	test_grep "^2 of 2 processes prepared for launch" out &&
	test "$(db_count out WriteX)" -eq 18 &&
	for n in 0 1 2 3 4 5
	do
		test -f "$TRASH/work/clients/client$n/d/f" || return 1
	done &&
	test ! -e "$TRASH/work/clients/client6" &&
	grep "completed in" out | awk "{ print \$1 }" >ids &&
	printf "0\n3\n" >want && test_cmp want ids &&
	rm -r "$TRASH/work/clients" &&
	canary_check
'

test_expect_success '--show-execute-time: one line per pass per process' '
	canary_setup &&
	db --run-once --show-execute-time -D "$TRASH/work" -c "$SMALL" 2 >out &&
	grep "completed in" out >passes &&
	test "$(wc -l <passes)" -eq 2 &&
	awk "!/^ *[0-9]+ completed in [0-9]+ ms at time [0-9]+ ms$/ { exit 1 }
		\$4 > \$8 { exit 1 }" passes &&
	db --run-once --show-execute-time --machine-readable -D "$TRASH/work" \
		-c "$SMALL" 2 >mr &&
	grep -c "^@E@[01]@[0-9]*$" mr >n && test "$(cat n)" -eq 2 &&
	canary_check && workdir_empty
'

test_expect_success '--machine-readable: upstream forms of the table and the last line' '
	canary_setup &&
	db --run-once --machine-readable -D "$TRASH/work" -c "$SMALL" 2 >out &&
	test_grep "^:WriteX:6:[0-9.]*:[0-9.]*:$" out &&
	test_grep "^:NTCreateX:6:" out &&
	test_grep "^;[0-9.e+]*;2;2;[0-9.]*;$" out &&
	test_grep "^@C@0@" out &&
	! grep "^Throughput" out &&
	canary_check && workdir_empty
'

test_expect_success '--upstream-names: upstream names, order and width' '
	canary_setup &&
	db --run-once --upstream-names -D "$TRASH/work" -c "$SMALL" 1 >out &&
	test_grep "^ Operation                Count    AvgLat    MaxLat$" out &&
	test_grep "^ FIND_FIRST                   1 " out &&
	test_grep "^ QUERY_PATH_INFORMATION       1 " out &&
	test_grep "^ QUERY_FILE_INFORMATION       1 " out &&
	test_grep "^ QUERY_FS_INFORMATION         1 " out &&
	test_grep "^ SET_FILE_INFORMATION         1 " out &&
	awk "/^ -----/ { t = 1; next } t && NF == 4 { print \$1 }" out >order &&
	printf "%s\n" Deltree Close Mkdir Rename ReadX WriteX Unlink FIND_FIRST \
		SET_FILE_INFORMATION QUERY_FILE_INFORMATION \
		QUERY_PATH_INFORMATION QUERY_FS_INFORMATION NTCreateX >want &&
	test_cmp want order &&
	VFSBENCH_DBENCH_NAMES=4.0 db --run-once -D "$TRASH/work" -c "$SMALL" 1 >out40 &&
	test_grep "^ Operation      Count    AvgLat    MaxLat$" out40 &&
	test_grep "^ Find               1 " out40 &&
	test_grep "^ Qpathinfo          1 " out40 &&
	canary_check && workdir_empty
'

test_expect_success 'the table names: 4.0s unless an option only upstream has is given' '
	canary_setup &&
	db -t 1 -D "$TRASH/work" -c "$SMALL" 1 >a &&
	test_grep "^ Find  " a &&
	for o in --run-once "--warmup 0" --show-execute-time --machine-readable \
		"--trunc-io 100000" "-B fileio"
	do
		# shellcheck disable=SC2086
		db $o -t 1 -D "$TRASH/work" -c "$SMALL" 1 >b &&
		grep "FIND_FIRST" b >/dev/null || return 1
	done &&
	VFSBENCH_DBENCH_NAMES=upstream db -t 1 -D "$TRASH/work" -c "$SMALL" 1 >c &&
	test_grep "^ FIND_FIRST  " c &&
	VFSBENCH_DBENCH_NAMES=bad test_expect_code 2 db -t 1 -c "$SMALL" 1 2>err &&
	test_grep "VFSBENCH_DBENCH_NAMES=.bad.: expected upstream or 4.0" err &&
	canary_check && workdir_empty
'

test_expect_success '--per-client-results: each client, whose counts add up' '
	canary_setup &&
	db --run-once --per-client-results -D "$TRASH/work" -c "$SMALL" 2 >out &&
	test_grep "^Per client results:$" out &&
	test_grep "^Client 0 did $LINES lines and 3001 bytes$" out &&
	test_grep "^Client 1 did $LINES lines and 3001 bytes$" out &&
	awk "\$1 == \"WriteX\" && NF == 4 { s[++n] = \$2 }
		END { exit !(n == 3 && s[1] == s[2] + s[3]) }" out &&
	canary_check && workdir_empty
'

test_expect_success '-s and -S: the notes of the Throughput line' '
	canary_setup &&
	db -s -S --run-once -D "$TRASH/work" -c "$SMALL" 1 >out &&
	test_grep "^Throughput [0-9.e+]* MB/sec (sync open) (sync dirs)  1 clients  1 procs  max_latency=" out &&
	canary_check && workdir_empty
'

test_expect_success '--fake-io: counts the sizes, issues no write' '
	canary_setup &&
	db --fake-io --run-once --skip-cleanup --vfsbench-report -D "$TRASH/work" \
		-c "$SMALL" 1 >out &&
	test_grep "^Total: .*(1 passes, 3001 bytes," out &&
	test "$(stat -c %s "$TRASH/work/clients/client0/d/f")" -eq 0 &&
	rm -r "$TRASH/work/clients" &&
	canary_check
'

test_expect_success '--trunc-io: reads and writes of at most N bytes' '
	canary_setup &&
	db --trunc-io 300 --run-once --skip-cleanup --vfsbench-report \
		-D "$TRASH/work" -c "$SMALL" 1 >out &&
	test_grep "^Total: .*(1 passes, 901 bytes," out &&
	test "$(stat -c %s "$TRASH/work/clients/client0/d/f")" -eq 1300 &&
	rm -r "$TRASH/work/clients" &&
	canary_check
'

test_expect_success '--one-byte-write-fix: a zero past the end is an ftruncate' '
	canary_setup &&
	head -n 18 "$SMALL" >keep.txt &&
	db --one-byte-write-fix --run-once --skip-cleanup -D "$TRASH/work" \
		-c keep.txt 1 >out &&
	test "$(stat -c %s "$TRASH/work/clients/client0/d/h")" -eq 5000 &&
	test "$(od -An -tx1 -j4999 "$TRASH/work/clients/client0/d/h" | tr -d " ")" = 00 &&
	rm -r "$TRASH/work/clients" &&
	canary_check
'

# Each client's calls of NAME in an strace of a --run-once run with ARGS.
traced() {
	name=$1
	shift
	canary_setup &&
	ASAN_OPTIONS=detect_leaks=0 \
	strace -f -e trace="$name" -o trace "$VFSBENCH" dbench --run-once "$@" \
		-D "$TRASH/work" -c "${LF:-$SMALL}" 1 >/dev/null &&
	canary_check && workdir_empty &&
	{ grep -c "^[0-9]* *$name(" trace || test $? -eq 1; }
}

strace_test 'strace: --fake-io takes out every pwrite and pread' '
	test "$(traced pwrite64)" -eq 3 &&
	traced pread64 >/dev/null &&
	test "$(grep -c "pread64(.*, 1000, 0) = 1000" trace)" -eq 1 &&
	test "$(traced pwrite64 --fake-io)" -eq 0 &&
	traced pread64 --fake-io >/dev/null &&
	test "$(grep -c "pread64(.*, 1000, 0)" trace)" -eq 0
'

strace_test 'strace: --one-byte-write-fix turns the 1-byte write into ftruncate' '
	test "$(traced ftruncate)" -eq 0 &&
	test "$(traced ftruncate --one-byte-write-fix)" -eq 1 &&
	test "$(traced pwrite64 --one-byte-write-fix)" -eq 2
'

# -x: fsetxattr after the NTCreateX of f and g and the Sfileinfo of f;
# fgetxattr before each of those and in Qfileinfo and Sfileinfo; getxattr
# after the lookups that find the file: Rename of g, Qpathinfo and
# Unlink of h.
strace_test 'strace: -x reads and writes user.DosAttrib' '
	test "$(traced fsetxattr)" -eq 0 &&
	test "$(traced getxattr)" -eq 0 &&
	test "$(traced fsetxattr -x)" -eq 3 &&
	test "$(grep -c "user.DosAttrib\", .*, 44, 0) = 0" trace)" -eq 3 &&
	test "$(traced fgetxattr -x)" -eq 5 &&
	test "$(traced getxattr -x)" -eq 3
'

cat >sc.txt <<'EOF'
Deltree "\clients\client1\x" NT_STATUS_OK
Mkdir "\clients\client1\x" NT_STATUS_OK
Mkdir "\clients\client1\x" NT_STATUS_OK
NTCreateX "\clients\client1\x" 0x1 0x1 7 NT_STATUS_OK
Close 7 NT_STATUS_OK
NTCreateX "\clients\client1\x\f" 0x40 0x2 8 NT_STATUS_OK
Close 8 NT_STATUS_OK
NTCreateX "\clients\client1\x\f" 0x40 0x2 9 NT_STATUS_OK
Close 9 NT_STATUS_OK
Rmdir "\clients\client1\y" NT_STATUS_OBJECT_NAME_NOT_FOUND
EOF

# --stat-check: the second Mkdir and the directory open make no mkdir,
# the second create of f is an open, the Rmdir of what is missing is left.
strace_test 'strace: --stat-check leaves out the pointless calls' '
	test "$(LF=sc.txt traced mkdir)" -eq 3 &&
	test "$(LF=sc.txt traced mkdir --stat-check)" -eq 1 &&
	test "$(LF=sc.txt traced rmdir)" -eq 1 &&
	test "$(LF=sc.txt traced rmdir --stat-check)" -eq 0 &&
	LF=sc.txt traced openat >/dev/null &&
	test "$(grep -c "x/f\", O_RDWR|O_CREAT" trace)" -eq 2 &&
	LF=sc.txt traced openat --stat-check >/dev/null &&
	test "$(grep -c "x/f\", O_RDWR|O_CREAT" trace)" -eq 1 &&
	test "$(grep -c "x/f\", O_RDWR|O_CLOEXEC" trace)" -eq 1
'

# -F: an fsync per WriteX (3); -S: an fdatasync per Rename and Unlink (2);
# -s: O_SYNC on the file opens (f and g); --no-resolve: the lookups that
# miss read no directory.
strace_test 'strace: -F, -S, -s and --no-resolve' '
	test "$(traced fsync)" -eq 0 &&
	test "$(traced fsync -F)" -eq 3 &&
	test "$(traced fdatasync)" -eq 0 &&
	test "$(traced fdatasync -S)" -eq 2 &&
	traced openat -s >/dev/null &&
	test "$(grep -c "d/[fg]\", O_RDWR|O_CREAT|O_SYNC" trace)" -eq 2 &&
	a=$(traced getdents64) && b=$(traced getdents64 --no-resolve) &&
	test "$b" -lt "$a"
'

test_expect_success '-R: each ReadX and WriteX paced to the rate, timed apart' '
	canary_setup &&
	db -R 0.01 --run-once --vfsbench-report -D "$TRASH/work" -c "$SMALL" 1 >out &&
	# 3001 bytes at 10,000 bytes/s: at least 0.3001 s
	awk "\$2 == \"client:\" && \$5 == \"in\" { f = 1; exit !(\$6 >= 0.300) }
		END { exit !f }" out &&
	test "$(awk "\$1 == \"pace\" { print \$2 }" out)" -eq 4 &&
	! grep "^ pace " out &&
	canary_check && workdir_empty
'

# The execute lines of out: "second MB/s latency".
execute_lines() {
	awk "\$5 == \"execute\" { print \$6, \$3, \$9 }" "$1"
}

test_expect_success 'per-second lines: MB/s from the phase start, latency the worst of the second' '
	canary_setup &&
	cat >paced.txt <<-\EOF &&
	NTCreateX "\clients\client1\p" 0x40 0x2 1 NT_STATUS_OK
	WriteX 1 0 1000000 1000000 NT_STATUS_OK
	Close 1 NT_STATUS_OK
	Sleep 300000 NT_STATUS_OK
	EOF
	db -t 4 --warmup 2 --vfsbench-report -D "$TRASH/work" -c paced.txt 1 >out &&
	# dbench'"'"'s seconds: warmup 1 to W-1, execute 1 to T-1, then cleanup T
	awk "\$5 == \"warmup\" { print \$6 }" out >warm &&
	test "$(cat warm)" = 1 &&
	execute_lines out >sec &&
	awk "{ print \$1 }" sec | tr "\n" " " >labels &&
	test "$(cat labels)" = "1 2 3 " &&
	test_grep "^   1  cleanup   4 sec$" out &&
	test_grep "^   0  cleanup   4 sec$" out &&
	# MB/s x seconds is the bytes so far: never goes down
	awk "{ b = \$1 * \$2; if (b < prev - 0.01) exit 1; prev = b }" sec &&
	# each second holds a 300 ms sleep, ended or running
	awk "{ if (\$3 < 300) exit 1 }" sec &&
	# the Throughput line: the last line MB/s, the worst latency
	last=$(awk "END { print \$2 }" sec) &&
	worst=$(awk "\$3 > w { w = \$3 } END { printf \"%.3f\", w }" sec) &&
	sed -n "s/^Throughput \([0-9.e+]*\) MB\/sec  1 clients  1 procs  max_latency=\([0-9.]*\) ms$/\1 \2/p" out >tput &&
	read -r t l <tput &&
	awk -v t="$t" -v l="$last" "BEGIN { d = t - l; exit !(d < 0.006 && d > -0.006) }" &&
	test "$l" = "$worst" &&
	# and the run'"'"'s counts: the 3 s of the last line hold the bytes of
	# the 4 s measured but for the fourth second, where the sleeps allow
	# at most 4 writes (and one that overshoots), give or take one write
	# at the interpolated end of the line'"'"'s second
	bytes=$(sed -n "s/^Total: .*passes, \([0-9]*\) bytes,.*/\1/p" out) &&
	awk -v m="$last" -v b="$bytes" "BEGIN { d = b / 1e6 - m * 3; exit !(d >= -1.01 && d <= 6.01) }" &&
	canary_check && workdir_empty
'

test_done
