#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='null engine with --loops: exact counts, errors, report format'
. "$srcdir/tests/e2e/lib.sh"

# The Count of OP in the table of the run with N clients.
run_count() {
	awk -v n="$2" -v op="$3" '
		$2 == "client:" || $2 == "clients:" { cur = $1 }
		cur == n && $1 == op { print $2 }' "$1"
}

# "PASSES BYTES" from the Total line of the run with N clients.
run_total() {
	awk -v n="$2" '
		$2 == "client:" || $2 == "clients:" { cur = $1 }
		cur == n && $1 == "Total:" { print }' "$1" |
	sed -n -e 's/.*(\([0-9]*\) passes, \([0-9]*\) bytes,.*/\1 \2/p'
}

# The count of an "Unexpected results" line, e.g. unexpected_count out "stat: EIO".
unexpected_count() {
	sed -n -e "s/^  $2 x \\([0-9]*\\)\$/\\1/p" "$1"
}

# Check every op count of a one-run report: expect_counts FILE OP=N ...
expect_counts() {
	f=$1
	shift
	for kv in "$@"; do
		op=${kv%%=*}
		want=${kv#*=}
		got=$(op_count "$f" "$op")
		if test "$got" != "$want"; then
			say "Count of $op: expected $want, got '$got'" >&2
			cat "$f" >&2
			return 1
		fi
	done
}

test_expect_success 'setup: loadfiles' '
	cat >io.load <<-\EOF &&
	# two stats, one data file, sizes with units
	[run]
	stat     a
	stat     b
	open     f  rdwr  @1
	pread    @1  0   4k
	pwrite   @1  4k  512
	pread    @1  0   1m
	fstat    @1
	close    @1
	statfs   .
	EOF
	cat >meta.load <<-\EOF &&
	[setup]
	mkdir    d${client}
	create   d${client}/keep
	stat     d${client}/keep
	[run]
	mkdir    d${client}/sub
	create   d${client}/sub/a
	stat     d${client}/sub/a
	rename   d${client}/sub/a  d${client}/sub/b
	stat     d${client}/sub/a  ENOENT
	stat     d${client}/sub/b
	readdir  d${client}/sub
	unlink   d${client}/sub/b
	rmdir    d${client}/sub
	utimens  d${client}/keep
	access   d${client}/keep  rw
	open     d${client}/keep  wronly,append  @7
	pwrite   @7  0  2K
	fsync    @7
	close    @7
	EOF
	cat >stat.load <<-\EOF
	stat a
	stat b
	statfs .
	EOF
'

test_expect_success 'io.load: exact counts, passes and bytes (3 clients x 5 loops)' '
	canary_setup &&
	vfsbench -q -e null --loops 5 -c io.load -D "$TRASH/work" 3 >out &&
	test_grep "^3 clients: 135 ops in " out &&
	expect_counts out stat=30 open=15 pread=30 pwrite=15 fstat=15 \
		close=15 statfs=15 &&
	test "$(run_total out 3)" = "15 $((15 * (4096 + 512 + 1048576)))" &&
	! grep "^Unexpected results" out &&
	canary_check &&
	workdir_empty
'

test_expect_success 'the table has one row per op kind, in order of first use' '
	canary_setup &&
	vfsbench -q -e null --loops 1 -c io.load -D "$TRASH/work" 1 >out &&
	sed -n -e "/^Operation /,/^Total:/p" out |
	awk "NR > 1 && \$1 != \"Total:\" { print \$1 }" >rows &&
	printf "%s\n" stat open pread pwrite fstat close statfs >expect &&
	test_cmp expect rows &&
	canary_check &&
	workdir_empty
'

test_expect_success 'meta.load: [setup] ops are not counted (2 clients x 7 loops)' '
	canary_setup &&
	vfsbench -q -e null --loops 7 -c meta.load -D "$TRASH/work" 2 >out &&
	test_grep "^2 clients: $((14 * 15)) ops in " out &&
	expect_counts out mkdir=14 create=14 stat=42 rename=14 readdir=14 \
		unlink=14 rmdir=14 utimens=14 access=14 open=14 pwrite=14 \
		fsync=14 close=14 &&
	test "$(run_total out 2)" = "14 $((14 * 2048))" &&
	! grep "^Unexpected results" out &&
	canary_check &&
	workdir_empty
'

test_expect_success 'sweep 1 2 4: exact counts in every run' '
	canary_setup &&
	vfsbench -q -e null --loops 3 -c io.load -D "$TRASH/work" 1 2 4 >out &&
	for c in 1 2 4; do
		test "$(run_count out $c stat)" = "$((c * 3 * 2))" &&
		test "$(run_count out $c open)" = "$((c * 3))" &&
		test "$(run_count out $c pread)" = "$((c * 3 * 2))" &&
		test "$(run_count out $c pwrite)" = "$((c * 3))" &&
		test "$(run_count out $c close)" = "$((c * 3))" &&
		test "$(run_count out $c statfs)" = "$((c * 3))" &&
		test "$(run_total out $c)" = \
			"$((c * 3)) $((c * 3 * (4096 + 512 + 1048576)))" ||
		return 1
	done &&
	test_grep "^1 client: 27 ops in " out &&
	test_grep "^2 clients: 54 ops in " out &&
	test_grep "^4 clients: 108 ops in " out &&
	canary_check &&
	workdir_empty
'

test_expect_success 'a doubling range 1-4 runs 1 2 4 with exact counts' '
	canary_setup &&
	vfsbench -q -e null --loops 2 -c stat.load -D "$TRASH/work" 1-4 >out &&
	test "$(grep -c "^[0-9]* clients*: " out)" -eq 3 &&
	test "$(run_count out 1 stat)" = 4 &&
	test "$(run_count out 2 stat)" = 8 &&
	test "$(run_count out 4 stat)" = 16 &&
	test "$(run_count out 4 statfs)" = 8 &&
	canary_check &&
	workdir_empty
'

test_expect_success '--warmup 2p does not change the measured counts' '
	canary_setup &&
	vfsbench -q -e null --loops 4 --warmup 2p -c io.load \
		-D "$TRASH/work" 3 >out &&
	test_grep "^loops 4 per client  warmup 2 passes\$" out &&
	expect_counts out stat=24 open=12 pread=24 pwrite=12 close=12 \
		statfs=12 &&
	test "$(run_total out 3)" = "12 $((12 * (4096 + 512 + 1048576)))" &&
	canary_check &&
	workdir_empty
'

test_expect_success '--warmup 2p in a sweep: counts still exact' '
	canary_setup &&
	vfsbench -q -e null --loops 3 --warmup 2p -c stat.load \
		-D "$TRASH/work" 1 2 4 >out &&
	test "$(run_count out 1 stat)" = 6 &&
	test "$(run_count out 2 stat)" = 12 &&
	test "$(run_count out 4 stat)" = 24 &&
	test "$(run_total out 4)" = "12 0" &&
	canary_check &&
	workdir_empty
'

test_expect_success '--null-fail stat:EIO: every stat counted as EIO, exit 0' '
	canary_setup &&
	vfsbench -q -e null --null-fail stat:EIO --loops 5 -c io.load \
		-D "$TRASH/work" 3 >out &&
	test_grep "^Unexpected results (op: outcome x count):\$" out &&
	test "$(unexpected_count out "stat: EIO")" = 30 &&
	test "$(grep -c "^  " out)" -eq 1 &&
	awk "\$1 == \"stat\" { print \$NF }" out >col &&
	echo 30 >expect &&
	test_cmp expect col &&
	expect_counts out stat=30 open=15 statfs=15 &&
	! grep "^note:" out &&
	canary_check &&
	workdir_empty
'

test_expect_success '--null-fail given twice injects both' '
	canary_setup &&
	vfsbench -q -e null --null-fail stat:EIO --null-fail statfs:EACCES \
		--loops 2 -c stat.load -D "$TRASH/work" 2 >out &&
	test "$(unexpected_count out "stat: EIO")" = 8 &&
	test "$(unexpected_count out "statfs: EACCES")" = 4 &&
	canary_check &&
	workdir_empty
'

test_expect_success '--strict stops at the first unexpected result: exit 1 and a note' '
	canary_setup &&
	test_expect_code 1 vfsbench -q -e null --null-fail stat:EIO --strict \
		--loops 100 -c stat.load -D "$TRASH/work" 1 >out &&
	sed -n -e "/^1 client: /{n;p;}" out >note &&
	echo "note: stopped by --strict at an unexpected result: partial results" >expect &&
	test_cmp expect note &&
	test "$(unexpected_count out "stat: EIO")" = 1 &&
	test_grep "^Throughput " out &&
	canary_check &&
	workdir_empty
'

# The first client's first op stops the run while the others may still
# be leaving the start gate: each must still arrive at the warmup gate,
# or the main thread waits for it forever (it did, every time, with 200).
test_expect_success '--strict during a warmup of passes, 200 clients: no hang' '
	canary_setup &&
	test_expect_code 1 timeout -s KILL 120 "$VFSBENCH" -q -e null \
		--null-fail stat:EIO --strict --warmup 1p -t 1s \
		-c stat.load -D "$TRASH/work" 200 >out &&
	test_grep "^note: stopped by --strict in the warmup: nothing measured\$" out &&
	canary_check &&
	workdir_empty
'

test_expect_success '--strict stops the sweep after the failing run' '
	canary_setup &&
	test_expect_code 1 vfsbench -q -e null --null-fail stat:EIO --strict \
		--loops 10 -c stat.load -D "$TRASH/work" 1 2 >out &&
	test_grep "^1 client: " out &&
	! grep "^2 clients: " out &&
	! grep "^Sweep:" out &&
	canary_check &&
	workdir_empty
'

test_expect_success '--max-errors 5: exit 1 and a note, 5 errors with one client' '
	canary_setup &&
	test_expect_code 1 vfsbench -q -e null --null-fail stat:EIO \
		--max-errors 5 --loops 100 -c stat.load -D "$TRASH/work" 1 >out &&
	test_grep "^note: stopped by --max-errors: partial results\$" out &&
	test "$(unexpected_count out "stat: EIO")" = 5 &&
	canary_check &&
	workdir_empty
'

test_expect_success '--max-errors 5 with 3 clients: at least 5 errors, exit 1' '
	canary_setup &&
	test_expect_code 1 vfsbench -q -e null --null-fail stat:EIO \
		--max-errors 5 --loops 1000 -c stat.load -D "$TRASH/work" 3 >out &&
	test_grep "^note: stopped by --max-errors: partial results\$" out &&
	test "$(unexpected_count out "stat: EIO")" -ge 5 &&
	test "$(unexpected_count out "stat: EIO")" -lt 6000 &&
	canary_check &&
	workdir_empty
'

test_expect_success '--max-errors not reached: exit 0, no note' '
	canary_setup &&
	vfsbench -q -e null --null-fail stat:EIO --max-errors 100 --loops 5 \
		-c stat.load -D "$TRASH/work" 2 >out &&
	test "$(unexpected_count out "stat: EIO")" = 20 &&
	! grep "^note:" out &&
	canary_check &&
	workdir_empty
'

test_expect_success 'an expected errno is returned by the null engine: not unexpected' '
	cat >expect-err.load <<-\EOF &&
	[run]
	open     missing  rdonly  @1  ENOENT
	stat     gone               ENOENT
	mkdir    there              EEXIST
	stat     a
	EOF
	canary_setup &&
	vfsbench -q -e null --loops 4 -c expect-err.load -D "$TRASH/work" 2 >out &&
	expect_counts out open=8 stat=16 mkdir=8 &&
	! grep "^Unexpected results" out &&
	test "$(awk "\$1 == \"Operation\" { t = 1; next }
		\$1 == \"Unexpected\" || \$1 == \"Total:\" { t = 0 }
		t { s += \$NF } END { print s + 0 }" out)" = 0 &&
	canary_check &&
	workdir_empty
'

test_expect_success '--null-fail on an expected errno: the other errno is unexpected' '
	canary_setup &&
	vfsbench -q -e null --null-fail stat:EIO --loops 3 -c expect-err.load \
		-D "$TRASH/work" 1 >out &&
	test "$(unexpected_count out "stat: EIO")" = 6 &&
	canary_check &&
	workdir_empty
'

# The native table leaves out the op kinds with no measured call and
# names them after it: they showed as rows of 0 calls and 0ns.
test_expect_success 'a failed open kills its handle: later ops skipped, not counted' '
	cat >dead.load <<-\EOF &&
	[run]
	open     f  rdwr  @1
	fstat    @1
	pread    @1  0  4k
	pwrite   @1  0  4k
	close    @1
	stat     a
	open     g  rdonly  @2
	close    @2
	EOF
	canary_setup &&
	vfsbench -q -e null --null-fail open:ENOENT --loops 3 -c dead.load \
		-D "$TRASH/work" 2 >out &&
	expect_counts out open=12 stat=6 &&
	for op in fstat pread pwrite close; do
		test -z "$(op_count out $op)" || return 1
	done &&
	test "$(grep "^Left out" out)" = \
		"Left out, no call measured: fstat (6 skipped), pread (6 skipped), pwrite (6 skipped), close (12 skipped)" &&
	test "$(unexpected_count out "open: ENOENT")" = 12 &&
	test "$(unexpected_count out "fstat: skipped (handle dead: its open failed)")" = 6 &&
	test "$(unexpected_count out "pread: skipped (handle dead: its open failed)")" = 6 &&
	test "$(unexpected_count out "pwrite: skipped (handle dead: its open failed)")" = 6 &&
	test "$(unexpected_count out "close: skipped (handle dead: its open failed)")" = 12 &&
	test "$(grep -c "^  " out)" -eq 5 &&
	test "$(run_total out 2)" = "6 0" &&
	test_grep "^2 clients: 18 ops in " out &&
	canary_check &&
	workdir_empty
'

test_expect_success 'the next pass starts with every handle free (exit 0)' '
	canary_setup &&
	vfsbench -q -e null --null-fail open:EACCES --loops 2 -c dead.load \
		-D "$TRASH/work" 1 >out &&
	test "$(unexpected_count out "open: EACCES")" = 4 &&
	canary_check &&
	workdir_empty
'

test_expect_success 'the dbench line parses as LKP does (fields 2, 5, 8, 12)' '
	canary_setup &&
	vfsbench -q -e null --loops 3 -c io.load -D "$TRASH/work" 1 3 >out &&
	test "$(grep -c "^Throughput " out)" -eq 2 &&
	grep "^Throughput " out | awk -F"[ =]" "
		function num(s) { return s ~ /^[0-9]+(\\.[0-9]+)?(e[-+][0-9]+)?\$/ }
		{
			if (\$1 != \"Throughput\" || \$3 != \"MB/sec\" ||
			    \$6 != \"clients\" || \$9 != \"procs\" ||
			    \$11 != \"max_latency\" || \$13 != \"ms\" || NF != 13)
				bad = 1
			if (!num(\$2) || !num(\$5) || !num(\$8) || !num(\$12))
				bad = 1
			if (\$5 != \$8)
				bad = 1
			print \$5
		}
		END { exit bad }" >clients &&
	printf "%s\n" 1 3 >expect &&
	test_cmp expect clients &&
	canary_check &&
	workdir_empty
'

test_expect_success 'sweep 1 2 4: table relative to 1 client, 1.00 at 1' '
	canary_setup &&
	vfsbench -q -e null --loops 3 -c io.load -D "$TRASH/work" 1 2 4 >out &&
	test_grep "^Sweep: relative to 1 client, by ops/s\$" out &&
	sed -n -e "/^Sweep:/,\$p" out >sweep &&
	test_grep "^Clients  *ops/s  *MB/s  *relative  *efficiency  *runs  *p99  *CV\$" sweep &&
	awk "NR > 2 { print \$1 }" sweep >rows &&
	printf "%s\n" 1 2 4 >expect &&
	test_cmp expect rows &&
	awk "\$1 == 1 { print \$4, \$5 }" sweep >base &&
	echo "1.00 1.00" >expect &&
	test_cmp expect base &&
	canary_check &&
	workdir_empty
'

test_expect_success 'sweep without 1: relative to the smallest count' '
	canary_setup &&
	vfsbench -q -e null --loops 3 -c io.load -D "$TRASH/work" 4 2 >out &&
	test_grep "^Sweep: relative to 2 clients, by ops/s\$" out &&
	sed -n -e "/^Sweep:/,\$p" out >sweep &&
	awk "\$1 == 2 { print \$4, \$5 }" sweep >base &&
	echo "1.00 1.00" >expect &&
	test_cmp expect base &&
	canary_check &&
	workdir_empty
'

test_expect_success 'one client count: no sweep table' '
	canary_setup &&
	vfsbench -q -e null --loops 3 -c io.load -D "$TRASH/work" 2 >out &&
	! grep "^Sweep" out &&
	canary_check &&
	workdir_empty
'

test_expect_success '--relative mbps: the sweep header says MB/s' '
	canary_setup &&
	vfsbench -q -e null --loops 3 --relative mbps -c io.load \
		-D "$TRASH/work" 1 2 >out &&
	test_grep "^Sweep: relative to 1 client, by MB/s\$" out &&
	sed -n -e "/^Sweep:/,\$p" out >sweep &&
	awk "\$1 == 1 { print \$4, \$5 }" sweep >base &&
	echo "1.00 1.00" >expect &&
	test_cmp expect base &&
	canary_check &&
	workdir_empty
'

# The progress lines on stderr: PHASE SECOND of each, in order.
progress_labels() {
	awk '$2 ~ /^clients?$/ && $5 == "s" { print $3, $4 }' "$1"
}

# Each phase's lines are labelled with the second they cover, and every
# second has one: the warmup's last second is "warmup 1" (it was
# "execute 0"), the measurement's last second is there, and with many
# more clients than CPUs, where the main thread misses ticks, no second
# is dropped (a missed one is filled from the counters). The phases end by
# the clock (measure_at, stop_at), whenever the main thread wakes, so the
# labels do not depend on timing; only the rates do.
test_expect_success 'progress: one line per second of each phase, labelled by it' '
	canary_setup &&
	printf "%s\n" "warmup 1" "execute 1" "execute 2" >expect &&
	vfsbench -e null -t 2s --warmup 1s -c stat.load -D "$TRASH/work" \
		2 >out 2>err &&
	progress_labels err >labels &&
	test_cmp expect labels &&
	test "$(grep -c -v "^ *2 clients  " err)" -eq 0 &&
	vfsbench -e null -t 2s --warmup 1s -c stat.load -D "$TRASH/work" \
		64 >out 2>err &&
	progress_labels err >labels &&
	test_cmp expect labels &&
	vfsbench -q -e null -t 1s --warmup 1s -c stat.load -D "$TRASH/work" \
		2 >out 2>err &&
	test ! -s err &&
	canary_check &&
	workdir_empty
'

# One client is "1 client", in the columns of "2 clients".
test_expect_success 'progress: 1 client, singular, the phase where it is for 2' '
	canary_setup &&
	vfsbench -e null -t 1s --warmup 1s -c stat.load -D "$TRASH/work" \
		1 >out 2>err &&
	sed "s/ *[0-9.]* ops\/s .*//" err >lines &&
	printf "%s\n" "     1 client   warmup     1 s" \
		"     1 client   execute    1 s" >expect &&
	test_cmp expect lines &&
	test_grep "^1 client: " out &&
	canary_check &&
	workdir_empty
'

# The run among the invocation's, the variant, and the time left: the
# planned time of the rest of this run (--warmup, --time) and of the runs
# after it, reckoned from the lines' labels, so it is exact. 2 variants
# x 1 count x 2 runs of 1 s warmup and 2 s each: 12 s in all.
test_expect_success 'progress: the run, the variant and the time the invocation has left' '
	canary_setup &&
	cp stat.load s1.load &&
	cp stat.load s2.load &&
	vfsbench -e null -t 2s --warmup 1s --runs 2 -c s1.load -c s2.load \
		-D "$TRASH/work" 1 >out 2>err &&
	awk "\$2 ~ /^clients?\$/ { print \$3, \$4, \$(NF - 4), \$(NF - 3), \$(NF - 2), \$(NF - 1), \$NF }" \
		err >got &&
	awk "{ print \$4 }" got | sort | uniq -c | awk "{ print \$1, \$2 }" >runs &&
	printf "%s\n" "3 1/4" "3 2/4" "3 3/4" "3 4/4" >expect &&
	test_cmp expect runs &&
	awk "{ print \$1, \$2, \$3, \$4, \$6, \$7 }" got >labels &&
	printf "%s\n" "warmup 1 run 1/4 11s left" "execute 1 run 1/4 10s left" \
		"execute 2 run 1/4 9s left" "warmup 1 run 2/4 8s left" \
		"execute 1 run 2/4 7s left" "execute 2 run 2/4 6s left" \
		"warmup 1 run 3/4 5s left" "execute 1 run 3/4 4s left" \
		"execute 2 run 3/4 3s left" "warmup 1 run 4/4 2s left" \
		"execute 1 run 4/4 1s left" "execute 2 run 4/4 0s left" >expect &&
	test_cmp expect labels &&
	awk "{ print \$4, \$5 }" got | sort -u >variants &&
	test "$(wc -l <variants)" -eq 4 &&
	awk "{ print \$2 }" variants | sort | uniq -c >count &&
	printf "%7d %s\n" 2 s1 2 s2 >expect &&
	test_cmp expect count &&
	vfsbench -e null -t 1s --warmup 0 --runs 1 -c stat.load \
		-D "$TRASH/work" 1 2 >out 2>err &&
	progress_labels err >labels &&
	printf "%s\n" "execute 1" "execute 1" >expect &&
	test_cmp expect labels &&
	awk "\$2 ~ /^clients?\$/ { print \$(NF - 3), \$(NF - 2), \$(NF - 1), \$NF }" \
		err >got &&
	printf "%s\n" "run 1/2 1s left" "run 2/2 0s left" >expect &&
	test_cmp expect got &&
	canary_check &&
	workdir_empty
'

test_done
