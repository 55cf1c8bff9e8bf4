#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The harness is not what is measured: vfsbench with one client and a
# one-op loadfile, side by side with bench/rawloop.c, a bare C loop of the
# same system calls in the same kind of directory. For each op and round
# it runs
#     vfsbench -q -D DIR -c OP.load -t Ts --warmup Ws --json F 1
#     rawloop -t T -w W DIR OP
# alternately (the side that goes first alternates by round, so a drift
# of the machine's speed hits both), and prints every run, then per op the
# medians. Two figures per side:
#   ops/s     wall-clock throughput (vfsbench's "Total: X ops/s");
#   cpu-ns    CPU time (user + system, getrusage of the client thread,
#             from the JSON) per op: it leaves out the time the thread
#             waited for a CPU, so it is what to trust on a machine whose
#             cores are shared with other work.
# and two ratios, v/raw (throughput) and raw/v cpu (CPU time per op), both
# 1.0 when the harness costs nothing and below 1.0 by its share.
# Finally, once per op, the null engine's CPU ns per op on the same
# loadfile (the harness alone: clock read, histogram, checks, no system
# call) and the ratio that cost predicts, raw / (raw + null).
#
# The ops and their system calls are listed in bench/rawloop.c; the
# loadfiles written below issue exactly those calls (strace shows it: -S).
# -T adds a third side, rawloop -T, whose loop runs in a second thread
# (vfsbench's client is a thread; fd-based calls cost more in a
# multi-threaded process). See doc/performance.md.
set -eu

usage() {
	cat <<EOF
usage: $0 [-r ROUNDS] [-t SECONDS] [-w SECONDS] [-D DIR] [-T] [-S] [-o OPTS] [OP...]

OP: stat1 stat8 statfs statvfs openclose createunlink readdir pread
(default: all). ROUNDS default 3, SECONDS of measurement per run default
1.5 after a warmup of 1 (-w), in DIR (default /dev/shm, a tmpfs).
About (2 x (t + w) + 0.3) x ROUNDS x OPs seconds: 2.5 minutes by default.
-T: a third side, rawloop -T (the loop in a thread).
-S: first check with strace that one pass of each side issues the same
system calls, then measure.
-o OPTS: more vfsbench options for the measured runs, e.g. "--fd-table
private" (each client its own fd table, as a single-threaded process has).
Environment: VFSBENCH (the binary), CC (default cc), AWK; jq is used
for vfsbench's CPU time (without it, the 10 ms resolution CPU: line).
Exit status: 0 ok, 2 bad usage, 3 a tool is missing or a run failed.
EOF
}

die() {
	echo "overhead.sh: $*" >&2
	exit 3
}

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
rounds=3
secs=1.5
warm=1
base=/dev/shm
threaded=0
strace_check=0
vopts=
while getopts r:t:w:D:TSo:h o; do
	case $o in
	r) rounds=$OPTARG ;;
	t) secs=$OPTARG ;;
	w) warm=$OPTARG ;;
	D) base=$OPTARG ;;
	T) threaded=1 ;;
	S) strace_check=1 ;;
	o) vopts=$OPTARG ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
all_ops="stat1 stat8 statfs statvfs openclose createunlink readdir pread"
ops=${*:-$all_ops}
case $rounds in
'' | *[!0-9]* | 0) echo "overhead.sh: -r '$rounds' is not a positive integer" >&2
	exit 2 ;;
esac
for v in "$secs" "$warm"; do
	case $v in
	'' | *[!0-9.]* | .) echo "overhead.sh: '$v' is not a number of seconds" >&2
		exit 2 ;;
	esac
done
for op in $ops; do
	case " $all_ops " in
	*" $op "*) ;;
	*) echo "overhead.sh: unknown op '$op'" >&2; usage >&2; exit 2 ;;
	esac
done
AWK=${AWK:-awk}
CC=${CC:-cc}
VFSBENCH=$(bench_vfsbench)
[ -n "$VFSBENCH" ] && [ -x "$VFSBENCH" ] ||
	die "no vfsbench binary (build it, or set VFSBENCH)"
