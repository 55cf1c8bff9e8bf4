#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# False alarms of vfsbench compare: the same setup against itself (A/A),
# where every '*' is a false alarm. Two ways:
#   back to back: P pairs of invocations, each
#       vfsbench -c LOAD --runs R -t T CLIENTS --json aa-N-a.json
#       vfsbench -c LOAD --runs R -t T CLIENTS --json aa-N-b.json
#       vfsbench compare [-m p99] aa-N-a.json aa-N-b.json
#   interleaved: P invocations with the loadfile given twice, its two
#   variants run in shuffled rounds,
#       vfsbench -c LOAD -c LOAD --runs R -t T CLIENTS --json aai-N.json
#       vfsbench compare [-m p99] aai-N.json
# and counts, over ops/s and p99 rows, the rows marked '*' (false alarms)
# and '?' (rows vfsbench says cannot be trusted). See doc/performance.md.
set -eu

usage() {
	cat <<EOF2
usage: $0 [-p PAIRS] [-r RUNS] [-t DURATION] [-c LOADFILE] [-D DIR] [-o OUTDIR] [CLIENTS...]

PAIRS default 8, RUNS (--runs) default 5, DURATION (-t) default 1s,
LOADFILE default statfs.load (built in), DIR default /dev/shm, CLIENTS
default 1 2 4. OUTDIR (default ./compare-aa.out) keeps every JSON file
and compare table. About 2 x PAIRS x RUNS x |CLIENTS| x 2 x (DURATION +
its fifth of warmup + 0.1 s): 10 minutes by default.
Environment: VFSBENCH (the binary), AWK.
Exit status: 0 ok, 2 bad usage, 3 a tool is missing or a run failed.
EOF2
}

pairs=8 runs=5 dur=1s load=statfs.load base=/dev/shm out=./compare-aa.out
while getopts p:r:t:c:D:o:h o; do
	case $o in
	p) pairs=$OPTARG ;;
	r) runs=$OPTARG ;;
	t) dur=$OPTARG ;;
	c) load=$OPTARG ;;
	D) base=$OPTARG ;;
	o) out=$OPTARG ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || set -- 1 2 4
case $pairs in '' | *[!0-9]* | 0) usage >&2; exit 2 ;; esac

. "$(dirname "$0")/compare-lib.sh"
cmp_setup compare-aa "$out" "$base"

echo "compare-aa: $VFSBENCH, -c $load --runs $runs -t $dur, clients $*"
cmp_machine
: >"$out/b2b.marks"
: >"$out/int.marks"
i=1
while [ "$i" -le "$pairs" ]; do
	vb -c "$load" --runs "$runs" -t "$dur" --json "$out/aa-$i-a.json" "$@"
	vb -c "$load" --runs "$runs" -t "$dur" --json "$out/aa-$i-b.json" "$@"
	vb -c "$load" -c "$load" --runs "$runs" -t "$dur" \
		--json "$out/aai-$i.json" "$@"
	for m in ops p99; do
		"$VFSBENCH" compare -m $m "$out/aa-$i-a.json" "$out/aa-$i-b.json" \
			>"$out/aa-$i-$m.txt" 2>/dev/null
		"$VFSBENCH" compare -m $m "$out/aai-$i.json" \
			>"$out/aai-$i-$m.txt" 2>/dev/null
		cmp_marks "$out/aa-$i-$m.txt" | sed "s/^/$i $m /" >>"$out/b2b.marks"
		cmp_marks "$out/aai-$i-$m.txt" | sed "s/^/$i $m /" >>"$out/int.marks"
	done
	echo "pair $i: back to back $(cmp_count "$out/b2b.marks" | "$AWK" '{ print $2 " * " $3 " ? of " $1 }'), interleaved $(cmp_count "$out/int.marks" | "$AWK" '{ print $2 " * " $3 " ? of " $1 }') (so far)"
	i=$((i + 1))
done
cmp_machine
for k in b2b int; do
	cmp_count "$out/$k.marks" | "$AWK" -v k="$k" '{
		n = $1; s = $2; q = $3
		printf "%-12s rows %3d  marked * %2d (%.1f%%)  marked ? %2d (%.1f%%)\n",
			k == "b2b" ? "back to back" : "interleaved", n, s,
			n ? 100 * s / n : 0, q, n ? 100 * q / n : 0 }'
done
# the same files under the old rule, for comparison
i=1
while [ "$i" -le "$pairs" ]; do
	for m in ops p99; do
		"$VFSBENCH" compare --test welch --correction none --threshold 0 \
			-p -m $m "$out/aa-$i-a.json" "$out/aa-$i-b.json" \
			>"$out/old-aa-$i-$m.txt" 2>/dev/null
		"$VFSBENCH" compare --test welch --correction none --threshold 0 \
			-p -m $m "$out/aai-$i.json" >"$out/old-aai-$i-$m.txt"
	done
	i=$((i + 1))
done
cmp_old "$out"/old-aa-*.txt | "$AWK" '{
	printf "old rule     back to back: p < 0.05 in %d of %d rows (%.1f%%)\n", $1, $2, $2 ? 100 * $1 / $2 : 0 }'
cmp_old "$out"/old-aai-*.txt | "$AWK" '{
	printf "old rule     interleaved:  p < 0.05 in %d of %d rows (%.1f%%)\n", $1, $2, $2 ? 100 * $1 / $2 : 0 }'
echo "(old rule: Welch's t, no correction, no threshold, no '?')"
echo "(rows: pair, metric, clients, change, mark in $out/b2b.marks and int.marks)"
