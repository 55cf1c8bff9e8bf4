#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# vfsbench against the peers that run the same system calls, each measured
# the way the peer measures, side by side, interleaved, over several rounds:
#
#   wis     will-it-scale's open1, open2, unlink1, unlink2, and stat1 (a
#           testcase of ours in its style, bench/wis-stat1.c, as upstream
#           has none), built from a checkout the caller names (-w; it is
#           not packaged: git clone https://github.com/antonblanchard/will-it-scale),
#           against bench/peers/wis-*.load. Figure: passes per second
#           (will-it-scale's "average:", iterations per second summed over
#           the tasks, after its 5 s warmup), at each task count of -n.
#           will-it-scale runs with -n (no affinity: vfsbench does not pin
#           its clients) in a chroot of a directory on the -D filesystem
#           whose /tmp is a plain directory, so its "/tmp/willitscale.X"
#           walks two components of that tmpfs, as vfsbench's
#           "tmp/willitscale.N" from its shared client directory does.
#           Second figure, what to trust on a loaded machine: CPU ns (user
#           + system) per pass, will-it-scale's whole process (/usr/bin/time)
#           over all the iterations it counted, vfsbench's client threads
#           over the measured passes (its JSON).
#           The chroot gets /usr, /sys and /proc by bind mounts in a private
#           mount namespace (unshare -m) that ends with the run: nothing is
#           mounted on the host, and the directory is removed with rmdir.
#   fsmark  fs_mark -s 0 -S 0 -L 1 -n F -t N: empty files created in one
#           directory by N processes, against a loadfile of the same calls
#           (mkdir d/ = EEXIST, open O_RDWR|O_CREAT|O_TRUNC 0666, a write
#           of 0 bytes, close; vfsbench writes with pwrite(2), the one
#           call that differs) with --cwd shared --fs-struct private
#           --fd-table private --loops 1. Figure: files per second as
#           fs_mark computes it, the sum over the processes of files /
#           that process's loop time (vfsbench: the clients' pass times).
#   bonnie  bonnie++'s six file phases (-s 0 -n B:0:0:1: B*1024 empty
#           files in one directory; sequential create, stat, delete, then
#           random create, stat, delete), each against a vfsbench run of
#           the same calls (--loops 1; the files a phase needs are made in
#           [setup]). Figure: files per second over the phase. bonnie++
#           prints "+++++" for a phase shorter than 0.5 s, so its phase
#           times are taken where bonnie++ takes them: between its
#           getrusage() calls, from strace --seccomp-bpf -e getrusage,sync
#           -ttt -T (only those calls stop; the others run at full speed),
#           and its own figures are shown beside them where it gives any.
#           Its create and delete phases include a sync(2) of the whole
#           system, which vfsbench cannot issue: the sync time is shown
#           and a second ratio leaves it out.
#
# Where vfsbench has --latency-sample (from its --help), a second vfsbench
# side times one op in 64; its ratio is shown too.
# Each pair of runs alternates which side goes first. The ratio of a pair is
# vfsbench / peer (above 1: vfsbench does more per second); the table gives
# the medians of the pairs' ratios. -S first checks by strace that one pass
# of each side issues the same calls (every peer found); -C does only that
# and then exits (tests/e2e/t3003-peers.sh runs it without the peers: then
# each wis loadfile's pass is checked against its "peer-pass" lines).
set -eu

usage() {
	cat <<EOF
usage: $0 [-w WIS] [-r ROUNDS] [-t SECONDS] [-n "TASKS..."] [-D DIR]
	[-m threads|processes] [-F FILES] [-B N] [-S | -C] [PEER|TEST...]

PEER: wis fsmark bonnie (default: all whose tools are found); TEST: a wis
test, open1 open2 unlink1 unlink2 stat1 (implies wis).
-w WIS: a will-it-scale checkout, or its git directory (a read-only mirror
works); without it the wis part is skipped (get it with
git clone https://github.com/antonblanchard/will-it-scale; it needs
libhwloc-dev).
-r ROUNDS (default 3); -t SECONDS measured per wis run (will-it-scale -s,
after its 5 s warmup; vfsbench -t, after --warmup 1s; default 3); -n the
task/client counts (default "1 2"; bonnie++ runs with 1 only); -D the
filesystem (default /dev/shm, a tmpfs); -m threads (default: will-it-scale's
_threads binaries, vfsbench's defaults) or processes (the _processes
binaries, vfsbench --fs-struct private --fd-table private);
-F files per fs_mark process (default 20000); -B bonnie++'s -n, in 1024s of
files (default 128).
fs_mark: apt-get install fsmark; bonnie++: apt-get install bonnie++;
strace (apt-get install strace) for -S, -C and the bonnie++ phase times.
Environment: VFSBENCH (the binary), CC (default cc), AWK, TMPDIR.
Exit status: 0 ok, 1 the two sides of a check issue different calls,
2 bad usage, 3 a tool is missing or a run failed.
EOF
}

