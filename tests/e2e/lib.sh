# shellcheck shell=sh
# A small TAP test library in the style of git's test-lib.sh.
#
# A test script sets test_description, sources this file, then lists
#   test_expect_success 'title' 'body'
# and ends with test_done. Each script runs in its own trash directory
# under $TMPDIR; bodies run there, &&-chained. Helpers:
#   vfsbench ARGS...        the built binary
#   test_expect_code N CMD  CMD exits with status N
#   test_must_fail CMD      CMD exits with 1..125 (not a crash)
#   test_cmp EXPECT ACTUAL  files equal (diff shown on failure)
#   test_grep PATTERN FILE  grep -e PATTERN FILE, with the file shown on failure
#   test_skip_all REASON    skip the whole script
#   test_if REASON TITLE BODY   a test, or its skip where REASON is set
#   canary_setup / canary_check   a file beside the work directory that
#                           must survive every run (see DEVELOPERS.md)
#   op_count FILE OP        the Count column of OP in a report
#   start_vfsbench ARGS, kill_again SIG, finish STATUS, ends STATUS
#                           a background run with default signal
#                           handling, signalled and waited for
#   json_flat FILE, jget FLAT PATH, json_valid FILE   read a result file
#   write_result FILE [KEY=VALUE...] RUN...   write one, of fixed values
#   bounded CMD             CMD, killed after 60 s (a hang fails, not hangs)
#   wait_until WHAT CMD     CMD polled until it succeeds (up to 30 s)
#   wait_workdir, wait_threads N, wait_for PATTERN FILE, wait_file FILE,
#   gone PID                handshakes with a background run, on wait_until
#   blocked N WCHAN, threads_in FIELD VALUE   vfsbench's threads blocked
#                           in the kernel, from /proc (a handshake, no sleep)
#   unexpected_lines FILE   the "Unexpected results" lines of a report
#   unexpected_total FILE   the sum of its tables' unexpected column
#   load_error LINE         lf.load refused with exactly LINE, exit 2
#   strace_test TITLE BODY  a test that needs strace (skipped without)
#   pass_calls LOADFILE     the system calls of one pass of its replay
#   roff_text FILE, long_options   a man page's text, the --options in it
# Run a script with -v to see the commands' output.

: "${abs_top_builddir:?run through make check}"
: "${abs_top_srcdir:?run through make check}"

VFSBENCH="$abs_top_builddir/src/vfsbench"
LOADFILES="$abs_top_srcdir/loadfiles"
TEST_DATA="$abs_top_srcdir/tests/data"
export VFSBENCH LOADFILES TEST_DATA

# The loadfile sha256 of write_result's files, unless sha= says otherwise.
SHA_A=aaaaaaaa11111111aaaaaaaa11111111aaaaaaaa11111111aaaaaaaa11111111

test_count=0
test_failed=0
verbose=
case "$1" in -v | --verbose) verbose=t ;; esac

test_name=$(basename "$0" .sh)
TRASH=$(mktemp -d "${TMPDIR:-/tmp}/vb-$test_name.XXXXXX") || exit 1
# shellcheck disable=SC2064
trap "cd /; rm -rf '$TRASH'" EXIT
cd "$TRASH" || exit 1

vfsbench() {
	"$VFSBENCH" "$@"
}

say() {
	printf '%s\n' "$*"
}

test_expect_success() {
	test_count=$((test_count + 1))
	if [ -n "$verbose" ]; then
		(eval "$2")
	else
		(eval "$2") >"$TRASH/.out" 2>&1
	fi
	if [ $? -eq 0 ]; then
		say "ok $test_count - $1"
	else
		test_failed=$((test_failed + 1))
		say "not ok $test_count - $1"
		printf '%s\n' "$2" | sed -e 's/^/#   /'
		[ -f "$TRASH/.out" ] && sed -e 's/^/#> /' "$TRASH/.out"
	fi
	rm -f "$TRASH/.out"
}

test_skip() {
	test_count=$((test_count + 1))
	say "ok $test_count # SKIP $1 ($2)"
}

test_skip_all() {
	say "1..0 # SKIP $1"
	exit 0
}

test_done() {
	say "1..$test_count"
	[ "$test_failed" -eq 0 ]
}

test_expect_code() {
	want=$1
	shift
	"$@"
	got=$?
	if [ "$got" -ne "$want" ]; then
		say "expected exit $want, got $got: $*" >&2
		return 1
	fi
}