command -v "$AWK" >/dev/null || die "$AWK is not installed"
[ -d "$base" ] || die "no directory $base"

work=$(mktemp -d "${TMPDIR:-/tmp}/overhead.XXXXXX") || die "mktemp failed"
# vfsbench's -D: in DIR, as rawloop's
vdir=$(mktemp -d "$base/overhead.XXXXXX") || { rm -rf "$work"; die "mktemp in $base failed"; }
trap 'rm -rf "$work" "$vdir"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 141' PIPE
"$CC" -O2 -o "$work/rawloop" "$here/rawloop.c" -lpthread ||
	die "cannot build rawloop with $CC"
RAW=$work/rawloop
# milliseconds for vfsbench's options (it takes 1500ms, not 1.5s)
ms() { "$AWK" -v s="$1" 'BEGIN { printf "%dms", s * 1000 + 0.5 }'; }
vt=$(ms "$secs")
vw=$(ms "$warm")

# The loadfiles: each [setup] builds what rawloop's setup() builds.
l=$work/load
mkdir "$l"
printf '[setup]\ncreate f\n[run]\nstat f\n' >"$l/stat1.load"
{
	printf '[setup]\n'
	p=
	for c in a b c d e f g; do
		p=$p$c
		printf 'mkdir %s\n' "$p"
		p=$p/
	done
	printf 'create %sh\n[run]\nstat %sh\n' "$p" "$p"
} >"$l/stat8.load"
printf '[run]\nstatfs .\n' >"$l/statfs.load"
printf '[run]\nstatvfs .\n' >"$l/statvfs.load"
printf '[setup]\ncreate f\n[run]\nopen f rdonly @1\nclose @1\n' >"$l/openclose.load"
printf '[run]\ncreate f\nunlink f\n' >"$l/createunlink.load"
{
	printf '[setup]\nmkdir r\n'
	i=0
	while [ $i -lt 16 ]; do printf 'create r/%d\n' $i; i=$((i + 1)); done
	printf '[run]\nreaddir r\n'
} >"$l/readdir.load"
{
	printf '[setup]\ncreate f\nopen f wronly @1\npwrite @1 0 4k\nclose @1\n'
	printf '[run]\nopen f rdonly @1\n'
	i=0
	while [ $i -lt 64 ]; do printf 'pread @1 0 4k\n'; i=$((i + 1)); done
	printf 'close @1\n'
} >"$l/pread.load"

have_jq=0
command -v jq >/dev/null && have_jq=1

