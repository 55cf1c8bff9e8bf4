#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='every result output by one rule: replaced with its owner and mode, written into, never one file twice, never an input'
. "$srcdir/tests/e2e/lib.sh"

# vfsbench(1) RESULT FILES, for --json, --csv, --ministat, --profile's
# perf data, plot -o and fdscale's files:
#  - a regular file is replaced whole, keeping its owner and mode;
#  - a symlink, a FIFO or a device is written into, never replaced;
#  - two outputs that are one file, or an output that is an input, are a
#    usage error (exit 2) before anything runs: nothing written or made.
# The only real system file aimed at is /dev/null, and only written into.

SQ="'"

if test "$(id -u)" -ne 0 || ! command -v setpriv >/dev/null 2>&1 ||
	! id nobody >/dev/null 2>&1 || ! getent group nogroup >/dev/null; then
	nobody_skip='needs root, setpriv and user nobody, group nogroup'
else
	nobody_skip=
fi

as_nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
}

# run_null ARGS...: one pass of a one-op loadfile, one client, with ARGS.
run_null() {
	vfsbench -q -e null --loops 1 -c "$TRASH/s.load" -D "$TRASH/work" \
		"$@" 1
}

# usage_msg MSG [COMMAND]: the two lines of a usage error.
usage_msg() {
	printf "%s\n" "vfsbench: $1" \
		"Try ${SQ}vfsbench${2:+ $2} --help$SQ for more information."
}

# same_msg OPT1 PATH1 OPT2 PATH2: two outputs that are one file.
same_msg() {
	usage_msg "$1 $SQ$2$SQ and $3 $SQ$4$SQ are the same file: each result needs a file of its own" "$5"
}

# input_msg OPT PATH INPUT: an output that is the input INPUT ("-c 'x'").
input_msg() {
	usage_msg "$1 $SQ$2$SQ names the input $3: a result file never replaces what vfsbench reads" "$4"
}

# Nothing of a run is left: no work directory, no temporary file.
nothing_made() {
	canary_check &&
	workdir_empty &&
	test "$(find . -name "*.tmp[0-9]*" | wc -l)" -eq 0
}

# A gnuplot that reads its script and draws a fixed SVG on stdout.
TEST_PATH=$PATH
mkdir "$TRASH/fakegp" &&
printf '#!/bin/sh\nPATH=%s\ncat >/dev/null\nprintf "<svg>chart</svg>\\n"\n' \
	"$TEST_PATH" >"$TRASH/fakegp/gnuplot" &&
chmod +x "$TRASH/fakegp/gnuplot" || exit 1

plot_fake() {
	env PATH="$TRASH/fakegp:$TEST_PATH" "$VFSBENCH" plot "$@"
}

# A perf that only speaks the control protocol: it writes PERFDATA to
# its -o file, acknowledges every command and waits for SIGINT.
mkdir "$TRASH/fakeperf" &&
# bash: perf record and perf stat get control fds above 9, which dash
# cannot redirect; perf script (the read-back) finds no samples
cat >"$TRASH/fakeperf/perf" <<-\EOF &&
#!/usr/bin/env bash
test "$1" = script && exit 0
sub=$1
while test $# -gt 0; do
	case $1 in
	--control) ctl=${2#fd:}; shift ;;
	-o) out=$2; shift ;;
	esac
	shift
done
test "$sub" = record && echo PERFDATA >"$out"
while eval "read -r cmd <&${ctl%,*}"; do
	eval "printf \"ack\\n\" >&${ctl#*,}"
done
EOF
chmod +x "$TRASH/fakeperf/perf" || exit 1

profile_fake() {
	env PATH="$TRASH/fakeperf:$TEST_PATH" "$VFSBENCH" -q -e null \
		--loops 1 -c "$TRASH/s.load" -D "$TRASH/work" --profile 1 \
		"$@" 1
}

test_expect_success 'setup: a loadfile and a result file' '
	printf "%s\n" "stat ." >s.load &&
	canary_setup &&
	run_null --json r.json >/dev/null &&
	json_valid r.json &&
	nothing_made
'

test_expect_success '--json X --csv X, also as ./X, a hard link, a symlink: exit 2, nothing written' '
	canary_setup &&
	for other in x ./x "$TRASH/x" sub/../x; do
		mkdir -p sub &&
		test_expect_code 2 run_null --json x --csv "$other" \
			>out 2>err &&
		same_msg --json x --csv "$other" >expect &&
		test_cmp expect err &&
		test ! -s out &&
		! test -e x || return 1
	done &&
	echo old >x &&
	ln x hard &&
	ln -s x soft &&
	ln -s "$TRASH/x" abs &&
	for other in hard soft abs; do
		test_expect_code 2 run_null --json x --csv "$other" \
			>out 2>err &&
		same_msg --json x --csv "$other" >expect &&
		test_cmp expect err &&
		test "$(cat x)" = old || return 1
	done &&
	test -h soft && test -h abs &&
	nothing_made
