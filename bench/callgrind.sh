#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Instructions per op of vfsbench's hot loop: a repeatable figure (it
# does not depend on the machine's load) to track from change to change.
# For each loadfile it runs, under valgrind's callgrind,
#     vfsbench -q -e null -c LOAD --loops N -D DIR 1
# for a small and a large N, counting only the client thread's
# instructions inside client_loop() and everything it calls
#     valgrind --tool=callgrind --separate-threads=yes \
#              --collect-atstart=no --toggle-collect=client_loop ...
# and prints (Ir(large) - Ir(small)) / (ops(large) - ops(small)), so
# what client_loop() does once (its getrusage() and schedstat reads, the
# first-call symbol binding) cancels out, then the same difference per
# function. The null engine issues no system call, so this is the
# harness's own user-space work per op plus null_op's.
#
# Not counted: the kernel, and the vDSO. Under valgrind, clock_gettime()
# does not go through the vDSO but makes a real system call, so its
# figure (glibc's wrapper, ~10 instructions) leaves out the ~20 ns of
# vDSO clock read that a native run pays; bench/rawloop.c's "clock" mode
# times that. See doc/performance.md.
set -eu

usage() {
	cat <<EOF
usage: $0 [-n SMALL] [-N LARGE] [-D DIR] [-o OPTS] [LOADFILE...]

LOADFILEs (default: a one-op loadfile "stat f", and the built-in
default.load) run SMALL (default 20000) and LARGE (default 120000) ops'
worth of passes each (rounded up to whole passes). DIR default /dev/shm.
-o OPTS: more vfsbench options, e.g. "--clock monotonic" or
"--latency-sample 64". About 20 s by default. Environment: VFSBENCH (the binary), VALGRIND
(default valgrind), AWK.
Exit status: 0 ok, 2 bad usage, 3 a tool is missing or a run failed.
EOF
}

die() {
	echo "callgrind.sh: $*" >&2
	exit 3
}

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
small=20000
large=120000
base=/dev/shm
vopts=
while getopts n:N:D:o:h o; do
	case $o in
	n) small=$OPTARG ;;
	N) large=$OPTARG ;;
	D) base=$OPTARG ;;
	o) vopts=$OPTARG ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
for v in "$small" "$large"; do
	case $v in
	'' | *[!0-9]* | 0) echo "callgrind.sh: '$v' is not a positive integer" >&2
		exit 2 ;;
	esac
done
[ "$large" -gt "$small" ] || { echo "callgrind.sh: LARGE must exceed SMALL" >&2; exit 2; }
AWK=${AWK:-awk}
VALGRIND=${VALGRIND:-valgrind}
VFSBENCH=$(bench_vfsbench)
[ -n "$VFSBENCH" ] && [ -x "$VFSBENCH" ] ||
	die "no vfsbench binary (build it, or set VFSBENCH)"
command -v "$VALGRIND" >/dev/null || die "$VALGRIND is not installed"
command -v callgrind_annotate >/dev/null || die "callgrind_annotate is not installed"
nm "$VFSBENCH" 2>/dev/null | grep -q ' client_loop$' ||
	echo "note: no client_loop symbol in $VFSBENCH (inlined or stripped?): counts will be 0" >&2

work=$(mktemp -d "${TMPDIR:-/tmp}/callgrind.XXXXXX") || die "mktemp failed"
vdir=$(mktemp -d "$base/callgrind.XXXXXX") || { rm -rf "$work"; die "mktemp in $base failed"; }
trap 'rm -rf "$work" "$vdir"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 141' PIPE
if [ $# = 0 ]; then
	printf '[setup]\ncreate f\n[run]\nstat f\n' >"$work/stat1.load"
	set -- "$work/stat1.load" default
fi

# cg LOAD PASSES TAG: callgrind run; leaves $work/TAG.fn (Ir function) and
# prints "Ir ops"
cg() {
	rm -f "$work/$3".out*
	# shellcheck disable=SC2086 # $vopts: words
	"$VALGRIND" --tool=callgrind --separate-threads=yes --collect-atstart=no \
		--toggle-collect=client_loop --callgrind-out-file="$work/$3.out" \
		"$VFSBENCH" -q -e null -c "$1" --loops "$2" -D "$vdir" $vopts 1 \
		>"$work/$3.txt" 2>"$work/$3.err" ||
		die "valgrind vfsbench -c $1 --loops $2 failed: $(tail -n 3 "$work/$3.err")"
	: >"$work/$3.fn"
	for f in "$work/$3".out-*; do
		callgrind_annotate --inclusive=no --threshold=100 "$f" 2>/dev/null |
			"$AWK" '/file:function/ { go = 1; next }
			go && /^ *[0-9,]+ / {
				n = $1; gsub(",", "", n)
				fn = $0; sub(/^ *[0-9,]+ +(\([^)]*\) +)?/, "", fn)
				sub(/ \[.*\]$/, "", fn); sub(/.*\//, "", fn)
				print n, fn
			}
			go && /^-- / { exit }' >>"$work/$3.fn"
	done
	ir=$(cat "$work/$3".out-* | "$AWK" '/^totals:/ { t += $2 } END { print t + 0 }')
	ops=$(sed -n 's/^1 client: \([0-9]*\) ops in.*/\1/p' "$work/$3.txt")
	[ -n "$ops" ] || die "no op count from vfsbench -c $1"
	echo "$ir $ops"
}

echo "vfsbench: $VFSBENCH -q -e null -c LOAD --loops N -D DIR${vopts:+ $vopts} 1"
echo "valgrind: $VALGRIND --tool=callgrind --separate-threads=yes --collect-atstart=no --toggle-collect=client_loop"
echo "$("$VALGRIND" --version), $(${CC:-cc} --version 2>/dev/null | head -n 1)"
echo
for load in "$@"; do
	# ops per pass, from a 1-pass null run
	"$VFSBENCH" -q -e null -c "$load" --loops 1 -D "$vdir" 1 >"$work/one.txt" 2>&1 ||
		die "vfsbench -c $load failed: $(tail -n 3 "$work/one.txt")"
	per=$(sed -n 's/^1 client: \([0-9]*\) ops in.*/\1/p' "$work/one.txt")
	[ -n "$per" ] && [ "$per" -gt 0 ] || die "no ops per pass for $load"
	p1=$(( (small + per - 1) / per ))
	p2=$(( (large + per - 1) / per ))
	a=$(cg "$load" "$p1" s)
	b=$(cg "$load" "$p2" l)
	name=$(basename "$load")
	echo "$a $b" | "$AWK" -v name="$name" -v per="$per" -v p1="$p1" -v p2="$p2" '{
		printf "%s: %d op(s) per pass; %d passes: %.0f Ir, %d ops; %d passes: %.0f Ir, %d ops\n",
		    name, per, p1, $1, $2, p2, $3, $4
		printf "%s: instructions per op (difference): %.1f   (plain Ir/ops of the large run: %.1f)\n",
		    name, ($3 - $1) / ($4 - $2), $3 / $4
	}'
	d=$(echo "$a $b" | "$AWK" '{ print $4 - $2 }')
	"$AWK" -v d="$d" 'FNR == 1 { f++ }
		f == 1 { s[$2] += $1; next }
		{ l[$2] += $1; seen[$2] = 1 }
		END {
			for (k in seen) {
				v = (l[k] - s[k]) / d
				if (v >= 0.05 || v <= -0.05)
					printf "    %8.1f  %s\n", v, k
			}
		}' "$work/s.fn" "$work/l.fn" | sort -k1,1 -n -r
	echo
done
