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

# c.suite: b.suite in the reverse order, less rename-shared, with a
# workload of its own: pairing by position would set each workload
# against another.
test_expect_success 'compare pairs workload with workload by name, whatever the order, and says which are in one file only' '
	canary_setup &&
	grep -v "^rename-shared " b.suite | awk "{ l[NR] = \$0 } END { for (i = NR; i; i--) print l[i] }" >c.suite &&
	echo "extra  vc-stat-samefile.load  shared  1  one of c.suite alone" >>c.suite &&
	vfsbench suite ./c.suite -e null --loops 20 -q -D "$TRASH/work" \
		--json c.json 1 2 >out 2>err &&
	canary_check &&
	workdir_empty &&
	vfsbench compare a.json c.json >out 2>err &&
	cat >expect <<-\EOF &&
	Workloads paired by name across the files: 4 compared
	Workload stat-samefile
	# WARNING: NOT LIKE FOR LIKE: a:stat-samefile and c:stat-samefile differ in: cwd shared vs private
	Clients  a:stat-samefile c:stat-samefile
	1
	2
	Workload open-missing
	Clients  a:open-missing c:open-missing
	1
	2
	Workload creat-existing
	Clients  a:creat-existing c:creat-existing
	1
	2
	Workload create-unlink
	Clients  a:create-unlink c:create-unlink
	1
	2
	Workload rename-shared: only in '"'"'a.json'"'"', not compared
	Workload extra: only in '"'"'c.json'"'"', not compared
	EOF
	awk "/^(Workload|# WARNING)/ { print; next }
		/^Clients/ { print \$1 \"  \" \$2, \$3; next }
		/^ +[0-9]+  / { print \$1 }" out >actual &&
	test_cmp expect actual &&
	echo "warning: NOT LIKE FOR LIKE: '"'"'a.json'"'"' and '"'"'c.json'"'"' differ in: cwd shared vs private" >expect &&
	test_cmp expect err
'

# Three files: a workload that one of them lacks is compared in the
# other two, and the one that lacks it is named.
test_expect_success 'compare of three suite files: a workload in two of them is compared there, the third named' '
	vfsbench compare a.json b.json c.json >out 2>err &&
	test_grep "^Workloads paired by name across the files: 5 compared\$" out &&
	test_grep "^Workload rename-shared: not in '"'"'c.json'"'"'\$" out &&
	test_grep "^Workload extra: only in '"'"'c.json'"'"', not compared\$" out &&
	test_grep "^Clients  a:rename-shared  *b:rename-shared\$" out &&
	test_grep "^Clients  a:open-missing  *b:open-missing  *c:open-missing\$" out
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
