#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='posix engine on disk: files, errno counts, setup failure, all ops'
. "$srcdir/tests/e2e/lib.sh"

# "PASSES BYTES" from the Total line of the (last) run.
total() {
	sed -n -e 's/^Total: .*(\([0-9]*\) passes, \([0-9]*\) bytes,.*/\1 \2/p' "$1" |
	tail -n 1
}

# The count of an "Unexpected results" line, e.g. unexpected_count out "stat: ENOENT".
unexpected_count() {
	sed -n -e "s/^  $2 x \\([0-9]*\\)\$/\\1/p" "$1"
}

# The sum of the unexpected column of the (last) run's table.
unexpected_sum() {
	awk '$1 == "Operation" { t = 1; s = 0; next }
		$1 == "Unexpected" || $1 == "Total:" { t = 0 }
		t { s += $NF }
		END { print s + 0 }' "$1"
}

# The work directory a --skip-cleanup run left (exactly one).
left_workdir() {
	set -- "$TRASH"/work/vfsbench.*
	test $# -eq 1 && test -d "$1" && test -f "$1/.vfsbench-workdir" &&
	printf '%s\n' "$1"
}

# Remove what a --skip-cleanup run left, and nothing else.
remove_left() {
	for d in "$TRASH"/work/vfsbench.*; do
		if test -d "$d"; then
			rm -rf "$d" || return 1
		fi
	done
}

test_expect_success 'setup: loadfiles' '
	cat >keep.load <<-\EOF &&
	[setup]
	create   keep${client}
	[run]
	stat     keep${client}
	EOF
	cat >missing.load <<-\EOF &&
	[run]
	stat     missing
	stat     missing  ENOENT
	statfs   .
	EOF
	cat >setup-fail.load <<-\EOF
	# line 2 is a comment
	[setup]
	mkdir    d
	mkdir    d
	[run]
	stat     d
	EOF
'

test_expect_success '--skip-cleanup keeps [setup] files in each client directory' '
	canary_setup &&
	vfsbench -q --loops 3 --skip-cleanup -c keep.load -D "$TRASH/work" 2 \
		>out 2>err &&
	wd=$(left_workdir) &&
	test -f "$wd/run0/clients/client0/keep0" &&
	test -f "$wd/run0/clients/client1/keep1" &&
	! test -e "$wd/run0/clients/client0/keep1" &&
	! test -e "$wd/run0/clients/client1/keep0" &&
	test_grep "^directory $wd\$" out &&
	test_grep "^vfsbench: --skip-cleanup: files left in '\''$wd'\''\$" err &&
	test "$(op_count out stat)" = 6 &&
	test "$(unexpected_sum out)" -eq 0 &&
	canary_check &&
	remove_left &&
	workdir_empty
'

test_expect_success '--skip-cleanup --depth 3: files under clients/clientN/d/d/d' '
	canary_setup &&
	vfsbench -q --loops 2 --depth 3 --skip-cleanup -c keep.load \
		-D "$TRASH/work" 2 >out 2>err &&
	wd=$(left_workdir) &&
	test -f "$wd/run0/clients/client0/d/d/d/keep0" &&
	test -f "$wd/run0/clients/client1/d/d/d/keep1" &&
	! test -e "$wd/run0/clients/client0/keep0" &&
	! test -e "$wd/run0/clients/client0/d/d/d/d" &&
	test "$(find "$wd" -name "keep*" | wc -l)" -eq 2 &&
	test "$(unexpected_sum out)" -eq 0 &&
	canary_check &&
	remove_left &&
	workdir_empty
'

test_expect_success '--skip-cleanup with a sweep keeps run0 and run1' '
	canary_setup &&
	vfsbench -q --loops 1 --skip-cleanup -c keep.load -D "$TRASH/work" \
		1 2 >out 2>err &&
	wd=$(left_workdir) &&
	test -f "$wd/run0/clients/client0/keep0" &&
	! test -e "$wd/run0/clients/client1" &&
	test -f "$wd/run1/clients/client0/keep0" &&
	test -f "$wd/run1/clients/client1/keep1" &&
	canary_check &&
	remove_left &&
	workdir_empty
