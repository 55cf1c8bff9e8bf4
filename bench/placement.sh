#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Does pinning the clients make a 2-client run steadier? Side by side in
# one invocation, interleaved (shuffled rounds of the variants):
#     vfsbench -c LOAD --runs R -t T --variant placement=none,compact,spread 2
# repeated P times, printing for each invocation and variant the CV of
# ops/s over its R runs, the median ops/s, and the clients' migrations
# and involuntary switches per run. See doc/performance.md.
set -eu

usage() {
	cat <<EOF2
usage: $0 [-p ROUNDS] [-r RUNS] [-t DURATION] [-c LOADFILE] [-D DIR] [-o OUTDIR] [CLIENTS]

ROUNDS (invocations) default 3, RUNS (--runs) default 10, DURATION (-t)
default 1s, LOADFILE default statfs.load (built in), DIR default /dev/shm,
CLIENTS default 2. OUTDIR (default ./placement.out) keeps every JSON file.
About ROUNDS x 3 x RUNS x (DURATION + its fifth of warmup + 0.1 s): 2
minutes by default. Environment: VFSBENCH (the binary), AWK.
Exit status: 0 ok, 2 bad usage, 3 a tool is missing or a run failed.
EOF2
}

rounds=3 runs=10 dur=1s load=statfs.load base=/dev/shm out=./placement.out
while getopts p:r:t:c:D:o:h o; do
	case $o in
	p) rounds=$OPTARG ;;
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
clients=${1:-2}
case $rounds in '' | *[!0-9]* | 0) usage >&2; exit 2 ;; esac
command -v jq >/dev/null 2>&1 || { echo "placement: jq is needed" >&2; exit 3; }

. "$(dirname "$0")/compare-lib.sh"
cmp_setup placement "$out" "$base"

echo "placement: $VFSBENCH, -c $load --runs $runs -t $dur, $clients clients"
cmp_machine
printf '%-5s %-19s %8s %14s %11s %12s\n' round variant "CV" "median ops/s" \
	migrations involuntary
i=1
while [ "$i" -le "$rounds" ]; do
	vb -c "$load" --runs "$runs" -t "$dur" \
		--variant placement=none,compact,spread \
		--json "$out/placement-$i.json" "$clients"
	jq -r --arg round "$i" '
		. as $f
		| .points[]
		| . as $p
		| [$f.runs[] | select(.variant == $p.variant and .end == "complete")] as $r
		| [$round, $f.variants[$p.variant].label,
		   ($p.ops_per_sec.cv * 100 | tostring | .[0:5]) + "%",
		   ($p.ops_per_sec.median | floor),
		   (($r | map(.rusage.migrations // 0) | add) / ($r | length)),
		   (($r | map(.rusage.involuntary_switches) | add) / ($r | length))]
		| @tsv' "$out/placement-$i.json" |
		"$AWK" -F '\t' '{ printf "%-5s %-19s %8s %14s %11.1f %12.1f\n", $1, $2, $3, $4, $5, $6 }'
	i=$((i + 1))
done
