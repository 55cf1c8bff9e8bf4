#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='README: every example of "Using it" runs, adapted only where it must be, and does what its text says'
. "$srcdir/tests/e2e/lib.sh"

# How: each command line of the section, as written, with what a test
# must change: -D /mnt/test is a scratch directory ($W, with a canary
# beside it), -t and --runs give way to --loops where the counts are the
# point, the null engine runs what only has to be accepted, --max and
# the client counts shrink where the machine would be the limit; each
# change is said where it is made. The first test holds the list of
# commands below to the README's: a command added, changed or removed
# there fails it until it is covered here.

SQ="'"
README="$abs_top_srcdir/README.md"
W="$TRASH/work"

command -v jq >/dev/null 2>&1 || test_skip_all "jq is not installed"

# uring: usable here, or its examples are skipped (t3005 says why).
if vfsbench -q -e uring -c default.load --loops 1 -D "$TRASH" 1 \
	>/dev/null 2>&1; then
	uring=t
else
	uring=
fi

# The section's command lines, as written, without their comments.
examples() {
	awk '/^## Using it/ { u = 1; next } /^## / { u = 0 }
	     u && /^    (vfsbench|mpirun|ln) / { print }' "$README" |
		sed -e 's/^    //' -e 's/  *# .*//'
}

# titles REPORT: each run's title, "LABEL, N clients", in order.
titles() {
	sed -n 's/^\(.*[0-9] clients\{0,1\}\)\( (.*)\)\{0,1\}: [0-9]* ops in .*/\1/p' "$1"
}

# ops REPORT TITLE: "op count" of the run titled TITLE.
ops() {
	awk -v h="$2:" -v h2="$2 (" '
		index($0, h) == 1 || index($0, h2) == 1 { r = 1; next }
		r && $1 == "Operation" { t = 1; next }
		r && t && /^(Unexpected|Total:|io_uring)/ { exit }
		r && t && NF >= 9 { print $1, $2 }' "$1"
}

# unexpected REPORT: the sum of its tables' unexpected column (the
# io_uring lines after a table end it, as Total: does).
unexpected() {
	awk '$1 == "Operation" { t = 1; next }
	     /^(Unexpected|Total:|io_uring|io-wq)/ { t = 0 }
	     t && NF >= 9 { n += $NF }
	     END { print n + 0 }' "$1"
}

test_expect_success 'every command of "Using it" is one of those run here' '
	examples >actual &&
	cat >expect <<-\EOF &&
	vfsbench -D /mnt/test -c statfs.load -t 10s 1-64
	vfsbench -D /mnt/test -c statvfs.load -t 10s 1-64
	vfsbench -D /mnt/test -c create-unlink.load --cwd shared 1 2 4 8
	vfsbench -e null -c pathwalk.load 1 2
	vfsbench --variant engine=posix,uring -c mixed.load 1 4
	vfsbench -e uring --resolve dirfd --variant uring-depth=1,4 1 4
	vfsbench -D /mnt/test --loops 100 4
	vfsbench -c /usr/share/dbench/client.txt -D /mnt/test 1 2
	vfsbench fdscale --max 1000000 [--cold]
	vfsbench fdscale -e uring --uring-fixed
	vfsbench suite fxmark -D /mnt/test 1 2 4
	vfsbench suite --list
	vfsbench record -o status.load -- git status
	vfsbench -c status.load -D /mnt/test 1-32
	vfsbench record --keep-outside -o ls.load -- ls -l
	vfsbench --read-outside -c ls.load -D /mnt/test 1 4
	vfsbench --list-loadfiles
	vfsbench --list-ops
	vfsbench -h
	vfsbench --help-all
	vfsbench kernels -k vmlinuz-vanilla -k bzImage-patched --boots 5 --json vfs.json -- -c statfs.load 1-8
	vfsbench compare vfs.json
	vfsbench -D /mnt/test -c statfs.load --runs 5 1-64 --json vanilla-1.json
	vfsbench compare vanilla-*.json -- patched-*.json
	vfsbench plot vanilla-1.json patched-1.json -o scaling.svg
	mpirun --hostfile hosts -np 4 --bind-to none vfsbench -D /mnt/nfs -t 10s 1 2 4 8
	vfsbench -c statfs.load -c statvfs_legacy.load --runs 5 1 2 4 --json fs.json
	vfsbench -c pathwalk.load --variant depth=0,4,16 --runs 5 1-8
	vfsbench -c pathwalk.load --variant resolve=cwd,dirfd,abs --depth 8 1-8
	vfsbench compare fs.json
	vfsbench dbench -D /mnt/test -t 60 8
	ln -s "$(command -v vfsbench)" ~/bin/dbench
	vfsbench -c mrpl.load -c mrph.load --cwd shared --depth 4 1-8
	vfsbench -c pathwalk.load --depth 32 --resolve dirfd 1 2
	vfsbench -D /mnt/test -c statfs.load --placement spread topology
	vfsbench -D /mnt/test -c statfs.load --profile 8 1-64
	vfsbench -D /mnt/test -c create-unlink.load --cwd shared --profile all 1 2 4
	vfsbench --exec-before ${SQ}echo 3 >/proc/sys/vm/drop_caches${SQ} 1-8
	EOF
	sed "s/\${SQ}/$SQ/g" expect >expect.q &&
	test_cmp expect.q actual