die() {
	echo "peers.sh: $*" >&2
	exit 3
}

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
# the wis loadfiles (PEER_LOADS: another copy, for tests of the check)
loads=${PEER_LOADS:-$here/peers}
wis_src=
rounds=3
secs=3
counts="1 2"
base=/dev/shm
mode=threads
fsm_files=20000
bon_n=128
check=0
while getopts w:r:t:n:D:m:F:B:SCh o; do
	case $o in
	w) wis_src=$OPTARG ;;
	r) rounds=$OPTARG ;;
	t) secs=$OPTARG ;;
	n) counts=$OPTARG ;;
	D) base=$OPTARG ;;
	m) mode=$OPTARG ;;
	F) fsm_files=$OPTARG ;;
	B) bon_n=$OPTARG ;;
	S) check=1 ;;
	C) check=2 ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
for v in "$rounds" "$secs" "$fsm_files" "$bon_n" $counts; do
	case $v in
	'' | *[!0-9]* | 0) echo "peers.sh: '$v' is not a positive integer" >&2
		exit 2 ;;
	esac
done
[ -n "$counts" ] || { echo "peers.sh: -n needs task counts" >&2; exit 2; }
case $mode in
threads) vmode= ;;
processes) vmode="--fs-struct private --fd-table private" ;;
*) echo "peers.sh: -m '$mode': threads or processes" >&2; exit 2 ;;
esac
all_wis="open1 open2 unlink1 unlink2 stat1"
peers=
wis_tests=
for a in "$@"; do
	case $a in
	wis) wis_tests=$all_wis; peers="$peers wis" ;;
	fsmark | bonnie) peers="$peers $a" ;;
	open1 | open2 | unlink1 | unlink2 | stat1)
		wis_tests="$wis_tests $a"; peers="$peers wis" ;;
	*) echo "peers.sh: unknown peer or test '$a'" >&2; usage >&2; exit 2 ;;
	esac
done
if [ -z "$peers" ]; then
	peers="wis fsmark bonnie"
	wis_tests=$all_wis
fi
want() {
	case " $peers " in *" $1 "*) return 0 ;; esac
	return 1
}

AWK=${AWK:-awk}
CC=${CC:-cc}
VFSBENCH=$(bench_vfsbench)
[ -n "$VFSBENCH" ] && [ -x "$VFSBENCH" ] ||
	die "no vfsbench binary (build it, or set VFSBENCH)"
command -v "$AWK" >/dev/null || die "$AWK is not installed"
[ -d "$base" ] || die "no directory $base"
if [ "$check" != 0 ]; then
	command -v strace >/dev/null || die "-S and -C need strace"
fi
# the sampled side, where this vfsbench has the option
sample=
"$VFSBENCH" --help 2>&1 | grep -q -- '--latency-sample' && sample=64

work=$(mktemp -d "${TMPDIR:-/tmp}/peers.XXXXXX") || die "mktemp failed"
vdir=$(mktemp -d "$base/peers.XXXXXX") || { rm -rf "$work"; die "mktemp in $base failed"; }
root=
cleanup() {
	rm -rf "$work" "$vdir"
	# the chroot: its mount points are empty directories here (the mounts
	# lived in a namespace that is gone); rmdir, never rm -r, for them
	if [ -n "$root" ]; then
		rm -rf "${root:?}/tmp" "${root:?}/wis" "${root:?}/etc"
		rm -f "$root/lib" "$root/lib64" "$root/bin"
		rmdir "$root/usr" "$root/sys" "$root/proc" "$root" ||
			echo "peers.sh: $root left in place" >&2
	fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
status=0
l=$work/load
mkdir "$l"

machine() {
	echo "machine: $(getconf _NPROCESSORS_ONLN) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg), $(uname -r); -D $base ($(df -P "$base" | "$AWK" 'NR == 2 { print $1 }'))"
}
load1() {
	cut -d' ' -f1 /proc/loadavg
}

# vb LOADFILE OUT ARGS...: one vfsbench run, its report in OUT.
vb() {
	vb_f=$1 vb_o=$2
	shift 2
	"$VFSBENCH" -q -D "$vdir" -c "$vb_f" "$@" >"$vb_o" 2>&1 ||
		die "vfsbench -c $vb_f $* failed: $(tail -n 3 "$vb_o")"
}

# passes/s of a vfsbench report
vb_passes() {
	"$AWK" '/^Total:/ { for (i = 2; i < NF; i++)
		if ($(i + 1) == "passes/s") print $i }' "$1"
}

# FILES/s of a vfsbench JSON of one --loops 1 run, fs_mark's way: the sum
# over the clients of FILES / that client's pass time
vb_files() {
	jq -r --argjson n "$2" '[.runs[0].clients_detail[] |
		$n / (.elapsed_ns / 1e9)] | add' "$1"
}

# --- strace normalisation ------------------------------------------------
# the calls a pass is made of, without results, fds, addresses, struct
# contents, the leading / of an absolute path and mkstemp's random six
calls='openat|newfstatat|statx|close|unlink|unlinkat|mkdir|write|pwrite64|getdents64|sync|fchdir|chdir|rmdir'
# (and with norm_names=1, bonnie++'s names as NAME, before a random one
# like "...0x5..." could be taken for an address)
norm_names=0
norm() {
	if [ "$norm_names" = 1 ]; then
		sed -E 's/"[0-9a-zA-Z]{10,22}"/"NAME"/g' "$1"
	else
		cat "$1"
	fi | sed -n -E "s/^([0-9]+ +)?(($calls)\\(.*)/\\2/p" |
		sed -E -e 's/ *= [^=]*$//' \
			-e 's/0x[0-9a-f]+/ADDR/g' \
			-e 's/^(close|write|pwrite64|getdents64)\([0-9]+/\1(FD/' \
			-e 's/\{[^}]*\}/{...}/g' \
			-e 's/"\//"/' \
			-e 's/willitscale\.[A-Za-z0-9]{6}/willitscale.XXXXXX/g'
}

