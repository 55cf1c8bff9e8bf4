#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A real change that vfsbench compare must find: statfs against
# statvfs_legacy (glibc's old statvfs: statfs, a read of the mount table
# and a stat of mount points), which is slower in ops/s and in p99 at
# every client count. Both ways:
#   interleaved: vfsbench -c statfs.load -c statvfs_legacy.load --runs R
#                -t T CLIENTS --json ab.json; vfsbench compare [-m p99] ab.json
#   back to back: one invocation per loadfile, then compare the two files.
# Every row should be '*', with ops/s down and p99 up. See
# doc/performance.md.
set -eu

usage() {
	cat <<EOF2
usage: $0 [-n TRIES] [-r RUNS] [-t DURATION] [-D DIR] [-o OUTDIR] [CLIENTS...]

TRIES default 3, RUNS (--runs) default 5, DURATION (-t) default 1s, DIR
default /dev/shm, CLIENTS default 1 2 4; OUTDIR default ./compare-ab.out.
About 4 x TRIES x RUNS x |CLIENTS| x 1.4 x DURATION: 5 minutes by default.
Environment: VFSBENCH (the binary), AWK.
Exit status: 0 ok, 2 bad usage, 3 a tool is missing or a run failed.
EOF2
}

tries=3 runs=5 dur=1s base=/dev/shm out=./compare-ab.out
while getopts n:r:t:D:o:h o; do
	case $o in
	n) tries=$OPTARG ;;
	r) runs=$OPTARG ;;
	t) dur=$OPTARG ;;
	D) base=$OPTARG ;;
	o) out=$OPTARG ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || set -- 1 2 4

. "$(dirname "$0")/compare-lib.sh"
cmp_setup compare-ab "$out" "$base"

# verdict MARKS METRIC: "right wrong ? ~ rows": '*' in the right direction
# (ops/s down, p99 up) and not
verdict() {
	"$AWK" -v m="$2" '{
		n++
		up = $2 ~ /^\+/
		if ($3 == "*" && ((m == "p99") == up)) right++
		else if ($3 == "*") wrong++
		else if ($3 == "?") q++
		else ns++
	} END { printf "%d %d %d %d %d\n", right, wrong, q, ns, n }' "$1"
}

echo "compare-ab: $VFSBENCH, statfs.load against statvfs_legacy.load, --runs $runs -t $dur, clients $*"
cmp_machine
printf '%-5s %-12s %-6s %6s %6s %4s %4s %5s\n' try order metric right wrong '?' '~' rows
t=1
while [ "$t" -le "$tries" ]; do
	vb -c statfs.load -c statvfs_legacy.load --runs "$runs" -t "$dur" \
		--json "$out/ab-$t.json" "$@"
	vb -c statfs.load --runs "$runs" -t "$dur" --json "$out/a-$t.json" "$@"
	vb -c statvfs_legacy.load --runs "$runs" -t "$dur" \
		--json "$out/b-$t.json" "$@"
	for m in ops p99; do
		"$VFSBENCH" compare -p -m $m "$out/ab-$t.json" >"$out/ab-$t-$m.txt"
		"$VFSBENCH" compare -p -m $m "$out/a-$t.json" "$out/b-$t.json" \
			>"$out/b2b-$t-$m.txt" 2>/dev/null
		for k in ab b2b; do
			cmp_marks "$out/$k-$t-$m.txt" >"$out/$k-$t-$m.marks"
			verdict "$out/$k-$t-$m.marks" $m |
				"$AWK" -v t="$t" -v k=$k -v m=$m '{
				printf "%-5s %-12s %-6s %6s %6s %4s %4s %5s\n", t,
					k == "ab" ? "interleaved" : "back to back",
					m, $1, $2, $3, $4, $5 }'
		done
	done
	t=$((t + 1))
done
cmp_machine
echo "(tables: $out/ab-N-ops.txt, ab-N-p99.txt, b2b-N-*.txt)"
