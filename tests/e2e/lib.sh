# shellcheck shell=sh
# A small TAP test library in the style of git's test-lib.sh.
#
# A test script sets test_description, sources this file, then lists
#   test_expect_success 'title' 'body'
# and ends with test_done. Each script runs in its own trash directory
# under $TMPDIR; bodies run there, &&-chained. Helpers:
#   vfsbench ARGS...        the built binary
#   test_expect_code N CMD  CMD exits with status N
#   test_must_fail CMD      CMD exits with 1..125 (not a crash)
#   test_cmp EXPECT ACTUAL  files equal (diff shown on failure)
#   test_grep PATTERN FILE  grep -e PATTERN FILE, with the file shown on failure
#   test_skip_all REASON    skip the whole script
#   canary_setup / canary_check   a file beside the work directory that
#                           must survive every run (see DEVELOPERS.md)
#   op_count FILE OP        the Count column of OP in a report
# Run a script with -v to see the commands' output.

: "${abs_top_builddir:?run through make check}"
: "${abs_top_srcdir:?run through make check}"

VFSBENCH="$abs_top_builddir/src/vfsbench"
LOADFILES="$abs_top_srcdir/loadfiles"
TEST_DATA="$abs_top_srcdir/tests/data"
export VFSBENCH LOADFILES TEST_DATA

test_count=0
test_failed=0
verbose=
case "$1" in -v | --verbose) verbose=t ;; esac

test_name=$(basename "$0" .sh)
TRASH=$(mktemp -d "${TMPDIR:-/tmp}/vb-$test_name.XXXXXX") || exit 1
# shellcheck disable=SC2064
trap "cd /; rm -rf '$TRASH'" EXIT
cd "$TRASH" || exit 1

vfsbench() {
	"$VFSBENCH" "$@"
}

say() {
	printf '%s\n' "$*"
}

test_expect_success() {
	test_count=$((test_count + 1))
	if [ -n "$verbose" ]; then
		(eval "$2")
	else
		(eval "$2") >"$TRASH/.out" 2>&1
	fi
	if [ $? -eq 0 ]; then
		say "ok $test_count - $1"
	else
		test_failed=$((test_failed + 1))
		say "not ok $test_count - $1"
		printf '%s\n' "$2" | sed -e 's/^/#   /'
		[ -f "$TRASH/.out" ] && sed -e 's/^/#> /' "$TRASH/.out"
	fi
	rm -f "$TRASH/.out"
}

test_skip() {
	test_count=$((test_count + 1))
	say "ok $test_count # SKIP $1 ($2)"
}

test_skip_all() {
	say "1..0 # SKIP $1"
	exit 0
}

test_done() {
	say "1..$test_count"
	[ "$test_failed" -eq 0 ]
}

test_expect_code() {
	want=$1
	shift
	"$@"
	got=$?
	if [ "$got" -ne "$want" ]; then
		say "expected exit $want, got $got: $*" >&2
		return 1
	fi
}

test_must_fail() {
	"$@"
	got=$?
	if [ "$got" -eq 0 ] || [ "$got" -gt 125 ]; then
		say "expected a failure (1..125), got $got: $*" >&2
		return 1
	fi
}

test_cmp() {
	diff -u "$1" "$2"
}

test_grep() {
	if ! grep -e "$1" "$2" >/dev/null; then
		say "no match for '$1' in $2:" >&2
		cat "$2" >&2
		return 1
	fi
}

# The canary: a file beside the work directory; every run must leave it.
canary_setup() {
	mkdir -p "$TRASH/work" &&
	printf 'canary %s\n' "$test_name" >"$TRASH/canary" &&
	printf 'inner canary\n' >"$TRASH/work/canary"
}

canary_check() {
	test -f "$TRASH/canary" &&
	test "$(cat "$TRASH/canary")" = "canary $test_name" &&
	test -f "$TRASH/work/canary" &&
	test "$(cat "$TRASH/work/canary")" = "inner canary"
}

# Nothing of vfsbench's is left in the work directory after a run.
workdir_empty() {
	test "$(find "$TRASH/work" -mindepth 1 ! -name canary | wc -l)" -eq 0
}

# The Count column of an op in a report (the last run's table).
op_count() {
	awk -v op="$2" '$1 == "Operation" { n = "" } $1 == op { n = $2 } END { print n }' "$1"
}