# vb_pass LOOPS LOADFILE OUT ARGS...: the normalised calls of one pass of
# vfsbench's client 0 (run with --loops LOOPS, 1 or 2: between its two
# getrusage() calls, less its reads of /proc/thread-self (schedstat,
# sched, stat: an open, a read and a close each), then divided by LOOPS).
vb_pass() {
	vp_k=$1 vp_f=$2 vp_o=$3
	shift 3
	rm -f "$work"/v.tr.*
	strace -ff -qq -o "$work/v.tr" "$VFSBENCH" -q -D "$vdir" -c "$vp_f" \
		--loops "$vp_k" "$@" 1 >"$work/vp.out" 2>&1 ||
		die "strace of vfsbench -c $vp_f failed: $(tail -n 3 "$work/vp.out")"
	vp_t=$(grep -l '^getrusage' "$work"/v.tr.* | head -n 1) ||
		die "no client thread in the strace of vfsbench -c $vp_f"
	"$AWK" '/getrusage/ { n++; next }
		/^openat\(AT_FDCWD, "\/proc\/thread-self\// { skip = 2; next }
		skip { skip--; next }
		n == 1' "$vp_t" >"$work/v1.tr"
	norm "$work/v1.tr" >"$work/v.calls"
	vp_n=$(($(wc -l <"$work/v.calls") / vp_k))
	head -n "$vp_n" "$work/v.calls" >"$vp_o"
}

# same NAME A B: A and B hold the same calls; say so or show the difference
same() {
	if [ -s "$2" ] && cmp -s "$2" "$3"; then
		echo "strace $1: identical, $(wc -l <"$2") line(s): $(tr '\n' ';' <"$2" | tr -s ' ' | cut -c1-160)"
	else
		echo "strace $1: DIFFERENT (< vfsbench, > peer)"
		diff "$2" "$3" | head -n 20 || :
		status=1
	fi
}

# --- will-it-scale ---------------------------------------------------------
wis_ready=0
wis_setup() {
	if [ -z "$wis_src" ]; then
		echo "wis: skipped: no will-it-scale checkout (-w DIR; git clone https://github.com/antonblanchard/will-it-scale)"
		return 1
	fi
	w=$work/wis
	mkdir -p "$w/tests"
	if [ -f "$wis_src/main.c" ]; then
		cp "$wis_src/main.c" "$w/"
		for t in $wis_tests; do
			[ "$t" = stat1 ] || cp "$wis_src/tests/$t.c" "$w/tests/"
		done
	else
		# a git directory (a bare clone or a mirror)
		git --git-dir="$wis_src" show HEAD:main.c >"$w/main.c" ||
			die "$wis_src: neither a will-it-scale checkout nor its git directory"
		for t in $wis_tests; do
			[ "$t" = stat1 ] && continue
			git --git-dir="$wis_src" show "HEAD:tests/$t.c" >"$w/tests/$t.c" ||
				die "$wis_src: no tests/$t.c"
		done
	fi
	cp "$here/wis-stat1.c" "$w/tests/stat1.c"
	command -v unshare >/dev/null && command -v chroot >/dev/null ||
		die "wis needs unshare and chroot (util-linux, coreutils)"
	[ -x /usr/bin/time ] || die "wis needs /usr/bin/time (apt-get install time)"
	command -v jq >/dev/null || die "wis needs jq (apt-get install jq)"
	root=$(mktemp -d "$base/peers-root.XXXXXX") || die "mktemp in $base failed"
	mkdir "$root/usr" "$root/sys" "$root/proc" "$root/tmp" "$root/wis" "$root/etc"
	for d in lib lib64 bin; do
		if [ -L "/$d" ]; then
			ln -s "$(readlink "/$d" | sed 's,^/,,')" "$root/$d"
		elif [ -d "/$d" ]; then
			die "/$d is not a link into /usr: the chroot needs a merged /usr"
		fi
	done
	cp /etc/ld.so.cache "$root/etc/" 2>/dev/null || :
	# will-it-scale's Makefile: CFLAGS -Wall -O2 -g, -DTHREADS for _threads
	def=
	[ "$mode" = threads ] && def=-DTHREADS
	for t in $wis_tests; do
		# shellcheck disable=SC2086 # $def: one flag or none
		"$CC" -Wall -O2 -g $def "$w/main.c" "$w/tests/$t.c" -pthread -lhwloc \
			-o "$root/wis/${t}_$mode" >"$w/cc.log" 2>&1 ||
			die "cannot build will-it-scale $t: $(tail -n 3 "$w/cc.log") (libhwloc-dev?)"
	done
	wis_ready=1
}

# wis_ns CMD...: CMD in a private mount namespace, where the chroot has
# read-only binds of /usr and /sys and a proc
wis_mounts='r=$1; shift
	mount --rbind /usr "$r/usr" && mount -o remount,bind,ro "$r/usr" &&
		mount --rbind /sys "$r/sys" && mount -o remount,bind,ro "$r/sys" &&
		mount -t proc proc "$r/proc" && exec "$@"'
wis_ns() {
	unshare -m --propagation private sh -c "$wis_mounts" sh "$root" "$@"
}

# wis_run TEST N: "iterations/s cpu-ns/iteration"; the CPU time (user +
# system, /usr/bin/time, 10 ms resolution) of the whole process over every
# iteration it counted (the sum of its "total:" lines, warmup included)
wis_run() {
	rm -rf "$root"/tmp/willitscale.*
	/usr/bin/time -f '%U %S' -o "$work/w.time" \
		unshare -m --propagation private sh -c "$wis_mounts" sh "$root" \
		chroot "$root" "/wis/${1}_$mode" -n -t "$2" -s "$secs" \
		>"$work/w.out" 2>&1 || die "will-it-scale $1 -t $2 failed: $(tail -n 3 "$work/w.out")"
	"$AWK" -v tf="$work/w.time" '
		/^average:/ { a = substr($0, 9) }
		/^min:.* total:/ { sub(/.*total:/, ""); it += $0 }
		END { getline tl < tf; split(tl, c, " ")
			if (a != "" && it > 0) printf "%s %.1f\n", a, (c[1] + c[2]) * 1e9 / it }' "$work/w.out"
}

# wis_vb TEST N [--latency-sample K]: "passes/s cpu-ns/pass" (the client
# threads' CPU time over the measured passes, from the JSON)
wis_vb() {
	t=$1 n=$2
	shift 2
	# shellcheck disable=SC2086 # $vmode: options
	vb "$loads/wis-$t.load" "$work/v.out" --cwd shared $vmode \
		-t "${secs}000ms" --warmup 1000ms --json "$work/v.json" "$@" "$n"
	echo "$(vb_passes "$work/v.out") $(jq -r '.runs[0] |
		(.rusage.user_s + .rusage.sys_s) * 1e9 / .passes' "$work/v.json")"
	rm -f "$work/v.json"
}

wis_check() {
	for t in $wis_tests; do
		lf=$loads/wis-$t.load
		# shellcheck disable=SC2086
		vb_pass 2 "$lf" "$work/v.pass" --cwd shared $vmode
		sed -n 's/^# peer-pass: //p' "$lf" >"$work/p.decl"
		same "wis $t, vfsbench vs the loadfile's peer-pass lines" \
			"$work/v.pass" "$work/p.decl"
		[ "$wis_ready" = 1 ] || continue
		rm -rf "$work"/w.tr.* "$root"/tmp/willitscale.*
		# a second of its loop is plenty; SIGINT ends it and strace
		wis_ns timeout -s INT 1.5 strace -ff -qq -o "$work/w.tr" \
			chroot "$root" "/wis/${t}_$mode" -n -t 1 -s 1 >/dev/null 2>&1 || :
		tf=$(grep -l '^poll(' "$work"/w.tr.* | head -n 1) ||
			die "no task in the strace of will-it-scale $t"
		"$AWK" 'go; /^poll\(/ { go = 1 }' "$tf" >"$work/w1.tr"
		norm "$work/w1.tr" | head -n "$(wc -l <"$work/v.pass")" >"$work/w.pass"
		same "wis $t, vfsbench vs will-it-scale" "$work/v.pass" "$work/w.pass"
	done
}

wis_bench() {
	echo "will-it-scale ($mode): TEST_$mode -n -t N -s $secs in a chroot on $base"
	echo "vfsbench: vfsbench -q -D DIR -c bench/peers/wis-TEST.load --cwd shared${vmode:+ $vmode} -t ${secs}000ms --warmup 1000ms --json F N${sample:+ (and the same with --latency-sample $sample)}"
	machine
	printf '%-5s %-8s %3s %5s %10s %10s %6s %8s %8s %6s' round test N load \
		'wis pass/s' 'vb pass/s' 'vb/wis' 'wis ns' 'vb ns' 'cpu'
	[ -n "$sample" ] && printf ' %10s %6s %8s %6s' "vb-s$sample" 'vs/wis' 'vs ns' 'cpu-s'
	printf '\n'
	: >"$work/wis.res"
	r=1
	while [ "$r" -le "$rounds" ]; do
		for t in $wis_tests; do
			for n in $counts; do
				ld=$(load1)
				s="0 0"
				if [ $((r % 2)) = 1 ]; then
					a=$(wis_run "$t" "$n")
					v=$(wis_vb "$t" "$n")
					[ -n "$sample" ] && s=$(wis_vb "$t" "$n" --latency-sample "$sample")
				else
					[ -n "$sample" ] && s=$(wis_vb "$t" "$n" --latency-sample "$sample")
					v=$(wis_vb "$t" "$n")
					a=$(wis_run "$t" "$n")
				fi
				[ -n "$a" ] && [ -n "$v" ] || die "$t -t $n: no figure"
				echo "$r $t $n $ld $a $v $s" | "$AWK" -v smp="$sample" '{
					# round test N load wis wcpu vb vcpu vbs scpu
					printf "%-5d %-8s %3d %5s %10.0f %10.0f %6.3f %8.1f %8.1f %6.3f",
					    $1, $2, $3, $4, $5, $7, $7 / $5, $6, $8, $6 / $8
					if (smp != "")
						printf " %10.0f %6.3f %8.1f %6.3f", $9, $9 / $5, $10, $6 / $10
					printf "\n" }'
				echo "$t $n $a $v $s" >>"$work/wis.res"
			done
		done
		r=$((r + 1))
	done
	echo
	"$AWK" -v smp="$sample" "$bench_median_awk"'
	{
		# test N wis wcpu vb vcpu vbs scpu
		k = $1 " " $2
		if (!(k in seen)) { seen[k] = 1; order[++nn] = k }
		w[k] = w[k] " " $3; v[k] = v[k] " " $5; q[k] = q[k] " " $5 / $3
		wc[k] = wc[k] " " $4; vc[k] = vc[k] " " $6; qc[k] = qc[k] " " $4 / $6
		if (smp != "") {
			s[k] = s[k] " " $7; qs[k] = qs[k] " " $7 / $3
			sc[k] = sc[k] " " $8; qsc[k] = qsc[k] " " $4 / $8
		}
	}
	END {
		printf "%-8s %3s %10s %10s %6s %8s %8s %6s", "test", "N", "wis pass/s",
		    "vb pass/s", "vb/wis", "wis ns", "vb ns", "cpu"
		if (smp != "")
			printf " %10s %6s %8s %6s", "vb-s" smp, "vs/wis", "vs ns", "cpu-s"
		printf "\n"
		for (i = 1; i <= nn; i++) {
			k = order[i]
			split(k, f, " ")
			printf "%-8s %3d %10.0f %10.0f %6.3f %8.1f %8.1f %6.3f", f[1], f[2],
			    median(w[k]), median(v[k]), median(q[k]), median(wc[k]),
			    median(vc[k]), median(qc[k])
			if (smp != "")
				printf " %10.0f %6.3f %8.1f %6.3f", median(s[k]), median(qs[k]),
				    median(sc[k]), median(qsc[k])
			printf "\n"
		}
		print "medians over the rounds. vb/wis: median of the pairs'\'' pass/s ratios;"
		print "ns: CPU ns (user + system) per pass; cpu: median of the pairs'\'' wis ns / vb ns"
		print "(both above 1 when vfsbench does more for the time, or for the CPU, it gets)"
		if (smp != "")
			print "vb-s" smp ", vs: vfsbench --latency-sample " smp
	}' "$work/wis.res"
	echo
}


