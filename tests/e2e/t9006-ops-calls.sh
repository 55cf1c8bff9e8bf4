#!/bin/sh
# shellcheck disable=SC2034
test_description='vfsbench-loadfile(5) says what each op calls, as --list-ops does'
# shellcheck disable=SC2154
. "$srcdir/tests/e2e/lib.sh"

# shellcheck disable=SC2154
MAN5="$abs_top_srcdir/doc/vfsbench-loadfile.5"

# man_entries: the OPERATIONS section of vfsbench-loadfile(5) as one line
# per op, "NAME<TAB>TEXT", roff escapes and font changes gone, and a
# reference written ".BR name (2)" joined to "name(2)".
man_entries() {
	sed -e 's/\\-/-/g' -e 's/\\f[BIRP1-4]//g' -e 's/\\[&%:|^]//g' \
		"$MAN5" |
	awk '
	/^\.SH/ { in_ops = ($0 ~ /OPERATIONS/); next }
	!in_ops { next }
	/^\.(TP|SS)/ { flush(); head = 1; next }
	head { split($0, w, " "); name = (w[1] ~ /^\./) ? w[2] : w[1]
	       gsub(/"/, "", name); head = 0; text = ""; next }
	name != "" {
		line = $0
		if (line ~ /^\.[A-Z]+ /) {
			sub(/^\.[A-Z]+ /, "", line)
			gsub(/ \(/, "(", line)
		}
		text = text " " line
	}
	function flush() { if (name != "") print name "\t" text; name = "" }
	END { flush() }'
}

# calls TEXT: every name(2) or name(3) of TEXT, one a line, sorted.
calls() {
	printf "%s\n" "$1" | grep -o "[a-z_0-9]*([23])" | sort -u
}

test_expect_success 'setup: the ops and their entries' '
	vfsbench --list-ops | awk "NF == 0 { exit } { print }" >list &&
	test "$(wc -l <list)" -ge 20 &&
	man_entries >man &&
	test "$(wc -l <man)" -ge 20
'

test_expect_success 'each op'"'"'s entry names every call --list-ops lists, and no other system call' '
	: >bad &&
	while read -r op listed; do
		entry=$(awk -F "	" -v op="$op" "\$1 == op { print \$2 }" man)
		if test -z "$entry"; then
			echo "$op: no entry in OPERATIONS" >>bad
			continue
		fi
		calls "$listed" >want
		calls "$entry" >have
		comm -23 want have | sed -e "s/^/$op: the man page lacks /" >>bad
		# the man page may name a library function (3) for context,
		# but every system call it says the op makes, the op makes
		comm -13 want have | grep "(2)\$" |
			sed -e "s/^/$op: --list-ops lacks /" >>bad
	done <list &&
	test_cmp /dev/null bad
'

test_expect_success 'no entry claims a raw system call that --list-ops does not' '
	: >bad &&
	while read -r op listed; do
		entry=$(awk -F "	" -v op="$op" "\$1 == op { print \$2 }" man)
		case $entry in
		*"not through the C library"* | *"The raw"* | *" raw "*)
			case $listed in
			*"raw syscall"*) ;;
			*) echo "$op: the man page says raw: $listed" >>bad ;;
			esac ;;
		esac
	done <list &&
	test_cmp /dev/null bad
'

test_expect_success 'the checks catch a drift: a planted wrong call is found' '
	sed -e "s/^\(statfs  *\)statfs(2)\$/\1fstatfs(2)/" list >planted &&
	! cmp -s list planted &&
	while read -r op listed; do
		entry=$(awk -F "	" -v op="$op" "\$1 == op { print \$2 }" man)
		calls "$listed" >want
		calls "$entry" >have
		comm -3 want have
	done <planted >diff &&
	test_grep "statfs(2)" diff
'

test_done
