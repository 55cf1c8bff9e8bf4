#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='the layering check: src/ folders include and call only downward, no loops'
. "$srcdir/tests/e2e/lib.sh"

CHECK="$abs_top_srcdir/tools/check-layers.sh"

# A copy of src/ to break on purpose (only the sources, never the tree).
copy_src() {
	rm -rf src && mkdir src &&
	(cd "$abs_top_srcdir/src" && tar cf - ./*/*.[ch]) | (cd src && tar xf -)
}

test_expect_success 'the tree: every include goes to an allowed folder, no loops' '
	sh "$CHECK" "$abs_top_srcdir/src" >out 2>&1 &&
	test ! -s out
'

test_expect_success 'the built objects: every call goes to an allowed folder, no loops' '
	sh "$CHECK" --objects "$abs_top_builddir/src" >out 2>&1 &&
	test ! -s out
'

test_expect_success 'an upward include fails, naming file, line and rule' '
	copy_src &&
	sed "/^#include \"stats\/result.h\"/a #include \"report/report.h\"" \
		src/stats/result.c >tmp && mv tmp src/stats/result.c &&
	line=$(grep -n "report/report.h" src/stats/result.c | cut -d: -f1) &&
	test_expect_code 1 sh "$CHECK" src >out &&
	echo "src/stats/result.c:$line: includes report/report.h: stats/ may not use report/ (stats/ may use: base)" >expect &&
	test_cmp expect out
'

test_expect_success 'an include of a sibling folder not in the table fails' '
	copy_src &&
	printf "#include \"compare/compare.h\"\n" >>src/run/sweep.h &&
	test_expect_code 1 sh "$CHECK" src >out &&
	test_grep "^src/run/sweep.h:[0-9]*: includes compare/compare.h: run/ may not use compare/" out
'

# Nothing reaches gate.h but through state.h: the include closes one loop.
# (One into client.h, which run.h reaches through several files, closes
# several, and how many are named depends on awk's order.)
test_expect_success 'a loop between two files of one folder fails, naming the loop' '
	copy_src &&
	printf "#include \"run/state.h\"\n" >>src/run/gate.h &&
	test_expect_code 1 sh "$CHECK" src >out &&
	test_grep "^loop: .*run/gate -> run/state\|^loop: .*run/state -> run/gate" out &&
	test "$(wc -l <out)" -eq 1
'

test_expect_success 'an include without its folder, and one of a missing header, fail' '
	copy_src &&
	printf "#include \"hist.h\"\n#include \"stats/nothere.h\"\n" >>src/stats/summary.c &&
	test_expect_code 1 sh "$CHECK" src >out &&
	test_grep "src/stats/summary.c:[0-9]*: include \"hist.h\" does not name its folder" out &&
	test_grep "src/stats/summary.c:[0-9]*: include \"stats/nothere.h\": no such header" out
'

test_expect_success 'a folder the table does not know fails' '
	copy_src &&
	mkdir src/misc && printf "int x;\n" >src/misc/x.c &&
	test_expect_code 1 sh "$CHECK" src >out &&
	test_grep "src/misc/x.c: folder misc/ is not in the layer table" out
'

test_expect_success 'an upward call between objects fails, naming object and symbol' '
	mkdir -p objs/stats objs/report &&
	printf "void report_thing(void);\nvoid report_thing(void) {}\n" >objs/report/a.c &&
	printf "void report_thing(void);\nvoid use(void);\nvoid use(void) { report_thing(); }\n" >objs/stats/b.c &&
	cc -c -o objs/report/lib-a.o objs/report/a.c &&
	cc -c -o objs/stats/lib-b.o objs/stats/b.c &&
	test_expect_code 1 sh "$CHECK" --objects objs >out &&
	echo "objs/stats/lib-b.o: calls report_thing(): stats/ may not use report/ (stats/ may use: base)" >expect &&
	test_cmp expect out
'

test_expect_success 'a call loop between objects fails' '
	rm -rf objs && mkdir -p objs/run &&
	printf "void b(void);\nvoid a(void);\nvoid a(void) { b(); }\n" >objs/run/x.c &&
	printf "void a(void);\nvoid b(void);\nvoid b(void) { a(); }\n" >objs/run/y.c &&
	cc -c -o objs/run/lib-x.o objs/run/x.c &&
	cc -c -o objs/run/lib-y.o objs/run/y.c &&
	test_expect_code 1 sh "$CHECK" --objects objs >out &&
	test_grep "^loop: run/[xy] -> run/[xy] -> run/[xy] (objs/run/lib-[xy].o: calls [ab]())" out
'

test_expect_success 'bad use: exit 2' '
	test_expect_code 2 sh "$CHECK" no-such-dir &&
	test_expect_code 2 sh "$CHECK" --objects
'

test_done