# --- fs_mark -----------------------------------------------------------------
# fs_mark's names: 40 bytes, 16 of a time stamp (8 hex digits and 8 "~";
# here the last is the client's number), 24 random ones
fsm_load() {
	"$AWK" -v n="$fsm_files" 'BEGIN {
		srand(18)
		c = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		print "# fs_mark -s 0 -S 0 -L 1 -n " n " -d d: generated by bench/peers.sh"
		print "[setup]"
		print "mkdir d"
		print "[run]"
		for (i = 0; i < n; i++) {
			s = ""
			for (j = 0; j < 24; j++)
				s = s substr(c, int(rand() * 36) + 1, 1)
			f = "d//6b0ebb45~~~~~~~${client}" s
			print "mkdir d/ 777 EEXIST"
			print "open " f " rdwr,creat,trunc @1 666"
			print "pwrite @1 0 0"
			print "close @1"
		}
	}' >"$l/fsmark.load"
}

fsm_run() { # N: files/s
	d=$vdir/fsm
	rm -rf "$d"
	mkdir "$d"
	(cd "$d" && fs_mark -d d -s 0 -n "$fsm_files" -t "$1" -S 0 -L 1) >"$work/f.out" 2>&1 ||
		die "fs_mark -t $1 failed: $(tail -n 3 "$work/f.out")"
	rm -rf "$d"
	"$AWK" '/^FSUse%/ { getline; print $4 }' "$work/f.out"
}

