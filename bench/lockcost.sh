#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# What recording the lock tracepoints costs a profiled sweep (issue 27):
# the same sweep (create-unlink.load in one shared directory, so that
# lock:contention_begin/end fire) run three ways, interleaved round by
# round, the one that goes first rotating:
#     plain     vfsbench ... CLIENTS
#     profile   vfsbench ... CLIENTS --profile all, with a perf on PATH
#               that refuses "perf lock record" (so no lock recording:
#               the point records that reason), everything else the
#               real perf's
#     locks     vfsbench ... CLIENTS --profile all, the real perf (perf
#               record, perf stat and perf lock record)
# and prints per variant and client count the median ops/s and client
# CPU ns per op (getrusage: leaves out the time waited for a CPU), and
# the ratios of locks to profile: the lock tracepoints' own cost. The
# perf files go to a temporary directory. See doc/performance.md.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"

usage() {
	cat <<USAGE
usage: $0 [-r ROUNDS] [-t SECONDS] [-D DIR] [CLIENTS...]

ROUNDS default 5, SECONDS of measurement per point default 1 (after a
0.5 s warmup), DIR default /dev/shm, CLIENTS default 1 2. About ROUNDS x
3 x (CLIENTS x 1.6 s + perf's start and read-back) seconds.
Exit status: 0 ok, 2 bad usage, 3 a tool is missing or a run failed.
USAGE
}

die() {
	echo "lockcost.sh: $*" >&2
	exit 3
}

rounds=5 secs=1 base=/dev/shm
while getopts r:t:D:h o; do
	case $o in
	r) rounds=$OPTARG ;;
	t) secs=$OPTARG ;;
	D) base=$OPTARG ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || set -- 1 2
case $rounds in
'' | *[!0-9]* | 0) echo "lockcost.sh: -r '$rounds' is not a positive integer" >&2; exit 2 ;;
esac
case $secs in
'' | *[!0-9.]* | .) echo "lockcost.sh: '$secs' is not a number of seconds" >&2; exit 2 ;;
esac
for c in "$@"; do
	case $c in
	'' | *[!0-9]* | 0) echo "lockcost.sh: '$c' is not a client count" >&2; exit 2 ;;
	esac
done
AWK=${AWK:-awk}
command -v jq >/dev/null || die "jq is not installed"
perf=$(command -v perf) || die "perf is not installed (linux-perf)"
[ -d "$base" ] || die "no directory $base"
bin=$(bench_vfsbench)
[ -n "$bin" ] || die "no vfsbench built (or set VFSBENCH)"

work=$(mktemp -d "${TMPDIR:-/tmp}/lockcost.XXXXXX") || die "mktemp failed"
vdir=$(mktemp -d "$base/lockcost.XXXXXX") || { rm -rf "$work"; die "mktemp in $base failed"; }
trap 'rm -rf "$work" "$vdir"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
mkdir "$work/nolock"
cat >"$work/nolock/perf" <<WRAP
#!/bin/sh
if [ "\$1 \${2:-}" = "lock record" ]; then
	echo "lock recording off (bench/lockcost.sh)" >&2
	exit 1
fi
exec "$perf" "\$@"
WRAP
chmod +x "$work/nolock/perf"
ms=$("$AWK" -v s="$secs" 'BEGIN { printf "%dms", s * 1000 + 0.5 }')

run1() { # VARIANT: prints "CLIENTS ops/s cpu-ns/op" per point
	rm -f "$work/v.json"
	case $1 in
	plain) set -- ;;
	profile) set -- --profile all ;;
	locks) set -- --profile all ;;
	esac
	(
		cd "$work"
		[ "$v" != profile ] || PATH="$work/nolock:$PATH"
		"$bin" -q -c create-unlink.load --cwd shared -D "$vdir" -t "$ms" \
			--warmup 500ms --json "$work/v.json" "$@" $clients \
			>"$work/v.out" 2>&1
	) || die "$v failed: $(tail -n 3 "$work/v.out")"
	if [ "$v" = locks ] &&
		[ "$(jq '[.profiles[] | select(.locks_absent != null)] | length' "$work/v.json")" != 0 ]; then
		die "locks: perf lock record did not record: $(jq -r '.profiles[0].locks_absent' "$work/v.json")"
	fi
	jq -r '.runs[] | "\(.clients) \(.ops_per_sec) \((.rusage.user_s + .rusage.sys_s) * 1e9 / .ops)"' \
		"$work/v.json"
}

clients=$*
echo "each: $bin -q -c create-unlink.load --cwd shared -D DIR -t $ms --warmup 500ms [--profile all] $clients"
echo "$rounds round(s), load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?'), $(nproc) CPUs"
: >"$work/res"
r=1
while [ $r -le "$rounds" ]; do
	k=0
	while [ $k -lt 3 ]; do
		case $(( (k + r - 1) % 3 )) in
		0) v=plain ;;
		1) v=profile ;;
		*) v=locks ;;
		esac
		run1 "$v" | while read -r c ops cpu; do
			echo "$r $v $c $ops $cpu"
		done | tee -a "$work/res"
		k=$((k + 1))
	done
	r=$((r + 1))
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
# shellcheck disable=SC2154 # bench_median_awk: from lib.sh
"$AWK" "$bench_median_awk"'
{ k = $2 " " $3; ops[k] = ops[k] " " $4; cpu[k] = cpu[k] " " $5; cl[$3] = 1
  if ($3 + 0 > maxc) maxc = $3 + 0 }
END {
	printf "\n%-8s %7s %12s %10s\n", "variant", "clients", "ops/s", "cpu-ns/op"
	n = split("plain profile locks", vs, " ")
	for (i = 1; i <= n; i++)
		for (c = 1; c <= maxc; c++) if (c in cl)
			printf "%-8s %7s %12.0f %10.1f\n", vs[i], c,
				median(ops[vs[i] " " c]), median(cpu[vs[i] " " c])
	printf "\nlocks against profile (the lock tracepoints alone):\n"
	for (c = 1; c <= maxc; c++) if (c in cl)
		printf "  %s client(s): ops/s ratio %.3f, cpu/op ratio %.3f\n", c,
			median(ops["locks " c]) / median(ops["profile " c]),
			median(cpu["locks " c]) / median(cpu["profile " c])
}' "$work/res"