test_must_fail() {
	"$@"
	got=$?
	if [ "$got" -eq 0 ] || [ "$got" -gt 125 ]; then
		say "expected a failure (1..125), got $got: $*" >&2
		return 1
	fi
}

test_cmp() {
	diff -u "$1" "$2"
}

test_grep() {
	if ! grep -e "$1" "$2" >/dev/null; then
		say "no match for '$1' in $2:" >&2
		cat "$2" >&2
		return 1
	fi
}

# The canary: a file beside the work directory; every run must leave it.
canary_setup() {
	mkdir -p "$TRASH/work" &&
	printf 'canary %s\n' "$test_name" >"$TRASH/canary" &&
	printf 'inner canary\n' >"$TRASH/work/canary"
}

canary_check() {
	test -f "$TRASH/canary" &&
	test "$(cat "$TRASH/canary")" = "canary $test_name" &&
	test -f "$TRASH/work/canary" &&
	test "$(cat "$TRASH/work/canary")" = "inner canary"
}

# Nothing of vfsbench's is left in the work directory after a run.
workdir_empty() {
	test "$(find "$TRASH/work" -mindepth 1 ! -name canary | wc -l)" -eq 0
}

# strace_test TITLE BODY: test_expect_success where strace works, a
# skip where it is missing or not permitted.
if command -v strace >/dev/null 2>&1 &&
	strace -f -o /dev/null true >/dev/null 2>&1; then
	have_strace=t
else
	have_strace=
fi

strace_test() {
	if test -n "$have_strace"; then
		test_expect_success "$1" "$2"
	else
		test_skip "$1" "strace missing or not permitted"
	fi
}

# load_error LINE: vfsbench rejects lf.load with exactly LINE on stderr,
# exits 2, prints nothing on stdout and leaves nothing in the -D directory
# but the canary. The posix engine is used, so a loadfile that were
# wrongly accepted would create its files there.
load_error() {
	canary_setup &&
	printf '%s\n' "$1" >expect &&
	test_expect_code 2 vfsbench -c lf.load -q --loops 1 \
		-D "$TRASH/work" 1 >out 2>err &&
	test_cmp expect err &&
	test ! -s out &&
	canary_check &&
	workdir_empty
}

# unexpected_total REPORT: the sum of the unexpected column of all its
# tables.
unexpected_total() {
	awk '$1 == "Operation" { t = 1; next }
	     /^(Unexpected|Total:)/ { t = 0 }
	     t && NF >= 9 { n += $NF }
	     END { print n + 0 }' "$1"
}

# The Count column of an op in a report (the last run's table).
op_count() {
	awk -v op="$2" '$1 == "Operation" { n = "" } $1 == op { n = $2 } END { print n }' "$1"
}

# --- helpers shared by the signal, fault and result-file tests ---

# start_bg CMD...: CMD in the background, stdout in out, stderr in err;
# its pid in $pid. out and err are emptied here, before the fork: a
# handshake on them (wait_for) must not read a previous run's lines
# while the child has not opened them yet.
#
# A shell without job control (any sh running a script) starts a background
# command with SIGINT and SIGQUIT ignored (POSIX, "Asynchronous Lists"), and
# `trap - INT` in a subshell cannot undo that: a signal ignored on entry to
# a non-interactive shell cannot be trapped or reset. vfsbench installs its
# SIGINT/SIGTERM handlers with sigaction() at start, which replaces an
# inherited SIG_IGN, so a plain `&` works today; but to test what a user at
# a terminal gets, independent of that choice, perl resets both signals to
# SIG_DFL and execs CMD (same pid, so $! is CMD's pid). Without perl, fall
# back to the plain background command.
start_bg() {
	: >out
	: >err
	if command -v perl >/dev/null 2>&1; then
		perl -e '$SIG{INT} = "DEFAULT"; $SIG{TERM} = "DEFAULT";
			exec { $ARGV[0] } @ARGV or die "exec $ARGV[0]: $!\n"' \
			"$@" >out 2>err &
	else
		"$@" >out 2>err &
	fi
	pid=$!
}

# start_vfsbench ARGS...: vfsbench ARGS in the background (start_bg).
start_vfsbench() {
	start_bg "$VFSBENCH" "$@"
}

