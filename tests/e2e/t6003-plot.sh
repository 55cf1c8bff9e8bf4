#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='vfsbench plot: charts through gnuplot, usage errors, no gnuplot'
. "$srcdir/tests/e2e/lib.sh"

# A single quote, for messages inside single-quoted test bodies.
SQ="'"

NO_GNUPLOT='gnuplot not installed (apt-get install gnuplot-nox)'
if command -v gnuplot >/dev/null 2>&1; then
	have_gnuplot=t
else
	have_gnuplot=
fi

# The chart is an SVG document.
is_svg() {
	test -s "$1" &&
	head -c 512 "$1" | grep -e "^<?xml" -e "<svg" >/dev/null &&
	grep "</svg>" "$1" >/dev/null
}

# The chart is a PNG: its 8-byte signature.
is_png() {
	test "$(od -An -tx1 -N8 "$1" | tr -d " \n")" = 89504e470d0a1a0a
}

# No chart and no temporary file of it.
no_chart() {
	test ! -e "$1" &&
	test "$(find . -maxdepth 1 -name "$1.tmp*" | wc -l)" -eq 0
}

# A directory holding a fake gnuplot (a shell script with BODY), for PATH;
# the script itself runs with the test's PATH.
TEST_PATH=$PATH
fake_gnuplot() {
	rm -rf fake &&
	mkdir fake &&
	printf '#!/bin/sh\nPATH=%s\n%s\n' "$TEST_PATH" "$1" >fake/gnuplot &&
	chmod +x fake/gnuplot
}

# The data lines of block $NAME of a gnuplot script: gp_block FILE NAME.
gp_block() {
	awk -v h="\$$2 << EOD" '
		$0 == h { on = 1; next }
		on && $0 == "EOD" { exit }
		on { print }' "$1"
}

# The data lines of block $dN (file N's points) of a gnuplot script.
data_block() {
	gp_block "$1" "d$2"
}

# plot_with_path DIR ARGS...: vfsbench plot with PATH=DIR (vfsbench is
# run by its absolute path).
plot_with_path() {
	dir=$1
	shift
	env PATH="$dir" "$VFSBENCH" plot "$@"
}

test_expect_success 'setup: two real sweeps, --runs 3, null engine' '
	printf "%s\n" "stat a" "statfs ." "open f rdwr @1" \
		"pwrite @1 0 4k" "close @1" >t.load &&
	canary_setup &&
	vfsbench -q -e null --loops 3 --runs 3 -c t.load -D "$TRASH/work" \
		--json old.json 1 2 4 >/dev/null &&
	vfsbench -q -e null --loops 3 --runs 3 -c t.load -D "$TRASH/work" \
		--json new.json 1 2 >/dev/null &&
	canary_check &&
	workdir_empty &&
	mkdir empty
'

# --- usage errors: no gnuplot needed ---------------------------------------

test_expect_success 'no -o: a usage error, exit 2' '
	printf "%s\n" "vfsbench: plot needs -o FILE.svg or -o FILE.png" \
		"Try ${SQ}vfsbench plot --help$SQ for more information." >expect &&
	test_expect_code 2 vfsbench plot old.json >out 2>err &&
	test_cmp expect err &&
	test ! -s out
'

test_expect_success 'an output that is not .svg or .png: exit 2, nothing written' '
	for o in chart.pdf chart svg chart.SVG chart.svg.txt; do
		test_expect_code 2 vfsbench plot old.json -o "$o" >out 2>err &&
		test "$(head -n 1 err)" = \
			"vfsbench: plot output $SQ$o$SQ: expected a .svg or .png file" &&
		no_chart "$o" || return 1
	done
'

test_expect_success 'no result file: exit 2' '
	test_expect_code 2 vfsbench plot -o c.svg >out 2>err &&
	test "$(head -n 1 err)" = "vfsbench: plot needs at least one result file" &&
	no_chart c.svg
'

test_expect_success 'bad --metric: exit 2' '
	test_expect_code 2 vfsbench plot -m iops old.json -o c.svg >out 2>err &&
	test "$(head -n 1 err)" = \
		"vfsbench: bad --metric ${SQ}iops$SQ: expected ops, mbps or p99" &&
	no_chart c.svg
