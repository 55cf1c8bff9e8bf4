#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# fdscale's open() cost through io_uring against the fd table, and into
# the ring's file table (direct descriptors), side by side in one run.
# Per round it runs, in an order that rotates by round (so a drift of the
# machine's speed hits every mode alike),
#     vfsbench fdscale -q [--cold] --max M --step S --loops L --json F
#     vfsbench fdscale -q [--cold] -e uring ...
#     vfsbench fdscale -q [--cold] -e uring --uring-fixed ...
# and prints, per step, the median over the rounds of each mode's mean
# open() cost (ns), then of its best, the medians of the ratios uring/posix and
# fixed/uring taken within each round (fixed/uring: the same submission,
# a direct descriptor instead of an fd), and the fd table's size at that
# step (FDSize: it grows with the fds on the fd table, not with the ring's
# slots). -c runs the three cache-cold (--cold) instead of cache-hot.
# See doc/performance.md, "fdscale through io_uring", and
# vfsbench-fdscale(1).
set -eu

usage() {
	cat <<USAGE
usage: $0 [-r ROUNDS] [-m MAX] [-s STEP] [-l LOOPS] [-c] [-k]

ROUNDS default 5; MAX default 100000; STEP default 4; LOOPS default 50.
-c: cache-cold (--cold); -k: keep the result files (the directory is
printed). Environment: VFSBENCH (the binary), jq.
Exit status: 0 ok, 2 bad usage, 3 a tool is missing or a run failed.
USAGE
}

die() {
	echo "fdscale-uring.sh: $*" >&2
	exit 3
}

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
rounds=5 max=100000 step=4 loops=50 cold='' keep=0
while getopts r:m:s:l:ckh o; do
	case $o in
	r) rounds=$OPTARG ;;
	m) max=$OPTARG ;;
	s) step=$OPTARG ;;
	l) loops=$OPTARG ;;
	c) cold=--cold ;;
	k) keep=1 ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
case $rounds in
'' | *[!0-9]* | 0) usage >&2; exit 2 ;;
esac
vb=$(bench_vfsbench)
[ -n "$vb" ] || die "no vfsbench built (set VFSBENCH)"
command -v jq >/dev/null 2>&1 || die "jq is needed (apt-get install jq)"

dir=$(mktemp -d "${TMPDIR:-/tmp}/fdscale-uring.XXXXXX")
if [ "$keep" = 0 ]; then
	trap 'rm -rf "$dir"' EXIT
else
	echo "result files in $dir"
fi

modes="posix uring fixed"
r=1
while [ "$r" -le "$rounds" ]; do
	case $((r % 3)) in
	1) order="posix uring fixed" ;;
	2) order="uring fixed posix" ;;
	0) order="fixed posix uring" ;;
	esac
	for m in $order; do
		case $m in
		posix) args= ;;
		uring) args="-e uring" ;;
		fixed) args="-e uring --uring-fixed" ;;
		esac
		# shellcheck disable=SC2086
		"$vb" -q fdscale $cold $args --max "$max" --step "$step" \
			--loops "$loops" --json "$dir/$m.$r.json" >/dev/null ||
			die "round $r, $m failed"
	done
	r=$((r + 1))
done

# One line per step and round: round num_fds mode cost_ns fd_table_size,
# the cost being the step's mean_ns, then its best_ns.
for stat in mean_ns best_ns; do
	for m in $modes; do
		r=1
		while [ "$r" -le "$rounds" ]; do
			jq -r --arg m "$m" --arg r "$r" --arg s "$stat" '.steps[] |
				"\($r) \(.num_fds) \($m) \(.[$s]) \(.fd_table_size)"' \
				"$dir/$m.$r.json"
			r=$((r + 1))
		done
	done >"$dir/rows.$stat"
done

for stat in mean_ns best_ns; do
echo "fdscale cache-$(if [ -n "$cold" ]; then echo cold; else echo hot; fi): --max $max --step $step --loops $loops, $rounds rounds, order rotated; each step's ${stat%_ns}, median over the rounds"
awk "$bench_median_awk"'
{
	key = $1 " " $2
	v[$3, key] = $4
	fd[$3, $2] = $5
	if (!($2 in seen)) { seen[$2] = 1; order[++n] = $2 }
	rounds[$1] = 1
}
END {
	printf "%9s %9s %9s %9s %11s %11s %9s %9s\n", "num_fds", "posix ns",
		"uring ns", "fixed ns", "uring/posix", "fixed/uring",
		"FDSize", "fixed FD"
	for (i = 1; i <= n; i++) {
		s = order[i]
		lp = lu = lf = ru = rf = ""
		for (r in rounds) {
			k = r " " s
			lp = lp " " v["posix", k]
			lu = lu " " v["uring", k]
			lf = lf " " v["fixed", k]
			ru = ru " " v["uring", k] / v["posix", k]
			rf = rf " " v["fixed", k] / v["uring", k]
		}
		printf "%9d %9.0f %9.0f %9.0f %11.2f %11.2f %9d %9d\n", s,
			median(lp), median(lu), median(lf), median(ru),
			median(rf), fd["uring", s], fd["fixed", s]
	}
}' "$dir/rows.$stat" | sort -n
done