fsm_vb() { # N [ARGS]: files/s
	n=$1
	shift
	vb "$l/fsmark.load" "$work/v.out" --cwd shared --fs-struct private \
		--fd-table private --loops 1 --json "$work/v.json" "$@" "$n"
	vb_files "$work/v.json" "$fsm_files"
	rm -f "$work/v.json"
}

fsm_check() {
	head -n 8 "$l/fsmark.load" >"$work/f1.load"
	vb_pass 2 "$work/f1.load" "$work/v.pass" --cwd shared --fs-struct private --fd-table private
	d=$vdir/fsm
	rm -rf "$d"
	mkdir "$d"
	(cd "$d" && strace -f -qq -o "$work/f.tr" fs_mark -d d -s 0 -n 3 -t 1 -S 0 -L 1) \
		>/dev/null 2>&1 || die "strace of fs_mark failed"
	rm -rf "$d"
	# the child's calls from its first file on; fs_mark's names random
	"$AWK" '/mkdir\("d\/"/ { go = 1 } go && !/fs_log/' "$work/f.tr" >"$work/f1.tr"
	norm "$work/f1.tr" | sed -E 's/"d\/\/[^"]*"/"d\/\/NAME"/' |
		head -n "$(wc -l <"$work/v.pass")" >"$work/f.pass"
	sed -E 's/"d\/\/[^"]*"/"d\/\/NAME"/; s/^pwrite64\(FD, "", 0, 0\)/write(FD, "", 0)/' \
		"$work/v.pass" >"$work/v.pass2"
	same "fsmark, vfsbench (its pwrite64(FD, \"\", 0, 0) read as write(FD, \"\", 0)) vs fs_mark" \
		"$work/v.pass2" "$work/f.pass"
}

