#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='client isolation: private and shared cwd, fs_struct, fd table, symlinks out'
. "$srcdir/tests/e2e/lib.sh"

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

# The names in directory $1, one a line, sorted.
names() {
	(cd "$1" && find . -mindepth 1 | sed -e 's|^\./||' | LC_ALL=C sort)
}

test_expect_success 'setup: loadfiles' '
	cat >plain.load <<-\EOF &&
	[run]
	create   f
	stat     f
	EOF
	cat >named.load <<-\EOF &&
	[run]
	create   f${client}
	stat     f${client}
	EOF
	cat >common.load <<-\EOF &&
	[setup]
	mkdir    common
	create   common/c${client}
	[run]
	stat     common
	stat     common/c${client}
	EOF
	cat >fd.load <<-\EOF
	[setup]
	create   data${client}
	[run]
	open     data${client}  rdwr  @1
	open     data${client}  rdonly  @2
	pwrite   @1  0  4k
	pread    @2  0  4k
	fstat    @1
	close    @2
	close    @1
	readdir  .
	EOF
'

test_expect_success 'private cwd: each client has its own f, nothing else' '
	canary_setup &&
	vfsbench -q --loops 1 --skip-cleanup -c plain.load -D "$TRASH/work" 3 \
		>out 2>err &&
	test "$(unexpected_sum out)" -eq 0 &&
	wd=$(left_workdir) &&
	echo f >expect &&
	for n in 0 1 2; do
		names "$wd/run0/clients/client$n" >actual &&
		test_cmp expect actual || return 1
	done &&
	names "$wd/run0/clients" >actual &&
	printf "%s\n" client0 client0/f client1 client1/f client2 client2/f \
		>expect &&
	test_cmp expect actual &&
	! test -e "$wd/run0/shared" &&
	canary_check &&
	remove_left &&
	workdir_empty
'

test_expect_success 'private cwd, --depth 2: f only in each deepest dir' '
	canary_setup &&
	vfsbench -q --loops 1 --depth 2 --skip-cleanup -c plain.load \
		-D "$TRASH/work" 3 >out 2>err &&
	wd=$(left_workdir) &&
	printf "%s\n" d d/d d/d/f >expect &&
	for n in 0 1 2; do
		names "$wd/run0/clients/client$n" >actual &&
		test_cmp expect actual || return 1
	done &&
	canary_check &&
	remove_left &&
	workdir_empty
'

test_expect_success '--cwd shared: the files of all clients in one run0/shared' '
	canary_setup &&
	vfsbench -q --loops 1 --cwd shared --skip-cleanup -c named.load \
		-D "$TRASH/work" 3 >out 2>err &&
	test_grep "cwd shared  fs_struct shared" out &&
	test "$(unexpected_sum out)" -eq 0 &&
	wd=$(left_workdir) &&
	names "$wd/run0/shared" >actual &&
	printf "%s\n" f0 f1 f2 >expect &&
	test_cmp expect actual &&
	! test -e "$wd/run0/clients" &&
	canary_check &&
	remove_left &&
	workdir_empty
'

test_expect_success '--cwd shared: a plain create f is one file for all' '
	canary_setup &&
	vfsbench -q --loops 2 --cwd shared --skip-cleanup -c plain.load \
		-D "$TRASH/work" 3 >out 2>err &&
	test "$(unexpected_sum out)" -eq 0 &&
	wd=$(left_workdir) &&
	names "$wd/run0/shared" >actual &&
	echo f >expect &&
	test_cmp expect actual &&
	canary_check &&
	remove_left &&
	workdir_empty
'

test_expect_success '--cwd shared: a [setup] line without ${client} runs once' '
	canary_setup &&
	vfsbench -q --loops 2 --cwd shared --skip-cleanup -c common.load \
		-D "$TRASH/work" 3 >out 2>err &&
	test "$(op_count out stat)" = 12 &&
	test "$(unexpected_sum out)" -eq 0 &&
	wd=$(left_workdir) &&
	names "$wd/run0/shared" >actual &&
	printf "%s\n" common common/c0 common/c1 common/c2 >expect &&
	test_cmp expect actual &&
	canary_check &&
	remove_left &&
	workdir_empty
'

test_expect_success '--cwd shared: the same in a sweep, cleaned up' '
	canary_setup &&
	vfsbench -q --loops 2 --cwd shared -c common.load -D "$TRASH/work" \
		1 2 4 >out 2>err &&
	test "$(grep -c "^[0-9]* clients*: " out)" -eq 3 &&
	test "$(op_count out stat)" = 16 &&
	canary_check &&
	workdir_empty
'

test_expect_success 'private cwd: the [setup] line runs in every client' '
	canary_setup &&
	vfsbench -q --loops 1 --skip-cleanup -c common.load -D "$TRASH/work" 2 \
		>out 2>err &&
	wd=$(left_workdir) &&
	test -f "$wd/run0/clients/client0/common/c0" &&
	test -f "$wd/run0/clients/client1/common/c1" &&
	canary_check &&
	remove_left &&
	workdir_empty
