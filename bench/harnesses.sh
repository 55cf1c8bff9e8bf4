#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The harnesses that run dbench, on dbench and on vfsbench's dbench
# personality: each harness's own scripts, taken unchanged at run time from
# a checkout the caller names (nothing of theirs is in vfsbench's tree),
# run on both, and what each extracts compared metric by metric.
#
#   mmtests   shellpack_src/src/dbench/dbench-install's two loadfile cuts,
#             dbench-bench's run block (the prepare step
#             --run-once --skip-cleanup, then the run with
#             --show-execute-time and its greps), then parse-results.
#             Needs upstream dbench (--dbench-src: the tree mmtests builds,
#             built here as its dbench-install does): dbench 4.0 lacks
#             the options mmtests passes.
#   LKP       programs/dbench/parse (ruby, with lib/log.rb and
#             lib/statistics.rb) on a run of `dbench N -c LOADFILE`.
#   Phoronix  the newest ob-cache/test-profiles/pts/dbench-* profile,
#             through phoronix-test-suite debug-result-parser (php-cli,
#             php-xml; run as an unprivileged user when started as root,
#             as PTS behaves as a system service for root).
#   autotest  dbench/dbench.py's postprocess regex (python3) on a run of
#             its command line.
#
# Each harness's metrics are listed as NAME COUNT for dbench and for
# vfsbench; they must have the same names, and the same count for every
# metric whose number of samples does not depend on the speed (mmtests'
# loadfile metric, one sample per pass, only needs samples on both).
# A harness whose checkout is not given or whose tools are missing is
# skipped with a message. Exit status: 0 all compared alike, 1 a
# difference, 2 bad usage, 3 a run failed.
set -eu

usage() {
	cat <<EOF
usage: $0 [-t SECONDS] [-n CLIENTS] [-l LOADFILE] [-d DIR]
	[--mmtests DIR --dbench-src DIR] [--lkp DIR] [--pts DIR] [--autotest DIR]

DIRs are checkouts or git directories (e.g. read-only mirrors) of
gormanm/mmtests, gormanm/dbench (what mmtests builds), intel/lkp-tests,
phoronix-test-suite/phoronix-test-suite and autotest/autotest-client-tests.
Defaults: -t 5 -n 2, LOADFILE /usr/share/dbench/client.txt (Debian's),
DIR a scratch directory under \${TMPDIR:-/tmp}, removed afterwards.
Environment: VFSBENCH (default build/src/vfsbench), DBENCH (dbench 4.0,
default /usr/bin/dbench).
EOF
}

T=5
N=2
LOAD=/usr/share/dbench/client.txt
WORK=
MMT="" DSRC="" LKP="" PTS="" AUTO=""
while [ $# -gt 0 ]; do
	case "$1" in
	-t) T=$2; shift 2 ;;
	-n) N=$2; shift 2 ;;
	-l) LOAD=$2; shift 2 ;;
	-d) WORK=$2; shift 2 ;;
	--mmtests) MMT=$2; shift 2 ;;
	--dbench-src) DSRC=$2; shift 2 ;;
	--lkp) LKP=$2; shift 2 ;;
	--pts) PTS=$2; shift 2 ;;
	--autotest) AUTO=$2; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done

