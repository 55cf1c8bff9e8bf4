#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# No harness contention: vfsbench's null engine (no system calls, so the
# clients share nothing but the harness) at 1, 2 and 64 clients, and, as
# the control, two separate 1-client vfsbench processes at once ("pair"),
# which share nothing at all, not even an address space. Each round runs
#     vfsbench -q -e null -c LOAD -t Ts --warmup Ws N      for N = 1, 2, 64
#     2 x (vfsbench ... 1) concurrently                      (pair: the sum)
#     taskset -c C vfsbench ... 1, and ... N for N = 64   (one CPU: 1c1, 1cN)
# in an order that reverses every round, and reads "Total: X ops/s" and
# the clients' CPU seconds of the "CPU:" line.
#
# On a machine whose cores are shared with other work, 2 clients get less
# than 2 CPUs; the pair gets the same, so 2 clients / pair near 1 says the
# harness adds no contention whatever the machine gives, and ops per
# CPU-second (ops/s x window / CPU s) says how much each CPU-second of a
# client bought. From 1 to 64 clients the machine also goes from one busy
# CPU to all of them busy, which changes what a CPU-second buys whatever
# runs on them (the pair shows by how much); 1 and 64 clients held to
# one CPU (C, the first this shell may use) leave that out, and show what
# 64 clients cost the harness itself. See doc/performance.md.
set -eu

usage() {
	cat <<EOF
usage: $0 [-r ROUNDS] [-t SECONDS] [-w SECONDS] [-m MANY] [-c LOADFILE] [-D DIR]

ROUNDS default 3, SECONDS of measurement per run default 3 after a
warmup of 1 (-w); MANY is the large client count (default 64); LOADFILE
default: a one-op loadfile (stat f), the cheapest op, so the harness is
all there is. DIR (default /dev/shm) only holds vfsbench's (empty) client
directories. About 6 x (t + w + 0.2) x ROUNDS seconds: 1.5 minutes by default.
Environment: VFSBENCH (the binary), AWK.
Exit status: 0 ok, 2 bad usage, 3 a tool is missing or a run failed.
EOF
}

die() {
	echo "scaling.sh: $*" >&2
	exit 3
}

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
rounds=3
secs=3
warm=1
many=64
load=
base=/dev/shm
while getopts r:t:w:m:c:D:h o; do
	case $o in
	r) rounds=$OPTARG ;;
	t) secs=$OPTARG ;;
	w) warm=$OPTARG ;;
	m) many=$OPTARG ;;
	c) load=$OPTARG ;;
	D) base=$OPTARG ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 0 ] || { usage >&2; exit 2; }
for v in "$rounds" "$many"; do
	case $v in
	'' | *[!0-9]* | 0) echo "scaling.sh: '$v' is not a positive integer" >&2
		exit 2 ;;
	esac
done
for v in "$secs" "$warm"; do
	case $v in
	'' | *[!0-9.]* | .) echo "scaling.sh: '$v' is not a number of seconds" >&2
		exit 2 ;;
	esac
done
AWK=${AWK:-awk}
VFSBENCH=$(bench_vfsbench)
[ -n "$VFSBENCH" ] && [ -x "$VFSBENCH" ] ||
	die "no vfsbench binary (build it, or set VFSBENCH)"
[ -d "$base" ] || die "no directory $base"
command -v taskset >/dev/null || die "taskset is not installed (util-linux)"
cpu1=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*\([0-9]*\).*/\1/p' /proc/self/status)
[ -n "$cpu1" ] || die "no Cpus_allowed_list in /proc/self/status"

work=$(mktemp -d "${TMPDIR:-/tmp}/scaling.XXXXXX") || die "mktemp failed"
vdir=$(mktemp -d "$base/scaling.XXXXXX") || { rm -rf "$work"; die "mktemp in $base failed"; }
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

# "ops/s cpu-seconds window-seconds" of one output file
fig() {
	"$AWK" '/^Total:/ { ops = $2 }
		/^[0-9]+ clients?: [0-9]+ ops in/ { win = $(NF - 1) }
		/^CPU:/ { cpu = $3 + $6 }
		END { if (ops == "") exit 1; print ops, cpu, win }' "$1"
}

vrun() { # N outfile [CPU]
	# shellcheck disable=SC2086 # ${3:+...}: taskset's words, or none
	${3:+taskset -c $3} "$VFSBENCH" -q -e null -c "$load" -D "$vdir" -t "$vt" --warmup "$vw" \
		"$1" >"$2" 2>&1 || die "vfsbench $1 failed: $(tail -n 3 "$2")"
}

