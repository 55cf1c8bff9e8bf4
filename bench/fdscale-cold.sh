#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# What vfsbench fdscale's cache-cold modes cost an open(), relative to the
# cache-hot figure of the same machine, and what they cost in time. Per
# round it runs, in an order that rotates by round (so a drift of the
# machine's speed hits every mode alike),
#     vfsbench fdscale -q --max M --step S --loops L --json hot.json
#     vfsbench fdscale -q --cold ...               (--evict l2, the default)
#     vfsbench fdscale -q --cold --evict llc ...   (every cache level)
# and prints, per step, the medians over the rounds of each mode's mean
# open() cost and of the ratios cold/hot and llc/hot taken within each
# round; then each mode's wall-clock time for the whole run (growing the
# table, evicting, measuring), its ratio to hot's, and the time the
# eviction took per timed open (the JSON's evict_ns). See doc/performance.md and vfsbench-fdscale(1).
set -eu

usage() {
	cat <<EOF
usage: $0 [-r ROUNDS] [-m MAX] [-s STEP] [-l LOOPS] [-k]

ROUNDS default 5; MAX default 1000000 (vfsbench caps it at what
RLIMIT_NOFILE allows, with a warning); STEP default 2; LOOPS default 10.
-k: keep the result files (in a directory whose name is printed).
Environment: VFSBENCH (the binary, default: the build's), jq.
Exit status: 0 ok, 2 bad usage, 3 a tool is missing or a run failed.
EOF
}

die() {
	echo "fdscale-cold.sh: $*" >&2
	exit 3
}

here=$(cd "$(dirname "$0")" && pwd)
rounds=5
max=1000000
step=2
loops=10
keep=0
while getopts r:m:s:l:kh o; do
	case $o in
	r) rounds=$OPTARG ;;
	m) max=$OPTARG ;;
	s) step=$OPTARG ;;
	l) loops=$OPTARG ;;
	k) keep=1 ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
case $rounds in
'' | *[!0-9]* | 0) usage >&2; exit 2 ;;
esac
vb=${VFSBENCH:-$here/../build/src/vfsbench}
test -x "$vb" || die "no vfsbench at '$vb' (set VFSBENCH)"
command -v jq >/dev/null 2>&1 || die "jq is needed (apt-get install jq)"

dir=$(mktemp -d "${TMPDIR:-/tmp}/fdscale-cold.XXXXXX")
if test "$keep" = 0; then
	trap 'rm -rf "$dir"' EXIT
fi

now() {
	date +%s.%N
}

# run MODE ROUND: one run, its JSON and its wall time.
run() {
	case $1 in
	hot) extra= ;;
	cold) extra=--cold ;;
	llc) extra="--cold --evict llc" ;;
	esac
	t0=$(now)
	# shellcheck disable=SC2086
	"$vb" fdscale -q --max "$max" --step "$step" --loops "$loops" \
		$extra --json "$dir/$1.$2.json" >"$dir/$1.$2.txt" \
		2>>"$dir/stderr" || die "vfsbench fdscale $extra failed"
	t1=$(now)
	echo "$t0 $t1" | awk '{ printf "%.6f\n", $2 - $1 }' >"$dir/$1.$2.wall"
}

# The median of a space-separated list, for awk programs.
MEDIAN='
function median(list, n,    a, i, j, t) {
	n = split(list, a, " ")
	for (i = 1; i <= n; i++)
		for (j = i + 1; j <= n; j++)
			if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
'

modes="hot cold llc"
r=1
while test "$r" -le "$rounds"; do
	case $(((r - 1) % 3)) in
	0) order="hot cold llc" ;;
	1) order="cold llc hot" ;;
	*) order="llc hot cold" ;;
	esac
	for m in $order; do
		run "$m" "$r"
	done
	r=$((r + 1))
done

# per round and step: num_fds hot cold llc (mean ns)
r=1
while test "$r" -le "$rounds"; do
	for m in $modes; do
		jq -r '.steps[] | "\(.num_fds) \(.mean_ns)"' "$dir/$m.$r.json" \
			>"$dir/$m.$r.steps"
	done
	paste -d ' ' "$dir/hot.$r.steps" "$dir/cold.$r.steps" \
		"$dir/llc.$r.steps" |
		awk -v r="$r" '{ print r, $1, $2, $4, $6 }' >>"$dir/all"
	r=$((r + 1))
done

jq -r '"cpu: \(.environment.cpu_model // "?"); L2 \(.l2_bytes) bytes, last level \(.llc_bytes) bytes; buffers: l2 \(.options.evict_bytes) bytes"' \
	"$dir/cold.1.json"
jq -r '"llc buffer: \(.options.evict_bytes) bytes"' "$dir/llc.1.json"
echo "$rounds rounds, --max $max (reached $(jq .options.max_reached "$dir/hot.1.json")) --step $step --loops $loops"
echo
echo "mean open() cost, us (median of rounds); ratios within each round, median"
awk "$MEDIAN"'
{
	if (!($2 in hot))
		order[++nk] = $2
	hot[$2] = hot[$2] " " $3
	cold[$2] = cold[$2] " " $4
	llc[$2] = llc[$2] " " $5
	rc[$2] = rc[$2] " " $4 / $3
	rl[$2] = rl[$2] " " $5 / $3
}
END {
	printf "%9s %9s %9s %9s %9s %9s\n", "num_fds", "hot", "cold", "llc",
		"cold/hot", "llc/hot"
	for (k = 1; k <= nk; k++) {
		f = order[k]
		printf "%9d %9.3f %9.3f %9.3f %9.2f %9.2f\n", f,
			median(hot[f]) / 1e3, median(cold[f]) / 1e3,
			median(llc[f]) / 1e3, median(rc[f]), median(rl[f])
	}
}' "$dir/all"

echo
echo "what each run took: wall seconds, and the eviction per timed open (evict_ns)"
r=1
while test "$r" -le "$rounds"; do
	for m in $modes; do
		printf '%s %s %s %s\n' "$r" "$m" "$(cat "$dir/$m.$r.wall")" \
			"$(jq .evict_ns "$dir/$m.$r.json")"
	done
	r=$((r + 1))
done | awk "$MEDIAN"'
{
	wall[$1, $2] = $3
	ev[$2] = ev[$2] " " $4
	if ($1 > rounds)
		rounds = $1
}
END {
	printf "%6s %10s %10s %14s\n", "mode", "run s", "x hot", "evict us/open"
	n = split("hot cold llc", m, " ")
	for (i = 1; i <= n; i++) {
		w = ""
		x = ""
		for (r = 1; r <= rounds; r++) {
			w = w " " wall[r, m[i]]
			x = x " " wall[r, m[i]] / wall[r, "hot"]
		}
		printf "%6s %10.3f %10.2f %14.1f\n", m[i], median(w), median(x),
			median(ev[m[i]]) / 1e3
	}
}'
if test "$keep" = 1; then
	echo
	echo "result files in $dir"
fi