'

test_expect_success 'a dangling link and the file it would make: one file, exit 2' '
	canary_setup &&
	ln -s made.csv dangling.json &&
	test_expect_code 2 run_null --json dangling.json --csv made.csv \
		>out 2>err &&
	same_msg --json dangling.json --csv made.csv >expect &&
	test_cmp expect err &&
	! test -e made.csv &&
	test -h dangling.json &&
	nothing_made
'

test_expect_success '--json - and --csv /dev/stdout: one file, exit 2' '
	canary_setup &&
	test_expect_code 2 run_null --json - --csv /dev/stdout >out 2>err &&
	same_msg --json - --csv /dev/stdout >expect &&
	test_cmp expect err &&
	test ! -s out &&
	nothing_made
'

test_expect_success '--ministat and --profile files are outputs too: exit 2' '
	canary_setup &&
	test_expect_code 2 run_null --ministat p --json p-1.txt >out 2>err &&
	same_msg --json p-1.txt --ministat p-1.txt >expect &&
	test_cmp expect err &&
	! test -e p-1.txt &&
	test_expect_code 2 run_null --profile 1 --csv perf-1.data \
		>out 2>err &&
	same_msg --csv perf-1.data --profile perf-1.data >expect &&
	test_cmp expect err &&
	! test -e perf-1.data &&
	nothing_made
'

test_expect_success 'an output that is the loadfile, by any name: exit 2, the loadfile kept' '
	canary_setup &&
	cp s.load keep.load &&
	ln s.load s.hard &&
	ln -s s.load s.soft &&
	for out in s.load ./s.load "$TRASH/s.load" s.hard s.soft; do
		test_expect_code 2 run_null --json "$out" >out 2>err &&
		input_msg --json "$out" "-c $SQ$TRASH/s.load$SQ" >expect &&
		test_cmp expect err &&
		test_cmp keep.load s.load || return 1
	done &&
	test -h s.soft &&
	nothing_made
'

test_expect_success 'a built-in loadfile is no file: --json of its name is written' '
	canary_setup &&
	vfsbench -q -e null --loops 1 -c mixed -D "$TRASH/work" \
		--json mixed 1 >out 2>err &&
	test ! -s err &&
	json_valid mixed &&
	nothing_made
'

test_expect_success 'plot -o that is one of its result files: exit 2, nothing drawn' '
	ln -s r.json link.svg &&
	ln r.json hard.svg &&
	cp r.json keep.json &&
	for out in link.svg hard.svg; do
		test_expect_code 2 plot_fake r.json -o "$out" >out 2>err &&
		input_msg -o "$out" "${SQ}r.json$SQ" plot >expect &&
		test_cmp expect err &&
		test_cmp keep.json r.json || return 1
	done &&
	test -h link.svg
'

test_expect_success 'fdscale --json X --csv ./X: exit 2, nothing written' '
	test_expect_code 2 vfsbench fdscale --max 5 --loops 1 -q --json f \
		--csv ./f >out 2>err &&
	same_msg --json f --csv ./f fdscale >expect &&
	test_cmp expect err &&
	! test -e f
'

test_expect_success 'plot -o through a symlink: the link stays, its target is drawn' '
	echo old >target.svg &&
	ln -s target.svg chart.svg &&
	plot_fake r.json -o chart.svg >out 2>err &&
	test ! -s err &&
	test -h chart.svg &&
	test "$(readlink chart.svg)" = target.svg &&
	test "$(cat target.svg)" = "<svg>chart</svg>" &&
	test "$(find . -name "*.tmp[0-9]*" | wc -l)" -eq 0
'

test_expect_success 'plot -o into a FIFO with a reader: written into, still a FIFO' '
	mkfifo fifo.svg &&
	{ bounded cat fifo.svg >got & reader=$!; } &&
	plot_fake r.json -o fifo.svg >out 2>err &&
	wait $reader &&
	# a reader not yet in its open is waited for, and said so (t8263)
	sed -e "/^warning: .fifo.svg. is a FIFO that no one reads: waiting for a reader/d" \
		err >err.rest &&
	test ! -s err.rest &&
	test -p fifo.svg &&
	test "$(cat got)" = "<svg>chart</svg>" &&
	test "$(find . -name "*.tmp[0-9]*" | wc -l)" -eq 0
'

test_expect_success 'into /dev/null: plot through a link, --json and --csv: still a device' '
	canary_setup &&
	ln -s /dev/null null.svg &&
	plot_fake r.json -o null.svg >out 2>err &&
	test ! -s err &&
	test -h null.svg &&
	test -c /dev/null &&
	run_null --json /dev/null --csv null.csv >out 2>err &&
	test ! -s err &&
	test -c /dev/null &&
	test "$(find /dev -maxdepth 1 -name "null.tmp*" | wc -l)" -eq 0 &&
	nothing_made