vrun() { # op [engine]: prints "ops/s cpu-ns/op"
	rm -f "$work/v.json"
	# shellcheck disable=SC2086
	"$VFSBENCH" -q -D "$vdir" -c "$l/$1.load" -e "${2:-posix}" -t "$vt" \
		--warmup "$vw" --json "$work/v.json" $vopts 1 >"$work/v.out" 2>&1 ||
		die "vfsbench $1 failed: $(tail -n 3 "$work/v.out")"
	if [ $have_jq = 1 ]; then
		cpu=$(jq -r '.. | objects | select(has("rusage")) |
			"\(.ops) \(.rusage.user_s + .rusage.sys_s)"' "$work/v.json")
	else
		cpu=$("$AWK" '/^1 client: [0-9]+ ops in/ { n = $3 }
			/^CPU:/ { c = $3 + $6 } END { print n, c }' "$work/v.out")
	fi
	"$AWK" -v cpu="$cpu" '/^Total:/ { split(cpu, c, " ")
		printf "%s %.2f\n", $2, (c[1] > 0 ? c[2] * 1e9 / c[1] : 0) }' "$work/v.out"
}

rrun() { # op [-T]: prints "ops/s cpu-ns/op"
	# shellcheck disable=SC2086 # $2: -T or nothing
	"$RAW" -t "$secs" -w "$warm" ${2:-} "$base" "$1" >"$work/r.out" 2>&1 ||
		die "rawloop $1 failed: $(cat "$work/r.out")"
	"$AWK" '/^ops\/s/ { print $2, $8 }' "$work/r.out"
}

if [ "$strace_check" = 1 ]; then
	command -v strace >/dev/null || die "-S needs strace"
	# the calls of the pass loop, from the thread that runs it, stripped
	# of fd numbers, buffer addresses and results
	calls='openat|newfstatat|stat|statx|statfs|fstatfs|getdents64|pread64|close|unlink|unlinkat'
	norm() {
		sed -n -E "s/^([0-9]+ +)?(($calls)\\(.*)/\\2/p" "$1" |
			sed -E -e 's/^openat\(AT_FDCWD, /open(/' \
				-e 's/0x[0-9a-f]+/ADDR/g' \
				-e 's/\(([0-9]+),/(FD,/' -e 's/close\([0-9]+\)/close(FD)/' \
				-e 's/"v+"\.\.\./DATA/' -e 's/\{[^}]*\}/{...}/g' \
				-e 's/ *= .*//'
	}
	for op in $ops; do
		# -ff: one file per thread, so no call is split by another's
		rm -f "$work"/v.tr.*
		strace -ff -qq -o "$work/v.tr" "$VFSBENCH" -q -D "$vdir" \
			-c "$l/$op.load" --loops 2 1 >/dev/null 2>&1 ||
			die "strace of vfsbench $op failed"
		# the client thread's calls between its two getrusage() calls
		# (less the open, read and close of its schedstat file)
		tfile=$(grep -l '^unshare(CLONE_FS' "$work"/v.tr.*) ||
			die "no client thread in the strace of vfsbench $op"
		"$AWK" '/getrusage/ { n++; skip = 3; next }
			skip { skip--; next }
			n == 1' "$tfile" >"$work/v1.tr"
		# rawloop: 1 batch warmup + 1 batch measured; compare one pass
		strace -qq -o "$work/r.tr" "$RAW" -t 0.000001 -w 0 "$base" "$op" \
			>/dev/null 2>&1 || die "strace of rawloop $op failed"
		norm "$work/v1.tr" >"$work/v.calls"
		norm "$work/r.tr" >"$work/r.all"
		n=$(wc -l <"$work/v.calls")
		n=$((n / 2))
		head -n "$n" "$work/v.calls" >"$work/v.pass"
		# rawloop's pass: the first calls after its setup (same count)
		"$AWK" -v n="$n" -v first="$(head -n 1 "$work/v.pass")" '
			!go && $0 == first { go = 1 }
			go && k < n { print; k++ }' "$work/r.all" >"$work/r.pass"
		if [ "$n" -gt 0 ] && cmp -s "$work/v.pass" "$work/r.pass"; then
			echo "strace $op: one pass = $n call(s), identical: $(tr '\n' ';' <"$work/v.pass" | cut -c1-100)"
		else
			echo "strace $op: DIFFERENT" >&2
			diff "$work/v.pass" "$work/r.pass" >&2 || :
			die "the two sides of $op issue different calls"
		fi
	done
	echo
fi

results=$work/results
: >"$results"
echo "vfsbench: $VFSBENCH -q -D DIR -c OP.load -t $vt --warmup $vw --json F${vopts:+ $vopts} 1"
echo "raw:      rawloop -t $secs -w $warm DIR OP (cc -O2)$([ $threaded = 1 ] && echo '; raw-T: the same with -T')"
echo "dir $base ($(df -P "$base" | "$AWK" 'NR == 2 { print $1 }')), $rounds round(s), load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
printf '%-5s %-12s %10s %10s %6s %8s %8s %6s' round op 'v ops/s' 'raw ops/s' 'v/raw' 'v cpu-ns' 'raw cpu' 'cpu'
[ $threaded = 1 ] && printf ' %10s %6s %8s %6s' 'raw-T ops' 'v/rT' 'rT cpu' 'cpu-T'
printf '\n'
r=1
while [ "$r" -le "$rounds" ]; do
	for op in $ops; do
		rt="0 0"
		if [ $((r % 2)) = 1 ]; then
			v=$(vrun "$op")
			r1=$(rrun "$op")
			[ $threaded = 1 ] && rt=$(rrun "$op" -T)
		else
			[ $threaded = 1 ] && rt=$(rrun "$op" -T)
			r1=$(rrun "$op")
			v=$(vrun "$op")
		fi
		[ -n "$v" ] && [ -n "$r1" ] && [ -n "$rt" ] || die "$op: no figure"
		echo "$r $op $v $r1 $rt" | "$AWK" -v th="$threaded" -v results="$results" '{
			# round op v vcpu x xcpu t tcpu
			printf "%-5d %-12s %10.0f %10.0f %6.3f %8.1f %8.1f %6.3f",
			    $1, $2, $3, $5, $3 / $5, $4, $6, $6 / $4
			if (th)
				printf " %10.0f %6.3f %8.1f %6.3f", $7, $3 / $7, $8, $8 / $4
			printf "\n"
			print >> results }'
	done
	r=$((r + 1))