'

# -t 10s: --loops 2, the null engine (the counts are the point).
test_expect_success 'statfs.load 1-64: 1 2 4 ... 64 clients' '
	canary_setup &&
	vfsbench -D "$W" -c statfs.load --loops 2 -e null 1-64 >statfs.out &&
	titles statfs.out >got &&
	printf "%s\n" "1 client" "2 clients" "4 clients" "8 clients" \
		"16 clients" "32 clients" "64 clients" >expect &&
	test_cmp expect got &&
	canary_check && workdir_empty
'

test_expect_success 'statvfs.load 1-64: the same, one op swapped' '
	canary_setup &&
	vfsbench -D "$W" -c statvfs.load --loops 2 -e null 1-64 >statvfs.out &&
	for c in "1 client" "2 clients" "64 clients"; do
		ops statfs.out "$c" >a &&
		ops statvfs.out "$c" | sed "s/^statvfs /statfs /" >b &&
		test -s a && test_cmp a b &&
		ops statvfs.out "$c" | grep -q "^statvfs " || return 1
	done &&
	canary_check && workdir_empty
'

# Throughput: LKP splits it on single spaces and "=", and reads fields
# 2, 5, 8 and 12 (README: "spaced as dbench prints it").
test_expect_success 'every run ends with the line of dbench, as the README shows it' '
	grep "^Throughput " statfs.out >lines &&
	test "$(wc -l <lines)" = 7 &&
	awk "/^    Throughput /" "$README" | sed "s/^    //" >>lines &&
	while read -r line; do
		f=$(printf "%s\n" "$line" | awk -F "[ =]" "{ print \$2, \$5, \$8, \$12, \$3, \$6, \$9, \$11, \$13 }") &&
		set -- $f &&
		case "$1$2$3$4" in *[!0-9.e+]*) return 1 ;; esac &&
		test "$5 $6 $7 $8 $9" = "MB/sec clients procs max_latency ms" || return 1
	done <lines
'

