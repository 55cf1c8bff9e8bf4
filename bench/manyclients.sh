#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Many clients: does vfsbench start, run and stop N (default 10,000)
# clients cleanly, how much memory does a client cost, and how long does
# it take from the first pthread_create() to the release of the start
# barrier ("setup and release" in the report)? For each engine (null, and
# posix doing stat on tmpfs) and each fd-table mode (shared, the default,
# and private) it runs
#     vfsbench -q -e ENGINE --fd-table MODE -c stat1.load -D DIR \
#              -t Ts --warmup Ws --json F N
# under /usr/bin/time -v (or, without it, sampling VmHWM in
# /proc/PID/status) for each client count N, and prints the exit status,
# wall time, peak RSS, the setup-and-release time, ops/s, how many clients
# measured at least one op (from the JSON, with jq), and whether anything
# was left in DIR. The memory per client is the slope of peak RSS between
# the smallest and the largest count. It first prints the limits that
# bound the client count. See doc/performance.md.
set -eu

usage() {
	cat <<EOF
usage: $0 [-n "COUNTS"] [-e "ENGINES"] [-f "MODES"] [-r ROUNDS] [-t SECONDS]
          [-w SECONDS] [-o "VFSBENCH OPTIONS"] [-D DIR]

COUNTS: client counts (default "1 10000"); ENGINES default "null posix";
MODES: fd-table modes (default "shared private"); ROUNDS default 1;
SECONDS of measurement default 2 after a warmup of 1 (-w); DIR default
/dev/shm. About 1 to 1.5 minutes by default here (10,000 private fd tables take
most of it). Environment: VFSBENCH (the binary), AWK, TIME (default
/usr/bin/time).
Exit status: 0 every run was clean, 1 some run failed or left files,
2 bad usage, 3 a tool is missing.
EOF
}

die() {
	echo "manyclients.sh: $*" >&2
	exit 3
}

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
counts="1 10000"
engines="null posix"
modes="shared private"
rounds=1
secs=2
warm=1
extra=
base=/dev/shm
while getopts n:e:f:r:t:w:o:D:h o; do
	case $o in
	n) counts=$OPTARG ;;
	e) engines=$OPTARG ;;
	f) modes=$OPTARG ;;
	r) rounds=$OPTARG ;;
	t) secs=$OPTARG ;;
	w) warm=$OPTARG ;;
	o) extra=$OPTARG ;;
	D) base=$OPTARG ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 0 ] || { usage >&2; exit 2; }
for v in $counts "$rounds"; do
	case $v in
	'' | *[!0-9]* | 0) echo "manyclients.sh: '$v' is not a positive integer" >&2
		exit 2 ;;
	esac
done
AWK=${AWK:-awk}
TIME=${TIME:-/usr/bin/time}
VFSBENCH=$(bench_vfsbench)
[ -n "$VFSBENCH" ] && [ -x "$VFSBENCH" ] ||
	die "no vfsbench binary (build it, or set VFSBENCH)"
[ -d "$base" ] || die "no directory $base"
have_jq=0
command -v jq >/dev/null && have_jq=1

work=$(mktemp -d "${TMPDIR:-/tmp}/manyclients.XXXXXX") || die "mktemp failed"
vdir=$(mktemp -d "$base/manyclients.XXXXXX") || { rm -rf "$work"; die "mktemp in $base failed"; }
trap 'rm -rf "$work" "$vdir"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 141' PIPE
load=$work/stat1.load
printf '[setup]\ncreate f\n[run]\nstat f\n' >"$load"
ms() { "$AWK" -v s="$1" 'BEGIN { printf "%dms", s * 1000 + 0.5 }'; }
vt=$(ms "$secs")
vw=$(ms "$warm")

sysctl_() { cat "/proc/sys/$1" 2>/dev/null || echo '?'; }
nproc_=$("$AWK" '/^Max processes/ { print $3 "/" $4 }' /proc/self/limits 2>/dev/null || echo '?')
echo "limits: CPUs $(getconf _NPROCESSORS_ONLN), RLIMIT_NPROC (ulimit -u) soft/hard $nproc_," \
	"kernel.threads-max $(sysctl_ kernel/threads-max), kernel.pid_max $(sysctl_ kernel/pid_max)," \
	"vm.max_map_count $(sysctl_ vm/max_map_count)"
nofile_=$("$AWK" '/^Max open files/ { print "soft " $4 " hard " $5 }' /proc/self/limits 2>/dev/null || echo '?')
echo "        RLIMIT_NOFILE $nofile_, fs.nr_open $(sysctl_ fs/nr_open)," \
	"MemAvailable $("$AWK" '/^MemAvailable/ { print $2 " kB" }' /proc/meminfo)"
