#!/bin/sh
# shellcheck disable=SC2034
test_description='the man pages document every option and every op'
# shellcheck disable=SC2154
. "$srcdir/tests/e2e/lib.sh"

# shellcheck disable=SC2154
MAN1="$abs_top_srcdir/doc/vfsbench.1"
MAN5="$abs_top_srcdir/doc/vfsbench-loadfile.5"

# help_long_options: the long options of the option column of --help-all.
help_long_options() {
	vfsbench --help-all |
	sed -n 's/^ \{1,8\}\(-[a-zA-Z], \)\{0,1\}\(--[a-z][a-z0-9-]*\).*/\2/p' |
	sort -u
}

# dbench_help_long_options: the same of vfsbench dbench --help.
dbench_help_long_options() {
	vfsbench dbench --help |
	sed -n 's/^ \{1,8\}\(-., \)\{0,1\}\(--[a-z][a-z0-9-]*\).*/\2/p' |
	sort -u
}

# man1_main, man1_dbench: vfsbench.1 without its DBENCH PERSONALITY
# section (the options of vfsbench --help), and that section alone (the
# options of vfsbench dbench --help), cleaned.
man1_main() {
	roff_text "$MAN1" |
	awk '/^\.SH/ { skip = ($0 ~ /DBENCH PERSONALITY/) } !skip'
}

man1_dbench() {
	roff_text "$MAN1" |
	awk '/^\.SH/ { keep = ($0 ~ /DBENCH PERSONALITY/); next } keep'
}

# help_short_options: the short options of the option column of
# --help-all.
help_short_options() {
	vfsbench --help-all |
	sed -n 's/^ \{1,8\}\(-[a-zA-Z]\), --.*/\1/p' |
	sort -u
}

# operations_section FILE: the OPERATIONS section of a man page, cleaned.
operations_section() {
	roff_text "$1" |
	awk '/^\.SH/ { in_ops = ($0 ~ /OPERATIONS/); next } in_ops'
}

test_expect_success 'the man pages exist' '
	test -f "$MAN1" &&
	test -f "$MAN5"
'

test_expect_success 'vfsbench --help-all shows long options' '
	help_long_options >help &&
	test "$(wc -l <help)" -ge 20 &&
	test_grep "^--loops$" help &&
	test_grep "^--fs-struct$" help
'

test_expect_success 'vfsbench.1 is not empty' '
	test -s "$MAN1" &&
	test_grep "^\.TH " "$MAN1"
'

test_expect_success 'every option of --help-all is in vfsbench.1' '
	help_long_options >help &&
	test -s help &&
	man1_main | long_options >man &&
	comm -23 help man >missing &&
	if test -s missing
	then
		echo "options of --help-all missing from doc/vfsbench.1:" &&
		cat missing &&
		false
	fi
'

# The options of other programs that vfsbench.1 quotes: configure's and
# mpirun's (MANY HOSTS), perf record's --control (PROFILING), which
# --perf-ctl speaks to, unshare's (WORK DIRECTORY); and vfsbench clean's
# own, whose section is there (checked against its --help below).
foreign_options='--allow-run-as-root --bind-to --control --hostfile --mca --with-mpi
--pid --fork --mount-proc --assume-gone'

test_expect_success 'every option in vfsbench.1 is in --help-all' '
	{ help_long_options && printf "%s\n" $foreign_options; } | sort -u >help &&
	man1_main | long_options >man &&
	comm -13 help man >extra &&
	if test -s extra
	then
		echo "options of doc/vfsbench.1 that --help-all does not show:" &&
		cat extra &&
		false
	fi
'

test_expect_success 'vfsbench clean --help: its options, in vfsbench.1' '
	vfsbench clean --help >help &&
	sed -n "s/^ \{1,8\}\(-., \)\{0,1\}\(--[a-z][a-z0-9-]*\).*/\2/p" help |
		sort -u >opts &&
	test "$(tr "\n" " " <opts)" = "--assume-gone --directory --help " &&
	man1_main | long_options >man &&
	comm -23 opts man >missing &&
	test ! -s missing
'

test_expect_success 'DBENCH PERSONALITY has every option of vfsbench dbench --help, and no other' '
	dbench_help_long_options >help &&
	test "$(wc -l <help)" -ge 40 &&
	man1_dbench | long_options >man &&
	comm -3 help man >diff &&
	if test -s diff
	then
		echo "options only in vfsbench dbench --help, or (indented) only in DBENCH PERSONALITY:" &&
		cat diff &&
		false
	fi
'

test_expect_success 'every short option of --help-all is in vfsbench.1' '
	help_short_options >short &&
	test "$(wc -l <short)" -ge 5 &&
	roff_text "$MAN1" >man.txt &&
	while read -r o
	do
		awk -v o="$o" "
			{
				s = \" \" \$0 \" \"
				if (match(s, \"[^a-zA-Z0-9-]\" o \"[^a-zA-Z0-9-]\")) f = 1
			}
			END { exit !f }
		" man.txt || {
			echo "short option $o missing from doc/vfsbench.1"
			exit 1
		}
	done <short
'

test_expect_success 'every op of --list-ops is in vfsbench-loadfile.5' '
	vfsbench --list-ops | awk "NF == 0 { exit } { print \$1 }" >ops &&
	test "$(wc -l <ops)" -ge 20 &&
	operations_section "$MAN5" |
		sed -e "s/^\.[A-Z][A-Z]* *//" -e "s/\"//g" |
		awk "NF { print \$1 }" | sort -u >documented &&
	while read -r o
	do
		grep -x -e "$o" documented >/dev/null || {
			echo "op $o has no entry in OPERATIONS of doc/vfsbench-loadfile.5"
			exit 1
		}
	done <ops
'

test_expect_success 'every op documented in vfsbench-loadfile.5 exists' '
	vfsbench --list-ops | awk "NF == 0 { exit } { print \$1 }" | sort >ops &&
	operations_section "$MAN5" |
		awk "prev == \".TP\" { sub(/^\.[A-Z]+ */, \"\"); gsub(/\"/, \"\"); print \$1 } { prev = \$1 }" |
		sort >tags &&
	test -s tags &&
	comm -13 ops tags >extra &&
	if test -s extra
	then
		echo "entries of OPERATIONS that --list-ops does not list:" &&
		cat extra &&
		false
	fi
'

# vfsbench-record.1's OPTIONS: each option of record --help is the tag
# of a .TP paragraph (a tag that is not one runs into the paragraph
# above it).
test_expect_success 'every option of record --help is a .TP entry of vfsbench-record.1' '
	vfsbench record --help |
		sed -n "s/^ \{1,8\}\(-., \)\{0,1\}\(--[a-z][a-z0-9-]*\).*/\2/p" |
		sort -u >opts &&
	test "$(wc -l <opts)" -ge 8 &&
	roff_text "$abs_top_srcdir/doc/vfsbench-record.1" |
		awk "/^\.SH/ { t = (\$0 ~ /OPTIONS/); next }
			t && prev == \".TP\" { print } { prev = \$1 }" |
		long_options >tags &&
	comm -23 opts tags >missing &&
	if test -s missing
	then
		echo "options of record --help with no .TP entry:" &&
		cat missing &&
		false
	fi
'

test_done
