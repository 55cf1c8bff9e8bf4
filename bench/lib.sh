# SPDX-License-Identifier: GPL-2.0-or-later
#
# What the scripts of bench/ share. Sourced, after the script has set
# here (its own directory):
#     here=$(cd "$(dirname "$0")" && pwd)
#     . "$here/lib.sh"

# The vfsbench to run: $VFSBENCH when set; else the first executable of
# the tree's builds, in this order: build-gcc (tools/test.sh's),
# build-perf, build, then an in-tree build's src/; else the one on PATH.
# Prints nothing when there is none: the caller says so and exits.
# shellcheck disable=SC2154 # here: the sourcing script's
bench_vfsbench() {
	if [ -n "${VFSBENCH:-}" ]; then
		echo "$VFSBENCH"
		return
	fi
	for v in "$here/../build-gcc/src/vfsbench" "$here/../build-perf/src/vfsbench" \
		"$here/../build/src/vfsbench" "$here/../src/vfsbench"; do
		[ -x "$v" ] && { echo "$v"; return; }
	done
	command -v vfsbench || :
}

# For awk programs: median(list), of a space-separated list of numbers
# (the middle one, or the mean of the two middle ones).
# shellcheck disable=SC2034 # used by the scripts that source this
bench_median_awk='
function median(list,   a, k, i, j, t) {
	k = split(list, a, " ")
	for (i = 2; i <= k; i++) {
		t = a[i] + 0
		for (j = i - 1; j >= 1 && a[j] + 0 > t; j--)
			a[j + 1] = a[j]
		a[j + 1] = t
	}
	return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
}'