# A second signal: vfsbench may have exited (and the shell reaped it)
# already, so a failed kill is fine; kill -0 first so that a pid the shell
# has reaped is not signalled.
kill_again() {
	if kill -0 "$pid" 2>/dev/null; then
		kill "-$1" "$pid" 2>/dev/null
	fi
	return 0
}

# bounded CMD...: CMD, killed after 60 s where timeout(1) exists (exit
# 124; SIGKILL 10 s later for a CMD that ignores the SIGTERM): a test of
# something that must not hang fails instead of hanging.
bounded() {
	if command -v timeout >/dev/null 2>&1; then
		timeout -k 10 60 "$@"
	else
		"$@"
	fi
}

# threads_in FIELD VALUE: how many threads of $pid have VALUE in
# /proc/PID/task/TID/FIELD (wchan: the kernel function a thread waits in,
# such as wait_for_partner for the open of a FIFO; state: the state
# letter of stat, D for uninterruptible sleep).
threads_in() {
	n=0
	for t in /proc/"$pid"/task/*; do
		case $1 in
		wchan) v=$(cat "$t/wchan" 2>/dev/null) ;;
		state) v=$(sed -e 's/.*) \(.\).*/\1/' "$t/stat" 2>/dev/null) ;;
		esac
		test "$v" = "$2" && n=$((n + 1))
	done
	echo "$n"
}

# blocked N VALUE [FIELD]: wait (up to ~30 s) until N threads of $pid wait
# in the kernel function VALUE (or have FIELD VALUE): a handshake with a
# vfsbench whose clients block, instead of a sleep.
blocked() {
	i=0
	while test "$(threads_in "${3:-wchan}" "$2")" -lt "$1"; do
		i=$((i + 1))
		if test $i -gt 3000; then
			say "not $1 threads in $2 after 30 s:" >&2
			cat /proc/"$pid"/task/*/wchan >&2
			return 1
		fi
		sleep 0.01
	done
}

# bad_trace LOG LINE: record --from-trace LOG (--root r) is refused with
# exactly LINE on stderr and exit status 2, and writes no loadfile.
bad_trace() {
	test_expect_code 2 vfsbench record --root r -o bad.load \
		--from-trace "$1" 2>err &&
	printf "%s\n" "$2" >expect &&
	test_cmp expect err &&
	test ! -e bad.load
}

# fifo_load: the FIFO $TRASH/fifo and fifo.load, whose clients open it
# through a link made in [setup] (run with --links-out): each blocks in
# open() until a stop, a client held mid-op with no timing involved.
fifo_load() {
	mkfifo "$TRASH/fifo" &&
	cat >fifo.load <<-EOF
	[setup]
	symlink  "$TRASH/fifo"  f
	[run]
	open     f  rdonly  @1
	close    @1
	EOF
}

# The "Unexpected results" section of a report, without its heading.
unexpected_lines() {
	sed -n -e '/^Unexpected results/,/^Total:/{/^  /p;}' "$1"
}

# Wait for vfsbench and check its exit status.
finish() {
	rc=0
	wait "$pid" || rc=$?
	if test "$rc" -ne "$1"; then
		say "expected exit $1, got $rc" >&2
		cat out err >&2
		return 1
	fi
}

# ends STATUS: the background vfsbench ($pid) exits with STATUS within
# 60 s, or it is killed and the test fails: a hang is what the stop tests
# look for.
ends() {
	i=0
	while kill -0 "$pid" 2>/dev/null; do
		i=$((i + 1))
		if test $i -gt 600; then
			say "vfsbench still runs 60 s after the stop" >&2
			kill -KILL "$pid"
			wait "$pid"
			cat out err >&2
			return 1
		fi
		sleep 0.1
	done
	finish "$1"
}

# A JSON result file (written with jansson's indentation of 1) as
# "path<TAB>value" lines: runs[0].clients, environment.kernel.release...
# Strings lose their quotes; empty objects and arrays read "{}" and "[]".
json_flat() {
	awk '
	{
		line = $0
		match(line, /^ */)
		d = RLENGTH
		sub(/^ */, "", line)
		sub(/,$/, "", line)
		if (line == "}" || line == "]")
			next
		if (d == 0 && line == "{") {
			name[1] = ""
			idx[1] = 0
			next
		}
		if (line ~ /^"[^"]*": /) {
			key = line
			sub(/": .*/, "", key)
			sub(/^"/, "", key)
			val = line
			sub(/^"[^"]*": /, "", val)
			p = name[d] == "" ? key : name[d] "." key
		} else {
			val = line
			p = name[d] "[" idx[d]++ "]"
		}
		if (val == "{" || val == "[") {
			name[d + 1] = p
			idx[d + 1] = 0
			next
		}
		if (val ~ /^".*"$/)
			val = substr(val, 2, length(val) - 2)
		print p "\t" val
	}' "$1"
}