VFSBENCH=${VFSBENCH:-build/src/vfsbench}
DBENCH=${DBENCH:-/usr/bin/dbench}
case "$VFSBENCH" in /*) ;; *) VFSBENCH=$(pwd)/$VFSBENCH ;; esac
[ -x "$VFSBENCH" ] || { echo "harnesses.sh: no vfsbench at $VFSBENCH" >&2; exit 3; }
[ -r "$LOAD" ] || { echo "harnesses.sh: no loadfile $LOAD" >&2; exit 3; }
if [ -z "$WORK" ]; then
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/vb-harnesses.XXXXXX")
	# shellcheck disable=SC2064
	trap "rm -rf '$WORK'" EXIT
fi
mkdir -p "$WORK/bin"
# the personality, under the name harnesses call
ln -sf "$VFSBENCH" "$WORK/bin/dbench"
status=0

say() {
	printf '%s\n' "$*"
}

skip() {
	say "$1: skipped: $2"
}

# hfile DIR PATH: PATH of the checkout or git directory DIR, on stdout.
hfile() {
	if [ -f "$1/$2" ]; then
		cat "$1/$2"
	else
		git --git-dir="$1" show "HEAD:$2" 2>/dev/null ||
			git -C "$1" show "HEAD:$2" 2>/dev/null
	fi
}

# htree DIR PREFIX OUT: the files under PREFIX of DIR into OUT (a mirror
# may lack a few large blobs: those are left out).
htree() {
	if [ -d "$1/$2" ] && { [ -n "$2" ] || [ ! -f "$1/HEAD" ]; }; then
		mkdir -p "$3/$2" && cp -R "$1/$2/." "$3/$2/"
		return
	fi
	git --git-dir="$1" ls-tree -r --name-only HEAD -- ${2:+"$2"} |
	while read -r f; do
		mkdir -p "$3/$(dirname "$f")"
		git --git-dir="$1" show "HEAD:$f" >"$3/$f" 2>/dev/null ||
			rm -f "$3/$f"
	done
}

# have DIR PATH: DIR is given and holds PATH.
have() {
	[ -n "$1" ] && hfile "$1" "$2" >/dev/null 2>&1
}

# compare NAME RULE: metrics-dbench and metrics-vfsbench of $WORK/NAME
# ("metric count" lines) side by side; RULE "any" names metrics whose
# count may differ as long as both have samples.
compare() {
	d=$WORK/$1
	sort "$d/metrics-dbench" >"$d/a"
	sort "$d/metrics-vfsbench" >"$d/b"
	say "$1: metric, samples from dbench, from vfsbench"
	join -a1 -a2 -e - -o 0,1.2,2.2 "$d/a" "$d/b" |
	awk -v any="$2" '
	BEGIN { n = split(any, a, " "); for (i = 1; i <= n; i++) loose[a[i]] = 1 }
	{
		ok = $2 != "-" && $3 != "-" &&
			($2 == $3 || (($1 in loose) && $2 > 0 && $3 > 0))
		printf "  %-28s %8s %8s  %s\n", $1, $2, $3, ok ? "same" : "DIFFERENT"
		if (!ok) bad = 1
	}
	END { exit bad }' || status=1
}

# --- autotest ---------------------------------------------------------
autotest() {
	d=$WORK/autotest
	mkdir -p "$d"
	hfile "$AUTO" dbench/dbench.py >"$d/dbench.py"
	pat=$(sed -n 's/.*re\.compile(r"\(.*\)").*/\1/p' "$d/dbench.py")
	[ -n "$pat" ] || { say "autotest: no regex in dbench/dbench.py"; status=3; return; }
	# its run_once: '%s %s %s -D %s -c %s -t %d' % (dbench, nprocs, args,
	# dir, loadfile, seconds)
	for side in dbench vfsbench; do
		bin=$DBENCH
		[ $side = vfsbench ] && bin=$WORK/bin/dbench
		mkdir -p "$d/dir-$side"
		"$bin" "$N" -D "$d/dir-$side" -c "$LOAD" -t "$T" >"$d/out-$side" 2>&1 ||
			{ say "autotest: $side failed"; status=3; return; }
		PAT=$pat python3 -c '
import os, re, sys
found = re.compile(os.environ["PAT"]).findall(open(sys.argv[1]).read())
if found:
    throughput, procs = found[0]
    for k, v in (("throughput", throughput), ("procs", procs)):
        print(k, 1)
        print("#", k, repr(v), file=sys.stderr)
' "$d/out-$side" >"$d/metrics-$side" 2>"$d/values-$side"
		sed "s/^/  $side: /" "$d/values-$side"
	done
	compare autotest ""
}

# --- LKP --------------------------------------------------------------
lkp() {
	d=$WORK/lkp
	mkdir -p "$d/src/lib" "$d/src/programs/dbench"
	command -v ruby >/dev/null 2>&1 ||
		{ skip LKP "no ruby (Debian: ruby ruby-activesupport)"; return; }
	for f in programs/dbench/parse lib/log.rb lib/statistics.rb; do
		hfile "$LKP" "$f" >"$d/src/$f"
	done
	# its run: dbench $nr_threads -c $load_file (-t and -D added here)
	for side in dbench vfsbench; do
		bin=$DBENCH
		[ $side = vfsbench ] && bin=$WORK/bin/dbench
		mkdir -p "$d/dir-$side"
		"$bin" "$N" -c "$LOAD" -t "$T" -D "$d/dir-$side" >"$d/out-$side" 2>&1 ||
			{ say "LKP: $side failed"; status=3; return; }
		LKP_SRC=$d/src ruby "$d/src/programs/dbench/parse" \
			<"$d/out-$side" >"$d/parsed-$side" ||
			{ say "LKP: parse failed on $side's output"; status=3; return; }
		sed "s/^/  $side: /" "$d/parsed-$side"
		awk -F: '{ print $1, 1 }' "$d/parsed-$side" >"$d/metrics-$side"
	done
	compare lkp ""
}