'

test_expect_success 'without --skip-cleanup nothing is left' '
	canary_setup &&
	vfsbench -q --loops 2 --depth 2 -c keep.load -D "$TRASH/work" 1 3 \
		>out 2>err &&
	! grep "files left" err &&
	canary_check &&
	workdir_empty
'

test_expect_success 'unexpected results on a real fs are counted by errno' '
	canary_setup &&
	vfsbench -q --loops 4 -c missing.load -D "$TRASH/work" 2 >out &&
	test "$(op_count out stat)" = 16 &&
	test "$(unexpected_count out "stat: ENOENT")" = 8 &&
	test "$(grep -c "^  " out)" -eq 1 &&
	test "$(unexpected_sum out)" -eq 8 &&
	! grep "^note:" out &&
	canary_check &&
	workdir_empty
'

test_expect_success 'an expected errno that does not come is counted as success' '
	cat >exists.load <<-\EOF &&
	[setup]
	create   here
	[run]
	stat     here  ENOENT
	EOF
	canary_setup &&
	vfsbench -q --loops 3 -c exists.load -D "$TRASH/work" 2 >out &&
	test "$(unexpected_count out "stat: success (an errno was expected)")" = 6 &&
	canary_check &&
	workdir_empty
'

test_expect_success 'a [setup] failure exits 3 naming the loadfile line' '
	canary_setup &&
	test_expect_code 3 vfsbench -q --loops 2 -c setup-fail.load \
		-D "$TRASH/work" 2 >out 2>err &&
	test_grep "setup-fail.load:4:" err &&
	test_grep "\[setup\]" err &&
	canary_check &&
	workdir_empty
'

test_expect_success 'a [setup] failure in the second run of a sweep exits 3' '
	cat >setup-fail2.load <<-\EOF &&
	[setup]
	mkdir    d${client}
	stat     d0
	[run]
	stat     d${client}
	EOF
	canary_setup &&
	test_expect_code 3 vfsbench -q --loops 2 -c setup-fail2.load \
		-D "$TRASH/work" 1 2 >out 2>err &&
	test_grep "setup-fail2.load:3:" err &&
	test_grep "client 1" err &&
	test_grep "^1 client: 2 ops in " out &&
	! grep "^Sweep" out &&
	canary_check &&
	workdir_empty
'

test_expect_success 'every other op runs with 0 unexpected' '
	cat >all.load <<-\EOF &&
	[setup]
	mkdir    dir
	create   dir/a  0600
	[run]
	readdir  dir
	readdir  .
	rename   dir/a  dir/b
	link     dir/b  dir/c
	symlink  b  dir/s
	readlink dir/s
	stat     dir/s
	lstat    dir/s
	utimens  dir/b
	access   dir/b
	access   dir/b  rw
	access   dir/nope  ENOENT
	statfs   .
	statfs   dir/b
	statvfs  dir
	statvfs_legacy  dir
	open     dir/b  rdwr  @1
	pwrite   @1  0  8k
	pread    @1  0  4k
	pread    @1  8k  4k
	fstat    @1
	fstatfs  @1
	fstatvfs @1
	ftruncate @1  1k
	pread    @1  0  4k
	fsync    @1
	fdatasync @1
	ftruncate @1  0
	close    @1
	open     dir  rdonly,directory  @2
	fstat    @2
	close    @2
	open     dir/n  wronly,creat,excl  @3  0600
	pwrite   @3  0  100
	close    @3
	open     dir/n  wronly,creat,excl  @3  EEXIST
	unlink   dir/n
	unlink   dir/s
	unlink   dir/c
	rename   dir/b  dir/a
	mkdir    dir/sub  0700
	rmdir    dir/sub
	create   dir/t
	unlink   dir/t
	EOF
	canary_setup &&
	vfsbench -q --loops 3 -c all.load -D "$TRASH/work" 2 >out &&
	! grep "^Unexpected results" out &&
	test "$(unexpected_sum out)" -eq 0 &&
	for op in readdir rename link symlink readlink stat lstat utimens \
		access statfs statvfs statvfs_legacy open pwrite pread fstat \
		fstatfs fstatvfs ftruncate fsync fdatasync close unlink mkdir \
		rmdir create; do
		test "$(op_count out $op)" -gt 0 || return 1
	done &&
	test "$(op_count out readlink)" = 6 &&
	test "$(op_count out pread)" = 18 &&
	test "$(op_count out access)" = 18 &&
	test "$(op_count out open)" = 24 &&
	test "$(total out)" = "6 $((6 * (8192 + 4096 + 0 + 1024 + 100)))" &&
	canary_check &&
	workdir_empty