'

test_expect_success '--cwd shared --fs-struct private: one shared dir too' '
	canary_setup &&
	vfsbench -q --loops 2 --cwd shared --fs-struct private --skip-cleanup \
		-c named.load -D "$TRASH/work" 3 >out 2>err &&
	test_grep "cwd shared  fs_struct private" out &&
	test "$(unexpected_sum out)" -eq 0 &&
	wd=$(left_workdir) &&
	names "$wd/run0/shared" >actual &&
	printf "%s\n" f0 f1 f2 >expect &&
	test_cmp expect actual &&
	canary_check &&
	remove_left &&
	workdir_empty
'

test_expect_success '--cwd shared --fs-struct private: [setup] runs once' '
	canary_setup &&
	vfsbench -q --loops 2 --cwd shared --fs-struct private -c common.load \
		-D "$TRASH/work" 3 >out 2>err &&
	test "$(unexpected_sum out)" -eq 0 &&
	canary_check &&
	workdir_empty
'

# ThreadSanitizer tracks file descriptors process-wide, so with a private
# fd table per client (unshare(CLONE_FILES)) the same fd number in two
# clients, two different files, shows as a race on the fd. tools/test.sh
# sets VB_SANITIZER for its sanitizer builds.
if test "${VB_SANITIZER:-}" = thread
then
	test_skip '--fd-table private works (private and shared cwd)' \
		"ThreadSanitizer reports private fd tables' fds as races"
else
test_expect_success '--fd-table private works (private and shared cwd)' '
	canary_setup &&
	vfsbench -q --loops 3 --fd-table private -c fd.load -D "$TRASH/work" 4 \
		>out 2>err &&
	test_grep "fd table private" out &&
	test "$(unexpected_sum out)" -eq 0 &&
	test "$(op_count out open)" = 24 &&
	test "$(op_count out pread)" = 12 &&
	canary_check &&
	workdir_empty &&
	vfsbench -q --loops 3 --fd-table private --cwd shared -c fd.load \
		-D "$TRASH/work" 4 >out 2>err &&
	test "$(unexpected_sum out)" -eq 0 &&
	test "$(op_count out close)" = 24 &&
	canary_check &&
	workdir_empty
'
fi

test_expect_success '--fd-table shared (the default) works too' '
	canary_setup &&
	vfsbench -q --loops 3 -c fd.load -D "$TRASH/work" 4 >out 2>err &&
	test_grep "fd table shared" out &&
	test "$(unexpected_sum out)" -eq 0 &&
	canary_check &&
	workdir_empty
'

# Links out of the work directory need --links-out (and the loadfile may
# then only read; t8004-links.sh tests the rule itself). Links inside a
# subdirectory lead inside: relative, without "..".
test_expect_success 'symlinks pointing outside are removed as links at cleanup' '
	canary_setup &&
	mkdir -p "$TRASH/outside/deep" &&
	echo outside >"$TRASH/outside/canary" &&
	echo deep >"$TRASH/outside/deep/file" &&
	cat >out.load <<-EOF &&
	[setup]
	symlink  "$TRASH/outside"  out
	symlink  "$TRASH/outside/canary"  outfile
	symlink  "$TRASH"  up
	symlink  "$TRASH/work"  work
	symlink  "$TRASH/outside/deep"  deep
	mkdir    sub
	[run]
	stat     out/canary
	stat     outfile
	readdir  out
	readdir  deep
	lstat    up
	readlink work
	EOF
	vfsbench -q --loops 2 --links-out -c out.load -D "$TRASH/work" 2 \
		>out 2>err &&
	test "$(unexpected_sum out)" -eq 0 &&
	test "$(op_count out stat)" = 8 &&
	test "$(cat "$TRASH/outside/canary")" = outside &&
	test "$(cat "$TRASH/outside/deep/file")" = deep &&
	test -f out.load &&
	canary_check &&
	workdir_empty
'

test_expect_success 'symlinks out, in a shared cwd with --depth 2' '
	canary_setup &&
	vfsbench -q --loops 2 --cwd shared --depth 2 --links-out -c out.load \
		-D "$TRASH/work" 3 >out 2>err &&
	test "$(unexpected_sum out)" -eq 0 &&
	test "$(cat "$TRASH/outside/canary")" = outside &&
	test "$(cat "$TRASH/outside/deep/file")" = deep &&
	canary_check &&
	workdir_empty
'

test_expect_success 'symlinks out, left by --skip-cleanup, still links' '
	canary_setup &&
	vfsbench -q --loops 1 --skip-cleanup --links-out -c out.load \
		-D "$TRASH/work" 1 >out 2>err &&
	wd=$(left_workdir) &&
	test -h "$wd/run0/clients/client0/out" &&
	test "$(readlink "$wd/run0/clients/client0/up")" = "$TRASH" &&
	canary_check &&
	remove_left &&
	workdir_empty &&
	test -f "$TRASH/outside/canary"
'

test_done