test_expect_success 'a sweep ends with the table the README shows' '
	sed -n "/^Sweep:/,/^ *64 /p" statfs.out >sweep &&
	awk "/^    Sweep: /, /^    Clients/" "$README" | sed "s/^    //" >expect &&
	head -n 2 sweep >got &&
	test_cmp expect got &&
	awk "/^    Clients  /, /^\$/" "$README" | sed -n "s/^    \\( *[0-9]\\)/\\1/p" >rows &&
	sed -n "3,\$p" sweep >>rows &&
	test "$(wc -l <rows)" = 9 &&
	! grep -v -E "^ *[0-9]+ +[0-9]+\\.[0-9]{2} +[0-9]+\\.[0-9]{2} +[0-9]+\\.[0-9]{2} +[0-9]+\\.[0-9]{2} +[0-9]+ +[0-9.]+[num]?s +[0-9]+\\.[0-9]%( !)?\$" rows
'

# --loops 3: a fixed amount of work in the shared directory.
test_expect_success 'create-unlink.load --cwd shared 1 2 4 8' '
	canary_setup &&
	vfsbench -D "$W" -c create-unlink.load --cwd shared --loops 3 1 2 4 8 >out &&
	test_grep "  cwd shared  " out &&
	test "$(titles out | wc -l)" = 4 &&
	test "$(unexpected out)" = 0 &&
	canary_check && workdir_empty
'

# No -D: the work directory goes into the current one, here a scratch
# directory; --loops 100 for the default 10 s.
test_expect_success '-e null -c pathwalk.load 1 2: the ceiling of the harness' '
	mkdir -p here &&
	(cd here && vfsbench -e null -c pathwalk.load --loops 100 1 2 >../out) &&
	test_grep "^engine null  " out &&
	titles out >got &&
	printf "%s\n" "1 client" "2 clients" >expect &&
	test_cmp expect got &&
	test "$(ls -A here)" = ""
'

if test -z "$uring"; then
	test_skip '--variant engine=posix,uring: the same ops through io_uring' 'io_uring unusable here'
	test_skip '-e uring --resolve dirfd --variant uring-depth=1,4 1 4' 'io_uring unusable here'
else
	test_expect_success '--variant engine=posix,uring: the same ops through io_uring' '
		mkdir -p here &&
		(cd here && vfsbench --variant engine=posix,uring -c mixed.load \
			--loops 2 1 4 >../out) &&
		ops out "engine=posix, 4 clients" >a &&
		ops out "engine=uring, 4 clients" >b &&
		test -s a && test_cmp a b &&
		test "$(unexpected out)" = 0 &&
		test "$(ls -A here)" = ""
	'

	# "4 threads against 1 of 4 lanes": row 4 of the variants' table
	# sets them side by side, both resolving from a dirfd.
	test_expect_success '-e uring --resolve dirfd --variant uring-depth=1,4 1 4' '
		mkdir -p here &&
		(cd here && vfsbench -e uring --resolve dirfd \
			--variant uring-depth=1,4 --loops 2 1 4 >../out) &&
		test "$(grep -c "^    walk: resolve dirfd  " out)" = 2 &&
		test_grep "^uring-depth=1, 4 clients: " out &&
		test_grep "^uring-depth=4, 4 clients (1 thread of 4 lanes): " out &&
		awk "/^Variants, each against/ { t = 1 } t && \$1 == 4" out >row &&
		test "$(grep -o "(1)" row | wc -l)" = 2 &&
		test "$(ls -A here)" = ""
	'
fi

test_expect_success '--loops 100 4: fixed work, no time limit' '
	canary_setup &&
	vfsbench -D "$W" --loops 100 4 >out &&
	test_grep "^loops 100 per client  warmup none\$" out &&
	test_grep "^Total: .* (400 passes, " out &&
	canary_check && workdir_empty
'

# dbench's own loadfile, where Debian's dbench installs it; the null
# engine and one pass (its 4000 ops a pass only have to be read).
if test -r /usr/share/dbench/client.txt; then
	test_expect_success 'client.txt: the loadfile of dbench, its table too' '
		canary_setup &&
		vfsbench -c /usr/share/dbench/client.txt -D "$W" -e null \
			--loops 1 1 2 >out &&
		test_grep "^ *Operation  *Count  *AvgLat  *MaxLat" out &&
		test "$(titles out | wc -l)" = 2 &&
		canary_check && workdir_empty
	'
