#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Soak test (opt-in; not part of `make check`): CLIENTS clients (default
# 100) run the shipped mixed loadfile for MINUTES minutes (default 10) on
# a tmpfs, in one long timed run. Meanwhile VmRSS and VmHWM of the
# vfsbench process are sampled every 10 s, and vfsbench's once-a-second
# progress lines (stderr, without -q) give ops/s over time. At the end it
# checks, and prints one verdict line:
#
#   - vfsbench exited 0 and left no work directory behind;
#   - no unexpected results (the report's unexpected column sums to 0 and
#     there is no "Unexpected results" section), no error or warning line
#     (but "warning: starved": more clients than CPUs is the point here);
#   - the results are in range: passes > 0, and the bytes moved fit the
#     passes exactly (mixed.load moves BPP = 548864 bytes a pass; a run
#     stopped by the clock may hold up to one partial pass per client, so
#     passes * BPP <= bytes < (passes + CLIENTS) * BPP);
#   - memory is flat: the VmRSS samples taken after the first minute (after
#     20 s in a 1-minute run) grow by at most SOAK_RSS_KB (default 4096
#     KiB) over the first of them, and VmHWM (the peak) grows by no more
#     than that either; 100 clients on a tmpfs make millions of passes in
#     10 minutes, so a leak of even a few bytes a pass would show;
#   - throughput is steady: the mean ops/s of the last minute is within
#     SOAK_OPS_PCT percent (default 25) of the mean of the first minute
#     (seconds 10 to 69: the first 10 s are the ramp up). The comparison
#     means most from 3 minutes up; on a busy shared machine ops/s moves
#     with the neighbours, hence the wide default.
#
# Usage:
#   sh bench/soak.sh [-D DIR] [-o LOGDIR] [MINUTES] [CLIENTS]
#
# -D DIR    run in DIR (default: a 1 GiB tmpfs this script mounts as root,
#           unmounted at the end, else /dev/shm)
# -o LOGDIR keep report.txt (stdout), progress.log (stderr), rss.log
#           (seconds VmRSS VmHWM, KiB) there (default: a new directory
#           under ${TMPDIR:-/tmp}, printed at the end)
#
# Environment: VFSBENCH (the binary; default build-gcc/src/vfsbench or
# src/vfsbench of this tree, else vfsbench on PATH), SOAK_RSS_KB,
# SOAK_OPS_PCT.
#
# Exit status: 0 PASS, 1 FAIL, 2 bad usage, 3 cannot run (no binary, no
# directory, interrupted).
#
# Example, from a build directory:
#   VFSBENCH=$PWD/src/vfsbench sh ../bench/soak.sh        # 10 min, 100
#   VFSBENCH=$PWD/src/vfsbench sh ../bench/soak.sh 2 100  # a quick check
set -u

usage() {
	cat <<EOF
usage: $0 [-D DIR] [-o LOGDIR] [MINUTES] [CLIENTS]
Soak test: CLIENTS clients (default 100) run the mixed loadfile for
MINUTES minutes (default 10) on a tmpfs; checks exit status, unexpected
results, the bytes per pass, RSS growth after the first minute and
ops/s of the first against the last minute. See the comment at the top.
EOF
}

die() {
	echo "soak.sh: $*" >&2
	exit 3
}

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
dir=
logdir=
while getopts D:o:h o; do
	case $o in
	D) dir=$OPTARG ;;
	o) logdir=$OPTARG ;;
	h)
		usage
		exit 0
		;;
	*)
		usage >&2
		exit 2
		;;
	esac
done
shift $((OPTIND - 1))
minutes=${1:-10}
clients=${2:-100}
case $minutes in
'' | *[!0-9]* | 0)
	usage >&2
	exit 2
	;;
esac
case $clients in
'' | *[!0-9]* | 0)
	usage >&2
	exit 2
	;;
esac
rss_kb=${SOAK_RSS_KB:-4096}
ops_pct=${SOAK_OPS_PCT:-25}

VFSBENCH=$(bench_vfsbench)
if [ -z "$VFSBENCH" ] || [ ! -x "$VFSBENCH" ]; then
	die "no vfsbench binary (build it, or set VFSBENCH)"
