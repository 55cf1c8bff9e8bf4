#!/bin/sh
# shellcheck disable=SC2034
test_description='vfsbench record: --tasks-as-clients, its [run N] streams'
# shellcheck disable=SC2154
. "$srcdir/tests/e2e/lib.sh"

SQ="'"

# streams LOADFILE: its tasks' header lines, then [setup] to the end.
streams() {
	sed -n "/^# tasks:/,/^#   tasks with no op/p;/^\[setup\]/,\$p" "$1" |
	sed "s/task [0-9]*,/task PID,/"
}

umask 022

test_expect_success 'setup: the program of two tasks and its root' '
	cc -O0 -o tasks "$TEST_DATA/record/tasks.c" &&
	mkdir root &&
	printf 0123456789 >root/a &&
	ln -s a root/b
'

strace_test '--tasks-as-clients: a [run N] stream per task, in its order' '
	(cd root && vfsbench record --tasks-as-clients -o ../tasks.load \
		-- ../tasks 2>../err) &&
	test_grep "^vfsbench record: ../tasks.load: 7 ops from [0-9]* calls of 2 tasks$" err &&
	streams tasks.load >actual &&
	cat >expect <<-\EOT &&
	# tasks: 2, each a client of its own in the order it made its calls:
	#   client i runs [run i mod 2]; run with at least 2 clients
	#   [run 0]: task PID, 3 ops
	#   [run 1]: task PID, 4 ops
	#   tasks with no op kept, so no stream: 0
	[setup]
	open a wronly,creat,trunc @1 644
	ftruncate @1 10
	close @1
	symlink a b
	[run 0]
	stat a
	stat missing ENOENT
	access a r
	[run 1]
	open a rdonly @1
	pread @1 0 100
	close @1
	lstat b
	EOT
	test_cmp expect actual
'

strace_test '--tasks-as-clients: fewer clients than streams are refused' '
	canary_setup &&
	test_expect_code 2 vfsbench -c tasks.load -q --loops 1 \
		-D "$TRASH/work" 1 2 >out 2>err &&
	echo "error: ${SQ}tasks.load${SQ} has 2 [run N] streams, one per recorded task: run it with at least 2 clients, not 1 (client i runs [run i mod 2])" >expect &&
	test_cmp expect err &&
	test ! -s out &&
	canary_check &&
	workdir_empty
'

# With 4 clients, clients 0 and 2 run [run 0], 1 and 3 run [run 1].
strace_test '--tasks-as-clients: client i runs stream i mod 2 (null engine)' '
	canary_setup &&
	vfsbench -c tasks.load -e null --loops 3 -D "$TRASH/work" 4 >report &&
	for oc in stat:12 access:6 open:6 pread:6 close:6 lstat:6; do
		test "$(op_count report "${oc%%:*}")" = "${oc#*:}" || exit 1
	done &&
	canary_check &&
	workdir_empty
'

strace_test '--tasks-as-clients: the replay has no unexpected result' '
	canary_setup &&
	vfsbench -c tasks.load --loops 3 -D "$TRASH/work" 2 3 >report &&
	test "$(unexpected_total report)" = 0 &&
	canary_check &&
	workdir_empty
'

# stream_error LINE: lf.load (written by the caller) is refused with LINE.
test_expect_success '[run N]: streams out of order, empty, mixed with [run]' '
	printf "[run 1]\nstat .\n" >lf.load &&
	load_error "lf.load:1:6: [run 1] where [run 0] is next: streams are numbered from 0, in order" &&
	printf "[run 0]\nstat .\n[run 1]\n[run 2]\nstat .\n" >lf.load &&
	load_error "lf.load:3:1: no ops in [run 1]" &&
	printf "[run 0]\nstat .\n[run 1]\n" >lf.load &&
	load_error "lf.load:3:1: no ops in [run 1]" &&
	printf "stat .\n[run 0]\nstat .\n" >lf.load &&
	load_error "lf.load:2:1: [run 0] after ops of a plain [run] section: a loadfile has one [run] section or the streams [run 0], [run 1], ..., not both" &&
	printf "[run 0]\nstat .\n[run]\nstat .\n" >lf.load &&
	load_error "lf.load:3:1: [run] after [run 0]: a loadfile has one [run] section or the streams [run 0], [run 1], ..., not both" &&
	printf "[run x]\nstat .\n" >lf.load &&
	load_error "lf.load:1:6: bad stream number ${SQ}x${SQ} (expected 0 .. 65535)" &&
	printf "[run 0\nstat .\n" >lf.load &&
	load_error "lf.load:1:6: bad section header (expected [run N])"
