#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# dbench 4.0 and vfsbench side by side on the same dbench loadfile, the
# same client counts and the same directory, interleaved (dbench N,
# vfsbench N, for each N, then the next round), each parsed from its
# "Throughput X MB/sec" line. Prints every run, then per client count the
# median of each tool and the median of the per-round vfsbench/dbench
# ratios. See doc/performance.md.
#
# Each run's CPU time (user + system, from the shell's times builtin) is
# shown too, and "per-cpu", the ratio of MB/s per CPU-second
# ((v / cpu_v) / (d / cpu_d)): on a small, shared machine a 2-client run
# often gets less than 2 CPUs, and this shows which runs did.
#
# Both get the same -t. dbench 4.0's warmup is t/5 s (integer division,
# not settable) and ends at the first 1 s tick after that once every client
# has moved a byte; vfsbench is given --warmup t/5 s to match. dbench's
# figure covers about t-1 s (its last tick is not reported), vfsbench's t.
set -eu

usage() {
	cat <<EOF
usage: $0 [-r ROUNDS] [-t SECONDS] [-c LOADFILE] [-D DIR] [CLIENTS...]

Run dbench and vfsbench alternately on LOADFILE (default
$default_load) in DIR (default /dev/shm, a tmpfs), for each client
count (default: 1 2), ROUNDS times (default 3), SECONDS per run (default
10, plus a warmup of SECONDS/5 and cleanup), and print the MB/s of each
run and the median vfsbench/dbench ratio per client count.
Environment: VFSBENCH (the binary), DBENCH (default dbench), AWK.
Exit status: 0 ok, 2 bad usage, 3 a tool is missing or a run failed.
EOF
}

die() {
	echo "dbench-vs.sh: $*" >&2
	exit 3
}

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
default_load=/usr/share/dbench/client.txt
rounds=3
secs=10
load=$default_load
base=/dev/shm
while getopts r:t:c:D:h o; do
	case $o in
	r) rounds=$OPTARG ;;
	t) secs=$OPTARG ;;
	c) load=$OPTARG ;;
	D) base=$OPTARG ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
clients=${*:-1 2}
for v in "$rounds" "$secs" $clients; do
	case $v in
	'' | *[!0-9]* | 0) echo "dbench-vs.sh: '$v' is not a positive integer" >&2
		usage >&2; exit 2 ;;
	esac
done
AWK=${AWK:-awk}
DBENCH=${DBENCH:-dbench}
VFSBENCH=$(bench_vfsbench)
if [ -z "$VFSBENCH" ] || [ ! -x "$VFSBENCH" ]; then
	die "no vfsbench binary (build it, or set VFSBENCH)"
fi
command -v "$DBENCH" >/dev/null || die "$DBENCH is not installed"
command -v "$AWK" >/dev/null || die "$AWK is not installed"
[ -r "$load" ] || die "cannot read loadfile $load"
[ -d "$base" ] || die "no directory $base"

work=$(mktemp -d "$base/dbench-vs.XXXXXX") || die "mktemp in $base failed"
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
warm=$((secs / 5))

# CPU seconds (user + system) of this shell's finished children so far, as
# the POSIX times builtin wrote them to file $1 (times has to run in this
# shell, not in a $(...) subshell): a run's share is the difference. With
# 2 CPUs, 2 clients that got about one CPU show about half the CPU time.
cpu() {
	"$AWK" 'NR == 2 {
		t = 0
		for (i = 1; i <= 2; i++) {
			split($i, a, "m")
			sub(/s$/, "", a[2])
			t += a[1] * 60 + a[2]
		}
		print t
	}' "$1"
}

# Throughput of a tool's output file, or nothing
mbps() {
	sed -n 's/^Throughput \([0-9.e+]*\) MB\/sec.*/\1/p' "$1" | tail -n 1
}

semwarn=0
results=$work/results
: >"$results"
echo "loadfile $load, dir $base ($(df -P "$base" | "$AWK" 'NR == 2 { print $1 }')), -t $secs, warmup ${warm}s, $rounds round(s), clients $clients"
echo "dbench:   $DBENCH -c LOADFILE -D DIR -t $secs N"
echo "vfsbench: $VFSBENCH -c LOADFILE -D DIR -t ${secs}s --warmup ${warm}s -q N"
printf '%-6s %7s %10s %10s %7s %16s %9s %9s\n' round clients dbench vfsbench \
	ratio 'cpu-s: dbench' vfsbench per-cpu

times >"$work/t0"
r=1
while [ "$r" -le "$rounds" ]; do
	for n in $clients; do
		rm -rf "$work/d" && mkdir "$work/d"
		"$DBENCH" -c "$load" -D "$work/d" -t "$secs" "$n" \
			>"$work/d.out" 2>&1 ||
			die "dbench $n failed: $(tail -n 3 "$work/d.out")"
		grep -q 'failed to create barrier semaphore' "$work/d.out" &&
			semwarn=$((semwarn + 1))
		times >"$work/t1"
		db=$(mbps "$work/d.out")
		[ -n "$db" ] || die "no Throughput line from dbench: $(tail -n 3 "$work/d.out")"
		"$AWK" -v x="$db" 'BEGIN { exit !(x > 0) }' ||
			die "dbench measured nothing (0 MB/sec): give -t 3 or more"
		rm -rf "$work/d"

		mkdir "$work/v"
		"$VFSBENCH" -c "$load" -D "$work/v" -t "${secs}s" \
			--warmup "${warm}s" -q "$n" >"$work/v.out" 2>&1 ||
			die "vfsbench $n failed: $(tail -n 3 "$work/v.out")"
		times >"$work/t2"
		vb=$(mbps "$work/v.out")
		[ -n "$vb" ] || die "no Throughput line from vfsbench: $(tail -n 3 "$work/v.out")"
		rm -rf "$work/v"

		t0=$(cpu "$work/t0") t1=$(cpu "$work/t1") t2=$(cpu "$work/t2")
		"$AWK" -v r="$r" -v n="$n" -v d="$db" -v v="$vb" -v t0="$t0" \
			-v t1="$t1" -v t2="$t2" -v results="$results" 'BEGIN {
			cd = t1 - t0; cv = t2 - t1
			e = cd > 0 && cv > 0 ? (v / cv) / (d / cd) : 0
			printf "%-6d %7d %10.2f %10.2f %7.3f %16.1f %9.1f %9.3f\n",
			    r, n, d, v, v / d, cd, cv, e
			print r, n, d, v, e >> results }'
		times >"$work/t0"
	done
	r=$((r + 1))
done

echo
"$AWK" "$bench_median_awk"'
{
	if (!($2 in seen)) { seen[$2] = 1; order[++nn] = $2 }
	d[$2] = d[$2] " " $3; v[$2] = v[$2] " " $4; q[$2] = q[$2] " " $4 / $3
	e[$2] = e[$2] " " $5
}
END {
	printf "%7s %14s %16s %20s %16s\n", "clients", "dbench median",
	    "vfsbench median", "median ratio (v/d)", "median per-cpu"
	for (i = 1; i <= nn; i++) {
		n = order[i]
		printf "%7d %14.2f %16.2f %20.3f %16.3f\n", n, median(d[n]),
		    median(v[n]), median(q[n]), median(e[n])
	}
}' "$results"
if [ "$semwarn" -gt 0 ]; then
	echo "note: dbench printed \"failed to create barrier semaphore\" in $semwarn run(s)" \
		"(4.0 tests semget() against 0, a valid id; the runs went on normally)"
fi