'

test_expect_success '--profile: perf-1.data replaced whole, no .old; a link written into' '
	canary_setup &&
	echo old >perf-1.data &&
	chmod 0640 perf-1.data &&
	ln perf-1.data perf.keep &&
	profile_fake >out 2>err &&
	test ! -s err &&
	test "$(cat perf-1.data)" = PERFDATA &&
	test "$(cat perf.keep)" = old &&
	test "$(stat -c %a perf-1.data)" = 640 &&
	! test -e perf-1.data.old &&
	rm perf-1.data &&
	profile_fake >out 2>err &&
	test "$(stat -c %a perf-1.data)" = 600 &&
	rm perf-1.data &&
	echo old >perf.target &&
	ln -s perf.target perf-1.data &&
	profile_fake >out 2>err &&
	test ! -s err &&
	test -h perf-1.data &&
	test "$(cat perf.target)" = PERFDATA &&
	! test -e perf-1.data.old &&
	nothing_made
'

if test -n "$nobody_skip"; then
	test_skip 'root replaces nobody'"'"'s 0600 result files: still nobody 600' \
		"$nobody_skip"
	test_skip 'nobody replaces root'"'"'s 0640 file in its directory: its own, still 640' \
		"$nobody_skip"
else
	test_expect_success 'root replaces nobody'"'"'s 0600 result files: still nobody 600' '
		canary_setup &&
		chmod 0711 "$TRASH" &&
		mkdir scratch &&
		chown nobody:nogroup scratch &&
		as_nobody sh -c "umask 077 && echo old >scratch/r.json && echo old >scratch/r.csv && echo old >scratch/perf-1.data" &&
		run_null --json scratch/r.json --csv scratch/r.csv >out 2>err &&
		test ! -s err &&
		test "$(stat -c "%U %G %a" scratch/r.json)" = "nobody nogroup 600" &&
		test "$(stat -c "%U %G %a" scratch/r.csv)" = "nobody nogroup 600" &&
		json_valid scratch/r.json &&
		json_flat scratch/r.json >flat &&
		test "$(jget flat schema)" = vfsbench-result &&
		test_grep "^run,clients,repeat,end,op," scratch/r.csv &&
		(cd scratch && env PATH="$TRASH/fakeperf:$TEST_PATH" \
			"$VFSBENCH" -q -e null --loops 1 -c "$TRASH/s.load" \
			-D "$TRASH/work" --profile 1 1 >../out 2>../err) &&
		test ! -s err &&
		test "$(stat -c "%U %G %a" scratch/perf-1.data)" = "nobody nogroup 600" &&
		test "$(cat scratch/perf-1.data)" = PERFDATA &&
		test "$(find scratch -name "*.tmp[0-9]*" | wc -l)" -eq 0 &&
		nothing_made
	'

	test_expect_success 'nobody replaces root'"'"'s 0640 file in its directory: its own, still 640' '
		chmod 0711 "$TRASH" &&
		mkdir -p scratch2 &&
		chown nobody:nogroup scratch2 &&
		as_nobody mkdir scratch2/w &&
		echo old >scratch2/r.json &&
		chmod 0640 scratch2/r.json &&
		as_nobody "$VFSBENCH" -q -e null --loops 1 -c s.load \
			-D scratch2/w --json scratch2/r.json 1 >out 2>err &&
		test ! -s err &&
		test "$(stat -c "%U %a" scratch2/r.json)" = "nobody 640" &&
		json_valid scratch2/r.json &&
		test "$(find scratch2 -mindepth 1 | wc -l)" -eq 2
	'
fi

# perf lock record's perf-N.lock.data is a --profile output too: the
# check left it out, and -c perf-1.lock.data --profile 1 replaced the
# loadfile it read with perf's lock data.
test_expect_success '--profile'"'"'s perf-N.lock.data is an output: as the loadfile or another output, exit 2, nothing written' '
	canary_setup &&
	cp s.load perf-1.lock.data &&
	test_expect_code 2 env PATH="$TRASH/fakeperf:$TEST_PATH" "$VFSBENCH" \
		-q -e null --loops 1 -c perf-1.lock.data -D "$TRASH/work" \
		--profile 1 1 >out 2>err &&
	input_msg --profile perf-1.lock.data "-c ${SQ}perf-1.lock.data${SQ}" >expect &&
	test_cmp expect err &&
	test_cmp s.load perf-1.lock.data &&
	rm perf-1.lock.data &&
	test_expect_code 2 run_null --profile 1 --json perf-1.lock.data \
		>out 2>err &&
	same_msg --json perf-1.lock.data --profile perf-1.lock.data >expect &&
	test_cmp expect err &&
	! test -e perf-1.lock.data &&
	nothing_made
'

test_done