else
	test_skip 'client.txt: the loadfile of dbench' 'no /usr/share/dbench/client.txt (dbench)'
fi

# --max 1000000: 1000 here, a machine of the tests may not raise
# RLIMIT_NOFILE that far.
test_expect_success 'fdscale --max 1000 [--cold]: open() vs open fds, hot and cold' '
	vfsbench fdscale --max 1000 -q >hot &&
	test_grep "^fdscale: cache-hot, " hot &&
	test_grep "^num_fds: 1000, best cost: " hot &&
	vfsbench fdscale --max 1000 --cold -q >cold &&
	test_grep "^fdscale: cache-cold, " cold &&
	test_grep "^num_fds: 1000, best cost: " cold
'

if test -z "$uring"; then
	test_skip 'fdscale -e uring --uring-fixed' 'io_uring unusable here'
else
	test_expect_success 'fdscale -e uring --uring-fixed: vs direct descriptors' '
		vfsbench fdscale -e uring --uring-fixed --max 1000 -q >out &&
		test_grep "engine uring, into the ring${SQ}s file table (--uring-fixed)\$" out &&
		test_grep "^num_fds: 1000, best cost: " out
	'
fi

# --loops 1, the null engine: the table is the point.
test_expect_success 'suite fxmark 1 2 4: the 19 of FxMark in one table' '
	canary_setup &&
	vfsbench suite fxmark -D "$W" -e null --loops 1 1 2 4 >out &&
	awk "/^ops\\/s \\(median/ { t = 1; getline; print; next } t && NF == 0 { exit } t { n++ } END { print n }" out >got &&
	printf "%-8s %12s  %12s  %12s\n%s\n" workload 1 2 4 19 >expect &&
	test_cmp expect got &&
	canary_check && workdir_empty
'

test_expect_success 'suite --list: fxmark, wis, vfs-commits' '
	vfsbench suite --list | awk "/^[a-z]/ { print \$1 }" >got &&
	printf "%s\n" fxmark vfs-commits wis | sort >expect &&
	sort got >got.s &&
	test_cmp expect got.s
'

# git status in a repository of its own; the replay, 1 to 32 clients,
# with one pass (--loops 1 for the default 10 s).
if ! command -v git >/dev/null 2>&1; then
	test_skip 'record -o status.load -- git status, replayed by 1 to 32' 'no git'
else
	strace_test 'record -o status.load -- git status, replayed by 1 to 32 clients' '
		mkdir -p repo &&
		(cd repo && git init -q && echo tracked >README &&
			echo x >untracked &&
			GIT_INDEX_FILE=.git/index git add README &&
			vfsbench record -o ../status.load -- git status \
				>/dev/null 2>../err) &&
		test_grep "^vfsbench record: ../status.load: [0-9]* ops from " err &&
		canary_setup &&
		vfsbench -c status.load -D "$W" --loops 1 1-32 >out &&
		titles out >got &&
		printf "%s\n" "1 client" "2 clients" "4 clients" "8 clients" \
			"16 clients" "32 clients" >expect &&
		test_cmp expect got &&
		test "$(unexpected out)" = 0 &&
		canary_check && workdir_empty
	'
fi

strace_test 'record --keep-outside -- ls -l, replayed with --read-outside 1 4' '
	mkdir -p lsdir &&
	echo x >lsdir/f &&
	(cd lsdir && vfsbench record --keep-outside -o ../ls.load -- ls -l \
		>/dev/null 2>../err) &&
	sed -n "s/^# kept outside the root (--keep-outside): \\([0-9]*\\) read-only ops on absolute paths;.*/\\1/p" ls.load >kept &&
	test "$(cat kept)" -gt 0 &&
	canary_setup &&
	vfsbench --read-outside -c ls.load -D "$W" --loops 1 1 4 >out &&
	test "$(titles out | wc -l)" = 2 &&
	canary_check && workdir_empty