# jget FLAT PATH: the value at PATH; fails when there is none.
jget() {
	awk -F '\t' -v p="$2" '$1 == p { print $2; f = 1 } END { exit !f }' "$1"
}

# The JSON is valid JSON, where a JSON parser is at hand.
json_valid() {
	if command -v python3 >/dev/null 2>&1; then
		python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$1"
	elif command -v jq >/dev/null 2>&1; then
		jq -e . "$1" >/dev/null
	else
		say "no python3 or jq: JSON syntax not checked" >&2
	fi
}

# write_result FILE [KEY=VALUE...] RUN...
#
# A minimal result file in the schema of doc/json-schema.md (version 1),
# with every member src/compare/resultsweep.c reads. A RUN is
# CLIENTS:OPS_PER_SEC[:MB_PER_SEC[:P99_NS[:END[:STARVED[:IDLE[:VARIANT
# [:CPU_SHARE[:INCOMPLETE]]]]]]]] (defaults 0, 0, "complete", false, 0, 0,
# none and none; INCOMPLETE a comma-separated list of runs[].incomplete's
# reasons, elapsed_ns then twice time_ns); runs get their index in the
# order given. KEYs: engine (null),
# depth (0), sha ($SHA_A), loadfile (t.load), loops (10), time_ns (0),
# complete (true), version (1), schema (vfsbench-result), clients (the
# runs' counts in order of first use, comma-separated), variants (0: none;
# N: a version 2 file of N variants labelled v0, v1..., alike but for
# their labels), boot (none: environment.boot_id, the boot it ran in).
write_result() {
	wr_file=$1
	shift
	wr_engine=null wr_depth=0 wr_sha=$SHA_A wr_loadfile=t.load wr_loops=10
	wr_time=0 wr_complete=true wr_version=1 wr_schema=vfsbench-result
	wr_clients='' wr_variants=0 wr_boot=''
	while test $# -gt 0; do
		case $1 in
		variants=*) wr_variants=${1#*=} wr_version=2 ;;
		boot=*) wr_boot=${1#*=} ;;
		engine=*) wr_engine=${1#*=} ;;
		depth=*) wr_depth=${1#*=} ;;
		sha=*) wr_sha=${1#*=} ;;
		loadfile=*) wr_loadfile=${1#*=} ;;
		loops=*) wr_loops=${1#*=} ;;
		time_ns=*) wr_time=${1#*=} ;;
		complete=*) wr_complete=${1#*=} ;;
		version=*) wr_version=${1#*=} ;;
		schema=*) wr_schema=${1#*=} ;;
		clients=*) wr_clients=${1#*=} ;;
		*) break ;;
		esac
		shift
	done
	printf '%s\n' "$@" | awk -F : \
		-v engine="$wr_engine" -v depth="$wr_depth" -v sha="$wr_sha" \
		-v loadfile="$wr_loadfile" -v loops="$wr_loops" \
		-v time_ns="$wr_time" -v complete="$wr_complete" \
		-v version="$wr_version" -v schema="$wr_schema" \
		-v clients="$wr_clients" -v variants="$wr_variants" \
		-v boot="$wr_boot" '
	NF {
		n++
		c[n] = $1; ops[n] = $2
		mb[n] = NF >= 3 ? $3 : 0
		p99[n] = NF >= 4 ? $4 : 0
		end[n] = NF >= 5 ? $5 : "complete"
		starved[n] = NF >= 6 ? $6 : "false"
		idle[n] = NF >= 7 ? $7 : 0
		variant[n] = NF >= 8 ? $8 : 0
		share[n] = NF >= 9 && $9 != "" ? ", \"cpu_share\": " $9 : ""
		inc[n] = ""
		if (NF >= 10 && $10 != "") {
			k = split($10, why, ",")
			inc[n] = ", \"elapsed_ns\": " 2 * time_ns ", \"incomplete\": ["
			for (j = 1; j <= k; j++)
				inc[n] = inc[n] (j > 1 ? ", " : "") "\"" why[j] "\""
			inc[n] = inc[n] "]"
		}
		if (!($1 in seen)) {
			seen[$1] = 1
			order = order (order == "" ? "" : ",") $1
		}
	}
	END {
		if (clients == "")
			clients = order
		printf "{\n \"schema\": \"%s\",\n \"schema_version\": %s,\n", schema, version
		printf " \"created\": \"2024-01-01T00:00:00Z\",\n"
		if (boot != "")
			printf " \"environment\": {\"boot_id\": \"%s\"},\n", boot
		printf " \"options\": {\n  \"clients\": [%s],\n", clients
		printf "  \"loadfile\": \"%s\",\n  \"directory\": \"/tmp\",\n", loadfile
		printf "  \"engine\": \"%s\",\n  \"time_ns\": %s,\n  \"loops\": %s,\n", engine, time_ns, loops
		printf "  \"warmup\": {\"kind\": \"ns\", \"value\": 0},\n"
		printf "  \"cwd\": \"private\",\n  \"fs_struct\": \"private\",\n  \"fd_table\": \"shared\",\n"
		printf "  \"depth\": %s,\n  \"runs\": 3,\n  \"order\": \"interleaved\",\n  \"seed\": 1,\n", depth
		printf "  \"strict\": false,\n  \"max_errors\": 0,\n"
		printf "  \"dbench\": {\"sync_open\": false, \"sync_dirs\": false, \"fsync\": false, \"resolve\": true, \"fsinfo\": \"statvfs\"}\n"
		printf " },\n"
		printf " \"loadfile\": {\n  \"name\": \"%s\",\n  \"sha256\": \"%s\",\n  \"dialect\": \"native\",\n  \"ops\": 1,\n  \"setup_ops\": 0\n },\n", loadfile, sha
		if (variants > 0) {
			printf " \"variants\": [\n"
			for (v = 0; v < variants; v++) {
				printf "  {\"label\": \"v%d\", \"options\": {\"loadfile\": \"%s\", \"engine\": \"%s\",", v, loadfile, engine
				printf " \"cwd\": \"private\", \"fs_struct\": \"private\", \"fd_table\": \"shared\", \"depth\": %s,", depth
				printf " \"dbench\": {\"sync_open\": false, \"sync_dirs\": false, \"fsync\": false, \"resolve\": true, \"fsinfo\": \"statvfs\"}},"
				printf " \"loadfile\": {\"name\": \"%s\", \"sha256\": \"%s\", \"dialect\": \"native\", \"ops\": 1, \"setup_ops\": 0}}%s\n", loadfile, sha, v + 1 < variants ? "," : ""
			}
			printf " ],\n"
		}
		printf " \"runs\": [\n"
		for (i = 1; i <= n; i++)
			printf "  {\"index\": %d, \"variant\": %s, \"clients\": %s, \"end\": \"%s\", \"ops_per_sec\": %s, \"mb_per_sec\": %s, \"p99_ns\": %s, \"idle_clients\": %s%s, \"rusage\": {\"starved\": %s%s}}%s\n",
				i - 1, variant[i], c[i], end[i], ops[i], mb[i], p99[i], idle[i], inc[i], starved[i], share[i], i < n ? "," : ""
		printf " ],\n \"points\": [],\n \"complete\": %s\n}\n", complete
	}' >"$wr_file"
}