'

test_expect_success 'a bad result file: exit 2, nothing written' '
	echo "{}" >bad.json &&
	test_expect_code 2 vfsbench plot old.json bad.json -o c.svg >out 2>err &&
	test_grep "^error: ${SQ}bad\\.json$SQ: not a vfsbench result file" err &&
	no_chart c.svg &&
	test_expect_code 2 vfsbench plot nope.json -o c.svg >out 2>err &&
	test_grep "^error: cannot open ${SQ}nope\\.json$SQ: No such file or directory\$" err &&
	no_chart c.svg
'

# --- gnuplot missing or failing: no gnuplot needed -------------------------

test_expect_success 'gnuplot missing: exit 3, the install hint, no chart' '
	echo "error: gnuplot is not installed: apt-get install gnuplot-nox" >expect &&
	test_expect_code 3 plot_with_path "$TRASH/empty" old.json -o c.svg \
		>out 2>err &&
	test_cmp expect err &&
	test ! -s out &&
	no_chart c.svg &&
	test_expect_code 3 plot_with_path "$TRASH/empty" old.json new.json \
		-o c.png >out 2>err &&
	test_cmp expect err &&
	no_chart c.png
'

test_expect_success 'gnuplot failing: exit 3, its status, no chart' '
	fake_gnuplot "cat >/dev/null; echo broken >&2; exit 1" &&
	test_expect_code 3 plot_with_path "$TRASH/fake" old.json -o c.svg \
		>out 2>err &&
	test_grep "^error: gnuplot failed (exit status 1)\$" err &&
	no_chart c.svg
'

test_expect_success 'gnuplot writing nothing: exit 3, no empty chart' '
	fake_gnuplot "cat >/dev/null; exit 0" &&
	test_expect_code 3 plot_with_path "$TRASH/fake" old.json -o c.svg \
		>out 2>err &&
	test_grep "^error: gnuplot wrote no chart to ${SQ}c\\.svg\\.tmp[0-9]*$SQ\$" err &&
	no_chart c.svg
'

test_expect_success 'a gnuplot that cannot be run: exit 3, no chart' '
	fake_gnuplot "exit 0" &&
	chmod -x fake/gnuplot &&
	test_expect_code 3 plot_with_path "$TRASH/fake" old.json -o c.svg \
		>out 2>err &&
	test_grep "^error: cannot run gnuplot: Permission denied\$" err &&
	no_chart c.svg
'

test_expect_success 'the script gnuplot reads: each file'"'"'s data, relative to 1' '
	fake_gnuplot "cat >\"$TRASH/script\"; echo chart" &&
	plot_with_path "$TRASH/fake" old.json new.json -o c.svg >out 2>err &&
	test "$(cat c.svg)" = chart &&
	test_grep "^set terminal svg " script &&
	data_block script 1 >d1 &&
	data_block script 2 >d2 &&
	awk "{ print \$1 }" d1 >x &&
	printf "%s\n" 1 2 4 >expect &&
	test_cmp expect x &&
	awk "{ print \$1 }" d2 >x &&
	printf "%s\n" 1 2 >expect &&
	test_cmp expect x &&
	test "$(awk "NR == 1 { print \$4 }" d1)" = 1 &&
	test "$(awk "NR == 1 { print \$4 }" d2)" = 1 &&
	test "$(awk "NF != 5" d1 d2 | wc -l)" -eq 0 &&
	fake_gnuplot "cat >\"$TRASH/script\"; echo chart" &&
	plot_with_path "$TRASH/fake" old.json -o c.png >out 2>err &&
	test_grep "pngcairo" script &&
	test "$(find . -maxdepth 1 -name "c.png.tmp*" | wc -l)" -eq 0
'

# The data lines of block $iN (an ideal line) of a gnuplot script.
ideal_block() {
	gp_block "$1" "i$2"
}

