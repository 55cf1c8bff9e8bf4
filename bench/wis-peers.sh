#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Suite wis's will-it-scale cases against will-it-scale's own binaries,
# by strace: open1 open2 open3 unlink1 unlink2 lock1 lock2 lseek1 lseek2
# dup1 read1 read2 pread1 pread2 pread3 pwrite1 pwrite2 pwrite3. What is
# compared is every system call of one vfsbench pass (-e posix --loops 1,
# between its two getrusage() calls, less its reads of /proc/thread-self)
# against the same number of consecutive calls of will-it-scale's loop
# (its task after the start poll(), the first 2 x N calls searched for
# the window, as a loop may start mid-cycle or after the testcase's own
# setup: read1 begins at the end of the file it wrote, pread1 creates its
# file first). The open, unlink and stat-like cases compare the whole
# pass; the fd cases (will-it-scale keeps one fd for its whole loop, a
# vfsbench pass opens and closes its handle) the pass less its open and
# last close. Calls are compared with their arguments and results: fds
# (and the results of dup and openat) as FD, buffers as BUF, mkstemp()'s
# names and ours as tmp/willitscale.XXXXXX (will-it-scale's are absolute,
# under /tmp; ours relative, in the shared client directory).
# pread3 and pwrite3 run with 2 tasks on each side, as their offset is the
# task's number times a page: each vfsbench client must match a task of
# its own. The peer-pass lines of a case's loadfile, when it has any, must
# be the distinct calls of the pass.
#
# usage: bench/wis-peers.sh [-w WIS] [-D DIR] [TEST...]
# -w: a will-it-scale checkout or its git directory (not packaged:
# git clone https://github.com/antonblanchard/will-it-scale; it needs
# libhwloc-dev); without it, only each pass against its loadfile's
# peer-pass lines (every case must have them: tests/e2e/t3007-wis-peers.sh);
# -D: where vfsbench works (default /dev/shm).
# Environment: VFSBENCH (the binary), CC (default cc), WIS_LOADS (where
# the wis-*.load files are; default the loadfiles/ beside bench/).
# will-it-scale runs in a private mount namespace (unshare -m, root) with a
# scratch directory of -D bound on /tmp.
# Exit status: 0 all identical, 1 a test differs, 2 bad usage, 3 a tool is
# missing or a build or run failed.
set -eu

die() {
	echo "wis-peers.sh: $*" >&2
	exit 3
}

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
all="open1 open2 open3 unlink1 unlink2 lock1 lock2 lseek1 lseek2 dup1 \
read1 read2 pread1 pread2 pread3 pwrite1 pwrite2 pwrite3"
wis_src=
base=/dev/shm
while getopts w:D:h o; do
	case $o in
	w) wis_src=$OPTARG ;;
	D) base=$OPTARG ;;
	h) sed -n '/^# usage/,/^# Exit/p' "$0"; exit 0 ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
tests=${*:-$all}
for t in $tests; do
	case " $all " in
	*" $t "*) ;;
	*) echo "wis-peers.sh: unknown test '$t' (one of: $all)" >&2; exit 2 ;;
	esac
done
CC=${CC:-cc}
VFSBENCH=$(bench_vfsbench)
[ -n "$VFSBENCH" ] && [ -x "$VFSBENCH" ] ||
	die "no vfsbench binary (build it, or set VFSBENCH)"
command -v strace >/dev/null || die "needs strace"
[ -d "$base" ] || die "no directory $base"
loads=$(cd "${WIS_LOADS:-$here/../loadfiles}" && pwd)

work=$(mktemp -d "${TMPDIR:-/tmp}/wis-peers.XXXXXX") || die "mktemp failed"
vdir=$(mktemp -d "$base/wis-peers.XXXXXX") || {
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

# norm: every call, fds (and the fds dup and openat return) as FD,
# buffers as BUF, will-it-scale's and vfsbench's file names alike
norm() {
	sed -E -e 's/^(read|pread64|pwrite64|lseek|dup|fcntl|close)\([0-9]+/\1(FD/' \
		-e 's/^(read|pread64|pwrite64)\(FD, "[^"]*"(\.\.\.)?,/\1(FD, BUF,/' \
		-e 's#"/?tmp/willitscale\.[A-Za-z0-9]{6}#"tmp/willitscale.XXXXXX#g' \
		-e 's/ +/ /g' \
		-e 's/^((dup|openat)\(.*\) = )[0-9]+$/\1FD/'
}

# the vfsbench client's pass, from its trace $1: fd cases less the open
# and the last close
pass_of() {
	awk '/getrusage/ { n++; next }
		/^openat\(AT_FDCWD, "\/proc\/thread-self\// { skip = 2; next }
		skip { skip--; next }
		n == 1' "$1" | norm >"$work/v.all"
	case $t in
	open* | unlink*) cat "$work/v.all" ;;
	*) sed '1d;$d' "$work/v.all" ;;
	esac
}

