#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='vfsbench fdscale: steps, line format, JSON, CSV, plot, limits, usage errors'
. "$srcdir/tests/e2e/lib.sh"

# A single quote, for messages inside single-quoted test bodies.
SQ="'"

MAN="$abs_top_srcdir/doc/vfsbench-fdscale.1"

# The step sequences of the rule next = max(prev + 1, ceil(prev x step)),
# capped at max, worked out by hand.
SEQ_10="1 2 3 4 5 7 9 10"
SEQ_1000_2="1 2 4 8 16 32 64 128 256 512 1000"
SEQ_136="1 2 3 4 5 7 9 12 15 19 24 30 38 48 60 75 94 118 136"

# One step line of the table: fd-scale-bench's format, three decimals.
STEP_RE='^num_fds: [0-9]+, best cost: [0-9]+\.[0-9]{3} us, worst cost: [0-9]+\.[0-9]{3} us$'

if command -v gnuplot >/dev/null 2>&1; then
	have_gnuplot=t
else
	have_gnuplot=
fi

# Nothing on stderr FILE but progress lines: a run that lasts over a
# second (a loaded machine) prints them.
only_progress() {
	! grep -v -E '^fdscale: [0-9]+ of [0-9]+ fds open \(step [0-9]+ of [0-9]+\), [0-9]+ s$' "$1"
}

# The data or unified cache of cpu0 at LEVEL (or of the highest level
# with "last"), in bytes, from sysfs; 0 when it lists none.
cache_bytes() {
	for d in /sys/devices/system/cpu/cpu0/cache/index*; do
		test -r "$d/size" || continue
		printf '%s %s %s\n' "$(cat "$d/level")" "$(cat "$d/type")" \
			"$(cat "$d/size")"
	done | awk -v want="$1" '
		$2 == "Instruction" { next }
		{
			v = $3 + 0
			if ($3 ~ /K$/) v *= 1024
			if ($3 ~ /M$/) v *= 1048576
			if (want == "last" ? $1 + 0 >= lv : $1 == want) {
				if ($1 + 0 > lv || v > b) b = v
				if ($1 + 0 > lv) lv = $1 + 0
			}
		}
		END { printf "%d\n", b }'
}

# steps_of OUT: the num_fds of every step line, on one line.
steps_of() {
	sed -n 's/^num_fds: \([0-9][0-9]*\), .*/\1/p' "$1" | tr '\n' ' ' |
		sed 's/ $//'
}

# check_table OUT SEQ: every line after the header lines is a step line,
# and the steps are exactly SEQ.
check_table() {
	grep -v -e '^fdscale: ' -e '^cache-cold: ' -e '^note: ' "$1" >steps &&
	if grep -E -v "$STEP_RE" steps >bad; then
		say "lines not in the step format:" >&2
		cat bad >&2
		return 1
	fi &&
	test "$(steps_of "$1")" = "$2" || {
		say "steps $(steps_of "$1"), want $2" >&2
		return 1
	}
}

# The best <= worst of every step line.
best_le_worst() {
	awk '/^num_fds: / {
		b = $5; w = $9
		if (b + 0 > w + 0) { print "best above worst: " $0; err = 1 }
	} END { exit err }' "$1"
}

# jsteps FLAT FIELD: FIELD of every step, on one line.
jsteps() {
	awk -F '\t' -v f="$2" '$1 ~ "^steps\\[[0-9]+\\]\\." f "$" { print $2 }' \
		"$1" | tr '\n' ' ' | sed 's/ $//'
}

# usage_fails MESSAGE ARGS...: vfsbench fdscale ARGS exits 2 with MESSAGE
# and the hint on stderr, nothing on stdout.
usage_fails() {
	printf '%s\n' "vfsbench: $1" \
		"Try ${SQ}vfsbench fdscale --help$SQ for more information." \
		>expect &&
	shift &&
	test_expect_code 2 vfsbench fdscale "$@" >out 2>err &&
	test_cmp expect err &&
	test ! -s out
}

# A directory holding a fake gnuplot that keeps its script (see
# t6003-plot.sh); the script itself runs with the test's PATH.
TEST_PATH=$PATH
fake_gnuplot() {
	rm -rf fake &&
	mkdir fake &&
	printf '#!/bin/sh\nPATH=%s\n%s\n' "$TEST_PATH" "$1" >fake/gnuplot &&
	chmod +x fake/gnuplot
}

# The data lines of block $dN of a gnuplot script.
data_block() {
	awk -v h="\$d$2 << EOD" '
		$0 == h { on = 1; next }
		on && $0 == "EOD" { exit }
		on { print }' "$1"
}