# --- MPI (doc/multi-host.md) ---

# Built --with-mpi, and mpirun at hand.
have_mpi() {
	grep -q '^#define HAVE_MPI 1' "$abs_top_builddir/config.h" 2>/dev/null &&
	command -v mpirun >/dev/null 2>&1
}

# mpirun_local ARGS...: Open MPI's mpirun on this machine alone, bounded.
# Open MPI refuses to run as root (CI runs as root) unless told so: the
# test says so here, not the machine. --oversubscribe: more ranks than
# this machine's 2 cores; --bind-to none: a rank's client threads may use
# every CPU; shared memory and loopback only, without the single-copy
# mechanism that a container's ptrace rules refuse.
mpi_env="OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
OMPI_MCA_plm_rsh_agent=false"
mpirun_local() {
	# shellcheck disable=SC2086
	bounded env $mpi_env mpirun --oversubscribe --bind-to none "$@"
}

# mpi_run NP ARGS...: vfsbench ARGS as NP ranks.
mpi_run() {
	mpi_np=$1
	shift
	mpirun_local -np "$mpi_np" "$VFSBENCH" "$@"
}

# start_mpi MPIRUN-ARGS...: mpirun in the background as start_vfsbench
# starts vfsbench (stdout in out, stderr in err, SIGINT not ignored); its
# pid in $pid. Open MPI waits ODLS_KILL seconds between the SIGTERM and
# the SIGKILL it sends the ranks when it tears a job down (a SIGINT, a
# rank that died): long enough here for a loaded machine.
start_mpi() {
	# shellcheck disable=SC2086
	start_bg env $mpi_env \
		OMPI_MCA_odls_base_sigkill_timeout="${ODLS_KILL:-3}" \
		mpirun --oversubscribe --bind-to none "$@"
}