# window_in CALLS N: the first position from which the vfsbench pass
# ($work/v.calls, N lines) is in CALLS, or nothing
window_in() {
	k=1
	while [ "$k" -le "$2" ]; do
		tail -n "+$k" "$1" | head -n "$2" >"$work/w.win"
		if cmp -s "$work/v.calls" "$work/w.win"; then
			echo "$k"
			return
		fi
		k=$((k + 1))
	done
}

[ -z "$wis_src" ] || src main.c >"$work/main.c" || die "$wis_src: no main.c"
status=0
for t in $tests; do
	lf=$loads/wis-$t.load
	# the offset of pread3 and pwrite3 is the task's: two of each
	case $t in
	pread3 | pwrite3) tasks=2 ;;
	*) tasks=1 ;;
	esac
	if [ -n "$wis_src" ]; then
		src "tests/$t.c" >"$work/$t.c" || die "$wis_src: no tests/$t.c"
		# will-it-scale's Makefile: -Wall -O2 -g, -DTHREADS for _threads
		"$CC" -Wall -O2 -g -DTHREADS "$work/main.c" "$work/$t.c" \
			-pthread -lhwloc -o "$work/$t" >"$work/cc.log" 2>&1 ||
			die "cannot build will-it-scale $t: $(tail -n 3 "$work/cc.log") (libhwloc-dev?)"
	fi

	rm -f "$work"/v.tr.*
	strace -ff -qq -o "$work/v.tr" "$VFSBENCH" -q -e posix -D "$vdir" \
		-c "$lf" --cwd shared --loops 1 "$tasks" \
		>"$work/v.out" 2>&1 ||
		die "strace of vfsbench wis-$t failed: $(tail -n 3 "$work/v.out")"
	# the clients in the order of their thread ids: client 0 first
	vts=$(grep -l '^getrusage' "$work"/v.tr.* | sort -t. -k3,3n) ||
		die "no client thread in the strace of vfsbench wis-$t"
	[ "$(echo "$vts" | wc -l)" -eq "$tasks" ] ||
		die "vfsbench wis-$t: not $tasks client thread(s) in its strace"

	# the peer-pass lines: client 0's distinct calls, without results
	if grep -q '^# peer-pass: ' "$lf"; then
		pass_of "$(echo "$vts" | head -n 1)" |
			sed 's/ = [^=]*$//' | awk '!seen[$0]++' >"$work/v.set"
		sed -n 's/^# peer-pass: //p' "$lf" >"$work/p.decl"
		if cmp -s "$work/p.decl" "$work/v.set"; then
			echo "strace wis $t: the peer-pass lines are the pass's calls"
		else
			echo "strace wis $t: peer-pass lines DIFFERENT (< loadfile, > vfsbench)"
			diff "$work/p.decl" "$work/v.set" | head -n 20 || :
			status=1
		fi
	elif [ -z "$wis_src" ]; then
		echo "strace wis $t: no peer-pass lines"
		status=1
	fi
	[ -n "$wis_src" ] || continue

	# its /tmp/willitscale.X in a scratch directory bound on /tmp in a
	# private mount namespace: the host's /tmp is never touched (an
	# interrupted run leaves its file), the traces beside it in $base
	rm -rf "$vdir/wtmp" "$vdir/wtr"
	mkdir "$vdir/wtmp" "$vdir/wtr"
	cp "$work/$t" "$vdir/wtr/$t"
	unshare -m --propagation private sh -c 'mount --bind "$1" /tmp &&
		exec timeout -s INT 2 strace -ff -qq -o "$2/w.tr" "$2/$3" -t "$4" -s 1' \
		sh "$vdir/wtmp" "$vdir/wtr" "$t" "$tasks" >/dev/null 2>&1 || :
	wts=$(grep -l '^poll(' "$vdir"/wtr/w.tr.*) ||
		die "no task in the strace of will-it-scale $t"

	# each client's pass in the loop of a task of its own
	used=
	c=0
	for vt in $vts; do
		pass_of "$vt" >"$work/v.calls"
		n=$(wc -l <"$work/v.calls")
		[ "$n" -gt 0 ] || die "vfsbench wis-$t: no calls in its pass"
		found=
		for wt in $wts; do
			case " $used " in *" $wt "*) continue ;; esac
			awk 'go; /^poll\(/ { go = 1 }' "$wt" | norm |
				head -n $((2 * n)) >"$work/w.calls"
			found=$(window_in "$work/w.calls" "$n")
			if [ -n "$found" ]; then
				used="$used $wt"
				break
			fi
		done
		if [ -n "$found" ]; then
			echo "strace wis $t client $c: identical, $n call(s), will-it-scale's loop from its call $found: $(sort "$work/v.calls" | uniq -c | awk '{ c = $1; $1 = ""; printf "%s x%s;", substr($0, 2), c }')"
		else
			echo "strace wis $t client $c: DIFFERENT (< vfsbench, > will-it-scale's first task)"
			awk 'go; /^poll\(/ { go = 1 }' "$(echo "$wts" | head -n 1)" |
				norm | head -n "$n" | diff "$work/v.calls" - |
				head -n 20 || :
			status=1
		fi
		c=$((c + 1))
	done
done
exit $status