'

test_expect_success '--list-loadfiles, --list-ops: each op and its syscalls' '
	vfsbench --list-loadfiles >lf &&
	test_grep "^statfs\\.load " lf &&
	test_grep "^pathwalk\\.load " lf &&
	vfsbench --list-ops >lo &&
	test_grep "^stat  *stat(2)\$" lo &&
	test_grep "^statvfs_legacy " lo
'

test_expect_success '-h: the common options; --help-all: every option' '
	vfsbench -h >short &&
	test_grep "^These are the common options: vfsbench --help-all lists all of them,\$" short &&
	vfsbench --help-all >all &&
	test_grep "^      --knee=X " all &&
	! grep -q -- "--knee" short
'

# The kernels: Debian's (tools/test-kernel.sh), one image as both (so
# each needs its -l: the release would name both alike), --boots 1 for
# the boots' time, and the null engine with --loops 1 for the counts:
# one result file of 2 boots, alternated, and compare's table of it.
kernels_setup
test_if "$kernels_skip" 'kernels: vanilla and patched, each booted, one result; compare vfs.json' '
	canary_setup &&
	vfsbench kernels -q -D "$W" -k "$K" -l vanilla -k "$K" -l patched \
		--boots 1 --json vfs.json -- -c statfs.load -e null --loops 1 \
		1-8 >out 2>err &&
	test "$(jq -r "[.boots[].label] | join(\" \")" vfs.json)" = "vanilla patched" &&
	vfsbench compare vfs.json >cmp &&
	test_grep "^Clients  vanilla  *patched\$" cmp &&
	test "$(awk "\$1 ~ /^[0-9]+\$/" cmp | wc -l)" = 4 &&
	canary_check && workdir_empty
'

# --runs 5 1-64, the null engine and --loops 1: 35 runs a file. Three
# files a side, as three boots of each kernel would give; made in one
# boot here, so each file's environment.boot_id is set apart (jq), as
# another boot's would be: compare then samples by boot, as it says.
test_expect_success 'vanilla-*.json -- patched-*.json: compare with the boot as the unit' '
	canary_setup &&
	for f in vanilla-1 vanilla-2 vanilla-3 patched-1 patched-2 patched-3; do
		vfsbench -q -D "$W" -c statfs.load --runs 5 1-64 --json $f.json \
			-e null --loops 1 >/dev/null &&
		jq ".environment.boot_id = \"$f\"" $f.json >b.json &&
		mv b.json $f.json || return 1
	done &&
	canary_check && workdir_empty &&
	vfsbench compare vanilla-*.json -- patched-*.json >out 2>err &&
	test_grep "^Metric: ops/s, mean over boots of each boot${SQ}s mean of runs, relative to vanilla-1+vanilla-2+vanilla-3 at 1 client " out &&
	test_grep "^Marks: Welch${SQ}s t-test, two-sided; " out &&
	test "$(awk "\$1 ~ /^[0-9]+\$/" out | grep -c "(3/15).*(3/15)")" = 7 &&
	test_grep "^Spread: between a side${SQ}s boots | of the runs within a boot" out
'

if command -v gnuplot >/dev/null 2>&1; then
	test_expect_success 'plot vanilla-1.json patched-1.json -o scaling.svg' '
		vfsbench plot vanilla-1.json patched-1.json -o scaling.svg &&
		grep -q "<svg" scaling.svg
	'
else
	test_skip 'plot vanilla-1.json patched-1.json -o scaling.svg' 'no gnuplot (gnuplot-nox)'
fi

