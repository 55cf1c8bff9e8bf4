#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='help: -h shows the common options, --help-all every option of the table, every help fits 80 columns'
. "$srcdir/tests/e2e/lib.sh"

SQ="'"

# widest FILE: the length of FILE's longest line, in characters.
widest() {
	LC_ALL=C.UTF-8 awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$1"
}

# every_help COLUMNS: each help of every command, with COLUMNS set to it
# ("unset": not set), into help.NAME.
every_help() {
	if [ "$1" = unset ]; then
		set -- env -u COLUMNS
	else
		set -- env COLUMNS="$1"
	fi
	"$@" "$VFSBENCH" -h >help.short &&
	"$@" "$VFSBENCH" --help >help.long &&
	"$@" "$VFSBENCH" --help-all >help.all &&
	"$@" "$VFSBENCH" --usage >help.usage &&
	for sub in compare plot fdscale dbench suite record clean; do
		"$@" "$VFSBENCH" "$sub" --help >"help.$sub" || return 1
	done &&
	"$@" "$VFSBENCH" -h compare >help.hcompare &&
	"$@" "$VFSBENCH" dbench -? >help.dbench2
}

# The long options of the main popt table, read from the source, one a
# line, sorted: what --help-all must show.
table_options() {
	awk '/^static const struct/ { t = 0 }
	     /main_options$/ || /main_options\[\]/ { t = 1 }
	     t && /POPT_TABLEEND/ { t = 0 }
	     t { while (match($0, /\{ "[a-z][a-z0-9-]*"/)) {
			print substr($0, RSTART + 3, RLENGTH - 4)
			$0 = substr($0, RSTART + RLENGTH) } }' \
		"$abs_top_srcdir/src/cli/options.c" | LC_ALL=C sort -u
}

# help_long FILE: the long options of FILE's option column, sorted.
help_long() {
	sed -n 's/^ \{1,8\}\(-[a-zA-Z?], \)\{0,1\}--\([a-z][a-z0-9-]*\).*/\2/p' "$1" |
		LC_ALL=C sort -u
}

test_expect_success 'every help fits 80 columns, whatever COLUMNS says' '
	for c in unset 20 40 80 132 1000; do
		every_help $c || return 1
		for f in help.*; do
			w=$(widest $f) &&
			if [ "$w" -gt 80 ]; then
				echo "COLUMNS=$c: $f has a line of $w characters" &&
				return 1
			fi || return 1
		done
	done
'

test_expect_success 'the same help at every COLUMNS' '
	every_help unset &&
	mkdir unset && cp help.* unset/ &&
	every_help 40 &&
	for f in help.*; do
		test_cmp "unset/$f" "$f" || return 1
	done
'

test_expect_success 'the table has the options the help is checked against' '
	table_options >table &&
	test "$(wc -l <table)" -ge 50 &&
	test_grep "^loadfile$" table &&
	test_grep "^help-all$" table &&
	test_grep "^exec-after$" table
'

test_expect_success 'every option of the table is in --help-all, and no other' '
	table_options >table &&
	vfsbench --help-all >all &&
	help_long all >shown &&
	test_cmp table shown
'

test_expect_success '-h and --help: the common options, and where the rest are' '
	vfsbench -h >short &&
	vfsbench --help >long &&
	test_cmp short long &&
	help_long short >shown &&
	cat >expect <<-\EOF &&
	csv
	directory
	engine
	help
	help-all
	json
	list-loadfiles
	list-ops
	loadfile
	loops
	placement
	quiet
	runs
	time
	variant
	version
	warmup
	EOF
	test_cmp expect shown &&
	test_grep "^Usage: vfsbench \[OPTIONS\] CLIENTS\.\.\.$" short &&
	test_grep "^These are the common options: vfsbench --help-all lists all of them,$" short &&
	test_grep "^and vfsbench(1) describes each one\.$" short &&
	vfsbench --help-all >all &&
	test "$(wc -l <short)" -lt 60 &&
	test "$(wc -l <all)" -gt "$(($(wc -l <short) * 2))"
'

test_expect_success 'a description too wide for its column is wrapped, not cut' '
	vfsbench --help-all >all &&
	tr -s " \n" "  " <all >flat &&
	test_grep "run each value as a variant, interleaved: engine, cwd, fs-struct, fd-table, depth, prefix, resolve, dialect, fsinfo, placement, dcache, uring-depth or uring-fixed, e.g. depth=0,3 (repeatable)" flat &&
	test_grep "^      --variant=OPTION=V1,V2,\.\.\.$" all &&
	test_grep "^  -c, --loadfile=FILE  *loadfile: a path, or the name of a built-in one$" all
'

test_expect_success 'subcommands: their usage line, every option' '
	vfsbench compare --help >c &&
	test_grep "^Usage: vfsbench compare A\.json \[B\.json\.\.\.\] | A1\.json\.\.\. -- B1\.json\.\.\. \[--$" c &&
	test_grep "^       C1\.json\.\.\.\]$" c &&
	test_grep "^  -m, --metric=ops|mbps|p99 " c &&
	vfsbench dbench --help >d &&
	test_grep "^Usage: dbench \[OPTION\.\.\.\] NPROCS$" d &&
	test_grep "^  -t, --timelimit=integer " d &&
	test_grep "^  -?, --help " d
'

# The names in the source: the subcommands options.c dispatches, the
# options --variant may vary (variantopts.c's table).
source_words() {
	awk -v from="$2" '
		index($0, from) { t = 1 }
		t { while (match($0, /"[a-z][a-z-]*"/)) {
			print substr($0, RSTART + 1, RLENGTH - 2)
			$0 = substr($0, RSTART + RLENGTH) } }
		t && /;/ { exit }' "$abs_top_srcdir/src/cli/$1" | LC_ALL=C sort -u
}

test_expect_success '-h names every subcommand' '
	source_words options.c "subcommands[] =" >expect &&
	test "$(wc -l <expect)" = 8 &&
	vfsbench -h >short &&
	sed -n "/^Subcommands:/,\$p" short | tr -s " \n" "  " >flat &&
	test_grep "^Subcommands: vfsbench \[-q|-V|-h\] SUBCOMMAND \[OPTIONS\] \.\.\.: compare, plot, fdscale, suite, record, kernels, dbench or clean (vfsbench SUBCOMMAND --help lists each one${SQ}s options)\. \$" flat &&
	while read -r sub; do
		grep -q " $sub[,) ]" flat || { echo "missing: $sub"; return 1; }
	done <expect
'

test_expect_success '--variant names every option it may vary' '
	source_words variantopts.c "} variable[] = {" >expect &&
	test "$(wc -l <expect)" = 13 &&
	vfsbench --help-all | tr -s " \n" "  " |
		sed -n "s/.*a variant, interleaved: \([a-z, -]*\) or \([a-z-]*\), e\.g\..*/\1, \2/p" |
		tr -s ", " "\n" | LC_ALL=C sort -u >shown &&
	test_cmp expect shown
'

test_expect_success 'record --help: within 80 columns, its usage names every option' '
	vfsbench record --help >r &&
	test "$(widest r)" -le 80 &&
	cat >expect <<-\EOF &&
	Usage: vfsbench record [-o FILE.load] [--root DIR] [--force] [--with-data]
	       [--tasks-as-clients] [--keep-outside] -- CMD [ARGS...]
	       vfsbench record [OPTIONS] --from-trace LOG
	EOF
	head -n 3 r >usage &&
	test_cmp expect usage &&
	help_long r >shown &&
	for o in $(cat shown); do
		case $o in help|output|from-trace) continue ;; esac
		grep -q -- "--$o\b" usage || { echo "not in the usage: $o"; return 1; }
	done
'

test_done