# --- Phoronix ---------------------------------------------------------
pts() {
	d=$WORK/pts
	command -v php >/dev/null 2>&1 && php -m | grep -qx SimpleXML ||
		{ skip Phoronix "no php with SimpleXML (Debian: php-cli php-xml)"; return; }
	prof=$(git --git-dir="$PTS" ls-tree -d --name-only HEAD ob-cache/test-profiles/pts/ 2>/dev/null |
		sed -n 's|.*/\(dbench-[0-9.]*\)$|\1|p' | sort -t. -k1,1 -k2,2n -k3,3n | tail -n 1)
	[ -n "$prof" ] || prof=$(cd "$PTS/ob-cache/test-profiles/pts" 2>/dev/null &&
		ls -d dbench-* | sort -t. -k1,1 -k2,2n -k3,3n | tail -n 1)
	[ -n "$prof" ] || { say "Phoronix: no pts/dbench profile"; status=3; return; }
	mkdir -p "$d/pts" "$d/user/test-profiles/pts" "$d/inst/pts/$prof" "$d/ini"
	htree "$PTS" pts-core "$d/pts"
	hfile "$PTS" phoronix-test-suite >"$d/pts/phoronix-test-suite"
	htree "$PTS" "ob-cache/test-profiles/pts/$prof" "$d/pts"
	cp -R "$d/pts/ob-cache/test-profiles/pts/$prof" "$d/user/test-profiles/pts/"
	find "$d/pts" -name '*.sh' -exec chmod +x {} +
	chmod +x "$d/pts/phoronix-test-suite"
	# no network: PTS's own settings, from its defaults
	sed -e 's|<NoInternetCommunication>FALSE|<NoInternetCommunication>TRUE|' \
	    -e 's|<NoNetworkCommunication>FALSE|<NoNetworkCommunication>TRUE|' \
	    "$d/pts/pts-core/static/user-config-defaults.xml" >"$d/user/user-config.xml"
	# an installed test: its install record and an executable, which
	# debug-result-parser looks for without running it
	printf '{"test_installation":{"status":"INSTALLED","environment":{"test_version":"%s","test_identifier":"pts/%s"}}}\n' \
		"${prof#dbench-}" "$prof" >"$d/inst/pts/$prof/pts-install.json"
	printf '#!/bin/sh\nexit 0\n' >"$d/inst/pts/$prof/dbench"
	chmod +x "$d/inst/pts/$prof/dbench"
	# PTS takes the home directory from the password file, not $HOME
	echo "disable_functions=posix_getpwuid" >"$d/ini/pts.ini"
	chmod -R a+rwX "$d"
	for side in dbench vfsbench; do
		bin=$DBENCH
		[ $side = vfsbench ] && bin=$WORK/bin/dbench
		mkdir -p "$d/dir-$side"
		log=$d/inst/pts/$prof/$prof-1.log
		# its wrapper: ./dbench_/bin/dbench $@ -c client.txt > $LOG_FILE 2>&1
		"$bin" "$N" -c "$LOAD" -t "$T" -D "$d/dir-$side" >"$log" 2>&1 ||
			{ say "Phoronix: $side failed"; status=3; return; }
		chmod a+r "$log"
		run=
		[ "$(id -u)" -eq 0 ] && run="setpriv --reuid=65534 --regid=65534 --clear-groups"
		(cd "$d/pts" && $run env HOME="$d/user" PHP_INI_SCAN_DIR=":$d/ini" \
			PTS_USER_PATH_OVERRIDE="$d/user/" PTS_TEST_INSTALL_ROOT_PATH="$d/inst/" \
			PRESET_OPTIONS="dbench.client-count=$N" \
			./phoronix-test-suite debug-result-parser "pts/$prof" </dev/null \
			>"$d/parsed-$side" 2>&1) || true
		grep "Test Result Parser Returning:" "$d/parsed-$side" | sed "s/^/  $side: /"
		awk '/Test Result Parser Returning: [0-9.]+$/ { n++ }
			END { print "result", n + 0 }' "$d/parsed-$side" >"$d/metrics-$side"
		mv "$log" "$d/out-$side"
	done
	compare pts ""
}