side() { # name: prints "ops/s cpu window" (the pair: sums, max window)
	case $1 in
	pair)
		vrun 1 "$work/p1.out" &
		p1=$!
		vrun 1 "$work/p2.out" &
		p2=$!
		wait $p1 || die "pair: first process failed"
		wait $p2 || die "pair: second process failed"
		a=$(fig "$work/p1.out") && b=$(fig "$work/p2.out") ||
			die "pair: no figures"
		echo "$a $b" | "$AWK" '{ print $1 + $4, $2 + $5, ($3 > $6 ? $3 : $6) }'
		;;
	1c*)
		vrun "${1#1c}" "$work/s.out" "$cpu1"
		fig "$work/s.out" || die "$1 clients on CPU $cpu1: no figures"
		;;
	*)
		vrun "$1" "$work/s.out"
		fig "$work/s.out" || die "$1 clients: no figures"
		;;
	esac
}

results=$work/results
: >"$results"
echo "vfsbench: $VFSBENCH -q -e null -c $load -D DIR -t $vt --warmup $vw N"
echo "pair: two 1-client runs of the same command at once (figures summed)"
echo "1c1, 1c$many: 1 and $many clients under taskset -c $cpu1"
echo "$rounds round(s), $(getconf _NPROCESSORS_ONLN) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
printf '%-5s %-6s %14s %8s %16s\n' round side 'ops/s' 'cpu-s' 'ops/cpu-s'
sides="1 2 pair $many 1c1 1c$many"
rsides="1c$many 1c1 $many pair 2 1"
r=1
while [ "$r" -le "$rounds" ]; do
	if [ $((r % 2)) = 1 ]; then order=$sides; else order=$rsides; fi
	for s in $order; do
		f=$(side "$s")
		echo "$r $s $f" | "$AWK" -v results="$results" '{
			per = $4 > 0 ? $3 * $5 / $4 : 0
			printf "%-5d %-6s %14.0f %8.2f %16.0f\n", $1, $2, $3, $4, per
			printf "%d %s %.0f %.0f\n", $1, $2, $3, per >> results }'
	done
	r=$((r + 1))
done

echo
"$AWK" -v many="$many" "$bench_median_awk"'
{ ops[$1, $2] = $3; per[$1, $2] = $4; if ($1 > nr) nr = $1
  all[$2] = all[$2] " " $3; allp[$2] = allp[$2] " " $4 }
END {
	for (r = 1; r <= nr; r++) {
		q21 = q21 " " ops[r, 2] / ops[r, 1]
		q2p = q2p " " ops[r, 2] / ops[r, "pair"]
		qm2 = qm2 " " ops[r, many] / ops[r, 2]
		qp1 = qp1 " " ops[r, "pair"] / ops[r, 1]
		e21 = e21 " " per[r, 2] / per[r, 1]
		em2 = em2 " " per[r, many] / per[r, 2]
		em1 = em1 " " per[r, many] / per[r, 1]
		ec = ec " " per[r, "1c" many] / per[r, "1c1"]
	}
	printf "%-6s %14s %16s\n", "side", "median ops/s", "med ops/cpu-s"
	n = split("1 2 pair " many " 1c1 1c" many, s, " ")
	for (i = 1; i <= n; i++)
		printf "%-6s %14.0f %16.0f\n", s[i], median(all[s[i]]), median(allp[s[i]])
	print ""
	print "median of the per-round ratios:"
	printf "  2 clients / 1 client       %6.3f   (target >= 1.9: %s)\n",
	    median(q21), (median(q21) >= 1.9 ? "met" : "NOT met")
	printf "  %d clients / 2 clients     %6.3f   (target >= 0.9: %s)\n",
	    many, median(qm2), (median(qm2) >= 0.9 ? "met" : "NOT met")
	printf "  pair / 1 client            %6.3f   (what the machine gave two independent processes)\n", median(qp1)
	printf "  2 clients / pair           %6.3f   (1.0: no harness contention)\n", median(q2p)
	printf "  per CPU-second, 2 / 1      %6.3f   (1.0: a CPU-second buys the same work)\n", median(e21)
	printf "  per CPU-second, %d / 2     %6.3f\n", many, median(em2)
	m = median(em1)
	printf "  per CPU-second, %d / 1     %6.3f   (target within 5 %%: %s; with the machine going from one busy CPU to all)\n",
	    many, m, (m >= 0.95 && m <= 1.05 ? "met" : "NOT met")
	m = median(ec)
	printf "  one CPU, per CPU-second, %d / 1 %6.3f   (target within 5 %%: %s; the harness alone)\n",
	    many, m, (m >= 0.95 && m <= 1.05 ? "met" : "NOT met")
}' "$results"