fsm_bench() {
	echo "fs_mark: fs_mark -d d -s 0 -n $fsm_files -t N -S 0 -L 1, in a fresh directory on $base"
	echo "vfsbench: vfsbench -q -D DIR -c fsmark.load --cwd shared --fs-struct private --fd-table private --loops 1 --json F N${sample:+ (and with --latency-sample $sample)}"
	machine
	printf '%-5s %3s %5s %11s %11s %7s' round N load 'fsm files/s' 'vb files/s' 'vb/fsm'
	[ -n "$sample" ] && printf ' %11s %7s' "vb-s$sample" 'vbs/fsm'
	printf '\n'
	: >"$work/fsm.res"
	r=1
	while [ "$r" -le "$rounds" ]; do
		for n in $counts; do
			ld=$(load1)
			s=0
			if [ $((r % 2)) = 1 ]; then
				a=$(fsm_run "$n")
				v=$(fsm_vb "$n")
				[ -n "$sample" ] && s=$(fsm_vb "$n" --latency-sample "$sample")
			else
				[ -n "$sample" ] && s=$(fsm_vb "$n" --latency-sample "$sample")
				v=$(fsm_vb "$n")
				a=$(fsm_run "$n")
			fi
			[ -n "$a" ] && [ -n "$v" ] || die "fs_mark -t $n: no figure"
			echo "$r $n $ld $a $v $s" | "$AWK" -v smp="$sample" '{
				printf "%-5d %3d %5s %11.0f %11.0f %7.3f", $1, $2, $3, $4, $5, $5 / $4
				if (smp != "")
					printf " %11.0f %7.3f", $6, $6 / $4
				printf "\n" }'
			echo "fsmark $n $a $v $s" >>"$work/fsm.res"
		done
		r=$((r + 1))
	done
	echo
	"$AWK" -v smp="$sample" "$bench_median_awk"'
	{
		k = $2
		if (!(k in seen)) { seen[k] = 1; order[++nn] = k }
		a[k] = a[k] " " $3; v[k] = v[k] " " $4; q[k] = q[k] " " $4 / $3
		if (smp != "") { s[k] = s[k] " " $5; qs[k] = qs[k] " " $5 / $3 }
	}
	END {
		printf "%3s %11s %11s %7s", "N", "fsm files/s", "vb files/s", "vb/fsm"
		if (smp != "")
			printf " %11s %7s", "vb-s" smp, "vbs/fsm"
		printf "\n"
		for (i = 1; i <= nn; i++) {
			k = order[i]
			printf "%3d %11.0f %11.0f %7.3f", k, median(a[k]), median(v[k]), median(q[k])
			if (smp != "")
				printf " %11.0f %7.3f", median(s[k]), median(qs[k])
			printf "\n"
		}
		print "medians over the rounds; vb/fsm: median of the pairs'\'' ratios"
	}' "$work/fsm.res"
	echo
}

# --- bonnie++ ----------------------------------------------------------------
# bonnie++'s names: sequential, 10 hex digits of the file's number then 0
# to 12 random alphanumerics; random, the random part first. The phases'
# order of files: creates by number; tmpfs lists a directory newest first,
# which is the order of the sequential stat and delete (a readdir, then a
# call per entry); the random stat and delete, two shuffles.
bon_load() {
	"$AWK" -v n="$((bon_n * 1024))" -v dir="$l" '
	function name(i, rnd,   s, k, j) {
		k = int(rand() * 13)
		s = ""
		for (j = 0; j < k; j++)
			s = s substr(c, int(rand() * 62) + 1, 1)
		return rnd ? s sprintf("%010x", i) : sprintf("%010x", i) s
	}
	function creates(f, a,   i) {
		for (i = 0; i < n; i++) {
			print "open " a[i] " wronly,creat,excl @1 600" > f
			print "close @1" > f
		}
	}
	function shuffle(a, b,   i, j, t) {
		for (i = 0; i < n; i++)
			b[i] = a[i]
		for (i = n - 1; i > 0; i--) {
			j = int(rand() * (i + 1))
			t = b[i]; b[i] = b[j]; b[j] = t
		}
	}
	function phase(p, a, op, ord, rd,   f, i) {
		f = dir "/bonnie-" p ".load"
		print "# bonnie++ -s 0 -n " n / 1024 ":0:0:1, phase " p ": generated by bench/peers.sh" > f
		if (op != "create") {
			print "[setup]" > f
			creates(f, a)
		}
		print "[run]" > f
		if (op == "create") {
			creates(f, a)
		} else {
			if (rd)
				print "readdir ." > f
			# "ok": a name spelt like an errno name (E7...) is
			# then not taken for the expectation
			for (i = 0; i < n; i++)
				print op " " (rd ? a[n - 1 - i] : ord[i]) " ok" > f
		}
		close(f)
	}
	BEGIN {
		srand(18)
		c = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		for (i = 0; i < n; i++) {
			sq[i] = name(i, 0)
			rn[i] = name(i, 1)
		}
		shuffle(rn, st)
		shuffle(rn, dl)
		phase("seq-create", sq, "create")
		phase("seq-stat", sq, "stat", sq, 1)
		phase("seq-delete", sq, "unlink", sq, 1)
		phase("rand-create", rn, "create")
		phase("rand-stat", rn, "stat", st, 0)
		phase("rand-delete", rn, "unlink", dl, 0)
	}'
}
bon_phases="seq-create seq-stat seq-delete rand-create rand-stat rand-delete"