# The settings of the two panels: the lines after "set multiplot" up
# to each plot command, for panel 1 and 2.
panel() {
	awk -v want="$2" '
		/^set multiplot/ { on = 1; n = 1; next }
		on && /^plot / { if (n == want) print; n++; next }
		on && n == want { print }' "$1"
}

# y = x / B at every point of an ideal block, from (B, 1) to (XMAX,
# XMAX / B), x evenly spaced on a log axis: a straight line on log-log
# axes. check_ideal BLOCK B XMAX
check_ideal() {
	awk -v b="$2" -v xmax="$3" '
		function abs(v) { return v < 0 ? -v : v }
		NR == 1 && ($1 != b || $2 != 1) { print "starts at " $0; bad = 1 }
		abs($2 - $1 / b) > 1e-6 * $2 { print "off the line: " $0; bad = 1 }
		NR > 2 && abs(log($1 / px) - step) > 1e-6 { print "uneven: " $0; bad = 1 }
		NR > 1 { step = log($1 / px) }
		{ px = $1; last = $0; n++ }
		END {
			split(last, f, " ")
			if (f[1] != xmax) { print "ends at " last; bad = 1 }
			if (n < 32) { print n " points"; bad = 1 }
			exit bad
		}' "$1"
}

# The points of an ideal block drawn as points: "X X/B" at each count
# from B on. check_ideal_points BLOCK B COUNT...
check_ideal_points() {
	cip_block=$1 cip_b=$2
	shift 2
	for x in "$@"; do
		awk -v x="$x" -v b="$cip_b" 'BEGIN { printf "%.10g %.10g\n", x, x / b }'
	done >"$cip_block.want" &&
	test_cmp "$cip_block.want" "$cip_block"
}

# Fixed data, not timed runs, so which y axis is chosen is known: means
# within a decade (sm.json, np.json: counts not powers of two) or more.
test_expect_success 'setup: results of fixed values' '
	write_result sm.json 1:100 1:100 2:190 2:180 4:350 4:330 &&
	write_result np.json 1:100 3:250 6:400 &&
	write_result f1.json 1:100 2:190 4:350 8:600 &&
	write_result f2.json 2:200 4:380 8:700
'

# The ideal y = x / b is straight where both axes are logarithmic or both
# linear: a line of points evenly spaced on a log axis. On a log x axis
# with a linear y it would be an upward curve that reads as super-linear
# (and on a linear x axis with a log y a downward one): points at the
# measured counts instead.
test_expect_success 'the ideal line: straight where the axes make it straight, else points' '
	fake_gnuplot "cat >\"$TRASH/script\"; echo chart" &&
	plot_with_path "$TRASH/fake" sm.json -o c.svg >out 2>err &&
	! grep "^set logscale y" script &&
	panel script 2 >p2 &&
	test_grep "^set logscale x 2\$" script &&
	test_grep "^set yrange \\[0:" p2 &&
	ideal_block script 1 >i1 &&
	check_ideal_points i1 1 1 2 4 &&
	test "$(grep -c "^plot .*\\\$i1 using 1:2 with points pt 6 .*title \"ideal\"\$" p2)" -eq 1 &&
	plot_with_path "$TRASH/fake" --log-y sm.json -o c.svg >out 2>err &&
	ideal_block script 1 >i1 &&
	check_ideal i1 1 4 &&
	panel script 2 >p2 &&
	test "$(grep -c "^plot .*\\\$i1 using 1:2 with lines dt 2 .*title \"ideal\"\$" p2)" -eq 1 &&
	plot_with_path "$TRASH/fake" np.json -o c.svg >out 2>err &&
	! grep "^set logscale" script &&
	ideal_block script 1 >i1 &&
	check_ideal i1 1 6 &&
	panel script 2 >p2 &&
	test_grep "\\\$i1 using 1:2 with lines dt 2 " p2 &&
	plot_with_path "$TRASH/fake" --log-y np.json -o c.svg >out 2>err &&
	! grep "logscale x" script &&
	ideal_block script 1 >i1 &&
	check_ideal_points i1 1 1 3 6 &&
	! grep "x / " script
'

