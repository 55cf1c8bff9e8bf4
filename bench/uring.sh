#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# -e uring at depth 1 against -e posix, op by op, in one run: each round
# runs the same loadfile of one client under both engines, in an order
# that alternates by round, on tmpfs (default /dev/shm):
#     vfsbench -q -e ENGINE -c uring-ops.load -D DIR --loops N --json F 1
# and reads from the JSON each op's median latency (p50, ns, wall time: for a
# punted op it holds the wait for the io-wq worker) and, for uring, its
# inline count, and the run's io-wq CPU time. Then per op the median over
# the rounds of each engine, and uring's ratio to posix; and the CPU time
# per op of the whole loadfile (the client thread's getrusage, plus the
# io-wq workers' for uring), which leaves out waits for a CPU. See
# doc/performance.md, "io_uring at depth 1".
set -eu

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"

usage() {
	echo "usage: $0 [-r ROUNDS] [-n LOOPS] [-D DIR]"
	echo "ROUNDS default 7, LOOPS (passes of the loadfile) default 2000, DIR default /dev/shm."
}

rounds=7 loops=2000 base=/dev/shm
while getopts r:n:D:h o; do
	case $o in
	r) rounds=$OPTARG ;;
	n) loops=$OPTARG ;;
	D) base=$OPTARG ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
vb=$(bench_vfsbench)
[ -n "$vb" ] || { echo "uring.sh: no vfsbench built" >&2; exit 3; }
command -v python3 >/dev/null || { echo "uring.sh: needs python3" >&2; exit 3; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/uring-ops.load" <<'LF'
[setup]
mkdir d
create d/f
[run]
stat d/f
lstat d/f
open d/f rdwr @1
pwrite @1 0 4k
pread @1 0 4k
fstat @1
fdatasync @1
close @1
create d/g
rename d/g d/h
link d/h d/i
unlink d/i
unlink d/h
mkdir d/e
rmdir d/e
symlink f d/s
unlink d/s
probe d/f
LF

r=1
while [ "$r" -le "$rounds" ]; do
	if [ $((r % 2)) -eq 1 ]; then order="posix uring"; else order="uring posix"; fi
	for e in $order; do
		"$vb" -q -e "$e" -c "$tmp/uring-ops.load" -D "$base" \
			--loops "$loops" --json "$tmp/$e.$r.json" 1 >/dev/null
	done
	r=$((r + 1))
done

python3 - "$tmp" "$rounds" <<'PY'
import json, statistics, sys
tmp, rounds = sys.argv[1], int(sys.argv[2])
mean = {"posix": {}, "uring": {}}
inl = {}
iowq = []
cpu = {"posix": [], "uring": []}
order = []
for r in range(1, rounds + 1):
    for e in ("posix", "uring"):
        run = json.load(open(f"{tmp}/{e}.{r}.json"))["runs"][0]
        for o in run["ops_detail"]:
            if o["op"] not in order:
                order.append(o["op"])
            mean[e].setdefault(o["op"], []).append(o["p50_ns"])
            if e == "uring":
                inl.setdefault(o["op"], []).append(o["inline"] / o["count"])
        ru = run["rusage"]
        c = (ru["user_s"] + ru["sys_s"]) * 1e9
        if e == "uring" and run.get("iowq_cpu_ns") is not None:
            iowq.append(run["iowq_cpu_ns"] / run["ops"])
            c += run["iowq_cpu_ns"]
        cpu[e].append(c / run["ops"])
print(f"{'op':<10} {'posix ns':>9} {'uring ns':>9} {'uring/posix':>11} {'inline':>7}")
for op in order:
    p = statistics.median(mean["posix"][op])
    u = statistics.median(mean["uring"][op])
    print(f"{op:<10} {p:9.0f} {u:9.0f} {u / p:11.2f} {100 * statistics.median(inl[op]):6.0f}%")
if iowq:
    print(f"io-wq CPU per uring op (median over rounds): {statistics.median(iowq):.0f} ns")
p, u = statistics.median(cpu["posix"]), statistics.median(cpu["uring"])
print(f"CPU per op, all ops (client thread + io-wq workers): posix {p:.0f} ns, uring {u:.0f} ns, ratio {u / p:.2f}")
PY