# The chart is an SVG document.
is_svg() {
	test -s "$1" &&
	head -c 512 "$1" | grep -e "^<?xml" -e "<svg" >/dev/null &&
	grep "</svg>" "$1" >/dev/null
}

# No chart and no temporary file of it.
no_chart() {
	test ! -e "$1" &&
	test "$(find . -maxdepth 1 -name "$1.tmp*" | wc -l)" -eq 0
}

# --- the table ------------------------------------------------------------

test_expect_success 'the default run: header, line format, the steps of 1.25' '
	vfsbench fdscale --max 10 --loops 2 >out 2>err &&
	only_progress err &&
	test "$(head -n 1 out)" = \
		"fdscale: cache-hot, free low,middle, 2 loops, 1 thread, open(${SQ}/dev/null$SQ)" &&
	test "$(wc -l <out)" -eq 9 &&
	check_table out "$SEQ_10" &&
	best_le_worst out
'

test_expect_success '--step 2 --max 1000: doubling, capped at max' '
	vfsbench fdscale --max 1000 --step 2 --loops 1 >out 2>err &&
	only_progress err &&
	check_table out "$SEQ_1000_2"
'

test_expect_success '--max 1: one step' '
	vfsbench fdscale --max 1 --loops 1 >out &&
	check_table out 1 &&
	test "$(wc -l <out)" -eq 2
'

test_expect_success '--free high,random and --seed' '
	vfsbench fdscale --max 10 --loops 2 --free high,random --seed 7 \
		>out 2>err &&
	only_progress err &&
	test "$(head -n 1 out)" = \
		"fdscale: cache-hot, free high,random, 2 loops, 1 thread, open(${SQ}/dev/null$SQ)" &&
	check_table out "$SEQ_10" &&
	best_le_worst out &&
	vfsbench fdscale --max 10 --loops 1 --free low,middle,high,random \
		>out &&
	test_grep "^fdscale: cache-hot, free low,middle,high,random, 1 loop, " out &&
	check_table out "$SEQ_10"
'

# The sizes cold mode goes by, from sysfs here, independently of vfsbench.
L2=$(cache_bytes 2)
LLC=$(cache_bytes last)
if test "$L2" -gt 0; then
	L2_WORDS="$L2"
	EVICT_L2=$((2 * L2))
	test "$EVICT_L2" -lt 65536 && EVICT_L2=65536
	test "$EVICT_L2" -gt 67108864 && EVICT_L2=67108864
else
	L2_WORDS=unknown
	EVICT_L2=2097152
fi
if test "$LLC" -gt 0; then
	LLC_WORDS=$LLC
	EVICT_LLC=$((2 * LLC))
else
	LLC_WORDS=unknown
	EVICT_LLC=67108864
fi

# cache_cold_re BYTES WHAT: the cache-cold line of BYTES sized by WHAT.
cache_cold_re() {
	if test "$LLC" -gt 0 && test "$1" -lt $((2 * LLC)); then
		tail=': the last level is not evicted'
	else
		tail=
	fi
	printf '^cache-cold: %s bytes written before every timed open \\(%s\\), [0-9]+\\.[0-9] us each; L2 %s, last level %s bytes%s$' \
		"$1" "$2" "$L2_WORDS" "$LLC_WORDS" "$tail"
}

test_expect_success '--cold --evict 1m: cache-cold header, the buffer size' '
	vfsbench fdscale --max 10 --loops 2 --cold --evict 1m >out 2>err &&
	only_progress err &&
	test "$(head -n 1 out)" = \
		"fdscale: cache-cold, free low,middle, 2 loops, 1 thread, open(${SQ}/dev/null$SQ)" &&
	sed -n 2p out | grep -E "$(cache_cold_re 1048576 --evict)" &&
	check_table out "$SEQ_10" &&
	best_le_worst out
'

