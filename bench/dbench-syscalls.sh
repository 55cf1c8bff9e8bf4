#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# One pass of a dbench loadfile, 1 client, under strace: the system calls
# vfsbench issues, per name, against the documented mapping (predicted by
# bench/dbench-predict.awk) and against dbench 4.0 on the same loadfile.
# See doc/dbench-fidelity.md for the method and the results.
#
# Bracketing: the loadfile is replayed between two "Sleep 1" lines, whose
# clock_nanosleep calls mark the start and the end of the pass in the
# client's own trace (strace -ff: one file per thread or process). Only the
# client thread (vfsbench) or the child process (dbench) is counted, and
# only between the markers, so setup, thread start, the start barrier and
# cleanup are left out. dbench has no run-once option in 4.0: a last line
# that must fail fatally (an Unlink of a missing name, expected OK) ends it
# right after the pass. dbench issues kill(getppid(), 0) before every line:
# the kill of the closing Sleep line is dropped, so its kill count is the
# number of lines in the pass.
set -eu

usage() {
	cat <<EOF
usage: $0 [-k] [--no-dbench] [-s] [-S] [-F] [--no-resolve] [LOADFILE [DIR]]

Trace one pass of LOADFILE (default $default_load) with 1 client under
strace, in vfsbench and in dbench, and print per system call: vfsbench's
count, the count the documented mapping predicts, dbench's count, dbench's
count less its per-line harness (kill, loadfile read), and what the same
model predicts for dbench; then the same for failed calls.

DIR (an existing directory, default a fresh one under /dev/shm) gets a
temporary directory for both runs and the traces (a few hundred MB).
  -k            keep that directory (traces, predictions, outputs)
  --no-dbench   vfsbench and the prediction only
  -s, -S, -F, --no-resolve
                given to both tools (same meaning in both) and the model
Environment: VFSBENCH (the binary), DBENCH (default dbench), AWK.
Exit status: 0 if every count matches its prediction, 1 if one does not,
2 on bad usage, 3 if a tool is missing or a run fails.
EOF
}

die() {
	echo "dbench-syscalls.sh: $*" >&2
	exit 3
}

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
default_load=/usr/share/dbench/client.txt
keep=0
use_dbench=1
topts=
popts=
while [ $# -gt 0 ]; do
	case $1 in
	-k) keep=1 ;;
	--no-dbench) use_dbench=0 ;;
	-s) topts="$topts -s" ;;
	-S) topts="$topts -S"; popts="$popts -v sync_dirs=1" ;;
	-F) topts="$topts -F"; popts="$popts -v fsync=1" ;;
	--no-resolve) topts="$topts --no-resolve"; popts="$popts -v no_resolve=1" ;;
	-h | --help) usage; exit 0 ;;
	--) shift; break ;;
	-*) usage >&2; exit 2 ;;
	*) break ;;
	esac
	shift
