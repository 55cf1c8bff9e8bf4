#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Ranks x clients on this machine: the same total of clients as one
# process or as MPI ranks. Each round runs, for the posix engine (a
# one-op loadfile, stat on tmpfs by default) and for the null engine (no
# system call: the harness alone),
#     plain  vfsbench ... 2                    one process, 2 clients
#     1x2    mpirun -np 1 vfsbench ... 2       one rank, 2 clients
#     2x1    mpirun -np 2 vfsbench ... 2       two ranks, 1 client each
# with "-q -c LOAD -D DIR -t T --warmup W --json F", in an order that
# rotates every round (each side goes first in turn), and reads from the
# JSON the merged ops/s, the clients' CPU time per op (getrusage of the
# client threads, summed over the ranks: what an op costs, whatever the
# load of the machine lets the clients run) and the start skew between
# the ranks; and the CPU seconds of the whole run (the shell's times for
# its children: mpirun, the ranks, every thread, MPI's start and end). 1x2
# against plain is what MPI costs the harness; 2x1
# against 1x2 is what two processes change for the same clients.
#
# mpirun runs on this machine only, as the tests run it (tests/e2e/lib.sh):
# allowed as root, more ranks than cores, no binding, shared memory.
# See doc/performance.md.
set -eu

usage() {
	cat <<EOF
usage: $0 [-r ROUNDS] [-t SECONDS] [-w SECONDS] [-c LOADFILE] [-D DIR]

ROUNDS default 5, SECONDS of measurement per run default 2 after a
warmup of 1 (-w); LOADFILE default: a one-op loadfile (stat f). DIR
(default /dev/shm) holds vfsbench's work directories. About
6 x (t + w + 0.6) x ROUNDS seconds: 2 minutes by default.
Environment: VFSBENCH (a binary built --with-mpi), AWK; needs mpirun, jq.
Exit status: 0 ok, 2 bad usage, 3 a tool is missing or a run failed.
EOF
}

die() {
	echo "mpi.sh: $*" >&2
	exit 3
}

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
rounds=5
secs=2
warm=1
load=
base=/dev/shm
while getopts r:t:w:c:D:h o; do
	case $o in
	r) rounds=$OPTARG ;;
	t) secs=$OPTARG ;;
	w) warm=$OPTARG ;;
	c) load=$OPTARG ;;
	D) base=$OPTARG ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 0 ] || { usage >&2; exit 2; }
case $rounds in
'' | *[!0-9]* | 0) echo "mpi.sh: -r '$rounds' is not a positive integer" >&2
	exit 2 ;;
esac
for v in "$secs" "$warm"; do
	case $v in
	'' | *[!0-9.]* | .) echo "mpi.sh: '$v' is not a number of seconds" >&2
		exit 2 ;;
	esac
done
AWK=${AWK:-awk}
VFSBENCH=$(bench_vfsbench)
[ -n "$VFSBENCH" ] && [ -x "$VFSBENCH" ] ||
	die "no vfsbench binary (build it --with-mpi, or set VFSBENCH)"
command -v mpirun >/dev/null || die "no mpirun (apt-get install openmpi-bin)"
command -v jq >/dev/null || die "no jq"
[ -d "$base" ] || die "no directory $base"

work=$(mktemp -d "${TMPDIR:-/tmp}/mpi.XXXXXX") || die "mktemp failed"
vdir=$(mktemp -d "$base/mpi.XXXXXX") || { rm -rf "$work"; die "mktemp in $base failed"; }
trap 'rm -rf "$work" "$vdir"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 141' PIPE
if [ -z "$load" ]; then
	load=$work/stat1.load
	printf '[setup]\ncreate f\n[run]\nstat f\n' >"$load"
fi
ms() { "$AWK" -v s="$1" 'BEGIN { printf "%dms", s * 1000 + 0.5 }'; }
vt=$(ms "$secs")
vw=$(ms "$warm")

OMPI_ALLOW_RUN_AS_ROOT=1
OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
OMPI_MCA_btl=self,vader
OMPI_MCA_btl_vader_single_copy_mechanism=none
OMPI_MCA_plm_rsh_agent=false
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM OMPI_MCA_btl \
	OMPI_MCA_btl_vader_single_copy_mechanism OMPI_MCA_plm_rsh_agent
mpirun -np 1 --oversubscribe "$VFSBENCH" --version >"$work/v.out" 2>&1 ||
	die "mpirun cannot start vfsbench: $(tail -n 3 "$work/v.out")"
"$VFSBENCH" -e null -c "$load" --loops 1 -D "$vdir" -q --json "$work/c.json" \
	1 >/dev/null 2>&1 || die "vfsbench cannot run $load"
mpirun -np 2 --oversubscribe "$VFSBENCH" -e null -c "$load" --loops 1 \
	-D "$vdir" -q --json "$work/c.json" 2 >/dev/null 2>&1 ||
	die "vfsbench under mpirun -np 2 failed"