# rank_pid N: the pid of rank N of the mpirun $pid (its child here).
rank_pid() {
	for c in $(pgrep -P "$pid"); do
		if tr '\0' '\n' <"/proc/$c/environ" 2>/dev/null |
			grep -qx "OMPI_COMM_WORLD_RANK=$1"; then
			echo "$c"
			return 0
		fi
	done
	return 1
}

# wait_until WHAT CMD...: until CMD succeeds, polled every 10 ms for up
# to ~30 s (a bound on a hang, not a timing the test relies on); then
# "WHAT after 30 s" on stderr and failure. The handshakes below use it.
wait_until() {
	wu_what=$1
	shift
	wu_i=0
	until "$@"; do
		wu_i=$((wu_i + 1))
		if test $wu_i -gt 3000; then
			say "$wu_what after 30 s" >&2
			return 1
		fi
		sleep 0.01
	done
}

has_workdir() {
	test "$(find "$TRASH/work" -maxdepth 1 -name "vfsbench.*" | wc -l)" -gt 0
}

# wait_workdir: a vfsbench.* work directory exists in $TRASH/work: the
# sweep has begun, not yet its first run (see wait_threads). Its path in
# $wd. Where there is none, vfsbench ($pid) is killed and its out and err
# shown.
wait_workdir() {
	if ! wait_until "no work directory" has_workdir; then
		kill_again KILL
		wait "$pid"
		cat out err >&2
		return 1
	fi
	for wd in "$TRASH"/work/vfsbench.*; do
		test -d "$wd" && return 0
	done
}

# check_report N: out holds the partial report of an interrupted run with N
# clients, as one signal leaves it (t4002, t8002).
check_report() {
	test_grep "^$1 clients*: [0-9]* ops in " out &&
	sed -n -e "/^$1 clients*: /{n;p;}" out >note &&
	echo "note: interrupted by a signal: partial results" >expect &&
	test_cmp expect note &&
	test_grep "^Total: " out &&
	test "$(grep -c "^Throughput .* MB/sec  $1 clients  $1 procs  max_latency=" out)" -eq 1
}

# quiet_err FILE: FILE is empty, but for the line ASan prints once in a
# process that switches stacks with swapcontext(3), as the io_uring lanes
# do: a warning about ASan, not one of vfsbench's (the other lines shown).
quiet_err() {
	! grep -v "^==[0-9]*==WARNING: ASan doesn.t fully support makecontext/swapcontext functions" "$1"
}

# wait_exists PATH: until PATH exists.
wait_exists() {
	wait_until "no $1" test -e "$1"
}

has_threads() {
	! kill -0 "$pid" 2>/dev/null ||
		test "$(find /proc/"$pid"/task -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)" -ge "$1"
}

# wait_threads N: until $pid has N threads or more. With N its client
# count plus one, every client of its first run is started: the run has
# begun, and a stop is reported with it, where the work directory alone
# exists before the run (and a stop then ends the sweep before any run:
# no run report).
wait_threads() {
	wait_until "not $1 threads in $pid" has_threads "$1" &&
		{ kill -0 "$pid" 2>/dev/null || { say "$pid ended first" >&2 && return 1; }; }
}

# wait_for PATTERN FILE: until FILE has a line matching PATTERN (a
# handshake with a background run).
has_line() {
	grep -q -e "$1" "$2" 2>/dev/null
}

wait_for() {
	wait_until "no '$1' in $2" has_line "$1" "$2" ||
		{ cat "$2" >&2; return 1; }
}

# wait_file FILE: until FILE has something in it.
wait_file() {
	wait_until "nothing in $1" test -s "$1"
}