# What cold mode costs does not grow with the last-level cache: by
# default it writes 2 x L2 (2 MiB for the VM with 1 MiB of L2 and 260 MiB
# of L3 that took 1 GiB per open), and all of L3 only when asked.
test_expect_success '--cold: 2 x L2 by default, 2 x the last level with --evict llc' '
	vfsbench fdscale --max 5 --loops 1 --cold --json c2.json >out 2>err &&
	only_progress err &&
	if test "$L2" -gt 0; then what="2 x L2"; else what="2 x an L2 of 1 MiB assumed"; fi &&
	sed -n 2p out | grep -E "$(cache_cold_re "$EVICT_L2" "$what")" &&
	json_flat c2.json >c2.flat &&
	test "$(jget c2.flat options.evict)" = l2 &&
	test "$(jget c2.flat options.evict_bytes)" = "$EVICT_L2" &&
	test "$(jget c2.flat l2_bytes)" = "$L2" &&
	test "$(jget c2.flat llc_bytes)" = "$LLC" &&
	awk "BEGIN { exit !($(jget c2.flat evict_ns) > 0) }" &&
	vfsbench fdscale --max 2 --loops 1 --cold --evict l2 >out2 &&
	sed -n 2p out2 | grep -E "$(cache_cold_re "$EVICT_L2" "$what")" &&
	vfsbench fdscale --max 2 --loops 1 --cold --evict llc --json cl.json \
		>out 2>err &&
	if test "$LLC" -gt 0; then what="2 x the last level"; else what="2 x a last level of 32 MiB assumed"; fi &&
	sed -n 2p out | grep -E "$(cache_cold_re "$EVICT_LLC" "$what")" &&
	json_flat cl.json >cl.flat &&
	test "$(jget cl.flat options.evict)" = llc &&
	test "$(jget cl.flat options.evict_bytes)" = "$EVICT_LLC"
'

# timed_threads PREFIX: the files of strace -ff -o PREFIX (one a thread)
# that hold the timed opens (read-only, without the O_CLOEXEC of the
# first open).
timed_threads() {
	grep -l 'openat(AT_FDCWD, "/dev/null", O_RDONLY) = [0-9]' "$1".*
}

# timed_pairs FILE: how many timed opens the thread of FILE made; fails
# unless each comes right after a close among its calls.
timed_pairs() {
	awk '
		{ call = $1; sub(/\(.*/, "", call) }
		call == "openat" && /"\/dev\/null", O_RDONLY\) = [0-9]/ {
			if (prev != "close")
				bad++
			pairs++
		}
		{ prev = call }
		END {
			print pairs + 0
			exit bad != 0
		}' "$1"
}

# What cold mode issues: memory writes, no system call. Between the close
# that frees a slot and the timed open that refills it, the measuring
# thread makes no other call, hot or cold (no munmap, madvise or cache
# flush of any kind); the pairs are one per sample.
if command -v strace >/dev/null 2>&1 &&
	strace -f -o /dev/null true >/dev/null 2>&1; then
	test_expect_success 'strace: cold mode adds no system call to the timed path' '
		for mode in "" --cold; do
			rm -f trace.* &&
			# LeakSanitizer cannot run under ptrace: no leak
			# check in the ASan build for this traced run
			# shellcheck disable=SC2086
			ASAN_OPTIONS=detect_leaks=0 \
			strace -ff -qq -o trace "$VFSBENCH" fdscale --max 10 \
				--loops 3 $mode --json t.json >out 2>err &&
			timed_threads trace >files &&
			test "$(wc -l <files)" -eq 1 &&
			timed_pairs "$(cat files)" >pairs &&
			json_flat t.json >t.flat &&
			jsteps t.flat samples | tr " " "\n" >samples &&
			test "$(cat pairs)" -eq "$(awk "{ n += \$1 } END { print n }" samples)" ||
			return 1
		done
	'
else
	test_skip 'strace: cold mode adds no system call to the timed path' \
		'strace missing or not permitted'
fi

test_expect_success '--threads 3 on one shared fd table' '
	vfsbench fdscale --max 10 --loops 2 --threads 3 >out 2>err &&
	only_progress err &&
	test "$(head -n 1 out)" = \
		"fdscale: cache-hot, free low,middle, 2 loops, 3 threads (one shared fd table), open(${SQ}/dev/null$SQ)" &&
	check_table out "$SEQ_10" &&
	best_le_worst out
'

if test "${VB_SANITIZER:-}" = thread
then
	test_skip '--threads 3 --private-fd-table' \
		"ThreadSanitizer reports private fd tables' fds as races"
else
test_expect_success '--threads 3 --private-fd-table' '
	vfsbench fdscale --max 10 --loops 2 --threads 3 --private-fd-table \
		>out 2>err &&
	only_progress err &&
	test "$(head -n 1 out)" = \
		"fdscale: cache-hot, free low,middle, 2 loops, 3 threads (private fd tables), open(${SQ}/dev/null$SQ)" &&
	check_table out "$SEQ_10" &&
	vfsbench fdscale --max 10 --loops 1 --threads 3 --private-fd-table \
		--cold --evict 64k --free high,random >out 2>err &&
	only_progress err &&
	test_grep "^fdscale: cache-cold, free high,random, 1 loop, 3 threads (private fd tables), " out &&
	check_table out "$SEQ_10"