fi
[ -r /proc/self/status ] || die "no /proc: cannot sample RSS"

# Bytes pread and pwrite move in one pass of mixed.load: 4 x 64k + 4k +
# 16k + 16k written, 4k + 32k + 64k + 64k + 64k + 16k read.
BPP=548864

mnt=
pid=
sampler=
cleanup() {
	if [ -n "$sampler" ]; then
		kill "$sampler" 2>/dev/null
		wait "$sampler" 2>/dev/null
	fi
	if [ -n "$mnt" ]; then
		umount "$mnt" 2>/dev/null || umount -l "$mnt" 2>/dev/null
		rmdir "$mnt" 2>/dev/null
	fi
}
trap cleanup EXIT
# On SIGINT or SIGTERM stop vfsbench with one SIGINT (it prints its
# partial report and cleans up). At a terminal vfsbench runs in its own
# process group (set -m below), so a ^C reaches only this script and
# vfsbench gets exactly one signal: a second would make it skip cleanup.
interrupted() {
	trap '' INT TERM
	if [ -n "$pid" ]; then
		kill -INT "$pid" 2>/dev/null
		wait "$pid"
	fi
	die "interrupted; partial results in $logdir"
}
trap interrupted INT TERM

if [ -z "$dir" ]; then
	if [ "$(id -u)" -eq 0 ]; then
		mnt=$(mktemp -d "${TMPDIR:-/tmp}/soak-mnt.XXXXXX") ||
			die "cannot make a mount point"
		if mount -t tmpfs -o size=1g vfsbench-soak "$mnt" 2>/dev/null; then
			dir=$mnt
		else
			rmdir "$mnt"
			mnt=
		fi
	fi
	if [ -z "$dir" ]; then
		if [ ! -d /dev/shm ] || [ ! -w /dev/shm ]; then
			die "no tmpfs: run as root, or give -D DIR"
		fi
		dir=/dev/shm
	fi
fi
[ -d "$dir" ] || die "no directory $dir"
if [ -z "$logdir" ]; then
	logdir=$(mktemp -d "${TMPDIR:-/tmp}/soak.XXXXXX") ||
		die "cannot make a log directory"
else
	mkdir -p "$logdir" || die "cannot make $logdir"
fi
report=$logdir/report.txt
progress=$logdir/progress.log
rsslog=$logdir/rss.log
: >"$rsslog"

fstype=$(stat -f -c %T "$dir" 2>/dev/null || echo unknown)
echo "soak: $clients clients, mixed.load, $minutes min on $dir ($fstype);" \
	"logs in $logdir" >&2

start=$(date +%s)
# job control only matters (and only works) at a terminal
if [ -t 0 ]; then set -m; fi
"$VFSBENCH" -c mixed -t "${minutes}m" --warmup 0 -D "$dir" "$clients" \
	>"$report" 2>"$progress" &
pid=$!

# The sampler: seconds since start, VmRSS and VmHWM in KiB, every 10 s.
(
	while kill -0 "$pid" 2>/dev/null; do
		awk -v t=$(($(date +%s) - start)) '
			$1 == "VmRSS:" { r = $2 } $1 == "VmHWM:" { h = $2 }
			END { if (r != "") print t, r, h }' \
			"/proc/$pid/status" 2>/dev/null >>"$rsslog"
		sleep 10
	done
) &
sampler=$!
set +m

rc=0
wait "$pid" || rc=$?
pid=
kill "$sampler" 2>/dev/null
wait "$sampler" 2>/dev/null
sampler=

fail=

# exit status, and nothing left behind
[ "$rc" -eq 0 ] || fail="$fail exit=$rc"
for w in "$dir"/vfsbench.*; do
	[ -e "$w" ] && fail="$fail left:$w"
done

