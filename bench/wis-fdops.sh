#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Suite wis's fd cases against will-it-scale's own binaries, by strace:
# lock1 lock2 lseek1 lseek2 dup1 read1 read2. will-it-scale keeps one fd
# for its whole loop, a vfsbench pass opens and closes its handle, so what
# is compared is the calls on the fd: the vfsbench pass of client 0
# (-e posix --loops 1, between its two getrusage() calls, less its reads
# of /proc/thread-self and the pass's open and last close), against the
# same number of consecutive calls of will-it-scale's loop (its task after
# the start poll(), the first 2 x N calls searched for the window, as a
# loop may start mid-cycle: read1 begins at the end of the file it wrote).
# Compared: read, lseek, dup, fcntl and close, with their arguments and
# results; fds (and dup's result) as FD, buffers as BUF.
#
# usage: bench/wis-fdops.sh -w WIS [-D DIR] [TEST...]
# -w: a will-it-scale checkout or its git directory (not packaged:
# git clone https://github.com/antonblanchard/will-it-scale; it needs
# libhwloc-dev); -D: where vfsbench works (default /dev/shm).
# Environment: VFSBENCH (the binary), CC (default cc).
# will-it-scale runs in a private mount namespace (unshare -m, root) with a
# scratch directory of -D bound on /tmp.
# Exit status: 0 all identical, 1 a test differs, 2 bad usage, 3 a tool is
# missing or a build or run failed.
set -eu

die() {
	echo "wis-fdops.sh: $*" >&2
	exit 3
}

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
all="lock1 lock2 lseek1 lseek2 dup1 read1 read2"
wis_src=
base=/dev/shm
while getopts w:D:h o; do
	case $o in
	w) wis_src=$OPTARG ;;
	D) base=$OPTARG ;;
	h) sed -n '16,24p' "$0"; exit 0 ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
tests=${*:-$all}
for t in $tests; do
	case " $all " in
	*" $t "*) ;;
	*) echo "wis-fdops.sh: unknown test '$t' (one of: $all)" >&2; exit 2 ;;
	esac
done
[ -n "$wis_src" ] || { echo "wis-fdops.sh: -w WIS is required" >&2; exit 2; }
CC=${CC:-cc}
VFSBENCH=$(bench_vfsbench)
[ -n "$VFSBENCH" ] && [ -x "$VFSBENCH" ] ||
	die "no vfsbench binary (build it, or set VFSBENCH)"
command -v strace >/dev/null || die "needs strace"
[ -d "$base" ] || die "no directory $base"
loads=$(cd "$here/../loadfiles" && pwd)

work=$(mktemp -d "${TMPDIR:-/tmp}/wis-fdops.XXXXXX") || die "mktemp failed"
vdir=$(mktemp -d "$base/wis-fdops.XXXXXX") || {
	rm -rf "$work"
	die "mktemp in $base failed"
}
trap 'rm -rf "$work" "$vdir"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# src FILE: a file of the checkout or of its git directory
src() {
	if [ -f "$wis_src/main.c" ]; then
		cat "$wis_src/$1"
	else
		git --git-dir="$wis_src" show "HEAD:$1"
	fi
}

# norm: the fd calls, fds and dup's result as FD, buffers as BUF
norm() {
	sed -n -E 's/^(read|lseek|dup|fcntl|close)\([0-9]+/\1(FD/p' |
		sed -E -e 's/^read\(FD, "[^"]*"(\.\.\.)?,/read(FD, BUF,/' \
			-e 's/^(dup\(FD\) += )[0-9]+$/\1FD/' -e 's/ +/ /g'
}

src main.c >"$work/main.c" || die "$wis_src: no main.c"
status=0
for t in $tests; do
	src "tests/$t.c" >"$work/$t.c" || die "$wis_src: no tests/$t.c"
	# will-it-scale's Makefile: -Wall -O2 -g, -DTHREADS for _threads
	"$CC" -Wall -O2 -g -DTHREADS "$work/main.c" "$work/$t.c" -pthread \
		-lhwloc -o "$work/$t" >"$work/cc.log" 2>&1 ||
		die "cannot build will-it-scale $t: $(tail -n 3 "$work/cc.log") (libhwloc-dev?)"

	rm -f "$work"/v.tr.*
	strace -ff -qq -o "$work/v.tr" "$VFSBENCH" -q -e posix -D "$vdir" \
		-c "$loads/wis-$t.load" --cwd shared --loops 1 1 \
		>"$work/v.out" 2>&1 ||
		die "strace of vfsbench wis-$t failed: $(tail -n 3 "$work/v.out")"
	vt=$(grep -l '^getrusage' "$work"/v.tr.* | head -n 1) ||
		die "no client thread in the strace of vfsbench wis-$t"
	awk '/getrusage/ { n++; next }
		/^openat\(AT_FDCWD, "\/proc\/thread-self\// { skip = 2; next }
		skip { skip--; next }
		n == 1' "$vt" | norm | sed '$d' >"$work/v.calls"
	n=$(wc -l <"$work/v.calls")
	[ "$n" -gt 0 ] || die "vfsbench wis-$t: no fd calls in its pass"

	# its /tmp/willitscale.X in a scratch directory bound on /tmp in a
	# private mount namespace: the host's /tmp is never touched (an
	# interrupted run leaves its file), the traces beside it in $base
	rm -rf "$vdir/wtmp" "$vdir/wtr"
	mkdir "$vdir/wtmp" "$vdir/wtr"
	cp "$work/$t" "$vdir/wtr/$t"
	unshare -m --propagation private sh -c 'mount --bind "$1" /tmp &&
		exec timeout -s INT 2 strace -ff -qq -o "$2/w.tr" "$2/$3" -t 1 -s 1' \
		sh "$vdir/wtmp" "$vdir/wtr" "$t" >/dev/null 2>&1 || :
	wt=$(grep -l '^poll(' "$vdir"/wtr/w.tr.* | head -n 1) ||
		die "no task in the strace of will-it-scale $t"
	awk 'go; /^poll\(/ { go = 1 }' "$wt" | norm |
		head -n $((2 * n)) >"$work/w.calls"
	found=
	k=1
	while [ "$k" -le "$n" ]; do
		tail -n "+$k" "$work/w.calls" | head -n "$n" >"$work/w.win"
		if cmp -s "$work/v.calls" "$work/w.win"; then
			found=$k
			break
		fi
		k=$((k + 1))
	done
	if [ -n "$found" ]; then
		echo "strace wis $t: identical, $n call(s), will-it-scale's loop from its call $found: $(sort "$work/v.calls" | uniq -c | awk '{ c = $1; $1 = ""; printf "%s x%s;", substr($0, 2), c }')"
	else
		echo "strace wis $t: DIFFERENT (< vfsbench, > will-it-scale)"
		head -n "$n" "$work/w.calls" | diff "$work/v.calls" - | head -n 20 || :
		status=1
	fi
done
exit $status
