#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='golden outputs: the text report, JSON, CSV and compare keep their shape and counts'
. "$srcdir/tests/e2e/lib.sh"

# The outputs of a few null-engine --loops runs, a dbench loadfile's
# parse and a comparison of two fixed result files, with what depends on
# timing masked (tests/e2e/golden.awk, golden.jq), must equal the files in
# tests/data/golden/. They were recorded before src/ was split into its
# layer folders; a change of behaviour changes them in the same commit.
# VB_GOLDEN_UPDATE=1 rewrites them instead of comparing.
GOLDEN="$TEST_DATA/golden"

if ! command -v jq >/dev/null 2>&1; then
	test_skip_all "jq is not installed"
fi

# golden NAME FILE: FILE equals tests/data/golden/NAME
golden() {
	if test -n "${VB_GOLDEN_UPDATE:-}"; then
		cp "$2" "$GOLDEN/$1"
	else
		test_cmp "$GOLDEN/$1" "$2"
	fi
}

text_shape() {
	awk -f "$abs_top_srcdir/tests/e2e/golden.awk" "$1"
}

json_shape() {
	jq -S -f "$abs_top_srcdir/tests/e2e/golden.jq" "$1"
}

# run,clients,repeat,end,op,count and unexpected
csv_shape() {
	cut -d, -f1-6,14 "$1"
}

test_expect_success 'setup' '
	canary_setup &&
	cp "$TEST_DATA/dbench-sample.txt" sample.txt
'

test_expect_success 'mixed.load, 1 and 2 clients: text, JSON and CSV' '
	vfsbench -q -e null --loops 3 -D work -c mixed.load 1 2 \
		--json mixed.json --csv mixed.csv >out &&
	text_shape out >shape && golden mixed.txt shape &&
	json_shape mixed.json >shape && golden mixed.json shape &&
	csv_shape mixed.csv >shape && golden mixed.csv shape &&
	canary_check && workdir_empty
'

test_expect_success 'default.load, shared cwd, warmup by passes, 2 runs' '
	vfsbench -q -e null --loops 2 --warmup 1p --cwd shared --runs 2 \
		-D work 1 3 --json shared.json >out &&
	text_shape out >shape && golden shared.txt shape &&
	json_shape shared.json >shape && golden shared.json shape &&
	canary_check && workdir_empty
'

test_expect_success 'unexpected results by errno' '
	vfsbench -q -e null --loops 2 --null-fail stat:ENOENT -D work \
		--runs 2 2 --csv fail.csv >out &&
	text_shape out >shape && golden fail.txt shape &&
	csv_shape fail.csv >shape && golden fail.csv shape &&
	canary_check && workdir_empty
'

test_expect_success 'a dbench loadfile: both tables and the JSON' '
	vfsbench -q -e null --loops 1 -D work -c sample.txt 1 \
		--json sample.json >out &&
	text_shape out >shape && golden sample.txt shape &&
	json_shape sample.json >shape && golden sample.json shape &&
	canary_check && workdir_empty
'

if test -f /usr/share/dbench/client.txt; then
	test_expect_success "dbench's client.txt: every op kind counted" '
		vfsbench -q -e null --loops 1 -D work \
			-c /usr/share/dbench/client.txt 2 >out &&
		text_shape out >shape && golden clienttxt.txt shape &&
		canary_check && workdir_empty
	'
else
	test_skip "dbench's client.txt" "/usr/share/dbench/client.txt is missing (Debian's dbench package)"
fi

test_expect_success 'compare of two fixed result files' '
	vfsbench compare "$GOLDEN/a.json" "$GOLDEN/b.json" >out &&
	golden compare.txt out &&
	vfsbench compare --metric p99 "$GOLDEN/a.json" "$GOLDEN/b.json" >out &&
	golden compare-p99.txt out &&
	vfsbench compare --test welch -p "$GOLDEN/a.json" "$GOLDEN/b.json" >out &&
	golden compare-welch.txt out
'

test_expect_success '--list-ops and --list-loadfiles' '
	vfsbench --list-ops >out && golden list-ops.txt out &&
	vfsbench --list-loadfiles >out && golden list-loadfiles.txt out
'

test_done
