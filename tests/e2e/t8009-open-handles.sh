#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='loadfiles that leave handles open (cuts of real loadfiles) run, closed after each pass'
. "$srcdir/tests/e2e/lib.sh"

# vfsbench-loadfile(5), Handles: a handle still open at the end of a
# section is not an error (the first 60,000 lines of client.txt were
# refused); vfsbench warns once, with how many, and closes what is left
# after each pass, outside the timed ops. The closes are checked through
# the fd limit: with RLIMIT_NOFILE at 64, 300 passes that each open a
# handle and never close it would run out of fds by pass 50 or so.

SQ="'"
CUT="$TEST_DATA/dbench-cut.txt"

# with_fds N ARGS...: vfsbench ARGS with RLIMIT_NOFILE (soft and hard) N.
with_fds() {
	(
		# shellcheck disable=SC3045
		ulimit -n "$1" || exit 125
		shift
		exec "$VFSBENCH" "$@"
	)
}

# The sum of the unexpected column of the (last) run's table.
unexpected_sum() {
	awk '$1 == "Operation" { t = 1; s = 0; next }
		$1 == "Unexpected" || $1 == "Total:" { t = 0 }
		t && NF == 9 { s += $NF }
		END { print s + 0 }' "$1"
}

test_expect_success 'native: a handle never closed in [run], 300 passes under 64 fds' '
	canary_setup &&
	printf "%s\n" "[setup]" "create f" "create g" "[run]" \
		"open f rdonly @1" "open g rdonly @2" "fstat @2" "close @2" \
		"pread @1 0 1" >open.load &&
	with_fds 64 -q --loops 300 -c open.load -D "$TRASH/work" 1 \
		>out 2>err &&
	printf "%s\n" "warning: open.load:5:15: 1 handle is still open at the end of a pass, the first opened here; vfsbench closes it after each pass, outside the timed ops" >expect &&
	test_cmp expect err &&
	test "$(op_count out open)" = 600 &&
	test "$(op_count out pread)" = 300 &&
	test "$(op_count out close)" = 300 &&
	test "$(unexpected_sum out)" = 0 &&
	! grep "^Unexpected" out &&
	canary_check &&
	workdir_empty
'

test_expect_success 'native: handles left open by [setup] are closed when it ends' '
	canary_setup &&
	printf "%s\n" "[setup]" "create f" "open f rdonly @1" "open f rdonly @2" \
		"[run]" "open f rdonly @1" "close @1" >setup.load &&
	with_fds 64 -q --loops 2 -c setup.load -D "$TRASH/work" 30 \
		>out 2>err &&
	printf "%s\n" "warning: setup.load:3:15: 2 handles are still open at the end of [setup], the first opened here; vfsbench closes them after [setup], outside the timed ops" >expect &&
	test_cmp expect err &&
	test "$(op_count out open)" = 60 &&
	canary_check &&
	workdir_empty
'

test_expect_success 'a cut of a dbench loadfile (CRLF, timestamps): exact counts, one warning' '
	canary_setup &&
	vfsbench -q -e null --loops 3 -c "$CUT" -D "$TRASH/work" 2 \
		>out 2>err &&
	printf "%s\n" "warning: $CUT:13:50: 2 handles are still open at the end of a pass, the first opened here; vfsbench closes them after each pass, outside the timed ops" >expect &&
	test_cmp expect err &&
	test "$(op_count out NTCreateX)" = 36 &&
	test "$(op_count out Close)" = 24 &&
	test "$(op_count out WriteX)" = 18 &&
	test "$(op_count out Qfsinfo)" = 6 &&
	test_grep "(6 passes, " out &&
	canary_check &&
	workdir_empty
'

test_expect_success 'the same cut with the posix engine under 64 fds: no unexpected result' '
	canary_setup &&
	with_fds 64 -q --loops 40 -c "$CUT" -D "$TRASH/work" 1 >out 2>err &&
	test "$(wc -l <err)" -eq 1 &&
	test "$(unexpected_sum out)" = 0 &&
	! grep "^Unexpected" out &&
	test "$(op_count out NTCreateX)" = 240 &&
	canary_check &&
	workdir_empty
'

client_txt=/usr/share/dbench/client.txt
if ! test -r "$client_txt"; then
	test_skip 'the first 60000 lines of client.txt run' \
		"no $client_txt (Debian's dbench package)"
	test_skip 'the first 2000 lines of client.txt, CRLF, posix, under 64 fds' \
		"no $client_txt (Debian's dbench package)"
else
	test_expect_success 'the first 60000 lines of client.txt run' '
		canary_setup &&
		head -n 60000 "$client_txt" >cut60000.txt &&
		vfsbench -q -e null --loops 1 -c cut60000.txt -D "$TRASH/work" 1 \
			>out 2>err &&
		test "$(wc -l <err)" -eq 1 &&
		test_grep "^warning: cut60000\.txt:[0-9]*:[0-9]*: [0-9]* handles* .* still open at the end of a pass, the first opened here; vfsbench closes .* after each pass, outside the timed ops$" err &&
		test_grep "^1 client: 60000 ops in " out &&
		canary_check &&
		workdir_empty
	'

	test_expect_success 'the first 2000 lines of client.txt, CRLF, posix, under 64 fds' '
		canary_setup &&
		head -n 2000 "$client_txt" | sed -e "s/\$/$(printf "\r")/" \
			>cut2000.txt &&
		with_fds 64 -q --loops 3 -c cut2000.txt -D "$TRASH/work" 1 \
			>out 2>err &&
		test "$(wc -l <err)" -eq 1 &&
		test_grep "^warning: cut2000\.txt:" err &&
		test "$(unexpected_sum out)" = 0 &&
		test_grep "(3 passes, " out &&
		canary_check &&
		workdir_empty
	'
fi

test_done