# A hostfile of this machine, 2 ranks for 4 on 2 cores, --loops 1 for -t.
if have_mpi; then
	test_expect_success 'mpirun --hostfile hosts -np 2 --bind-to none vfsbench 1 2 4 8' '
		canary_setup &&
		echo "localhost slots=2" >hosts &&
		mpirun_local --hostfile hosts -np 2 "$VFSBENCH" -D "$W" \
			-e null --loops 1 1 2 4 8 >out 2>err &&
		test_grep "^ranks 2 on 1 host, " out &&
		test "$(titles out | wc -l)" = 4 &&
		canary_check && workdir_empty
	'
else
	test_skip 'mpirun --hostfile hosts -np 4 vfsbench' 'not an MPI build, or no mpirun'
fi

test_expect_success 'statfs.load and statvfs_legacy.load interleaved; compare fs.json: the same table again' '
	canary_setup &&
	vfsbench -q -D "$W" -c statfs.load -c statvfs_legacy.load --runs 5 \
		1 2 4 --json fs.json -e null --loops 1 >run.out &&
	canary_check && workdir_empty &&
	sed -n "/^Variants, each against statfs (as vfsbench compare prints them):\$/,\$p" run.out |
		sed 1d >table &&
	test -s table &&
	vfsbench compare fs.json >cmp.out &&
	test_cmp table cmp.out
'

test_expect_success 'pathwalk.load --variant depth=0,4,16 --runs 5 1-8' '
	canary_setup &&
	vfsbench -D "$W" -c pathwalk.load --variant depth=0,4,16 --runs 5 \
		-e null --loops 1 1-8 >out &&
	sed -n "s/^    walk: .* a lookup walks \\([0-9]*\\) components\\{0,1\\} .*/\\1/p" out >got &&
	printf "%s\n" 0 4 16 >expect &&
	test_cmp expect got &&
	test "$(titles out | wc -l)" = 60 &&
	canary_check && workdir_empty
'

test_expect_success 'pathwalk.load --variant resolve=cwd,dirfd,abs --depth 8 1-8' '
	canary_setup &&
	vfsbench -D "$W" -c pathwalk.load --variant resolve=cwd,dirfd,abs \
		--depth 8 -e null --loops 1 1-8 >out &&
	sed -n "s/^    walk: resolve \\([a-z]*\\) .*/\\1/p" out >got &&
	printf "%s\n" cwd dirfd abs >expect &&
	test_cmp expect got &&
	canary_check && workdir_empty
'

# -t 60 8: -t 1 2. dbench's output: its lines, its final line.
test_expect_success 'vfsbench dbench -D DIR -t 1 2, and under the name dbench' '
	canary_setup &&
	vfsbench dbench -D "$W" -t 1 2 >out 2>err &&
	test_grep "^Throughput [0-9.e+]* MB/sec  2 clients  2 procs  max_latency=[0-9.]* ms\$" out &&
	mkdir -p bin &&
	ln -s "$VFSBENCH" bin/dbench &&
	PATH="$TRASH/bin:$PATH" dbench -D "$W" -t 1 2 >out2 2>err2 &&
	test_grep "^Throughput [0-9.e+]* MB/sec  2 clients  2 procs  max_latency=[0-9.]* ms\$" out2 &&
	canary_check && workdir_empty
'

# In one shared cwd below a shared chain of 4, mrpl's clients each end
# at a file of their own, mrph's all at one: the trees they leave
# (--skip-cleanup) say so; one pass, for the default 10 s.
test_expect_success 'mrpl.load and mrph.load --cwd shared --depth 4 1-8: own file, one file' '
	canary_setup &&
	vfsbench -D "$W" -c mrpl.load -c mrph.load --cwd shared --depth 4 \
		--loops 1 --order sequential --skip-cleanup 1-8 >out &&
	test "$(grep -c "^    walk: resolve cwd  prefix shared  a lookup walks 4 components " out)" = 2 &&
	wd=$(echo "$W"/vfsbench.*) &&
	for r in 0 1 2 3; do
		n=$((1 << r)) &&
		(cd "$wd/run$r/shared" && find . -name file | sort) >mrpl.$r &&
		seq 0 $((n - 1)) | sed "s|.*|./d/d/d/d/&/p1/p2/p3/file|" | sort >expect &&
		test_cmp expect mrpl.$r &&
		(cd "$wd/run$((r + 4))/shared" && find . -name file) >mrph.$r &&
		echo ./d/d/d/d/p1/p2/p3/p4/file >expect &&
		test_cmp expect mrph.$r || return 1
	done &&
	rm -rf "$wd" &&
	canary_check && workdir_empty
