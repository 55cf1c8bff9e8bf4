#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='vfsbench compare and plot read suite files like any other: a planted change of one workload is marked'
. "$srcdir/tests/e2e/lib.sh"

# The first file: suite vfs-commits as shipped; the second: the same
# index but for one workload, stat-samefile, run with --cwd private.
test_expect_success 'setup: two suite files, one workload planted in the second' '
	canary_setup &&
	sed "s/#.*//" "$LOADFILES/vfs-commits.suite" | awk NF >a.suite &&
	sed "s/^\\(stat-samefile  *[^ ]*  *\\)shared/\\1private/" a.suite >b.suite &&
	test "$(diff a.suite b.suite | grep -c "^[<>]")" = 2 &&
	vfsbench suite ./a.suite -e null --loops 20 -q -D "$TRASH/work" \
		--json a.json 1 2 >out 2>err &&
	vfsbench suite ./b.suite -e null --loops 20 -q -D "$TRASH/work" \
		--json b.json 1 2 >out 2>err &&
	canary_check &&
	workdir_empty
'

test_expect_success 'compare: one variant per workload in each file, and the planted workload, alone, marked not like for like' '
	vfsbench compare a.json b.json >out 2>err &&
	echo "warning: NOT LIKE FOR LIKE: '"'"'a.json'"'"' and '"'"'b.json'"'"' differ in: cwd shared vs private" >expect &&
	test_cmp expect err &&
	grep "^# WARNING: NOT LIKE FOR LIKE" out >warn &&
	echo "# WARNING: NOT LIKE FOR LIKE: a:stat-samefile and b:stat-samefile differ in: cwd shared vs private" >expect &&
	test_cmp expect warn &&
	for w in stat-samefile open-missing creat-existing create-unlink rename-shared
	do
		test_grep "^Clients .*a:$w .*b:$w" out || return 1
	done
'

test_expect_success 'compare of a suite file with itself: no warning' '
	vfsbench compare a.json a.json >out 2>err &&
	test ! -s err &&
	! grep -q "NOT LIKE FOR LIKE" out
'

if command -v gnuplot >/dev/null 2>&1; then
	test_expect_success 'plot: a chart of a suite file, every workload in it' '
		vfsbench plot a.json -o c.svg &&
		for w in stat-samefile open-missing creat-existing create-unlink rename-shared
		do
			grep -q "$w" c.svg || return 1
		done
	'
else
	test_skip 'plot: a chart of a suite file' 'gnuplot not installed (apt-get install gnuplot-nox)'
fi

test_done