test_expect_success 'an ideal line from each baseline count, none for p99' '
	fake_gnuplot "cat >\"$TRASH/script\"; echo chart" &&
	plot_with_path "$TRASH/fake" --log-y f1.json f2.json -o c.svg &&
	ideal_block script 1 >i1 &&
	check_ideal i1 1 8 &&
	ideal_block script 2 >i2 &&
	check_ideal i2 2 8 &&
	test_grep "title \"ideal from 1\", .*title \"ideal from 2\"\$" script &&
	plot_with_path "$TRASH/fake" f1.json f2.json -o c.svg &&
	ideal_block script 1 >i1 &&
	check_ideal_points i1 1 1 2 4 8 &&
	ideal_block script 2 >i2 &&
	check_ideal_points i2 2 2 4 8 &&
	test ! -s "$(ideal_block script 3)" &&
	plot_with_path "$TRASH/fake" -m p99 old.json -o c.svg &&
	! grep -e "^\\\$i" -e ideal script
'

# Which panels are logarithmic: logscale_of SCRIPT prints "log" or
# "linear" for panel 1 and 2.
logscale_of() {
	for n in 1 2; do
		if panel "$1" $n | grep "^set logscale y 10\$" >/dev/null; then
			echo log
		else
			echo linear
		fi
	done
}

# statfs at 900k ops/s beside statvfs_legacy at 20k lay flat on zero: a
# panel whose means span more than a decade is logarithmic, each panel by
# its own values (in hi.json and lo.json both scale alike, so the right
# panel stays linear).
test_expect_success 'log y chosen by the span of each panel, --log-y/--linear-y override' '
	write_result wide.json 1:1000000 2:20000 &&
	write_result hi.json 1:900000 2:1700000 &&
	write_result lo.json 1:20000 2:38000 &&
	write_result edge.json 1:1000 2:10000 &&
	fake_gnuplot "cat >\"$TRASH/script\"; echo chart" &&
	plot_with_path "$TRASH/fake" sm.json -o c.svg &&
	printf "%s\n" linear linear >expect &&
	logscale_of script >got &&
	test_cmp expect got &&
	plot_with_path "$TRASH/fake" edge.json -o c.svg &&
	logscale_of script >got &&
	test_cmp expect got &&
	plot_with_path "$TRASH/fake" --linear-y wide.json -o c.svg &&
	logscale_of script >got &&
	test_cmp expect got &&
	plot_with_path "$TRASH/fake" wide.json -o c.svg &&
	printf "%s\n" log log >expect &&
	logscale_of script >got &&
	test_cmp expect got &&
	plot_with_path "$TRASH/fake" --log-y sm.json -o c.svg &&
	logscale_of script >got &&
	test_cmp expect got &&
	plot_with_path "$TRASH/fake" hi.json lo.json -o c.svg &&
	printf "%s\n" log linear >expect &&
	logscale_of script >got &&
	test_cmp expect got &&
	panel script 2 >p2 &&
	test_grep "^set yrange \\[0:" p2 &&
	test_grep "^unset logscale y\$" p2
'

test_expect_success '--log-y and --linear-y together: exit 2, nothing drawn' '
	printf "%s\n" "vfsbench: --log-y and --linear-y: choose one" \
		"Try ${SQ}vfsbench plot --help$SQ for more information." >expect &&
	test_expect_code 2 vfsbench plot --log-y --linear-y sm.json -o both.svg \
		>out 2>err &&
	test_cmp expect err &&
	no_chart both.svg
'

# The page title of a script, its gnuplot octal escapes decoded.
page_title() {
	sed -n 's/^set multiplot layout 1,2 title "\([^"]*\)" margins .*/\1/p' "$1" |
		sed 's/\\\([0-7][0-7][0-7]\)/\\0\1/g' | xargs -0 printf '%b'
}