'

test_expect_success 'pathwalk.load --depth 32 --resolve dirfd 1 2' '
	mkdir -p here &&
	(cd here && vfsbench -c pathwalk.load --depth 32 --resolve dirfd \
		-e null --loops 1 1 2 >../out) &&
	test_grep "^walk: resolve dirfd  prefix private  a lookup walks 32 components before " out &&
	test "$(ls -A here)" = ""
'

test_expect_success 'statfs.load --placement spread topology' '
	canary_setup &&
	vfsbench -D "$W" -c statfs.load --placement spread -e null --loops 1 \
		topology >out &&
	test_grep "  placement spread\$" out &&
	test "$(titles out | wc -l)" -ge 1 &&
	canary_check && workdir_empty
'

# perf record, where it can run; the null engine and --loops 200000
# for a window to sample (-t's default with the posix engine would do).
if command -v perf >/dev/null 2>&1 &&
	perf record -q -e cpu-clock -o "$TRASH/probe.data" true >/dev/null 2>&1; then
	test_expect_success 'statfs.load --profile 8 1-64: perf-8.data' '
		canary_setup &&
		vfsbench -q -D "$W" -c statfs.load --profile 8 --profile-event cpu-clock \
			-e null --loops 200000 1-64 >out 2>err &&
		test_grep "^  8 clients: perf-8.data, perf-8.folded\$" out &&
		test -s perf-8.data &&
		! test -e perf-4.data &&
		rm -f perf-8.data perf-8.folded &&
		canary_check && workdir_empty
	'

	test_expect_success 'create-unlink.load --cwd shared --profile all 1 2 4: symbols, lock chains, the knee, perf lock' '
		canary_setup &&
		vfsbench -q -D "$W" -c create-unlink.load --cwd shared \
			--profile all --profile-event cpu-clock --loops 2000 \
			1 2 4 >out 2>err &&
		test_grep "^Where the time goes (share of perf${SQ}s cpu-clock samples):\$" out &&
		test_grep "^ Symbols (self):\$" out &&
		test_grep "^ Lock chains (lock <- VFS entry, the samples under it):\$" out &&
		test_grep "^Knee (--knee 0.80): " out &&
		for n in 1 2 4; do
			test -s perf-$n.data || return 1
		done &&
		if perf lock record -q -o "$TRASH/lprobe.data" true >/dev/null 2>&1; then
			for n in 1 2 4; do
				test -s perf-$n.lock.data || return 1
			done
		fi &&
		rm -f perf-*.data perf-*.folded &&
		canary_check && workdir_empty
	'
else
	test_skip 'statfs.load --profile 8 1-64' 'perf record cannot run here'
	test_skip 'create-unlink.load --profile all 1 2 4' 'perf record cannot run here'
fi

# The hook runs before each run; it writes a scratch file here, not
# /proc/sys/vm/drop_caches, whose drop would slow every other test of
# the machine (t4005 tests the drop vfsbench makes itself).
test_expect_success '--exec-before a command 1-8: before each run' '
	mkdir -p here &&
	(cd here && vfsbench --exec-before "echo 3 >>$TRASH/dropped" \
		-e null --loops 1 1-8 >../out) &&
	printf "%s\n" 3 3 3 3 >expect &&
	test_cmp expect dropped &&
	test "$(ls -A here)" = ""
'

test_done