# --- mmtests ----------------------------------------------------------
build_upstream() {
	b=$WORK/dbench-src
	mkdir -p "$b"
	htree "$DSRC" "" "$b"
	(cd "$b" && chmod +x autogen.sh && ./autogen.sh && ./configure &&
		make dbench) >"$WORK/dbench-build.log" 2>&1
}

mmtests() {
	d=$WORK/mmtests
	sp=shellpack_src/src/dbench
	for f in dbench-bench dbench-install parse-results; do
		have "$MMT" "$sp/$f" || { say "mmtests: no $sp/$f"; status=3; return; }
	done
	command -v xz >/dev/null 2>&1 || { skip mmtests "no xz"; return; }
	[ -n "$DSRC" ] || { skip mmtests "mmtests runs dbench with --run-once, --warmup and --show-execute-time, which dbench 4.0 lacks: give --dbench-src (gormanm/dbench, what mmtests builds)"; return; }
	build_upstream || { say "mmtests: upstream dbench did not build (see $WORK/dbench-build.log)"; status=3; return; }
	mkdir -p "$d"
	hfile "$MMT" "$sp/dbench-bench" >"$d/dbench-bench"
	hfile "$MMT" "$sp/dbench-install" >"$d/dbench-install"
	hfile "$MMT" "$sp/parse-results" >"$d/parse-results"
	for side in dbench vfsbench; do
		src=$d/src-$side
		inst=$src/dbench-x-installed
		mkdir -p "$inst/bin" "$inst/share" "$d/data-$side" "$d/log-$side"
		if [ $side = dbench ]; then
			ln -sf "$WORK/dbench-src/dbench" "$inst/bin/dbench"
		else
			ln -sf "$VFSBENCH" "$inst/bin/dbench"
		fi
		cp "$LOAD" "$inst/share/client.txt"
		# dbench-install: the two cuts of client.txt
		{
			echo "SHELLPACK_SOURCES='$src' VERSION=x"
			grep '^head .*client-\(warmup\|tiny\)\.txt$' "$d/dbench-install"
		} >"$d/cuts-$side.sh"
		bash "$d/cuts-$side.sh"
		# dbench-bench: its switches and its loop body, shellpack lines
		# (the mmtests framework) left out, its hooks stubbed
		{
			cat <<EOF
mmtests_activity() { :; }
log_cmd() { printf '%s\n' "\$*" >>"\$LOGDIR_RESULTS/commands"; }
monitor_pre_hook() { :; }
monitor_post_hook() { :; }
die() { echo "\$*" >&2; exit 1; }
SHELLPACK_SOURCES='$src' VERSION=x SHELLPACK_DATA='$d/data-$side'
LOGDIR_RESULTS='$d/log-$side' NR_THREADS=$N CLIENT=$N FACTOR=0
DBENCH_DURATION_BASE=$T DBENCH_MIN_CLIENTS=$N DBENCH_MAX_CLIENTS=$N
EOF
			sed -n '/^# Common dbench switches/,/^# Dbench install and warmup/p' \
				"$d/dbench-bench"
			sed -n '/^cd \$SHELLPACK_SOURCES/,/^###SHELLPACK threads_stride_end/p' \
				"$d/dbench-bench" | grep -v '^###SHELLPACK'
		} >"$d/run-$side.sh"
		bash "$d/run-$side.sh" >"$d/stdout-$side" 2>&1 ||
			{ say "mmtests: the run on $side failed"; status=3; return; }
		xzcat "$d/log-$side/dbench-$N.log.xz" >"$d/log-$side.txt"
		bash "$d/parse-results" "$d/log-$side" >"$d/parsed-$side" ||
			{ say "mmtests: parse-results failed on $side"; status=3; return; }
		cut -f1 "$d/parsed-$side" | sort | uniq -c |
			awk '{ print $2, $1 }' >"$d/metrics-$side"
		say "  $side: $(sed -n 1p "$d/log-$side/commands")"
		e=$(grep -c "failed\|unexpected results\|ERROR" "$d/log-$side.txt" || true)
		say "  $side: error lines in the run's log: $e"
		[ "$e" -eq 0 ] || status=1
	done
	compare mmtests loadfile
}

if [ -n "$MMT" ]; then mmtests; else skip mmtests "no --mmtests DIR"; fi
if [ -n "$LKP" ]; then lkp; else skip LKP "no --lkp DIR"; fi
if [ -n "$PTS" ]; then pts; else skip Phoronix "no --pts DIR"; fi
if [ -n "$AUTO" ]; then autotest; else skip autotest "no --autotest DIR"; fi
exit $status