'
fi

test_expect_success '--file: what the timed open() opens' '
	echo data >target &&
	vfsbench fdscale --max 5 --loops 1 --file target >out 2>err &&
	only_progress err &&
	test_grep "open(${SQ}target$SQ)\$" out &&
	check_table out "1 2 3 4 5"
'

test_expect_success 'a --file that cannot be opened: exit 3, the reason' '
	test_expect_code 3 vfsbench fdscale --max 5 --file nope/x >out 2>err &&
	test "$(cat err)" = \
		"error: cannot open ${SQ}nope/x$SQ: No such file or directory" &&
	test ! -s out
'

# --- result files ----------------------------------------------------------

test_expect_success '--json: schema vfsbench-fdscale, options, steps' '
	vfsbench fdscale --max 10 --loops 2 --json hot.json >out 2>err &&
	only_progress err &&
	check_table out "$SEQ_10" &&
	test "$(find . -maxdepth 1 -name "hot.json.tmp*" | wc -l)" -eq 0 &&
	json_valid hot.json &&
	json_flat hot.json >hot.flat &&
	test "$(jget hot.flat schema)" = vfsbench-fdscale &&
	test "$(jget hot.flat schema_version)" = 1 &&
	jget hot.flat created | grep -E "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z\$" &&
	test "$(jget hot.flat "options.command[1]")" = fdscale &&
	test "$(jget hot.flat "options.command[2]")" = --max &&
	test "$(jget hot.flat options.max)" = 10 &&
	test "$(jget hot.flat options.max_reached)" = 10 &&
	test "$(jget hot.flat options.step)" = 1.25 &&
	test "$(jget hot.flat options.loops)" = 2 &&
	test "$(jget hot.flat options.free)" = low,middle &&
	test "$(jget hot.flat options.cold)" = false &&
	test "$(jget hot.flat options.threads)" = 1 &&
	test "$(jget hot.flat options.private_fd_table)" = false &&
	test "$(jget hot.flat options.file)" = /dev/null &&
	test "$(jget hot.flat options.seed)" = 1 &&
	jget hot.flat options.evict_bytes | grep -E "^[0-9]+\$" &&
	test "$(jget hot.flat capped)" = null &&
	jget hot.flat llc_bytes | grep -E "^[0-9]+\$" &&
	test "$(jget hot.flat environment.kernel.sysname)" = "$(uname -s)" &&
	test "$(jget hot.flat environment.clock.source)" = monotonic &&
	test "$(jget hot.flat environment.clock.why_not_tsc)" = \
		"fdscale reads CLOCK_MONOTONIC" &&
	test "$(jsteps hot.flat num_fds)" = "$SEQ_10" &&
	test "$(jsteps hot.flat samples)" = "4 4 4 4 4 4 4 4" &&
	awk -F "\t" "
		\$1 ~ /\\.best_ns\$/ { b = \$2 }
		\$1 ~ /\\.worst_ns\$/ { w = \$2 }
		\$1 ~ /\\.mean_ns\$/ { m = \$2 }
		\$1 ~ /\\.samples\$/ {
			n++
			if (!(b > 0 && b <= m && m <= w)) { print \"step \" n; err = 1 }
		}
		END { exit err || n != 8 }" hot.flat
'

if test "${VB_SANITIZER:-}" = thread
then
	test_skip '--json records --cold, --threads, --private-fd-table' \
		"ThreadSanitizer reports private fd tables' fds as races"
	# the plot tests below read cold.json: make it with a shared table
	test_expect_success 'cold.json with one shared fd table' '
	vfsbench fdscale --max 10 --loops 1 --cold --evict 64k --threads 3 \
		--free high --json cold.json >out
'
else
test_expect_success '--json records --cold, --threads, --private-fd-table' '
	vfsbench fdscale --max 10 --loops 1 --cold --evict 64k --threads 3 \
		--private-fd-table --free high --json cold.json >out &&
	json_flat cold.json >cold.flat &&
	test "$(jget cold.flat options.cold)" = true &&
	test "$(jget cold.flat options.evict_bytes)" = 65536 &&
	test "$(jget cold.flat options.threads)" = 3 &&
	test "$(jget cold.flat options.private_fd_table)" = true &&
	test "$(jget cold.flat options.free)" = high &&
	test "$(jsteps cold.flat num_fds)" = "$SEQ_10" &&
	test "$(jsteps cold.flat samples)" = "3 3 3 3 3 3 3 3"
'
fi

test_expect_success '--csv: the header and one row per step' '
	vfsbench fdscale --max 10 --loops 2 --csv hot.csv >out 2>err &&
	test ! -s err &&
	test "$(head -n 1 hot.csv)" = "num_fds,best_ns,worst_ns,mean_ns,samples" &&
	test "$(wc -l <hot.csv)" -eq 9 &&
	test "$(sed 1d hot.csv | cut -d, -f1 | tr "\n" " " | sed "s/ \$//")" = \
		"$SEQ_10" &&
	sed 1d hot.csv >rows &&
	test "$(grep -c -E "^[0-9]+,[0-9]+,[0-9]+,[0-9]+\\.[0-9],4\$" rows)" -eq 8 &&
	awk -F, "!(\$2 <= \$4 && \$4 <= \$3) { exit 1 }" rows
'

test_expect_success '--json and --csv to a directory that is not there: exit 3' '
	test_expect_code 3 vfsbench fdscale --max 3 --loops 1 \
		--json nodir/r.json >out 2>err &&
	test_grep "^error: cannot write ${SQ}nodir/r\\.json\\.tmp[0-9]*$SQ: No such file or directory\$" err &&
	check_table out "1 2 3"
'

# --- plot and compare ------------------------------------------------------

test_expect_success 'setup: a result of runs' '
	printf "%s\n" "stat a" >t.load &&
	mkdir work &&
	vfsbench -q -e null --loops 3 -c t.load -D "$TRASH/work" \
		--json run.json 1 >/dev/null
'

# The chart's title, its two lines: what was measured where, the octal
# escapes of gnuplot strings decoded, and what the chart shows.
fd_title() {
	sed -n 's/^set title "\([^"]*\)" \. "\\n.*"$/\1/p' "$1" |
		sed 's/\\\([0-7][0-7][0-7]\)/\\0\1/g' | xargs -0 printf '%b'
	sed -n 's/^set title "[^"]*" \. "\\n\(.*\)"$/\1/p' "$1"
}

test_expect_success 'plot: the script of an fdscale chart (fake gnuplot)' '
	fake_gnuplot "cat >\"$TRASH/script\"; echo chart" &&
	env PATH="$TRASH/fake" "$VFSBENCH" plot --log-y hot.json cold.json \
		-o c.svg >out 2>err &&
	only_progress err &&
	test "$(cat c.svg)" = chart &&
	test_grep "^set terminal svg " script &&
	test_grep "^set logscale x 10\$" script &&
	test_grep "^set logscale y 10\$" script &&
	sed -n "s/^set yrange \\[\\([^:]*\\):\\(.*\\)\\]\$/\\1 \\2/p" script >r &&
	test "$(wc -l <r)" -eq 1 &&
	awk "{ exit !(\$1 > 0 && \$2 > \$1) }" r &&
	test_grep "^set xlabel \"open fds (num_fds)\"\$" script &&
	test_grep "^set ylabel \"open() cost (us)\"\$" script &&
	data_block script 1 >d1 &&
	data_block script 2 >d2 &&
	test "$(awk "{ print \$1 }" d1 | tr "\n" " " | sed "s/ \$//")" = "$SEQ_10" &&
	test "$(awk "{ print \$1 }" d2 | tr "\n" " " | sed "s/ \$//")" = "$SEQ_10" &&
	test "$(awk "NF != 4" d1 d2 | wc -l)" -eq 0 &&
	test_grep "^plot .*using 1:2 .* dt 1 .*title \"hot best\", .*using 1:4 .* dt 3 .*title \"hot mean\", .*using 1:3 .* dt 2 .*title \"hot worst\"" script &&
	test_grep "title \"cold best\", .*title \"cold mean\", .*title \"cold worst\"\$" script &&
	printf "fdscale  kernel %s  fs %s  host %s\n" "$(uname -r)" \
		"$(jq -r .environment.target.fs_type hot.json)" "$(uname -n)" >expect &&
	echo "open() refilling a freed fd, engine posix: best (solid), mean (dotted) and worst (dashed) of each step" >>expect &&
	fd_title script >got &&
	test_cmp expect got &&
	env PATH="$TRASH/fake" "$VFSBENCH" plot hot.json -o c.svg &&
	fd_title script >got &&
	test_grep "^open() refilling a freed fd, engine posix, cache-hot: best" got &&
	env PATH="$TRASH/fake" "$VFSBENCH" plot cold.json -o c.svg &&
	fd_title script >got &&
	if test "${VB_SANITIZER:-}" = thread
	then
		tables="one fd table"
	else
		tables="private fd tables"
	fi &&
	test_grep "^open() refilling a freed fd, engine posix, cache-cold, 3 threads, $tables: best" got &&
	env PATH="$TRASH/fake" "$VFSBENCH" plot --linear-y hot.json -o c.svg &&
	! grep "logscale y" script &&
	test_grep "^set yrange \\[0:" script
'

# The engine in the title where every file has the same; a file from
# before fdscale had engines (no options.engine) is posix's.
test_expect_success 'plot: the engine of the opens in the title' '
	fake_gnuplot "cat >\"$TRASH/script\"; echo chart" &&
	jq ".options.engine = \"uring\" | .options.uring_fixed = true" hot.json \
		>ring.json &&
	jq "del(.options.engine, .options.uring_fixed)" hot.json >old.json &&
	env PATH="$TRASH/fake" "$VFSBENCH" plot ring.json -o c.svg &&
	fd_title script >got &&
	test_grep "^open() refilling a freed fd, engine uring (fixed files), cache-hot: best" got &&
	env PATH="$TRASH/fake" "$VFSBENCH" plot old.json -o c.svg &&
	fd_title script >got &&
	test_grep "^open() refilling a freed fd, engine posix, cache-hot: best" got &&
	env PATH="$TRASH/fake" "$VFSBENCH" plot ring.json hot.json -o c.svg &&
	fd_title script >got &&
	test_grep "^open() refilling a freed fd, cache-hot: best" got &&
	jq ".options.engine = 3" hot.json >bad.json &&
	test_expect_code 2 env PATH="$TRASH/fake" "$VFSBENCH" plot bad.json \
		-o c.svg >out 2>err &&
	test_grep "options.engine" err
'

# A log axis has no 0: the range holds every cost, best and worst, and
# the mean lies between them.
test_expect_success 'plot: the y range holds every cost of every file' '
	env PATH="$TRASH/fake" "$VFSBENCH" plot --log-y hot.json cold.json \
		-o c.svg &&
	sed -n "s/^set yrange \\[\\([^:]*\\):\\(.*\\)\\]\$/\\1 \\2/p" script >yr &&
	data_block script 1 >costs &&
	data_block script 2 >>costs &&
	test "$(wc -l <costs)" -eq 16 &&
	awk -v lo="$(cut -d " " -f 1 yr)" -v hi="$(cut -d " " -f 2 yr)" "
		\$2 < lo || \$3 > hi { print; bad = 1 }
		\$4 < \$2 || \$4 > \$3 { print; bad = 1 } END { exit bad }" costs
'

test_expect_success 'plot: the values are the JSON steps in us' '
	json_flat hot.json >hot.flat &&
	awk -F "\t" "\$1 ~ /^steps\\[[0-9]+\\]\\.best_ns\$/ { print \$2 }" \
		hot.flat >best_ns &&
	test "$(wc -l <best_ns)" -eq 8 &&
	awk "{ print \$2 * 1000 }" d1 >best_us &&
	awk "{ printf \"%.0f\n\", \$1 }" best_us >got &&
	test_cmp best_ns got &&
	awk -F "\t" "\$1 ~ /^steps\\[[0-9]+\\]\.mean_ns\$/ { print \$2 }" \
		hot.flat >mean_ns &&
	test "$(wc -l <mean_ns)" -eq 8 &&
	awk "{ print \$4 }" d1 | paste - mean_ns | awk "
		function abs(v) { return v < 0 ? -v : v }
		abs(\$1 * 1000 - \$2) > 1e-6 * \$2 { print; bad = 1 }
		END { exit bad }"
'

test_expect_success 'plot: fdscale and run results together: exit 2, no chart' '
	echo "error: ${SQ}hot.json$SQ is an fdscale result (vfsbench-fdscale) and ${SQ}run.json$SQ a result of runs (vfsbench-result): plot draws one kind or the other, not both" >expect &&
	test_expect_code 2 vfsbench plot run.json hot.json -o m.svg >out 2>err &&
	test_cmp expect err &&
	test ! -s out &&
	no_chart m.svg &&
	test_expect_code 2 vfsbench plot hot.json run.json -o m.svg >out 2>err &&
	test_cmp expect err &&
	no_chart m.svg
'

test_expect_success 'plot: --metric with fdscale results: exit 2' '
	echo "error: --metric p99: an fdscale chart (${SQ}hot.json$SQ) shows the best and worst open() cost; --metric is for results of runs" >expect &&
	test_expect_code 2 vfsbench plot -m p99 hot.json -o m.svg >out 2>err &&
	test_cmp expect err &&
	no_chart m.svg
'

test_expect_success 'plot: a broken fdscale result names the member' '
	sed "s/\"num_fds\": 1,/\"num_fds\": 0,/" hot.json >zero.json &&
	test_expect_code 2 vfsbench plot zero.json -o m.svg >out 2>err &&
	test "$(cat err)" = \
		"error: ${SQ}zero.json$SQ: steps[0].num_fds: expected a positive integer" &&
	sed "s/\"best_ns\": /\"best_ns\": \"x\", \"was\": /" hot.json >str.json &&
	test_expect_code 2 vfsbench plot str.json -o m.svg >out 2>err &&
	test "$(cat err)" = \
		"error: ${SQ}str.json$SQ: steps[0].best_ns: expected a non-negative integer" &&
	no_chart m.svg
'

test_expect_success 'plot: an fdscale result without steps: left out' '
	printf "%s\n" "{\"schema\": \"vfsbench-fdscale\", \"schema_version\": 1," \
		"\"options\": {\"cold\": false, \"threads\": 1, \"private_fd_table\": false}," \
		"\"steps\": []}" >empty.json &&
	printf "%s\n" "warning: ${SQ}empty.json$SQ: no step: left out of the chart" \
		"error: no step in any file: nothing to plot" >expect &&
	test_expect_code 2 vfsbench plot empty.json -o m.svg >out 2>err &&
	test_cmp expect err &&
	no_chart m.svg &&
	fake_gnuplot "cat >\"$TRASH/script\"; echo chart" &&
	env PATH="$TRASH/fake" "$VFSBENCH" plot empty.json hot.json -o c.svg \
		>out 2>err &&
	test "$(cat err)" = "$(head -n 1 expect)" &&
	test_grep "title \"hot best\"" script &&
	! grep "empty" script
'

if test -n "$have_gnuplot"; then
	test_expect_success 'plot: an fdscale chart to .svg and .png' '
		vfsbench plot hot.json cold.json -o fd.svg >out 2>err &&
		test ! -s err &&
		is_svg fd.svg &&
		grep "hot best" fd.svg >/dev/null &&
		grep "cold worst" fd.svg >/dev/null &&
		vfsbench plot hot.json -o fd.png &&
		test "$(od -An -tx1 -N8 fd.png | tr -d " \n")" = 89504e470d0a1a0a
	'
else
	test_skip 'plot: an fdscale chart to .svg and .png' \
		'gnuplot not installed (apt-get install gnuplot-nox)'
fi

test_expect_success 'compare refuses fdscale results: exit 2' '
	echo "error: ${SQ}hot.json$SQ: an fdscale result (vfsbench-fdscale): compare takes results of runs and sweeps (vfsbench --json)" >expect &&
	test_expect_code 2 vfsbench compare run.json hot.json >out 2>err &&
	test_cmp expect err &&
	test ! -s out &&
	test_expect_code 2 vfsbench compare hot.json cold.json >out 2>err &&
	test "$(head -n 1 err)" = "$(cat expect)" &&
	test "$(wc -l <err)" -eq 2
'

# --- usage -----------------------------------------------------------------

test_expect_success 'usage errors: exit 2, the message, nothing run' '
	usage_fails "bad --step ${SQ}1$SQ: expected a factor from 1.01 to 100, such as 1.25" \
		--max 10 --step 1 &&
	usage_fails "bad --step ${SQ}0.5$SQ: expected a factor from 1.01 to 100, such as 1.25" \
		--step 0.5 &&
	usage_fails "bad --free ${SQ}bogus$SQ: expected a comma list of low, middle, high, random" \
		--free bogus &&
	usage_fails "bad --free ${SQ}low,top$SQ: expected a comma list of low, middle, high, random" \
		--free low,top &&
	usage_fails "bad --max ${SQ}0$SQ: expected 1 to 100000000" --max 0 &&
	usage_fails "bad --max ${SQ}100000001$SQ: expected 1 to 100000000" \
		--max 100000001 &&
	usage_fails "bad --loops ${SQ}0$SQ: expected a positive number" --loops 0 &&
	usage_fails "bad --threads ${SQ}0$SQ: expected 1 to 1024" --threads 0 &&
	usage_fails "bad --evict ${SQ}1k$SQ: expected l2, llc or a size from 4k to 16g" \
		--cold --evict 1k &&
	usage_fails "bad --evict ${SQ}l3$SQ: expected l2, llc or a size from 4k to 16g" \
		--cold --evict l3 &&
	usage_fails "--evict needs --cold" --evict llc &&
	usage_fails "fdscale takes no arguments (${SQ}extra$SQ)" --max 10 extra
'

test_expect_success '--help: exit 0, every option' '
	vfsbench fdscale --help >out 2>err &&
	test ! -s err &&
	test "$(head -n 1 out)" = "Usage: vfsbench fdscale [OPTIONS]" &&
	for o in --max --step --loops --free --cold --evict --threads \
		--private-fd-table --file --engine --uring-fixed --seed --json \
		--csv --quiet --help; do
		grep -e "^ *\\(-[a-z], \\)\\{0,1\\}$o" out >/dev/null || {
			echo "$o missing from --help"
			return 1
		}
	done
'

test_expect_success 'vfsbench-fdscale.1 documents exactly the options of --help' '
	test -f "$MAN" &&
	vfsbench fdscale --help |
		sed -n "s/^ \\{1,8\\}\\(-[a-zA-Z], \\)\\{0,1\\}\\(--[a-z][a-z0-9-]*\\).*/\\2/p" |
		sort -u >help &&
	test "$(wc -l <help)" -eq 16 &&
	roff_text "$MAN" | awk "/^\\.SH/ { on = (\$2 == \"OPTIONS\"); next } on" |
		long_options >man &&
	test_cmp help man
'

# --- limits ------------------------------------------------------------------

# Can a shell that lowered its hard RLIMIT_NOFILE raise it again? Only a
# process with CAP_SYS_RESOURCE can (root, usually), and then vfsbench,
# which tries setrlimit(), raises it too and is not capped by ulimit. Not
# root, or root without that capability (some sandboxes refuse even root),
# it cannot. (ulimit -n and -H are not POSIX, but dash, bash, ksh and
# busybox sh all have them.)
# shellcheck disable=SC3045
if (ulimit -n 200 && ulimit -Hn 300) 2>/dev/null; then
	can_raise=t
else
	can_raise=
fi

if test -z "$can_raise"; then
	test_expect_success 'ulimit -n 200: capped, warned, noted, exit 0' '
		(
			ulimit -n 200 &&
			vfsbench fdscale --max 1000 --loops 1 --json cap.json \
				>out 2>err
		) &&
		test "$(wc -l <err)" -eq 1 &&
		test_grep "^warning: capped at 136 fds: RLIMIT_NOFILE is 200 (hard 200) and fs\\.nr_open is [0-9]*; raise the hard limit with ${SQ}ulimit -Hn [0-9]*$SQ as root" err &&
		test_grep "fs\\.nr_open" err &&
		test "$(sed -n 2p out)" = "note: $(sed "s/^warning: //" err)" &&
		check_table out "$SEQ_136" &&
		json_flat cap.json >cap.flat &&
		test "$(jget cap.flat options.max)" = 1000 &&
		test "$(jget cap.flat options.max_reached)" = 136 &&
		test "$(jget cap.flat capped)" = "$(sed "s/^warning: //" err)" &&
		test "$(jsteps cap.flat num_fds)" = "$SEQ_136"
	'
	test_skip 'ulimit -n 200 as root: vfsbench raises the hard limit' \
		'this shell cannot raise a lowered hard limit'
else
	test_expect_success 'ulimit -n 200 as root: vfsbench raises the hard limit' '
		(
			ulimit -n 200 &&
			vfsbench fdscale --max 1000 --loops 1 >out 2>err
		) &&
		only_progress err &&
		! grep "^note: " out &&
		check_table out "1 2 3 4 5 7 9 12 15 19 24 30 38 48 60 75 94 118 148 185 232 290 363 454 568 710 888 1000"
	'
	# Without CAP_SYS_RESOURCE in its bounding set, root's vfsbench
	# cannot raise it either.
	if command -v setpriv >/dev/null 2>&1 &&
		setpriv --bounding-set=-sys_resource true 2>/dev/null; then
		test_expect_success 'ulimit -n 200, no CAP_SYS_RESOURCE: capped, warned, noted, exit 0' '
			(
				ulimit -n 200 &&
				setpriv --bounding-set=-sys_resource "$VFSBENCH" \
					fdscale --max 1000 --loops 1 >out 2>err
			) &&
			test "$(wc -l <err)" -eq 1 &&
			test_grep "^warning: capped at 136 fds: RLIMIT_NOFILE is 200 (hard 200) and fs\\.nr_open is [0-9]*; raise the hard limit with ${SQ}ulimit -Hn [0-9]*$SQ as root" err &&
			test "$(sed -n 2p out)" = "note: $(sed "s/^warning: //" err)" &&
			check_table out "$SEQ_136"
		'
	else
		test_skip 'ulimit -n 200, no CAP_SYS_RESOURCE: capped, warned, noted, exit 0' \
			'no setpriv to drop CAP_SYS_RESOURCE'
	fi
fi

test_done
