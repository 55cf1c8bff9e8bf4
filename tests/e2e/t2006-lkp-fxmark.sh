#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='vfsbench suite --lines=fxmark as LKP'"'"'s fxmark parser reads it: every block read, its values as printed, its names those of --lines=lkp'
. "$srcdir/tests/e2e/lib.sh"

# lkp_parse: the rules of LKP's fxmark parser (intel/lkp-tests,
# programs/fxmark/parse, Ruby), written again in awk, as LKP's file is
# not ours to ship: a "## " line of media hdd, ssd, nvme or mem names a
# block (":" made "_") and its next to last ":" field is ncore (both kept
# until the next such line); after "# ncpu ..." the next line (the one
# after it when it is empty) is read, the block skipped unless its first
# field is ncore, and every field that begins with a digit stored under
# NAME.COLUMN ("." of a column made "_"), a later block of a name
# replacing the values of an earlier one, in the order first stored.
lkp_parse() {
	awk '
	/^## (hdd|ssd|nvme|mem)/ {
		name = substr($0, 4); gsub(/:/, "_", name)
		n = split($0, h, ":"); cpu = h[n - 1]; next
	}
	/^# ncpu/ {
		cols = substr($0, 3); gsub(/\./, "_", cols)
		nc = split(cols, c, " ")
		if ((getline d) <= 0) next
		if (d == "" && (getline d) <= 0) next
		split(d, v, " ")
		if (v[1] != cpu) next
		for (i = 1; i <= nc; i++) {
			if (v[i] !~ /^[0-9]/) continue
			k = name "." c[i]
			if (!(k in s)) order[++m] = k
			s[k] = v[i]
		}
	}
	END { for (i = 1; i <= m; i++) print order[i] ": " s[order[i]] }' "$@"
}

# in_tmpfs ARGS...: vfsbench ARGS with -D a tmpfs mounted on
# $TRASH/work/t in a private mount namespace (gone with it), which must
# be empty when vfsbench is done (status 9 if not).
in_tmpfs() {
	mkdir -p "$TRASH/work/t" &&
	unshare -m --propagation private sh -c '
		d=$1; shift
		mount -t tmpfs vfsbench-t2006 "$d" || exit 8
		"$@" -D "$d"; s=$?
		test -z "$(ls -A "$d")" || exit 9
		exit $s' sh "$TRASH/work/t" "$VFSBENCH" "$@" &&
	rmdir "$TRASH/work/t"
}

if unshare -m --propagation private sh -c \
	'mount -t tmpfs vfsbench-t2006 "$1" && umount "$1"' sh "$TRASH" \
	>/dev/null 2>&1; then
	have_tmpfs=t
else
	have_tmpfs=
fi

tmpfs_test() {
	if test -n "$have_tmpfs"; then
		test_expect_success "$1" "$2"
	else
		test_skip "$1" "needs root: unshare -m and a tmpfs mount"
	fi
}

# name works: from the index
sed 's/#.*//' "$LOADFILES/fxmark.suite" | awk 'NF { print $1, $4 }' >"$TRASH/works"

tmpfs_test 'on tmpfs: every block under media mem, four values each, works as counted' '
	canary_setup &&
	in_tmpfs suite fxmark -e null --loops 2 --lines=fxmark 1 2 >fx 2>err &&
	test ! -s err &&
	canary_check &&
	workdir_empty &&
	test "$(grep -c "^## " fx)" = 38 &&
	test "$(grep -c "^## mem:tmpfs:[A-Z]*:[12]:bufferedio\$" fx)" = 38 &&
	lkp_parse fx >parsed &&
	test "$(wc -l <parsed)" = 152 &&
	while read -r name works
	do
		for c in 1 2
		do
			b=mem_tmpfs_${name}_${c}_bufferedio &&
			test_grep "^$b\\.ncpu: $c\$" parsed &&
			test_grep "^$b\\.works: $((c * 2 * works))\\.000000\$" parsed &&
			test_grep "^$b\\.secs: [0-9]" parsed || return 1
		done
	done <"$TRASH/works"
'

tmpfs_test 'each value read is the one printed, works/sec the fourth column of its block' '
	awk "/^## / { n = substr(\$0, 4); gsub(/:/, \"_\", n); next }
		/^# ncpu/ { getline; print n \".works/sec: \" \$4 }" fx >expect &&
	grep "works/sec: " parsed >actual &&
	test_cmp expect actual
'

tmpfs_test '--lines=lkp: the names the parser gives, fxmark. before them' '
	canary_setup &&
	in_tmpfs suite fxmark -e null --loops 2 --lines=lkp 1 2 >lkp 2>err &&
	test ! -s err &&
	canary_check &&
	sed -n "s/^\\(fxmark\\.[^ ]*works\\/sec\\): .*/\\1/p" lkp >actual &&
	sed -n "s/^\\([^ ]*works\\/sec\\): .*/fxmark.\\1/p" parsed >expect &&
	test "$(wc -l <actual)" = 38 &&
	test_cmp expect actual
'

tmpfs_test 'with --runs 2 the parser keeps the last run of each block' '
	canary_setup &&
	in_tmpfs suite fxmark -e null --loops 1 --runs 2 --lines=fxmark 1 >fx2 2>err &&
	canary_check &&
	test "$(grep -c "^## mem:tmpfs:" fx2)" = 38 &&
	awk "/^## / { n = substr(\$0, 4); gsub(/:/, \"_\", n); next }
		/^# ncpu/ { getline; last[n] = \$4; if (!(n in seen)) o[++k] = n; seen[n] = 1 }
		END { for (i = 1; i <= k; i++) print o[i] \".works/sec: \" last[o[i]] }" fx2 >expect &&
	lkp_parse fx2 | grep "works/sec: " >actual &&
	test_cmp expect actual
'

# The parser itself, where LKP_SRC names an intel/lkp-tests checkout.
if test -n "$have_tmpfs" && command -v ruby >/dev/null 2>&1 &&
	test -f "${LKP_SRC:-/nonexistent}/programs/fxmark/parse"; then
	test_expect_success 'LKP'"'"'s parser (LKP_SRC) reads what the awk rules read' '
		ruby "$LKP_SRC/programs/fxmark/parse" <fx >real &&
		test_cmp parsed real &&
		ruby "$LKP_SRC/programs/fxmark/parse" <fx2 >real2 &&
		lkp_parse fx2 >parsed2 &&
		test_cmp parsed2 real2
	'
else
	test_skip 'LKP'"'"'s parser (LKP_SRC) reads what the awk rules read' 'set LKP_SRC to an intel/lkp-tests checkout, with ruby and a tmpfs'
fi

test_done
