#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='every label is shown escaped: header, per-run and sweep lines, compare, plot'
. "$srcdir/tests/e2e/lib.sh"

# A loadfile name with a newline and an escape sequence, and its label as
# every line shows it (base/escape.c: control bytes as \xNN).
NAME=$(printf 'a\nb\033[31m.load')
SHOWN='a\x0ab\x1b[31m'
ESC=$(printf '\033')

# no_raw FILE...: no ESC byte and no line that starts with the label's
# second half (where a raw newline would have split it).
no_raw() {
	for f in "$@"; do
		if grep -e "$ESC" -e "^b" "$f" >/dev/null; then
			say "raw bytes in $f:" >&2
			cat -A "$f" >&2
			return 1
		fi
	done
}

test_expect_success 'setup' '
	canary_setup &&
	printf "[run]\nstat .\n" >"$NAME" &&
	printf "[run]\nstat .\n" >plain.load
'

test_expect_success 'a run of two variants: the label is escaped in every line' '
	vfsbench -e null -c "$NAME" -c plain.load --loops 3 -D "$TRASH/work" \
		1 2 --json r.json >out 2>err &&
	no_raw out err &&
	test_grep "^  $(printf "%s" "$SHOWN" | sed "s/[][\\\\]/\\\\&/g"):\$" out &&
	grep -F -x "    loadfile $SHOWN.load: 1 ops, 0 in [setup]" out &&
	grep -F "$SHOWN, 1 client: 3 ops in " out &&
	grep -F "$SHOWN, 2 clients: 6 ops in " out &&
	grep -F -x "Sweep of $SHOWN: relative to 1 client, by ops/s" out &&
	grep -F "Variants, each against $SHOWN (as vfsbench compare prints them):" out &&
	test "$(jq -r ".variants[0].label" r.json)" = "$SHOWN" &&
	canary_check && workdir_empty
'

test_expect_success 'compare: labels from result files and their names, escaped' '
	vfsbench -e null -c plain.load --loops 3 -D "$TRASH/work" 1 2 \
		--json p.json >/dev/null 2>&1 &&
	cp r.json "$(printf "x\ny\033.json")" &&
	vfsbench compare p.json "$(printf "x\ny\033.json")" >cmp 2>err &&
	no_raw cmp err &&
	grep -F "Clients  p " cmp >head &&
	grep -F "$SHOWN" head &&
	grep -F "plain" head &&
	jq ".variants = [.variants[0]] | .runs |= map(select(.variant == 0))" \
		r.json >"$(printf "one\033.json")" &&
	vfsbench compare p.json "$(printf "one\033.json")" >cmp1 2>err1 &&
	no_raw cmp1 err1 &&
	grep -F "Clients  p  " cmp1 | grep -F "one\\x1b" &&
	canary_check
'

if command -v gnuplot >/dev/null 2>&1; then
	test_expect_success 'plot: the titles are escaped' '
		vfsbench plot p.json "$(printf "x\ny\033.json")" -o c.svg \
			>out 2>err &&
		no_raw out err c.svg &&
		grep -F "$SHOWN" c.svg
	'
else
	test_skip 'plot: the titles are escaped' 'gnuplot not installed (apt-get install gnuplot-nox)'
fi

test_done