test_expect_success 'the title names the loadfiles, kernel, filesystem and host' '
	fake_gnuplot "cat >\"$TRASH/script\"; echo chart" &&
	plot_with_path "$TRASH/fake" old.json new.json -o c.svg &&
	kernel=$(jq -r .environment.kernel.release old.json) &&
	fs=$(jq -r .environment.target.fs_type old.json) &&
	host=$(jq -r .environment.hostname old.json) &&
	test "$kernel" = "$(uname -r)" &&
	test "$host" = "$(uname -n)" &&
	printf "loadfile t.load  kernel %s  fs %s  host %s\n" "$kernel" "$fs" \
		"$host" >expect &&
	page_title script >got &&
	test_cmp expect got &&
	write_result other.json loadfile=s.load 1:1000 2:1500 &&
	plot_with_path "$TRASH/fake" old.json other.json sm.json -o c.svg &&
	printf "loadfile t.load, s.load  kernel %s  fs %s  host %s\n" \
		"$kernel" "$fs" "$host" >expect &&
	page_title script >got &&
	test_cmp expect got &&
	plot_with_path "$TRASH/fake" sm.json -o c.svg &&
	test "$(page_title script)" = "loadfile t.load"
'

test_expect_success 'the title reaches gnuplot escaped, not as code' '
	write_result odd.json "loadfile=a\`id\`\$(x)@b.load" 1:1 2:2 &&
	fake_gnuplot "cat >\"$TRASH/script\"; echo chart" &&
	plot_with_path "$TRASH/fake" odd.json -o c.svg &&
	grep "^set multiplot" script >m &&
	! grep -e "\`" -e "@" -e "\\\$(" m &&
	test "$(page_title script)" = "loadfile a\`id\`\$(x)@b.load"
'

# statfs at 900k ops/s beside statvfs_legacy at 20k was flat at 0.
# Fixed data, not timed runs: lo.json at 4 clients is 1/600 of its
# 1-client mean (tics down to 2^-11, which %g printed as 0.000488281),
# with a stddev above its mean (a bar clipped); 1 client has equal runs
# (stddev 0); one.json has a single run a count, one of them 0 ops/s.
test_expect_success '--log-y: both panels logarithmic, bars clipped above 0' '
	write_result lo.json 1:1000000 1:1000000 1:1000000 \
		2:1500000 2:1600000 2:1400000 4:10 4:10 4:5000 &&
	write_result one.json 1:2000000 2:3000000 4:0 &&
	fake_gnuplot "cat >\"$TRASH/script\"; echo chart" &&
	plot_with_path "$TRASH/fake" --log-y lo.json one.json -o c.svg \
		>out 2>err &&
	test ! -s err &&
	for n in 1 2; do
		panel script $n >p &&
		test "$(grep -c "^set logscale y 10\$" p)" -eq 1 &&
		sed -n "s/^set yrange \\[\\([^:]*\\):\\(.*\\)\\]\$/\\1 \\2/p" p >r$n &&
		test "$(wc -l <r$n)" -eq 1 &&
		awk "{ exit !(\$1 > 0 && \$2 > \$1) }" r$n || return 1
	done &&
	echo "836.6666667 6000000" >expect &&
	test_cmp expect r1 &&
	echo "0.0008366666667 6.4" >expect &&
	test_cmp expect r2 &&
	panel script 1 >p1 &&
	test_grep "^plot \\\$d1 using 1:2:(\\\$2 - \\\$3 > 0 ? \\\$2 - \\\$3 : \\\$2):(\\\$2 + \\\$3) with yerrorlines" p1 &&
	panel script 2 >p2 &&
	test_grep "using 1:4:(\\\$4 - \\\$5 > 0 ? \\\$4 - \\\$5 : \\\$4):(\\\$4 + \\\$5) with yerrorlines" p2 &&
	sed -n "s/^set ytics (\\(.*\\))\$/\\1/p" p2 | tr -d " " | tr , "\\n" >tics &&
	printf "%s\n" 0.00048828125 0.0009765625 0.001953125 0.00390625 \
		0.0078125 0.015625 0.03125 0.0625 0.125 0.25 0.5 1 2 4 >expect &&
	test_cmp expect tics &&
	awk "NR > 1 && \$1 != 2 * prev { exit 1 } { prev = \$1; one += \$1 == 1 } END { exit !one }" tics &&
	ideal_block script 1 >i1 &&
	check_ideal i1 1 4 &&
	data_block script 1 >d1 &&
	test "$(awk "\$1 == 4 && \$3 > \$2" d1 | wc -l)" -eq 1 &&
	bottom=$(cut -d " " -f 1 r1) &&
	awk -v b="$bottom" "\$2 > 0 && \$2 < b { exit 1 }" d1
