#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='vfsbench fdscale --engine uring: the opens through the ring, --uring-fixed into its file table, usage errors'
. "$srcdir/tests/e2e/lib.sh"

SQ="'"
SEQ_10="1 2 3 4 5 7 9 10"
SEQ_5000_4="1 4 16 64 256 1024 4096 5000"
STEP_RE='^num_fds: [0-9]+, best cost: [0-9]+\.[0-9]{3} us, worst cost: [0-9]+\.[0-9]{3} us$'
HEAD="fdscale: cache-hot, free low,middle, 2 loops"

if ! vfsbench -q fdscale -e uring --max 1 --loops 1 >/dev/null 2>uring-err
then
	test_skip_all "io_uring unusable here: $(cat uring-err)"
fi

# Nothing on stderr FILE but progress lines (a loaded machine prints them).
only_progress() {
	! grep -v -E '^fdscale: [0-9]+ of [0-9]+ fds open \(step [0-9]+ of [0-9]+\), [0-9]+ s$' "$1"
}

# check_table OUT SEQ: the header, then step lines of exactly SEQ.
check_table() {
	sed 1d "$1" >steps &&
	! grep -E -v "$STEP_RE" steps &&
	test "$(sed 's/^num_fds: \([0-9]*\),.*/\1/' steps | tr '\n' ' ' |
		sed 's/ $//')" = "$2"
}

# jsteps FLAT FIELD: FIELD of every step, on one line.
jsteps() {
	awk -F '\t' -v f="$2" '$1 ~ "^steps\\[[0-9]+\\]\\." f "$" { print $2 }' \
		"$1" | tr '\n' ' ' | sed 's/ $//'
}

# usage_fails MESSAGE ARGS...: vfsbench fdscale ARGS exits 2 with MESSAGE
# and the hint on stderr, nothing on stdout, no result file.
usage_fails() {
	printf '%s\n' "vfsbench: $1" \
		"Try ${SQ}vfsbench fdscale --help$SQ for more information." \
		>expect &&
	shift &&
	rm -f u.json &&
	test_expect_code 2 vfsbench fdscale "$@" --json u.json >out 2>err &&
	test_cmp expect err &&
	test ! -s out &&
	test ! -e u.json
}

test_expect_success '--engine uring: the table, the engine named, exact samples' '
	canary_setup &&
	vfsbench fdscale -e uring --max 10 --loops 2 --json u.json >out 2>err &&
	only_progress err &&
	test "$(head -n 1 out)" = \
		"$HEAD, 1 thread, open(${SQ}/dev/null$SQ), engine uring" &&
	check_table out "$SEQ_10" &&
	json_flat u.json >u.flat &&
	test "$(jget u.flat schema)" = vfsbench-fdscale &&
	test "$(jget u.flat options.engine)" = uring &&
	test "$(jget u.flat options.uring_fixed)" = false &&
	test "$(jsteps u.flat num_fds)" = "$SEQ_10" &&
	test "$(jsteps u.flat samples)" = "4 4 4 4 4 4 4 4" &&
	canary_check && workdir_empty
'

test_expect_success '--engine posix is the default: today'"'"'s header, engine posix' '
	canary_setup &&
	vfsbench fdscale --engine posix --max 10 --loops 2 --json p.json \
		>out 2>err &&
	only_progress err &&
	test "$(head -n 1 out)" = "$HEAD, 1 thread, open(${SQ}/dev/null$SQ)" &&
	check_table out "$SEQ_10" &&
	json_flat p.json >p.flat &&
	test "$(jget p.flat options.engine)" = posix &&
	test "$(jget p.flat options.uring_fixed)" = false &&
	vfsbench fdscale --max 3 --loops 1 --json d.json >out &&
	json_flat d.json >d.flat &&
	test "$(jget d.flat options.engine)" = posix &&
	canary_check && workdir_empty
'

test_expect_success '--engine uring --uring-fixed: the table, the JSON' '
	canary_setup &&
	vfsbench fdscale -e uring --uring-fixed --max 10 --loops 2 \
		--free low,middle,high,random --json f.json >out 2>err &&
	only_progress err &&
	test "$(head -n 1 out)" = \
		"fdscale: cache-hot, free low,middle,high,random, 2 loops, 1 thread, open(${SQ}/dev/null$SQ), engine uring, into the ring${SQ}s file table (--uring-fixed)" &&
	check_table out "$SEQ_10" &&
	json_flat f.json >f.flat &&
	test "$(jget f.flat options.engine)" = uring &&
	test "$(jget f.flat options.uring_fixed)" = true &&
	test "$(jsteps f.flat samples)" = "8 8 8 8 8 8 8 8" &&
	canary_check && workdir_empty
