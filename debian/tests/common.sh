# Sourced by the tests of debian/tests/control (POSIX sh, set -eu): a work
# directory under $AUTOPKGTEST_TMP with a canary beside it and one inside
# it, which every run must leave as they were, and helpers.
tmp=${AUTOPKGTEST_TMP:?not run by autopkgtest}
cd "$tmp" || exit 1
mkdir -p work
printf 'canary beside\n' >canary
printf 'canary inside\n' >work/canary

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# The canaries are intact and vfsbench left nothing in the work directory.
canary_check() {
	[ "$(cat canary)" = "canary beside" ] || fail "canary beside work/ changed"
	[ "$(cat work/canary)" = "canary inside" ] || fail "canary in work/ changed"
	[ "$(ls -A work)" = canary ] || fail "left in work/: $(ls -A work)"
}

# A loadfile of two ops per pass, both of which succeed in an empty client
# directory.
cat >two.load <<'LOAD'
[run]
stat .
statfs .
LOAD