done
[ $# -le 2 ] || { usage >&2; exit 2; }
load=${1:-$default_load}
base=${2:-/dev/shm}
AWK=${AWK:-awk}
DBENCH=${DBENCH:-dbench}

# the tools
VFSBENCH=$(bench_vfsbench)
[ -n "$VFSBENCH" ] && [ -x "$VFSBENCH" ] ||
	die "no vfsbench binary (build it, or set VFSBENCH)"
command -v strace >/dev/null || die "strace is not installed"
command -v "$AWK" >/dev/null || die "$AWK is not installed"
if [ $use_dbench = 1 ]; then
	command -v "$DBENCH" >/dev/null ||
		die "$DBENCH is not installed (or use --no-dbench)"
fi
[ -f "$here/dbench-predict.awk" ] || die "no $here/dbench-predict.awk"
[ -r "$load" ] || die "cannot read loadfile $load"
[ -d "$base" ] || die "no directory $base"

work=$(mktemp -d "$base/dbench-syscalls.XXXXXX") || die "mktemp in $base failed"
cleanup() {
	if [ $keep = 1 ]; then
		echo "kept $work" >&2
	else
		rm -rf "$work"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# the bracketed loadfiles (awk 1 adds a missing final newline)
{
	echo 'Sleep 1 NT_STATUS_OK'
	"$AWK" 1 "$load"
	echo 'Sleep 1 NT_STATUS_OK'
} >"$work/v.load"
{
	cat "$work/v.load"
	printf '%s\n' 'Unlink "\clients\client1\dbench-syscalls-end-of-pass" 0x0 NT_STATUS_OK'
} >"$work/d.load"

# Count the syscalls of the largest trace file that is not the main
# thread's (the one that starts with execve), between its first and its
# last clock_nanosleep. Prints "name calls failed" lines.
count() {
	prefix=$1 dropkill=$2
	best='' bestn=0
	for f in "$prefix".[0-9]*; do
		[ -f "$f" ] || continue
		head -n 1 "$f" | grep -q '^execve(' && continue
		n=$(wc -l <"$f")
		if [ "$n" -gt "$bestn" ]; then
			best=$f bestn=$n
		fi
	done
	[ -n "$best" ] || die "no client trace $prefix.*"
	range=$(grep -n '^clock_nanosleep(' "$best" | sed -n '1p;$p' |
		cut -d: -f1 | tr '\n' ' ')
	# shellcheck disable=SC2086
	set -- $range
	[ $# -eq 2 ] && [ "$1" != "$2" ] ||
		die "$best: the pass is not between two clock_nanosleep calls"
	"$AWK" -v first="$1" -v last="$2" -v dropkill="$dropkill" '
	FNR <= first { next }
	FNR >= last { exit }
	/^[a-z_0-9]+\(/ {
		n = $0
		sub(/\(.*/, "", n)
		f = $0 ~ /\) += -1 [A-Z]/
		calls[n]++
		failed[n] += f
		lastn = n; lastf = f
	}
	END {
		if (dropkill && lastn == "kill") {
			calls["kill"]--
			failed["kill"] -= lastf
		}
		for (n in calls)
			printf "%s %d %d\n", n, calls[n], failed[n]
	}' "$best" | sort >"$prefix.counts"
}

echo "loadfile $load: $("$AWK" 'END { print NR }' "$load") lines" >&2
echo "predicting ($here/dbench-predict.awk)" >&2
# shellcheck disable=SC2086
"$AWK" $popts -v model=vfsbench -f "$here/dbench-predict.awk" "$load" \
	>"$work/v.pred" || die "prediction failed"
if [ $use_dbench = 1 ]; then
	# shellcheck disable=SC2086
	"$AWK" $popts -v model=dbench -f "$here/dbench-predict.awk" "$load" \
		>"$work/d.pred" || die "prediction (dbench model) failed"
fi

echo "tracing vfsbench ($VFSBENCH): about a minute for client.txt" >&2
mkdir "$work/vdir"
# shellcheck disable=SC2086
strace -ff -qq -e raw=all -o "$work/v" "$VFSBENCH" -c "$work/v.load" \
	--dialect dbench --loops 1 -q $topts -D "$work/vdir" 1 \
	>"$work/v.out" 2>&1 ||
	die "vfsbench failed: $(tail -n 5 "$work/v.out")"
count "$work/v" 0
rm -f "$work"/v.[0-9]*

if [ $use_dbench = 1 ]; then
	echo "tracing $DBENCH: about two minutes for client.txt" >&2
	mkdir "$work/ddir"
	# the last line fails on purpose and ends the run (exit 1); a pass
	# takes about 75 s under strace on tmpfs
	# shellcheck disable=SC2086
	timeout 1200 strace -ff -qq -e raw=all -o "$work/d" \
		"$DBENCH" -c "$work/d.load" $topts -D "$work/ddir" -t 100000 1 \
		>"$work/d.out" 2>&1 || :
	grep -q 'dbench-syscalls-end-of-pass failed' "$work/d.out" ||
		die "dbench did not stop at the end of the pass: $(tail -n 5 "$work/d.out")"
	count "$work/d" 1
	rm -f "$work"/d.[0-9]*
else
	: >"$work/d.counts"
	: >"$work/d.pred"
fi

"$AWK" -v dbench=$use_dbench '
function add(n) { if (!(n in seen)) { seen[n] = 1; names[++nn] = n } }
function g(a, n) { return (n in a) ? a[n] : 0 }
function alloc(n) { return n ~ /^(brk|mmap|munmap|mremap|madvise)$/ }
src == "v" { vc[$1] = $2; vf[$1] = $3; add($1) }
src == "p" { pc[$1] = $2; pf[$1] = $3; add($1) }
src == "d" { dc[$1] = $2; df[$1] = $3; add($1) }
src == "m" { mc[$1] = $2; mf[$1] = $3; add($1) }
END {
	# sort the names by vfsbench count, then dbench count
	for (i = 2; i <= nn; i++) {
		t = names[i]
		for (j = i - 1; j >= 1 && (g(vc, names[j]) < g(vc, t) ||
		    (g(vc, names[j]) == g(vc, t) && g(dc, names[j]) < g(dc, t))); j--)
			names[j + 1] = names[j]
		names[j + 1] = t
	}
	for (pass = 1; pass <= 2; pass++) {
		if (pass == 1)
			print "All calls (one pass, 1 client):"
		else
			print "\nFailed calls (returned -1):"
		printf "%-16s %9s %9s %-5s", "syscall", "vfsbench", "predicted", "v=p"
		if (dbench)
			printf " %9s %9s %9s %-5s %9s", "dbench", "db-net", "db-model", "n=m", "v-db_net"
		printf "\n"
		for (i = 1; i <= nn; i++) {
			n = names[i]
			if (pass == 1) {
				v = g(vc, n); p = g(pc, n); d = g(dc, n); m = g(mc, n)
			} else {
				v = g(vf, n); p = g(pf, n); d = g(df, n); m = g(mf, n)
				if (!v && !p && !d && !m)
					continue
			}
			net = (n == "kill" || n == "read") ? 0 : d
			vp = v == p ? "yes" : "NO"
			if (v != p)
				bad[pass] = bad[pass] " " n
			printf "%-16s %9d %9d %-5s", n, v, p, vp
			if (dbench) {
				nm = net == m ? "yes" : alloc(n) ? "alloc" : "NO"
				if (net != m && !alloc(n))
					dbad[pass] = dbad[pass] " " n
				printf " %9d %9d %9d %-5s %+9d", d, net, m, nm, v - net
				if (pass == 1 && v != net)
					diff = diff sprintf(" %s %+d;", n, v - net)
			}
			printf "\n"
			if (pass == 1) {
				tv += v; tp += p; td += d; tn += net; tm += m
				if (!alloc(n))
					tna += net
			}
		}
		if (pass == 1) {
			printf "%-16s %9d %9d %-5s", "total", tv, tp, tv == tp ? "yes" : "NO"
			if (dbench)
				printf " %9d %9d %9d %-5s %+9d", td, tn, tm, tna == tm ? "yes" : "NO", tv - tn
			printf "\n"
		}
	}
	print ""
	if (bad[1] bad[2] == "")
		print "vfsbench = prediction for every syscall (calls and failures)."
	else
		print "vfsbench != prediction:" bad[1] (bad[2] == "" ? "" : "; failures:" bad[2])
	if (dbench) {
		printf "dbench harness left out: kill %d (one per line), read %d (loadfile, 4 KiB at a time).\n", g(dc, "kill"), g(dc, "read")
		if (dbad[1] dbad[2] == "")
			print "dbench (net) = the dbench model for every syscall but the allocator'\''s."
		else
			print "dbench (net) != dbench model:" dbad[1] (dbad[2] == "" ? "" : "; failures:" dbad[2])
		print "vfsbench - dbench (net):" (diff == "" ? " none" : diff)
		print "(db-net: dbench less kill and read; n=m and the totals leave the allocator'\''s calls out)"
	}
	exit (bad[1] bad[2] dbad[1] dbad[2] != "")
}' src=v "$work/v.counts" src=p "$work/v.pred" src=d "$work/d.counts" \
	src=m "$work/d.pred" || exit 1
