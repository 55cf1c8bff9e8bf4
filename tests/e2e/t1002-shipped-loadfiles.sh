#!/bin/sh
# shellcheck disable=SC2034
test_description='the shipped loadfiles parse, run cleanly and stay in sync'
# shellcheck disable=SC2154
. "$srcdir/tests/e2e/lib.sh"

# The fifteen loadfiles shipped with vfsbench; the last four recorded
# (t1005-recordings.sh).
SHIPPED='default statfs statvfs statvfs_legacy pathwalk create-unlink mixed
mrpl mrpm mrph neglookup git-status find ls-lR make-stat'

# expected_table LOADFILE CLIENTS LOOPS: "op count" for each op kind of the
# [run] section, in order of first use, count = CLIENTS * LOOPS * lines.
# Good enough for the shipped files: no quotes, '#' starts a comment.
expected_table() {
	awk -v m="$(($2 * $3))" '
		{ sub(/#.*/, "") }
		NF == 0 { next }
		$1 == "[setup]" { setup = 1; next }
		$1 == "[run]" { setup = 0; next }
		setup { next }
		!($1 in n) { order[++k] = $1 }
		{ n[$1]++ }
		END { for (i = 1; i <= k; i++) print order[i], n[order[i]] * m }
	' "$1"
}

# section_ops LOADFILE SECTION: the number of op lines in [setup] or [run].
section_ops() {
	awk -v want="$2" '
		{ sub(/#.*/, "") }
		NF == 0 { next }
		$1 == "[setup]" { s = "setup"; next }
		$1 == "[run]" { s = "run"; next }
		(s == "" ? "run" : s) == want { n++ }
		END { print n + 0 }
	' "$1"
}

# actual_table REPORT: "op count" for each row of the last per-op table.
actual_table() {
	awk '$1 == "Operation" { t = 1; n = 0; next }
	     /^(Unexpected|Total:)/ { t = 0 }
	     t && NF >= 9 { row[++n] = $1 " " $2 }
	     END { for (i = 1; i <= n; i++) print row[i] }' "$1"
}


# clean_report REPORT: exit 0 was checked by the caller; no unexpected
# result anywhere in the report.
clean_report() {
	test "$(unexpected_total "$1")" = 0 &&
	! grep "^Unexpected results" "$1" &&
	! grep "^note: " "$1"
}

# The suites' indexes name the others (t2005-suites.sh runs them).
test_expect_success 'exactly the fifteen loadfiles and those of the suites are shipped' '
	(cd "$LOADFILES" && ls -- *.load) >actual &&
	{
		for l in $SHIPPED; do echo "$l.load"; done &&
		sed "s/#.*//" "$LOADFILES"/*.suite | awk "NF { print \$2 }"
	} | sort -u >expect &&
	test_cmp expect actual &&
	(cd "$LOADFILES" && ls -- *.suite) >actual &&
	printf "%s\n" fxmark.suite vfs-commits.suite wis.suite >expect &&
	test_cmp expect actual
'

for l in $SHIPPED
do
	test_expect_success "$l.load starts with a # comment line" '
		head -n 1 "$LOADFILES/$l.load" >first &&
		test_grep "^# ." first
	'
done

for l in $SHIPPED
do
	test_expect_success "$l.load parses and runs with the null engine" '
		canary_setup &&
		f="$LOADFILES/$l.load" &&
		vfsbench -c "$f" -e null --loops 2 -q -D "$TRASH/work" 1 2 \
			>out 2>err &&
		test ! -s err &&
		clean_report out &&
		r=$(section_ops "$f" run) &&
		s=$(section_ops "$f" setup) &&
		test "$r" -gt 0 &&
		test_grep "^vfsbench .*  loadfile $f: $r ops, $s in \[setup\]$" out &&
		test_grep "^1 client: $((2 * r)) ops in " out &&
		test_grep "^2 clients: $((4 * r)) ops in " out &&
		test_grep "(2 passes, " out &&
		test_grep "(4 passes, " out &&
		expected_table "$f" 2 2 >expect &&
		actual_table out >actual &&
		test_cmp expect actual &&
		canary_check &&
		workdir_empty
	'
done

for l in $SHIPPED
do
	test_expect_success "$l is built in, with and without .load" '
		canary_setup &&
		f="$LOADFILES/$l.load" &&
		r=$(section_ops "$f" run) &&
		s=$(section_ops "$f" setup) &&
		vfsbench -c "$l" -e null --loops 1 -q -D "$TRASH/work" 1 >out &&
		test_grep "^vfsbench .*  loadfile $l.load (built-in): $r ops, $s in \[setup\]$" out &&
		expected_table "$f" 1 1 >expect &&
		actual_table out >actual &&
		test_cmp expect actual &&
		vfsbench -c "$l.load" -e null --loops 1 -q -D "$TRASH/work" 1 >out2 &&
		test_grep "^vfsbench .*  loadfile $l.load (built-in): $r ops, $s in \[setup\]$" out2 &&
		canary_check &&
		workdir_empty
	'
done

# diff_one_op A B OPA OPB: files A and B, comments aside (each says what
# it is in its first sentence), differ in exactly one line, which
# is "OPA rest" in A and "OPB rest" in B with the same rest.
diff_one_op() {
	grep -v "^#" "$1" >one &&
	grep -v "^#" "$2" >two &&
	diff one two >d
	test $? -eq 1 &&
	grep "^<" d | sed "s/^< //" >a &&
	grep "^>" d | sed "s/^> //" >b &&
	test "$(wc -l <a)" -eq 1 &&
	test "$(wc -l <b)" -eq 1 &&
	test "$(awk "{ print \$1 }" a)" = "$3" &&
	test "$(awk "{ print \$1 }" b)" = "$4" &&
	sed "s/^[a-z_]*//" a >a.rest &&
	sed "s/^[a-z_]*//" b >b.rest &&
	test_cmp a.rest b.rest
}

test_expect_success 'statfs.load and statvfs.load differ only in the op name' '
	diff_one_op "$LOADFILES/statfs.load" "$LOADFILES/statvfs.load" \
		statfs statvfs
'

test_expect_success 'statfs.load and statvfs_legacy.load differ only in the op name' '
	diff_one_op "$LOADFILES/statfs.load" "$LOADFILES/statvfs_legacy.load" \
		statfs statvfs_legacy
'

test_expect_success 'statvfs.load and statvfs_legacy.load differ only in the op name' '
	diff_one_op "$LOADFILES/statvfs.load" "$LOADFILES/statvfs_legacy.load" \
		statvfs statvfs_legacy
'

for l in $SHIPPED
do
	for mode in private shared
	do
		test_expect_success "$l.load runs with the posix engine, --cwd $mode" '
			canary_setup &&
			f="$LOADFILES/$l.load" &&
			vfsbench -c "$f" -e posix --cwd "$mode" --loops 3 -q \
				-D "$TRASH/work" 2 >out 2>err &&
			test ! -s err &&
			clean_report out &&
			test_grep "^engine posix  cwd $mode  fs_struct $mode  " out &&
			test_grep "^2 clients: " out &&
			test_grep "(6 passes, " out &&
			expected_table "$f" 2 3 >expect &&
			actual_table out >actual &&
			test_cmp expect actual &&
			canary_check &&
			workdir_empty
		'
	done
done

test_done