# unexpected results, errors, warnings
unexp=$(awk '$1 == "Operation" { t = 1; s = 0; next }
	$1 == "Unexpected" || $1 == "Total:" { t = 0 }
	t { s += $NF }
	END { print s + 0 }' "$report")
[ "$unexp" -eq 0 ] || fail="$fail unexpected=$unexp"
grep -q "^Unexpected results" "$report" && fail="$fail unexpected-section"
# (not "warning: starved": more clients than CPUs is the point here)
msgs=$(cat "$report" "$progress" | grep -e "^error:" -e "^warning:" \
	-e "^fatal:" -e "^BUG:" | grep -c -v "^warning: starved")
[ "$msgs" -eq 0 ] || fail="$fail messages=$msgs"

# passes and bytes: passes * BPP <= bytes < (passes + clients) * BPP
read -r passes bytes rest <<EOF
$(sed -n 's/^Total: .*(\([0-9]*\) passes, \([0-9]*\) bytes,.*/\1 \2/p' "$report") 0 0
EOF
range=$(awk -v p="$passes" -v b="$bytes" -v c="$clients" -v k=$BPP \
	'BEGIN { r = "bad"; if (p > 0 && b >= p * k && b < (p + c) * k) r = "ok"; print r }')
[ "$range" = ok ] || fail="$fail bytes=$bytes/passes=$passes"

# RSS: the samples from the end of the first minute on (from 20 s in a
# 1-minute run)
settle=60
[ "$minutes" -ge 2 ] || settle=20
read -r rss_base rss_max hwm_base hwm_end <<EOF
$(awk -v settle="$settle" '$1 >= settle {
		if (base == "") { base = $2; hbase = $3 }
		if ($2 > max) max = $2
		hwm = $3
	}
	END { if (base == "") print "0 0 0 0"; else print base, max, hbase, hwm }' \
	"$rsslog")
EOF
if [ "$rss_base" -eq 0 ]; then
	fail="$fail no-rss-samples-after-${settle}s"
else
	[ $((rss_max - rss_base)) -le "$rss_kb" ] ||
		fail="$fail rss-growth=$((rss_max - rss_base))KiB"
	[ $((hwm_end - hwm_base)) -le "$rss_kb" ] ||
		fail="$fail hwm-growth=$((hwm_end - hwm_base))KiB"
fi

# ops/s: progress lines "N clients  execute  T s  X ops/s  Y MB/s"
read -r ops_first ops_last ops_delta <<EOF
$(awk -v last=$((minutes * 60)) '
	$2 == "clients" && $3 == "execute" && $5 == "s" && $7 == "ops/s" {
		t = $4 + 0
		if (t >= 10 && t < 70) { a += $6; na++ }
		if (t > last - 60 && t <= last) { b += $6; nb++ }
	}
	END {
		ma = na ? a / na : 0; mb = nb ? b / nb : 0
		d = "nan"
		if (ma > 0)
			d = sprintf("%+.1f", 100 * (mb - ma) / ma)
		printf "%.0f %.0f %s\n", ma, mb, d
	}' "$progress")
EOF
steady=$(awk -v d="$ops_delta" -v p="$ops_pct" \
	'BEGIN { r = "bad"; if (d != "nan" && d + 0 <= p + 0 && -d <= p + 0) r = "ok"; print r }')
[ "$steady" = ok ] || fail="$fail ops/s-first-last=${ops_delta}%"

total=$(sed -n 's/^Total: \([0-9.]*\) ops\/s  \([0-9.]*\) MB\/s.*/\1 ops\/s \2 MB\/s/p' "$report")
verdict=PASS
[ -n "$fail" ] && verdict=FAIL
printf 'soak: %s  %s clients  %s min  exit %s  unexpected %s  %s  passes %s  bytes %s\n' \
	"$verdict" "$clients" "$minutes" "$rc" "$unexp" "$total" "$passes" "$bytes"
printf 'soak: ops/s first minute %s, last minute %s (%s%%, bound %s%%)\n' \
	"$ops_first" "$ops_last" "$ops_delta" "$ops_pct"
printf 'soak: VmRSS after %s s %s KiB, max %s KiB (+%s, bound %s); VmHWM %s -> %s KiB\n' \
	"$settle" "$rss_base" "$rss_max" "$((rss_max - rss_base))" "$rss_kb" \
	"$hwm_base" "$hwm_end"
[ -n "$fail" ] && printf 'soak: failed:%s\n' "$fail"
printf 'soak: logs in %s\n' "$logdir"
[ -z "$fail" ]