# bonnie++ once: "PHASE FILES/S SYNC-MS OWN" per phase (OWN: its own figure,
# "+++++" when it gives none)
bon_run() {
	d=$vdir/bon
	rm -rf "$d"
	mkdir "$d"
	strace -f -qq --seccomp-bpf -e trace=getrusage,sync -ttt -T -o "$work/b.tr" \
		bonnie++ -d "$d" -s 0 -n "$bon_n:0:0:1" -u root -q >"$work/b.csv" 2>"$work/b.err" ||
		die "bonnie++ failed: $(tail -n 3 "$work/b.err")"
	rm -rf "$d"
	"$AWK" -v n="$((bon_n * 1024))" -v phases="$bon_phases" -v csv="$work/b.csv" '
	BEGIN {
		getline line < csv
		m = split(line, f, ",")
		# 2.00a CSV: after the -n field (22), 4 empty, then per phase /s,%CP
		for (i = 0; i < 6; i++)
			own[i + 1] = f[27 + 2 * i]
		split(phases, ph, " ")
	}
	/ sync\(\)/ { t = $NF; gsub(/[<>]/, "", t); sy[k + 1] += t }
	/ getrusage\(/ { g[++k] = $2 }
	END {
		if (k != 12) { print "bonnie++: " k " getrusage calls, not 12" > "/dev/stderr"; exit 1 }
		for (i = 1; i <= 6; i++) {
			dt = g[2 * i] - g[2 * i - 1]
			printf "%s %.1f %.3f %s\n", ph[i], n / dt, sy[2 * i] * 1000, own[i]
		}
	}' "$work/b.tr" || die "no phase times in the strace of bonnie++"
}

bon_vb() { # PHASE [ARGS]: files/s
	p=$1
	shift
	vb "$l/bonnie-$p.load" "$work/v.out" --loops 1 --json "$work/v.json" "$@" 1
	vb_files "$work/v.json" "$((bon_n * 1024))"
	rm -f "$work/v.json"
}

# What bonnie++'s phases issue that vfsbench's do not, or otherwise: its
# create and delete phases' sync(2), the delete phases' chdir("..") and
# rmdir of its directory, glibc opendir()'s fstat and O_NONBLOCK, and the
# getdents64 chunks (32 KiB, interleaved with the per-entry calls; vfsbench's
# readdir reads 64 KiB at a time, first)
bon_known='/^sync\(\)/d; /^chdir\("\.\."\)/d; /^rmdir\("\.\/Bonnie\.[0-9]+"\)/d
/^newfstatat\([0-9]+, "", \{\.\.\.\}, AT_EMPTY_PATH\)/d; /^getdents64\(/d
s/^openat\(AT_FDCWD, "\.", O_RDONLY\|O_NONBLOCK\|/openat(AT_FDCWD, ".", O_RDONLY|/'

bon_check() {
	# a small bonnie++ (1024 files) against the same phases of vfsbench
	save=$bon_n
	bon_n=1
	bon_load
	norm_names=1
	d=$vdir/bon
	rm -rf "$d"
	mkdir "$d"
	strace -f -qq -o "$work/b.tr" bonnie++ -d "$d" -s 0 -n 1:0:0:1 -u root -q \
		>/dev/null 2>&1 || die "strace of bonnie++ failed"
	rm -rf "$d"
	# a phase: the calls between getrusage() number 2i-1 and 2i
	i=0
	for p in $bon_phases; do
		i=$((i + 1))
		"$AWK" -v i="$i" '/getrusage\(/ { k++; next } k == 2 * i - 1' "$work/b.tr" >"$work/b1.tr"
		# names differ (random); opendir's flags and its fstat, the
		# getdents64 chunks (bonnie++ interleaves them with the
		# per-entry calls, vfsbench reads the directory first) and
		# create and delete phases' sync(), chdir and rmdir are shown
		norm "$work/b1.tr" >"$work/b.full"
		sed -E "$bon_known" "$work/b.full" >"$work/b.pass"
		# one pass: a phase cannot be repeated (its creates would fail)
		vb_pass 1 "$l/bonnie-$p.load" "$work/v.pass"
		sed -E '/^getdents64\(/d' "$work/v.pass" >"$work/v.pass2"
		sort "$work/v.pass2" | uniq -c >"$work/v.set"
		sort "$work/b.pass" | uniq -c >"$work/b.set"
		same "bonnie $p (calls and counts, in any order), vfsbench vs bonnie++" \
			"$work/v.set" "$work/b.set"
		kd=$(diff "$work/b.full" "$work/b.pass" | sed -n 's/^< //p' | sort |
			uniq -c | "$AWK" '{ $1 = $1 "x"; print }' | tr '\n' ';')
		echo "  known differences, left out above: bonnie++ ${kd:-none}"
	done
	norm_names=0
	bon_n=$save
}

bon_bench() {
	echo "bonnie++: bonnie++ -d DIR -s 0 -n $bon_n:0:0:1 -u root -q, under strace --seccomp-bpf -e trace=getrusage,sync -ttt -T (phase times)"
	echo "vfsbench: vfsbench -q -D DIR -c bonnie-PHASE.load --loops 1 --json F 1${sample:+ (and with --latency-sample $sample)}"
	machine
	printf '%-5s %-12s %5s %10s %8s %10s %10s %7s %7s' round phase load 'bon file/s' 'sync ms' 'bon own' 'vb file/s' 'vb/bon' 'no-sync'
	[ -n "$sample" ] && printf ' %10s %7s' "vb-s$sample" 'vbs/bon'
	printf '\n'
	: >"$work/bon.res"
	r=1
	while [ "$r" -le "$rounds" ]; do
		ld=$(load1)
		if [ $((r % 2)) = 0 ]; then
			bon_run >"$work/b.res"
		fi
		: >"$work/bv.res"
		for p in $bon_phases; do
			v=$(bon_vb "$p")
			s=0
			[ -n "$sample" ] && s=$(bon_vb "$p" --latency-sample "$sample")
			echo "$p $v $s" >>"$work/bv.res"
		done
		if [ $((r % 2)) = 1 ]; then
			bon_run >"$work/b.res"
		fi
		# join the two sides phase by phase
		"$AWK" -v r="$r" -v ld="$ld" -v n="$((bon_n * 1024))" -v smp="$sample" \
			-v res="$work/bon.res" '
		NR == FNR { b[$1] = $2; sy[$1] = $3; own[$1] = $4; next }
		{
			# no-sync: the peer phase time less its sync
			ns = n / (n / b[$1] - sy[$1] / 1000)
			printf "%-5d %-12s %5s %10.0f %8.1f %10s %10.0f %7.3f %7.3f", r, $1, ld,
			    b[$1], sy[$1], own[$1], $2, $2 / b[$1], $2 / ns
			if (smp != "")
				printf " %10.0f %7.3f", $3, $3 / b[$1]
			printf "\n"
			print $1, b[$1], $2, $3, ns >> res
		}' "$work/b.res" "$work/bv.res"
		r=$((r + 1))
	done
	echo
	"$AWK" -v smp="$sample" "$bench_median_awk"'
	{
		k = $1
		if (!(k in seen)) { seen[k] = 1; order[++nn] = k }
		b[k] = b[k] " " $2; v[k] = v[k] " " $3; q[k] = q[k] " " $3 / $2
		qn[k] = qn[k] " " $3 / $5
		if (smp != "") { s[k] = s[k] " " $4; qs[k] = qs[k] " " $4 / $2 }
	}
	END {
		printf "%-12s %10s %10s %7s %7s", "phase", "bon file/s", "vb file/s", "vb/bon", "no-sync"
		if (smp != "")
			printf " %10s %7s", "vb-s" smp, "vbs/bon"
		printf "\n"
		for (i = 1; i <= nn; i++) {
			k = order[i]
			printf "%-12s %10.0f %10.0f %7.3f %7.3f", k, median(b[k]), median(v[k]),
			    median(q[k]), median(qn[k])
			if (smp != "")
				printf " %10.0f %7.3f", median(s[k]), median(qs[k])
			printf "\n"
		}
		print "medians over the rounds; vb/bon: median of the pairs'\'' ratios;"
		print "no-sync: the same against the peer'\''s phase time less its sync(2)"
	}' "$work/bon.res"
	echo
}

# --- main ------------------------------------------------------------------
if want wis; then
	wis_setup || :
fi
have_fsm=0
if want fsmark; then
	if command -v fs_mark >/dev/null; then
		command -v jq >/dev/null || die "fsmark needs jq (apt-get install jq)"
		have_fsm=1
		fsm_load
	else
		echo "fsmark: skipped: no fs_mark (apt-get install fsmark)"
	fi
fi
have_bon=0
if want bonnie; then
	if ! command -v bonnie++ >/dev/null; then
		echo "bonnie: skipped: no bonnie++ (apt-get install bonnie++)"
	elif ! command -v strace >/dev/null; then
		echo "bonnie: skipped: no strace, which times its phases (apt-get install strace)"
	else
		command -v jq >/dev/null || die "bonnie needs jq (apt-get install jq)"
		have_bon=1
	fi
fi
if [ "$check" != 0 ]; then
	want wis && wis_check
	[ "$have_fsm" = 1 ] && fsm_check
	[ "$have_bon" = 1 ] && bon_check
	echo
	if [ "$check" = 2 ]; then
		exit "$status"
	fi
	[ "$status" = 0 ] || die "the two sides issue different calls"
fi
[ "$wis_ready" = 1 ] && wis_bench
[ "$have_fsm" = 1 ] && fsm_bench
if [ "$have_bon" = 1 ]; then
	bon_load
	bon_bench
fi
exit "$status"