[ "$(jq -r '.mpi.ranks // 0' "$work/c.json")" = 2 ] ||
	die "$VFSBENCH was built without MPI (./configure --with-mpi)"

# side engine: one run; prints "ops/s cpu-ns/op skew-ns job-cpu-s"
side() {
	set -- "$1" -q -e "$2" -c "$load" -D "$vdir" -t "$vt" --warmup "$vw" \
		--json "$work/r.json" 2
	rm -f "$work/r.json"
	case $1 in
	plain) shift; "$VFSBENCH" "$@" ;;
	1x2) shift; mpirun -np 1 --oversubscribe --bind-to none "$VFSBENCH" "$@" ;;
	2x1) shift; mpirun -np 2 --oversubscribe --bind-to none "$VFSBENCH" "$@" ;;
	esac >"$work/r.out" 2>&1 || die "$* failed: $(tail -n 3 "$work/r.out")"
	# this subshell's children so far: the run, whole (mpirun, its
	# ranks, every thread, MPI's start and end)
	# (times itself, not in a pipe: a subshell has no children)
	times >"$work/t"
	job=$("$AWK" 'NR == 2 { gsub(/[ms]/, " "); print $1 * 60 + $2 + $3 * 60 + $4 }' "$work/t")
	jq -r --arg job "$job" '.runs[0] | "\(.ops_per_sec) \((.rusage.user_s + .rusage.sys_s) * 1e9 / .ops) \(.start_skew_ns // 0) \($job)"' \
		"$work/r.json"
}

results=$work/results
: >"$results"
echo "vfsbench: $VFSBENCH -q -e ENGINE -c $load -D DIR -t $vt --warmup $vw --json F 2"
echo "plain: vfsbench alone; 1x2, 2x1: mpirun -np 1 or 2 --oversubscribe --bind-to none vfsbench"
echo "$rounds round(s), $(getconf _NPROCESSORS_ONLN) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?'), $(mpirun --version | head -n 1)"
printf '%-5s %-6s %-6s %14s %10s %10s %10s\n' round engine side 'ops/s' 'cpu-ns/op' 'skew-ns' 'job-cpu-s'
r=1
while [ "$r" -le "$rounds" ]; do
	case $((r % 3)) in
	1) order="plain 1x2 2x1" ;;
	2) order="1x2 2x1 plain" ;;
	0) order="2x1 plain 1x2" ;;
	esac
	if [ $((r % 2)) = 1 ]; then engines="posix null"; else engines="null posix"; fi
	for e in $engines; do
		for s in $order; do
			f=$(side "$s" "$e")
			echo "$r $e $s $f" | "$AWK" -v results="$results" '{
				printf "%-5d %-6s %-6s %14.0f %10.2f %10.0f %10.2f\n", $1, $2, $3, $4, $5, $6, $7
				print >> results }'
		done
	done
	r=$((r + 1))
done

echo
"$AWK" "$bench_median_awk"'
{ ops[$1, $2, $3] = $4; cpu[$1, $2, $3] = $5; if ($1 > nr) nr = $1
  all[$2, $3] = all[$2, $3] " " $4; allc[$2, $3] = allc[$2, $3] " " $5
  sk[$2, $3] = sk[$2, $3] " " $6; jc[$2, $3] = jc[$2, $3] " " $7 }
END {
	printf "%-6s %-6s %14s %10s %10s %10s\n", "engine", "side", "median ops/s",
	    "cpu-ns/op", "skew-ns", "job-cpu-s"
	ne = split("posix null", e, " ")
	ns = split("plain 1x2 2x1", s, " ")
	for (i = 1; i <= ne; i++)
		for (j = 1; j <= ns; j++)
			printf "%-6s %-6s %14.0f %10.2f %10.0f %10.2f\n", e[i], s[j],
			    median(all[e[i], s[j]]), median(allc[e[i], s[j]]),
			    median(sk[e[i], s[j]]), median(jc[e[i], s[j]])
	print ""
	print "median of the per-round ratios (ops/s; cpu: CPU ns per op, 1.0 = the same cost):"
	for (i = 1; i <= ne; i++) {
		q1 = q2 = c1 = c2 = ""
		for (r = 1; r <= nr; r++) {
			q1 = q1 " " ops[r, e[i], "1x2"] / ops[r, e[i], "plain"]
			q2 = q2 " " ops[r, e[i], "2x1"] / ops[r, e[i], "1x2"]
			c1 = c1 " " cpu[r, e[i], "1x2"] / cpu[r, e[i], "plain"]
			c2 = c2 " " cpu[r, e[i], "2x1"] / cpu[r, e[i], "1x2"]
		}
		printf "  %-6s 1x2 / plain  ops/s %6.3f  cpu %6.3f   (what MPI costs the harness)\n",
		    e[i], median(q1), median(c1)
		printf "  %-6s 2x1 / 1x2    ops/s %6.3f  cpu %6.3f   (two ranks against one, same clients)\n",
		    e[i], median(q2), median(c2)
	}
}' "$results"