'

# FDSize of /proc/thread-self/status is the fd table's size: at 5000 fds
# it is at least 5000 on the fd table; with --uring-fixed the 5000 are
# slots of the ring's table and it stays as it was at the first step.
test_expect_success 'the fd table grows with the fds, not with --uring-fixed'"'"'s slots' '
	for e in "" "-e uring" "-e uring --uring-fixed"; do
		# shellcheck disable=SC2086
		vfsbench fdscale $e --max 5000 --step 4 --loops 1 \
			--json g.json >out 2>err &&
		only_progress err &&
		check_table out "$SEQ_5000_4" &&
		json_flat g.json >g.flat &&
		{ jsteps g.flat fd_table_size && echo; } >>sizes ||
		return 1
	done &&
	test "$(wc -l <sizes)" -eq 3 &&
	sed -n 1,2p sizes | awk "!(\$1 >= 64 && \$NF >= 5000) { exit 1 }" &&
	sed -n 3p sizes | awk "{ for (i = 2; i <= NF; i++) if (\$i != \$1) exit 1
		exit !(\$1 >= 64 && \$1 < 5000) }"
'

test_expect_success '--uring-fixed --threads 2: a ring'"'"'s file table each' '
	vfsbench fdscale -e uring --uring-fixed --threads 2 --max 10 \
		--loops 2 --json t.json >out 2>err &&
	only_progress err &&
	test "$(head -n 1 out)" = \
		"$HEAD, 2 threads (a ring${SQ}s file table each), open(${SQ}/dev/null$SQ), engine uring, into the ring${SQ}s file table (--uring-fixed)" &&
	check_table out "$SEQ_10" &&
	json_flat t.json >t.flat &&
	test "$(jsteps t.flat samples)" = "8 8 8 8 8 8 8 8"
'

test_expect_success '--engine uring --threads 3 on one shared fd table' '
	vfsbench fdscale -e uring --threads 3 --max 10 --loops 1 \
		--json s.json >out 2>err &&
	only_progress err &&
	test "$(head -n 1 out)" = \
		"fdscale: cache-hot, free low,middle, 1 loop, 3 threads (one shared fd table), open(${SQ}/dev/null$SQ), engine uring" &&
	check_table out "$SEQ_10" &&
	json_flat s.json >s.flat &&
	test "$(jsteps s.flat samples)" = "2 4 6 6 6 6 6 6"
'

# enters FILE: the io_uring_enter calls in the strace of one thread.
# The thread that times the opens makes no open(2) of the file and no
# dup(2); it enters the ring at least twice a sample (the close, the
# open; a punted op enters twice). With --uring-fixed no thread dups:
# the slots are filled by IORING_REGISTER_FILES_UPDATE.
strace_test 'strace: the opens and closes go through the ring' '
	for fixed in "" --uring-fixed; do
		rm -f trace.* &&
		ASAN_OPTIONS=detect_leaks=0 \
		strace -ff -qq -o trace "$VFSBENCH" fdscale -e uring $fixed \
			--max 10 --loops 3 --json s.json >out 2>err &&
		! grep -l "openat(AT_FDCWD, \"/dev/null\", O_RDONLY) = " trace.* &&
		grep -l io_uring_enter trace.* >files &&
		test "$(wc -l <files)" -eq 1 &&
		! grep -E "^(dup|dup2|dup3|fcntl)\\(" "$(cat files)" &&
		n=$(grep -c "^io_uring_enter(" "$(cat files)") &&
		json_flat s.json >s.flat &&
		samples=$(jsteps s.flat samples | tr " " "\\n" |
			awk "{ n += \$1 } END { print n }") &&
		test "$samples" -eq 48 &&
		test "$n" -ge $((2 * samples)) || return 1
	done &&
	! grep -E "^(dup|dup2|dup3)\\(" trace.* &&
	grep -h "IORING_REGISTER_FILES_UPDATE" trace.* >updates &&
	test -s updates
'

test_expect_success 'usage errors: exit 2, the message, nothing run' '
	canary_setup &&
	usage_fails "--uring-fixed needs --engine uring" --uring-fixed &&
	usage_fails "--uring-fixed needs --engine uring" -e posix --uring-fixed &&
	usage_fails "bad --engine ${SQ}null$SQ: expected posix or uring" -e null &&
	usage_fails "bad --engine ${SQ}Uring$SQ: expected posix or uring" \
		--engine Uring &&
	usage_fails "--uring-fixed measures each ring${SQ}s own file table: --private-fd-table has no table to give it" \
		-e uring --uring-fixed --threads 2 --private-fd-table &&
	canary_check && workdir_empty
'

test_done