'

test_expect_success 'a file of two variants: a line each, by its label' '
	printf "%s\n" "stat a" >s.load &&
	printf "%s\n" "statfs ." >f.load &&
	vfsbench -q -e null --loops 2 --runs 2 -c s.load -c f.load \
		-D "$TRASH/work" --json v.json 1 2 >/dev/null &&
	fake_gnuplot "cat >\"$TRASH/script\"; echo chart" &&
	plot_with_path "$TRASH/fake" v.json -o c.svg >out 2>err &&
	data_block script 1 >d1 &&
	data_block script 2 >d2 &&
	awk "{ print \$1 }" d1 d2 >x &&
	printf "%s\n" 1 2 1 2 >expect &&
	test_cmp expect x &&
	test_grep "title \"s\"" script &&
	test_grep "title \"f\"" script
'

test_expect_success 'file names reach gnuplot escaped, not as code' '
	cp new.json "we\"ird\`id\`\$(x)@.json" &&
	fake_gnuplot "cat >\"$TRASH/script\"; echo chart" &&
	plot_with_path "$TRASH/fake" "we\"ird\`id\`\$(x)@.json" -o c.svg \
		>out 2>err &&
	! grep "id\`" script &&
	! grep "we\"" script &&
	! grep "@" script &&
	test_grep "we\\\\042ird" script
'

# --- real charts -----------------------------------------------------------

if test -n "$have_gnuplot"; then
	test_expect_success 'one file to .svg' '
		vfsbench plot old.json -o one.svg >out 2>err &&
		test ! -s err &&
		is_svg one.svg &&
		test "$(find . -maxdepth 1 -name "one.svg.tmp*" | wc -l)" -eq 0
	'

	# panel 1 log, panel 2 linear: gnuplot failed where panel 2 kept
	# panel 1's log y (t6008 test 6 in a fresh Debian 12 root)
	test_expect_success 'a log panel beside a linear one' '
		vfsbench plot hi.json lo.json -o loglin.svg >out 2>err &&
		test ! -s err &&
		is_svg loglin.svg
	'

	test_expect_success 'two files to .svg' '
		vfsbench plot old.json new.json -o two.svg >out 2>err &&
		test ! -s err &&
		is_svg two.svg &&
		grep "old" two.svg >/dev/null &&
		grep "new" two.svg >/dev/null
	'

	test_expect_success 'one file and two files to .png' '
		vfsbench plot old.json -o one.png &&
		is_png one.png &&
		vfsbench plot old.json new.json -o two.png &&
		is_png two.png
	'

	test_expect_success '--metric mbps and p99 draw too, and --log-y' '
		vfsbench plot -m mbps old.json new.json -o mb.svg &&
		is_svg mb.svg &&
		vfsbench plot --log-y old.json new.json -o log.svg 2>err &&
		test ! -s err &&
		is_svg log.svg &&
		vfsbench plot --log-y -m p99 old.json -o logp99.png 2>err &&
		test ! -s err &&
		is_png logp99.png &&
		vfsbench plot -m p99 old.json new.json -o p99.png &&
		is_png p99.png
	'

	test_expect_success 'an existing chart is replaced' '
		echo old >re.svg &&
		vfsbench plot old.json -o re.svg &&
		is_svg re.svg
	'

	test_expect_success 'odd file names still give a chart' '
		vfsbench plot "we\"ird\`id\`\$(x)@.json" old.json -o odd.svg &&
		is_svg odd.svg
	'
else
	for t in 'one file to .svg' 'two files to .svg' \
		'one file and two files to .png' '--metric mbps and p99 draw too, and --log-y' \
		'an existing chart is replaced' 'odd file names still give a chart'; do
		test_skip "$t" "$NO_GNUPLOT"
	done
fi

test_done