echo "vfsbench: $VFSBENCH -q -e ENGINE --fd-table MODE -c stat1.load -D DIR -t $vt --warmup $vw${extra:+ $extra} N"
if [ -x "$TIME" ]; then
	echo "peak RSS: $TIME -v (Maximum resident set size)"
else
	echo "peak RSS: VmHWM of /proc/PID/status, sampled every 50 ms ($TIME not found)"
fi
echo

# run ENGINE MODE N: one line of figures in $work/row, the output in $work/out
run() {
	e=$1 m=$2 n=$3
	rm -f "$work/json"
	start=$(date +%s.%N)
	set +e
	if [ -x "$TIME" ]; then
		# shellcheck disable=SC2086
		"$TIME" -v -o "$work/time" "$VFSBENCH" -q -e "$e" --fd-table "$m" \
			-c "$load" -D "$vdir" -t "$vt" --warmup "$vw" \
			--json "$work/json" $extra "$n" >"$work/out" 2>"$work/err"
		rc=$?
		rss=$("$AWK" -F: '/Maximum resident set size/ { print $2 + 0 }' "$work/time")
	else
		# shellcheck disable=SC2086
		"$VFSBENCH" -q -e "$e" --fd-table "$m" -c "$load" -D "$vdir" \
			-t "$vt" --warmup "$vw" --json "$work/json" $extra "$n" \
			>"$work/out" 2>"$work/err" &
		pid=$!
		rss=0
		while kill -0 "$pid" 2>/dev/null; do
			h=$("$AWK" '/^VmHWM/ { print $2 }' "/proc/$pid/status" 2>/dev/null || :)
			[ -n "$h" ] && rss=$h
			sleep 0.05
		done
		wait "$pid"
		rc=$?
	fi
	set -e
	wall=$("$AWK" -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
	setup=$(sed -n 's/.*setup and release \([^)]*\)).*/\1/p' "$work/out")
	ops=$("$AWK" '/^Total:/ { printf "%.0f", $2 }' "$work/out")
	ran=-
	if [ $have_jq = 1 ] && [ -s "$work/json" ]; then
		ran=$(jq '[.. | objects | select(has("ns_per_pass")) | select(.ops > 0)] | length' \
			"$work/json" 2>/dev/null || echo -)
	fi
	left=$(find "$vdir" -mindepth 1 | wc -l)
	clean=yes
	if [ "$rc" != 0 ] || [ "$left" != 0 ] || grep -q -i -E 'error|warning' "$work/err"; then
		clean=NO
		bad=1
	fi
	echo "$e $m $n $rc $wall ${rss:-0} ${setup:--} ${ops:--} $ran $left $clean" >"$work/row"
	if [ "$clean" = NO ] && [ -s "$work/err" ]; then
		sed 's/^/    /' "$work/err" | grep -v -E '^\s+(Command|User|System|Percent|Elapsed|Average|Maximum|Major|Minor|Volun|Invol|Swaps|File|Socket|Signals|Page|Exit)' | head -n 3 >"$work/why"
	else
		: >"$work/why"
	fi
}

bad=0
results=$work/results
: >"$results"
printf '%-6s %-8s %6s %3s %7s %12s %14s %14s %7s %5s %5s\n' engine fdtable \
	clients rc wall-s 'peak RSS KiB' 'setup+release' 'ops/s' 'ran' left clean
r=1
while [ "$r" -le "$rounds" ]; do
	for e in $engines; do
		for m in $modes; do
			for n in $counts; do
				run "$e" "$m" "$n"
				"$AWK" '{ printf "%-6s %-8s %6d %3d %7.1f %12d %14s %14s %7s %5d %5s\n",
					$1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11 }' "$work/row"
				cat "$work/why"
				cat "$work/row" >>"$results"
			done
		done
	done
	r=$((r + 1))
done

echo
echo "ran: clients that measured at least one op (from --json). left: entries left in DIR."
"$AWK" '
$4 == 0 { k = $1 " " $2; if (!(k in lo) || $3 < lo[k]) { lo[k] = $3; lr[k] = $6 }
	if (!(k in hi) || $3 > hi[k]) { hi[k] = $3; hr[k] = $6 } }
END {
	for (k in lo)
		if (hi[k] > lo[k])
			printf "%-16s peak RSS per client: %.1f KiB ((%d - %d KiB) / (%d - %d clients))\n",
			    k, (hr[k] - lr[k]) / (hi[k] - lo[k]), hr[k], lr[k], hi[k], lo[k]
}' "$results"
exit $bad