'

test_expect_success 'the same loadfile with --depth 2 and 3 clients' '
	canary_setup &&
	vfsbench -q --loops 2 --depth 2 -c all.load -D "$TRASH/work" 3 >out &&
	test "$(unexpected_sum out)" -eq 0 &&
	test "$(total out)" = "6 $((6 * (8192 + 4096 + 0 + 1024 + 100)))" &&
	canary_check &&
	workdir_empty
'

test_expect_success 'bytes count what pread transferred: short reads at EOF' '
	cat >short.load <<-\EOF &&
	[setup]
	open     data  wronly,creat,trunc  @1
	pwrite   @1  0  3000
	close    @1
	[run]
	open     data  rdonly  @1
	pread    @1  0  4k
	pread    @1  2k  4k
	pread    @1  1m  4k
	close    @1
	EOF
	canary_setup &&
	vfsbench -q --loops 5 -c short.load -D "$TRASH/work" 2 >out &&
	test "$(unexpected_sum out)" -eq 0 &&
	test "$(op_count out pread)" = 30 &&
	test "$(total out)" = "10 $((10 * (3000 + 3000 - 2048)))" &&
	canary_check &&
	workdir_empty
'

test_expect_success 'the shipped loadfiles run with 0 unexpected' '
	canary_setup &&
	for lf in default statfs statvfs statvfs_legacy pathwalk \
		create-unlink mixed; do
		vfsbench -q --loops 2 -c $lf -D "$TRASH/work" 2 >out &&
		test "$(unexpected_sum out)" -eq 0 &&
		! grep "^Unexpected results" out &&
		canary_check &&
		workdir_empty || return 1
	done
'

test_expect_success 'the shipped loadfiles run with 0 unexpected in a shared cwd' '
	canary_setup &&
	for lf in default create-unlink mixed; do
		vfsbench -q --loops 2 --cwd shared -c $lf -D "$TRASH/work" 3 >out &&
		test "$(unexpected_sum out)" -eq 0 &&
		canary_check &&
		workdir_empty || return 1
	done
'

# A client whose one op outlasts the run measures nothing: its op began
# in the warmup and ended after the stop, so no op of it is counted, and
# the report says that its figures cover no client.
test_expect_success 'clients that measured no op are reported' '
	echo "Sleep 4000000 NT_STATUS_OK" >sleep.load &&
	canary_setup &&
	vfsbench -q -c sleep.load -t 300ms --warmup 300ms \
		--json r.json -D "$TRASH/work" 2 >out &&
	test_grep "^warning: no client measured an op\$" out &&
	json_flat r.json >r.flat &&
	test "$(jget r.flat "runs[0].idle_clients")" = 2 &&
	canary_check &&
	workdir_empty
'

test_expect_success 'a run where every client measured ops reports none idle' '
	canary_setup &&
	vfsbench -q --loops 3 -c statfs --json r.json -D "$TRASH/work" 3 >out &&
	! grep "measured no op\|no client measured" out &&
	json_flat r.json >r.flat &&
	test "$(jget r.flat "runs[0].idle_clients")" = 0 &&
	canary_check &&
	workdir_empty
'

test_done
