#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='result files never replace what is not theirs: devices, FIFOs, symlinks, -; write errors exit 3'
. "$srcdir/tests/e2e/lib.sh"

# vfsbench(1) RESULT FILES: a FILE that is absent or a regular file is
# written beside it and renamed into place; anything else is written into,
# never replaced, and - is standard output. A write error is an error,
# exit 3. The device here is this script's own copy of /dev/full (same
# major and minor), made in the trash directory: a broken rule must not be
# able to replace a real /dev node.

SQ="'"

full_skip=
if ! mknod "$TRASH/full" c 1 7 2>/dev/null || ! test -c "$TRASH/full"; then
	full_skip='cannot make a device node here (not root, or a nodev mount)'
elif printf x >"$TRASH/full" 2>/dev/null; then
	full_skip='the device made is not /dev/full'
fi

# run_null ARGS...: a short null-engine run of mixed.load with ARGS.
run_null() {
	vfsbench -q -e null --loops 2 -c mixed -D "$TRASH/work" "$@" 1
}

# The JSON object at the end of a report that holds one ('{' to the end).
json_tail() {
	sed -n -e '/^{$/,$p' "$1"
}

if test -n "$full_skip"; then
	test_skip '--json/--csv on a full device: ENOSPC, exit 3, still a device' \
		"$full_skip"
else
	test_expect_success '--json/--csv on a full device: ENOSPC, exit 3, still a device' '
		canary_setup &&
		for opt in --json --csv; do
			test_expect_code 3 run_null "$opt" "$TRASH/full" \
				>out 2>err &&
			printf "%s\n" "error: cannot write ${SQ}$TRASH/full${SQ}: No space left on device" >expect &&
			test_cmp expect err &&
			test -c "$TRASH/full" &&
			! ls "$TRASH"/full.tmp* 2>/dev/null &&
			test_grep "^Throughput " out || return 1
		done &&
		canary_check &&
		workdir_empty
	'
fi

if test -n "$full_skip"; then
	test_skip '--ministat on a device or -: a usage error, nothing made' \
		"$full_skip"
else
	test_expect_success '--ministat on a device or -: a usage error, nothing made' '
		canary_setup &&
		for p in "$TRASH/full" -; do
			test_expect_code 2 run_null --ministat "$p" >out 2>err &&
			printf "%s\n" "vfsbench: bad --ministat ${SQ}$p${SQ}: expected a prefix of file names PREFIX-N.txt, not a device, FIFO, socket or ${SQ}-${SQ}" \
				"Try ${SQ}vfsbench --help${SQ} for more information." >expect &&
			test_cmp expect err &&
			test ! -s out || return 1
		done &&
		! ls "$TRASH"/full-* ./--* 2>/dev/null &&
		test -c "$TRASH/full" &&
		canary_check &&
		workdir_empty
	'
fi

test_expect_success '--json into a FIFO with a reader: written into, still a FIFO' '
	canary_setup &&
	mkfifo fifo &&
	{ bounded cat fifo >got & reader=$!; } &&
	run_null --json fifo --csv fifo.csv >out 2>err &&
	wait $reader &&
	# a reader not yet in its open when the run ends is waited for,
	# and said so (t8263)
	sed -e "/^warning: .fifo. is a FIFO that no one reads: waiting for a reader/d" \
		err >err.rest &&
	test ! -s err.rest &&
	test -p fifo &&
	json_valid got &&
	json_flat got >flat &&
	test "$(jget flat schema)" = vfsbench-result &&
	test "$(jget flat runs[0].ops)" -gt 0 &&
	! ls fifo.tmp* 2>/dev/null &&
	canary_check &&
	workdir_empty
'

# 300 runs make a JSON file of over a megabyte: more than a pipe holds,
# so the writer must still be writing when the reader, having read a
# byte, goes away.
test_expect_success '--json into a FIFO whose reader goes away: EPIPE, exit 3' '
	canary_setup &&
	rm -f fifo &&
	mkfifo fifo &&
	{ bounded head -c 1 fifo >got & reader=$!; } &&
	test_expect_code 3 vfsbench -q -e null --loops 1 --runs 300 -c mixed \
		-D "$TRASH/work" --json fifo 1 >out 2>err &&
	wait $reader &&
	printf "%s\n" "error: cannot write ${SQ}fifo${SQ}: Broken pipe" >expect &&
	test_cmp expect err &&
	test "$(wc -c <got)" -eq 1 &&
	test -p fifo &&
	canary_check &&
	workdir_empty
'

test_expect_success '--json and --csv through a symlink: the link stays, its target is written' '
	canary_setup &&
	mkdir scratch &&
	echo old >scratch/target.json &&
	ln -s target.json scratch/link.json &&
	ln -s missing.csv scratch/dangling.csv &&
	run_null --json scratch/link.json --csv scratch/dangling.csv \
		>out 2>err &&
	test ! -s err &&
	test -h scratch/link.json &&
	test "$(readlink scratch/link.json)" = target.json &&
	json_valid scratch/target.json &&
	test -h scratch/dangling.csv &&
	test_grep "^run,clients,repeat,end,op," scratch/missing.csv &&
	test "$(find scratch | wc -l)" -eq 5 &&
	canary_check &&
	workdir_empty
'

test_expect_success '--json - and --csv -: on standard output, after the report' '
	canary_setup &&
	run_null --json - >out 2>err &&
	test ! -s err &&
	test_grep "^Throughput " out &&
	json_tail out >got.json &&
	json_valid got.json &&
	json_flat got.json >flat &&
	test "$(jget flat schema)" = vfsbench-result &&
	! test -e ./- &&
	run_null --csv - >out 2>err &&
	test ! -s err &&
	test_grep "^run,clients,repeat,end,op,count," out &&
	test "$(grep -c ",complete,all," out)" -eq 1 &&
	! test -e ./- &&
	canary_check &&
	workdir_empty
'

test_expect_success 'a regular file is replaced whole (renamed), no temporary left' '
	canary_setup &&
	echo old >r.json &&
	ln r.json r.keep &&
	run_null --json r.json >out 2>err &&
	test ! -s err &&
	json_valid r.json &&
	test "$(cat r.keep)" = old &&
	! ls r.json.tmp* 2>/dev/null &&
	canary_check &&
	workdir_empty
'

test_done