is_gone() {
	! test -e "/proc/$1" ||
		test "$(sed -e "s/.*) \(.\).*/\1/" "/proc/$1/stat" 2>/dev/null)" = Z
}

# gone PID: until process PID has gone or is a zombie (a SIGKILL lands
# after kill(2) returns, and an orphan's zombie waits for init).
gone() {
	wait_until "process $1 still there" is_gone "$1"
}

# pass_calls LOADFILE: the system calls of one pass of its replay by one
# client, "NAME COUNT" for each that differs: strace -f of --loops 2 less
# that of --loops 1, so that vfsbench's own calls (setup, [setup],
# cleanup) cancel out. Left out: calls on /proc and /sys, vfsbench's and
# the sanitizers' reading of the system (AddressSanitizer reads its maps
# again as its heap grows, more in the longer run), and anonymous mmaps
# (%desc has mmap; ASan's heap makes more in the longer run). Under TSan, whose
# interceptor issues fstat(2) where glibc issues newfstatat(fd, "",
# AT_EMPTY_PATH), fstat counts as newfstatat.
pass_calls() {
	mkdir -p rw &&
	for n in 1 2; do
		ASAN_OPTIONS=detect_leaks=0 \
		strace -f -qq -y -o "tr$n" -e trace=%file,%desc \
			"$VFSBENCH" -c "$1" -q --loops $n -D rw 1 >/dev/null ||
		return 1
		grep -v -e "/proc/" -e "</sys/" -e "\"/sys/" -e "MAP_ANONYMOUS" \
			"tr$n" |
		awk '{
			for (i = 2; i <= NF; i++)
				if ($i ~ /^[a-z0-9_]+\(/) {
					sub(/\(.*/, "", $i)
					n[$i == "fstat" ? "newfstatat" : $i]++
					break
				}
		} END { for (c in n) print c, n[c] }' | sort >"c$n" || return 1
	done &&
	join -a 1 -a 2 -e 0 -o 0,1.2,2.2 c1 c2 |
	awk '$3 != $2 { print $1, $3 - $2 }'
}

# --- man pages ---

# roff_text FILE: the roff source with the escapes that can sit inside an
# option or op name removed: \- becomes -, font changes and the
# zero-width escapes (\& \% \: \| \^) go.
roff_text() {
	sed -e 's/\\-/-/g' \
	    -e 's/\\f[BIRP1-4]//g' \
	    -e 's/\\f([A-Z][A-Z]//g' \
	    -e 's/\\f\[[^]]*\]//g' \
	    -e 's/\\[&%:|^]//g' \
	    "$1"
}

# long_options: every --word of standard input, one a line, sorted, unique.
long_options() {
	awk '{
		s = $0
		while (match(s, /--[a-z][a-z0-9-]*/)) {
			o = substr(s, RSTART, RLENGTH)
			sub(/-+$/, "", o)
			print o
			s = substr(s, RSTART + RLENGTH)
		}
	}' | sort -u
}

# --- vfsbench kernels (doc/kernels.md) ---

# kernels_setup: K, the test kernel's image (VB_TEST_KERNEL: Debian's
# kernel package unpacked by tools/test-kernel.sh, which tools/test.sh
# runs), R its release and KROOT the tree it was unpacked into; or
# kernels_skip, why the boots cannot be tested here.
# shellcheck disable=SC2034
kernels_setup() {
	kernels_skip=
	K=${VB_TEST_KERNEL:-}
	R=${K##*/vmlinuz-}
	KROOT=${K%/boot/vmlinuz-*}
	if test -z "$K" || ! test -f "$K"; then
		kernels_skip='VB_TEST_KERNEL names no kernel image: tools/test.sh sets it (sh tools/test-kernel.sh DIR)'
	elif ! command -v qemu-system-x86_64 >/dev/null 2>&1 ||
		! test -r /bin/busybox ||
		! command -v depmod >/dev/null 2>&1; then
		kernels_skip='needs qemu-system-x86, busybox-static and kmod (tools/install-deps.sh --test)'
	fi
}

# test_if REASON TITLE BODY: a skip for REASON where it is not empty.
test_if() {
	if test -n "$1"; then
		test_skip "$2" "$1"
	else
		test_expect_success "$2" "$3"
	fi
}

# No QEMU of ours left: none whose command line names the trash.
no_qemu_left() {
	! pgrep -f "qemu-system.*$TRASH" >/dev/null 2>&1
}
