#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Lanes against threads (--uring-depth, issue 28): F ops in flight as one
# client thread of F lanes, as F client threads of one op each on the
# ring, and as F posix clients, for F = 1, 4 and 16 (-f), side by side.
# Each round runs the nine cells in an order that rotates by round, on
# tmpfs (default /dev/shm), the same work in each cell of one F: F
# replays of the loadfile, LOOPS passes each (--loops):
#     vfsbench -q -e uring --resolve dirfd --uring-depth F -c L --loops N 1
#     vfsbench -q -e uring --resolve dirfd -c L --loops N F
#     vfsbench -q -e posix --resolve dirfd -c L --loops N F
# (--resolve dirfd everywhere: lanes resolve from their directory's fd,
# so the three issue the same calls). From each run's JSON: ops/s over
# the measurement window, and the CPU per op (the client threads'
# getrusage plus the io-wq workers'). Per F the medians over the rounds,
# and the ratios lanes/threads and lanes/posix of each round's pair,
# their median. See doc/performance.md, "Lanes against threads".
set -eu

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"

usage() {
	echo "usage: $0 [-r ROUNDS] [-n LOOPS] [-f \"F...\"] [-D DIR]"
	echo "ROUNDS default 5, LOOPS (passes per lane or client) default 300, F default \"1 4 16\", DIR default /dev/shm."
}

rounds=5 loops=300 flights="1 4 16" base=/dev/shm
while getopts r:n:f:D:h o; do
	case $o in
	r) rounds=$OPTARG ;;
	n) loops=$OPTARG ;;
	f) flights=$OPTARG ;;
	D) base=$OPTARG ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
vb=$(bench_vfsbench)
[ -n "$vb" ] || { echo "uring-lanes.sh: no vfsbench built" >&2; exit 3; }
command -v python3 >/dev/null || { echo "uring-lanes.sh: needs python3" >&2; exit 3; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# path walks of both kinds: stat and rename are punted to io-wq, an open
# of a cached name completes inline
cat >"$tmp/lanes.load" <<'LF'
[setup]
mkdir d
create d/f
[run]
stat d/f
open d/f rdonly @1
close @1
create d/g
rename d/g d/h
unlink d/h
mkdir d/e
rmdir d/e
LF

cell() {
	kind=$1 f=$2 r=$3
	out="$tmp/$kind.$f.$r.json"
	case $kind in
	lanes) set -- -e uring --uring-depth "$f" 1 ;;
	threads) set -- -e uring "$f" ;;
	posix) set -- -e posix "$f" ;;
	esac
	"$vb" -q --resolve dirfd -c "$tmp/lanes.load" -D "$base" \
		--loops "$loops" --json "$out" "$@" >/dev/null
}

r=1
while [ "$r" -le "$rounds" ]; do
	case $((r % 3)) in
	1) order="lanes threads posix" ;;
	2) order="threads posix lanes" ;;
	0) order="posix lanes threads" ;;
	esac
	for f in $flights; do
		for k in $order; do
			cell "$k" "$f" "$r"
		done
	done
	r=$((r + 1))
done

python3 - "$tmp" "$rounds" "$flights" <<'PY'
import json, statistics, sys
tmp, rounds, flights = sys.argv[1], int(sys.argv[2]), sys.argv[3].split()
kinds = ("lanes", "threads", "posix")

def point(k, f, r):
    run = json.load(open(f"{tmp}/{k}.{f}.{r}.json"))["runs"][0]
    ru = run["rusage"]
    cpu = (ru["user_s"] + ru["sys_s"]) * 1e9 + (run.get("iowq_cpu_ns") or 0)
    return run["ops_per_sec"], cpu / run["ops"]

print(f"{'in flight':>9} {'lanes ops/s':>11} {'threads ops/s':>13} {'posix ops/s':>11}"
      f" {'lanes/threads':>13} {'lanes/posix':>11}"
      f" {'CPU/op lanes':>12} {'threads':>8} {'posix':>8}")
for f in flights:
    ops = {k: [] for k in kinds}
    cpu = {k: [] for k in kinds}
    for r in range(1, rounds + 1):
        for k in kinds:
            o, c = point(k, f, r)
            ops[k].append(o)
            cpu[k].append(c)
    lt = statistics.median(a / b for a, b in zip(ops["lanes"], ops["threads"]))
    lp = statistics.median(a / b for a, b in zip(ops["lanes"], ops["posix"]))
    m = {k: statistics.median(ops[k]) for k in kinds}
    c = {k: statistics.median(cpu[k]) for k in kinds}
    print(f"{f:>9} {m['lanes']:11.0f} {m['threads']:13.0f} {m['posix']:11.0f}"
          f" {lt:13.2f} {lp:11.2f}"
          f" {c['lanes']:10.0f}ns {c['threads']:6.0f}ns {c['posix']:6.0f}ns")
PY