'

# The streams of a hand-written loadfile, and [setup] between them.
test_expect_success '[run N]: each client its stream, [setup] for all' '
	printf "[run 0]\nstat .\n[setup]\ncreate f\n[run 1]\nstat f\nstat f\n[run 2]\nstatfs .\n" >s.load &&
	canary_setup &&
	vfsbench -c s.load -e null --loops 2 -D "$TRASH/work" 5 \
		--json s.json >report &&
	test "$(op_count report stat)" = 12 &&
	json_flat s.json >s.flat &&
	test "$(jget s.flat loadfile.streams)" = 3 &&
	test "$(jget s.flat options.read_outside)" = false &&
	test "$(op_count report statfs)" = 2 &&
	canary_check &&
	workdir_empty
'

test_expect_success 'setup: the program that reads a directory' '
	cc -O0 -o dirs "$TEST_DATA/record/dirs.c" &&
	mkdir -p droot/d &&
	: >droot/d/x &&
	: >droot/d/y
'

strace_test 'getdents64 becomes getdents on the handle, with its size' '
	(cd droot && vfsbench record -o ../dirs.load -- ../dirs 2>../err) &&
	test_grep "^vfsbench record: ../dirs.load: 9 ops from [0-9]* calls of 1 tasks$" err &&
	test_grep "^#   getdents64  *4$" dirs.load &&
	! sed -n "/^# dropped, no op/,/^# dropped, on/p" dirs.load |
		grep -q getdents64 &&
	sed -n "/^\[setup\]/,\$p" dirs.load >actual &&
	cat >expect <<-\EOT &&
	[setup]
	mkdir d 755
	create d/x 644
	create d/y 644
	[run]
	open d rdonly,cloexec,directory @1
	fstat @1
	getdents @1 32768
	getdents @1 32768
	close @1
	open d rdonly,directory @1
	getdents @1 4096
	getdents @1 4096
	close @1
	EOT
	test_cmp expect actual
'

strace_test 'getdents: counted by the null engine, replayed by posix' '
	canary_setup &&
	vfsbench -c dirs.load -e null --loops 3 -D "$TRASH/work" 2 >report &&
	test "$(op_count report getdents)" = 24 &&
	test "$(op_count report open)" = 12 &&
	vfsbench -c dirs.load --loops 3 -D "$TRASH/work" 2 >report &&
	test "$(unexpected_total report)" = 0 &&
	test "$(op_count report getdents)" = 24 &&
	canary_check &&
	workdir_empty
'

# A pass of the replay issues the 4 getdents64 of the trace: the calls of
# --loops 2 less those of --loops 1 (vfsbench's own cancel out).
strace_test 'getdents: a pass issues the getdents64 calls of the trace' '
	canary_setup &&
	for n in 1 2; do
		ASAN_OPTIONS=detect_leaks=0 strace -f -qq -o "tr$n" \
			-e trace=getdents64 "$VFSBENCH" -c dirs.load -q \
			--loops $n -D "$TRASH/work" 1 >/dev/null || exit 1
	done &&
	test $(($(grep -c "getdents64(" tr2) - $(grep -c "getdents64(" tr1))) = 4 &&
	test "$(grep -c "getdents64(.*4096)" tr2)" = 4 &&
	canary_check &&
	workdir_empty
'

# -e uring has no opcode for getdents64: the system call, and it says so.
title='getdents: -e uring issues the system call, and says so'
if vfsbench -q -e uring -c default.load --loops 1 -D "$TRASH" 1 \
	>/dev/null 2>&1; then
	test_expect_success "$title" '
		canary_setup &&
		vfsbench -c dirs.load -e uring --loops 2 -D "$TRASH/work" 1 \
			>report &&
		test "$(op_count report getdents)" = 8 &&
		awk "\$1 == \"Operation\" { t = 1; next } /^io_uring/ { t = 0 }
			t && NF >= 9 { n += \$NF } END { exit n != 0 }" report &&
		test_grep "^io_uring has no opcode for: getdents (getdents64(2)) (issued as system calls)$" report &&
		canary_check &&
		workdir_empty
	'
else
	test_skip "$title" "io_uring unusable here"
fi

test_expect_success 'getdents: a size over 64k is refused' '
	printf "open . rdonly,directory @1\ngetdents @1 65537\nclose @1\n" >lf.load &&
	load_error "lf.load:2:13: size ${SQ}65537${SQ} too large (at most 65536)"
'

test_done