done

# The harness alone: the null engine on the same loadfiles.
for op in $ops; do
	echo "$op $(vrun "$op" null)"
done >"$work/null"

echo
"$AWK" -v th="$threaded" -v nullf="$work/null" -v vopts="$vopts" "$bench_median_awk"'
BEGIN { while ((getline line < nullf) > 0) { split(line, f, " "); nul[f[1]] = f[3] } }
{
	o = $2
	if (!(o in seen)) { seen[o] = 1; order[++nn] = o }
	v[o] = v[o] " " $3; x[o] = x[o] " " $5; q[o] = q[o] " " $3 / $5
	vc[o] = vc[o] " " $4; xc[o] = xc[o] " " $6; qc[o] = qc[o] " " $6 / $4
	dc[o] = dc[o] " " ($4 - $6)
	if (th) { qt[o] = qt[o] " " $3 / $7; qct[o] = qct[o] " " $8 / $4 }
}
END {
	printf "%-12s %10s %10s %6s %8s %8s %6s %7s %7s %6s", "op", "v ops/s",
	    "raw ops/s", "v/raw", "v cpu-ns", "raw cpu", "cpu", "+cpu-ns",
	    "null ns", "pred"
	if (th)
		printf " %6s %6s", "v/rT", "cpu-T"
	printf "\n"
	for (i = 1; i <= nn; i++) {
		o = order[i]
		rc = median(xc[o])
		printf "%-12s %10.0f %10.0f %6.3f %8.1f %8.1f %6.3f %7.1f %7.1f %6.3f", o,
		    median(v[o]), median(x[o]), median(q[o]), median(vc[o]), rc,
		    median(qc[o]), median(dc[o]), nul[o], rc / (rc + nul[o])
		if (th)
			printf " %6.3f %6.3f", median(qt[o]), median(qct[o])
		printf "\n"
	}
	print ""
	print "medians over the rounds. v/raw: ops/s ratio; cpu: raw cpu-ns / v cpu-ns per op;"
	print "+cpu-ns: v cpu-ns - raw cpu-ns per op; null ns: CPU ns per op of vfsbench -e null on"
	print "the same loadfile, one run (the harness alone); pred: raw cpu / (raw cpu + null ns)."
	if (th)
		print "v/rT, cpu-T: the same ratios against rawloop -T (its loop in a second thread)."
	# issue 18: >= 0.96 with every op timed, >= 0.99 with -o "--latency-sample N"
	t = vopts ~ /--latency-sample/ ? 0.99 : 0.96
	if ("stat1" in seen)
		printf "target: stat1 >= %.2f%s: ops/s ratio %.3f (%s), CPU ratio %.3f (%s)\n",
		    t, (t == 0.99 ? " (sampled)" : " (every op timed)"),
		    median(q["stat1"]), (median(q["stat1"]) >= t ? "met" : "NOT met"),
		    median(qc["stat1"]), (median(qc["stat1"]) >= t ? "met" : "NOT met")
}' "$results"
