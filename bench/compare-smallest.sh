#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The smallest change vfsbench compare detects with --runs 10 interleaved.
# Two loadfiles differ by a known share of work: both read 4 KiB of a file
# once a pass (open, pread, close) and stat it 97 times; B stats it K more
# times, so a pass of B is K% more operations than one of A. MB/s counts
# the 4 KiB a pass reads, so it is passes/s, and B's is lower by about
# K / (100 + K). For each K, TRIES invocations of
#     vfsbench -c A.load -c B.load --runs 10 -t T 1 --json K-N.json
#     vfsbench compare -m mbps K-N.json
# count the tries whose row is '*' with a negative change. The smallest K
# found in at least 4 tries of 5 is the smallest change detected. See
# doc/performance.md.
set -eu

usage() {
	cat <<EOF2
usage: $0 [-n TRIES] [-r RUNS] [-t DURATION] [-D DIR] [-o OUTDIR] [K...]

TRIES default 5, RUNS (--runs) default 10, DURATION (-t) default 1s,
DIR default /dev/shm, K (extra stats per 100 ops) default 1 2 3 5;
OUTDIR default ./compare-smallest.out. About |K| x TRIES x 2 x RUNS x 1.3
x DURATION: 9 minutes by default.
Environment: VFSBENCH (the binary), AWK.
Exit status: 0 ok, 2 bad usage, 3 a tool is missing or a run failed.
EOF2
}

tries=5 runs=10 dur=1s base=/dev/shm out=./compare-smallest.out
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
[ $# -gt 0 ] || set -- 1 2 3 5

. "$(dirname "$0")/compare-lib.sh"
cmp_setup compare-smallest "$out" "$base"

# loadfile FILE N: the 4 KiB read and N stats a pass
loadfile() {
	{
		printf '[setup]\ncreate f\nopen f rdwr @1\npwrite @1 0 4k\nclose @1\n'
		printf '[run]\nopen f rdonly @1\npread @1 0 4k\nclose @1\n'
		"$AWK" -v n="$2" 'BEGIN { for (i = 0; i < n; i++) print "stat f" }'
	} >"$1"
}

echo "compare-smallest: $VFSBENCH, --runs $runs -t $dur, 1 client, K = $*"
cmp_machine
loadfile "$out/A.load" 97
printf '%4s %10s %8s %s\n' K expected detected 'changes (mark) per try'
for k in "$@"; do
	loadfile "$out/B$k.load" $((97 + k))
	hits=0 line=
	t=1
	while [ "$t" -le "$tries" ]; do
		vb -c "$out/A.load" -c "$out/B$k.load" --runs "$runs" -t "$dur" \
			--json "$out/$k-$t.json" 1
		"$VFSBENCH" compare -p -m mbps "$out/$k-$t.json" \
			>"$out/$k-$t.txt"
		cell=$(cmp_marks "$out/$k-$t.txt" | "$AWK" '{ print $2 "(" $3 ")" }')
		line="$line $cell"
		case $cell in -*'(*)') hits=$((hits + 1)) ;; esac
		t=$((t + 1))
	done
	printf '%4s %9s%% %5s/%s %s\n' "$k" \
		"$("$AWK" -v k="$k" 'BEGIN { printf "-%.1f", 100 * k / (100 + k) }')" \
		"$hits" "$tries" "$line"
done
cmp_machine
