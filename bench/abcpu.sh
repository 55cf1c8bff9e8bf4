#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Before and after, side by side: the CPU time per op of one client under
# two or more vfsbench binaries or option sets (variants), interleaved.
# Each round runs, for every variant in an order that rotates by round
# (so a drift of the machine's speed hits each in turn),
#     BINARY -q -e ENGINE -c LOAD -D DIR -t Ts --warmup Ws --json F [OPTS] 1
# and reads from the JSON the client thread's CPU time (user + system,
# getrusage) per op, which leaves out the time it waited for a CPU: what
# to trust on a machine whose cores are shared. Then per variant the
# median over the rounds, and its ratio to the first variant's.
#
# VARIANT is LABEL=BINARY or LABEL=BINARY OPTS (one word for the shell:
# quote it), e.g.
#     bench/abcpu.sh -e null -c stat1 old=/tmp/old/vfsbench \
#         'mono=build/src/vfsbench --clock monotonic' 'tsc=build/src/vfsbench --clock tsc'
# LOAD: stat1 (stat f), openclose (open f, close), pread (open, 64 x
# pread 4 KiB, close) or a loadfile's path. See doc/performance.md.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"

usage() {
	cat <<EOF
usage: $0 [-r ROUNDS] [-t SECONDS] [-w SECONDS] [-e ENGINE] [-c LOAD] [-D DIR] VARIANT VARIANT...

VARIANT: LABEL=BINARY [OPTS]. ROUNDS default 5, SECONDS of measurement per
run default 1.5 after a warmup of 0.5 (-w), ENGINE default posix, LOAD
default stat1 (or openclose, pread, a path), DIR default /dev/shm.
About ROUNDS x VARIANTs x (t + w + 0.1) seconds.
Exit status: 0 ok, 2 bad usage, 3 a tool is missing or a run failed.
EOF
}

die() {
	echo "abcpu.sh: $*" >&2
	exit 3
}

rounds=5 secs=1.5 warm=0.5 engine=posix load=stat1 base=/dev/shm
while getopts r:t:w:e:c:D:h o; do
	case $o in
	r) rounds=$OPTARG ;;
	t) secs=$OPTARG ;;
	w) warm=$OPTARG ;;
	e) engine=$OPTARG ;;
	c) load=$OPTARG ;;
	D) base=$OPTARG ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || { usage >&2; exit 2; }
case $rounds in
'' | *[!0-9]* | 0) echo "abcpu.sh: -r '$rounds' is not a positive integer" >&2; exit 2 ;;
esac
for v in "$secs" "$warm"; do
	case $v in
	'' | *[!0-9.]* | .) echo "abcpu.sh: '$v' is not a number of seconds" >&2; exit 2 ;;
	esac
done
for v in "$@"; do
	case $v in
	?*=?*) ;;
	*) echo "abcpu.sh: '$v' is not LABEL=BINARY [OPTS]" >&2; exit 2 ;;
	esac
done
AWK=${AWK:-awk}
command -v jq >/dev/null || die "jq is not installed"
[ -d "$base" ] || die "no directory $base"

work=$(mktemp -d "${TMPDIR:-/tmp}/abcpu.XXXXXX") || die "mktemp failed"
vdir=$(mktemp -d "$base/abcpu.XXXXXX") || { rm -rf "$work"; die "mktemp in $base failed"; }
trap 'rm -rf "$work" "$vdir"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
case $load in
stat1) printf '[setup]\ncreate f\n[run]\nstat f\n' >"$work/l.load" ;;
openclose) printf '[setup]\ncreate f\n[run]\nopen f rdonly @1\nclose @1\n' >"$work/l.load" ;;
pread)
	{
		printf '[setup]\ncreate f\nopen f wronly @1\npwrite @1 0 4k\nclose @1\n'
		printf '[run]\nopen f rdonly @1\n'
		i=0
		while [ $i -lt 64 ]; do printf 'pread @1 0 4k\n'; i=$((i + 1)); done
		printf 'close @1\n'
	} >"$work/l.load" ;;
*) [ -r "$load" ] || die "cannot read loadfile $load"
	cp "$load" "$work/l.load" ;;
esac
ms() { "$AWK" -v s="$1" 'BEGIN { printf "%dms", s * 1000 + 0.5 }'; }
vt=$(ms "$secs")
vw=$(ms "$warm")

run1() { # BINARY [OPTS...]: prints "ops/s cpu-ns/op"
	bin=$1
	shift
	rm -f "$work/v.json"
	"$bin" -q -e "$engine" -c "$work/l.load" -D "$vdir" -t "$vt" --warmup "$vw" \
		--json "$work/v.json" "$@" 1 >"$work/v.out" 2>&1 ||
		die "$bin $* failed: $(tail -n 3 "$work/v.out")"
	jq -r '.runs[0] | "\(.ops_per_sec) \((.rusage.user_s + .rusage.sys_s) * 1e9 / .ops)"' \
		"$work/v.json"
}

n=$#
echo "each: BINARY -q -e $engine -c $load -D DIR -t $vt --warmup $vw --json F [OPTS] 1"
i=1
for v in "$@"; do
	echo "variant $i: $v"
	eval "var_$i=\$v"
	i=$((i + 1))
done
echo "$rounds round(s), load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?'), $(nproc) CPUs"
: >"$work/res"
r=1
while [ $r -le "$rounds" ]; do
	k=0
	while [ $k -lt "$n" ]; do
		j=$(( (k + r - 1) % n + 1 ))
		eval "v=\$var_$j"
		label=${v%%=*}
		# shellcheck disable=SC2086 # BINARY and OPTS: words
		fig=$(run1 ${v#*=})
		echo "$r $j $label $fig" | tee -a "$work/res"
		k=$((k + 1))
	done
	r=$((r + 1))
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
"$AWK" "$bench_median_awk"'
{ lab[$2] = $3; ops[$2] = ops[$2] " " $4; cpu[$2] = cpu[$2] " " $5
  if ($2 > nv) nv = $2 }
END {
	printf "\n%-12s %12s %10s %9s\n", "variant", "ops/s", "cpu-ns/op", "cpu/first"
	for (j = 1; j <= nv; j++) {
		c = median(cpu[j])
		if (j == 1) c1 = c
		printf "%-12s %12.0f %10.2f %9.3f\n", lab[j], median(ops[j]), c, c / c1
	}
	print "medians over the rounds; cpu-ns/op: the client thread'"'"'s user + system time per op"
}' "$work/res"
