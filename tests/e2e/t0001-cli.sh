#!/bin/sh
# shellcheck disable=SC2034
test_description='basic command line: version, help, usage errors'
# shellcheck disable=SC2154
. "$srcdir/tests/e2e/lib.sh"

# A single quote, for messages inside single-quoted test bodies.
SQ="'"

# The seven loadfiles shipped with vfsbench.
SHIPPED='create-unlink default mixed mrph mrpl mrpm neglookup pathwalk statfs
statvfs statvfs_legacy git-status find ls-lR make-stat'

# Every op of the loadfile language, in the order of vfsbench-loadfile(5).
ALL_OPS='stat lstat fstat access statfs fstatfs statvfs fstatvfs
statvfs_legacy open create close pread pwrite fsync fdatasync ftruncate
unlink mkdir rmdir rename link symlink readlink readdir utimens probe read lseek
dup lock unlock getdents data'

# Every long option of vfsbench(1).
ALL_OPTIONS='loadfile variant directory time warmup loops engine cwd fs-struct
fd-table depth prefix resolve dcache skip-cleanup max-errors strict stop-timeout clock latency-sample
relative runs order seed
distribute cv-warn json csv ministat format percentiles units dialect links-out
sync-open sync-dirs fsync no-resolve fsinfo quiet null-fail uring-strict uring-fixed
uring-depth read-outside
list-loadfiles list-ops version help help-all usage placement profile knee profile-event
perf-ctl exec-before exec-after'

# usage_error MESSAGE ARGS...: vfsbench ARGS fails with exit 2, stderr is
# exactly "vfsbench: MESSAGE" and the --help hint, stdout is empty, and
# nothing is created in the work directory.
usage_error() {
	msg=$1
	shift
	canary_setup &&
	printf 'vfsbench: %s\n' "$msg" >expect &&
	printf '%s\n' "Try 'vfsbench --help' for more information." >>expect &&
	test_expect_code 2 vfsbench -D "$TRASH/work" "$@" >out 2>err &&
	test_cmp expect err &&
	test ! -s out &&
	canary_check &&
	workdir_empty
}

# run_counts FILE: the client count of each run in a report, one a line.
run_counts() {
	sed -n 's/^\([0-9][0-9]*\) clients\{0,1\}: .*/\1/p' "$1"
}

# run_ops FILE: "N clients: X ops" of each run as "N X", one a line.
run_ops() {
	sed -n 's/^\([0-9][0-9]*\) clients\{0,1\}: \([0-9][0-9]*\) ops .*/\1 \2/p' "$1"
}

# --- version, help, usage -------------------------------------------------

test_expect_success '--version prints the version' '
	vfsbench --version >out &&
	test_grep "^vfsbench [0-9]" out
'

test_expect_success '--version and -V print one line and exit 0' '
	vfsbench --version >out 2>err &&
	test_line_count=$(wc -l <out) &&
	test "$test_line_count" -eq 1 &&
	test ! -s err &&
	test_grep "^vfsbench [0-9][0-9]*\.[0-9][0-9]*\.[0-9][0-9]*$" out &&
	vfsbench -V >out2 &&
	test_cmp out out2
'

test_expect_success '--version wins over a client count and runs nothing' '
	canary_setup &&
	vfsbench -D "$TRASH/work" --version 4 >out 2>err &&
	test_grep "^vfsbench [0-9]" out &&
	test ! -s err &&
	canary_check &&
	workdir_empty
'

test_expect_success '--help shows the usage line and exits 0' '
	vfsbench --help >out 2>err &&
	test ! -s err &&
	test_grep "^Usage: vfsbench \[OPTIONS\] CLIENTS\.\.\.$" out &&
	test_grep "^CLIENTS: " out &&
	test_grep "^Exit status: " out &&
	vfsbench -h >out2 &&
	test_cmp out out2
'

test_expect_success '--help-all lists every option' '
	vfsbench --help-all >out &&
	for o in $ALL_OPTIONS
	do
		test_grep "^ \{1,8\}\(-[a-zA-Z], \)\{0,1\}--$o[= ]" out || exit 1
	done
'

test_expect_success '--help shows the short options' '
	vfsbench --help >out &&
	for p in "-c, --loadfile" "-D, --directory" "-t, --time" "-e, --engine" \
		"-q, --quiet" "-V, --version" "-h, --help"
	do
		test_grep "^ *$p" out || exit 1
	done
'

test_expect_success '--help-all lists no option that does not exist' '
	vfsbench --help-all >out &&
	sed -n "s/^ \{1,8\}\(-[a-zA-Z], \)\{0,1\}--\([a-z][a-z-]*\).*/\2/p" out |
		sort >actual &&
	for o in $ALL_OPTIONS; do echo "$o"; done | sort >expect &&
	test_cmp expect actual
'

test_expect_success '--usage prints a short usage and exits 0' '
	vfsbench --usage >out 2>err &&
	test ! -s err &&
	test_grep "^Usage: vfsbench " out &&
	test_grep "CLIENTS\.\.\." out &&
	test_grep "\[--loops=N\]" out &&
	test_grep "\[--null-fail=OP:ERRNO\]" out &&
	! grep "^  *-c, --loadfile" out
'

# --- usage errors ------------------------------------------------------------

test_expect_success 'no client count is a usage error (exit 2)' '
	test_expect_code 2 vfsbench 2>err &&
	test_grep "no client count given" err
'

test_expect_success 'no client count: exact message' '
	usage_error "no client count given (e.g. ${SQ}vfsbench 4${SQ} or ${SQ}vfsbench 1-8${SQ})" \
		-e null --loops 1
'

for c in 0 abc 5-2 0-4 1- 2x 100001 1-100001
do
	test_expect_success "bad client count '$c'" '
		usage_error "bad client count ${SQ}$c${SQ}: expected N, a range such as 1-64 (1 <= N <= 100000), or topology" \
			-e null --loops 1 "$c"
	'
done

test_expect_success 'a bad client count after a good one' '
	usage_error "bad client count ${SQ}0${SQ}: expected N, a range such as 1-64 (1 <= N <= 100000), or topology" \
		-e null --loops 1 2 0
'

test_expect_success 'bad --clock and --latency-sample values: exit 2' '
	usage_error "bad --clock ${SQ}rdtsc${SQ}: expected auto, tsc or monotonic" \
		-e null --loops 1 --clock rdtsc 1 &&
	for n in 0 -1 x 4294967296; do
		usage_error "bad --latency-sample ${SQ}$n${SQ}: expected 1 to 4294967295 (time one op in N)" \
			-e null --loops 1 --latency-sample "$n" 1 || return 1
	done
'

test_expect_success 'unknown long option' '
	usage_error "--bogus: unknown option" -e null --loops 1 --bogus 1
'

test_expect_success 'unknown short option' '
	usage_error "-Z: unknown option" -e null --loops 1 -Z 1
'

test_expect_success 'option without its argument' '
	usage_error "--loops: missing argument" -e null 1 --loops
'

test_expect_success 'unknown engine' '
	usage_error "unknown engine ${SQ}x${SQ} (expected posix, uring or null)" \
		-e x --loops 1 1 &&
	usage_error "unknown engine ${SQ}Null${SQ} (expected posix, uring or null)" \
		--engine Null --loops 1 1
'

for t in x 0 0s -1s 1y 1.s ""
do
	test_expect_success "bad --time '$t'" '
		usage_error "bad --time ${SQ}$t${SQ}: expected a duration such as 10s or 2m" \
			-e null -t "$t" 1
	'
done

for w in x xp p 1.5p 1y -1 ""
do
	test_expect_success "bad --warmup '$w'" '
		usage_error "bad --warmup ${SQ}$w${SQ}: expected a duration or passes such as 3p" \
			-e null -t 1s --warmup "$w" 1
	'
done

for l in 0 -1 1.5 x ""
do
	test_expect_success "bad --loops '$l'" '
		usage_error "bad --loops ${SQ}$l${SQ}: expected a positive number" \
			-e null --loops "$l" 1
	'
done

test_expect_success '--loops with --time' '
	usage_error "--loops and --time exclude each other" \
		-e null --loops 1 -t 1s 1 &&
	usage_error "--loops and --time exclude each other" \
		-e null --time 1s --loops 1 1
'

test_expect_success 'bad --cwd' '
	usage_error "bad --cwd ${SQ}bogus${SQ}: expected private or shared" \
		-e null --loops 1 --cwd bogus 1
'

test_expect_success 'bad --fs-struct and --fd-table' '
	usage_error "bad --fs-struct ${SQ}x${SQ}: expected private or shared" \
		-e null --loops 1 --fs-struct x 1 &&
	usage_error "bad --fd-table ${SQ}x${SQ}: expected shared or private" \
		-e null --loops 1 --fd-table x 1
'

test_expect_success '--fs-struct shared with a private cwd' '
	m="--fs-struct shared needs --cwd shared: with one fs_struct all clients have one cwd" &&
	usage_error "$m" -e null --loops 1 --cwd private --fs-struct shared 1 &&
	usage_error "$m" -e null --loops 1 --fs-struct shared 1
'

test_expect_success '--fs-struct shared with --cwd shared is fine' '
	canary_setup &&
	vfsbench -D "$TRASH/work" -c statfs -e null --loops 1 -q \
		--cwd shared --fs-struct shared 2 >out &&
	test "$(run_counts out)" = 2 &&
	canary_check &&
	workdir_empty
'

test_expect_success '--null-fail without the null engine' '
	usage_error "--null-fail needs --engine null" \
		--loops 1 --null-fail stat:EIO 1 &&
	usage_error "--null-fail needs --engine null" \
		-e posix --loops 1 --null-fail stat:EIO 1
'

test_expect_success '--null-fail without a colon' '
	usage_error "--null-fail ${SQ}stat${SQ}: expected OP:ERRNO, e.g. stat:EIO" \
		-e null --loops 1 --null-fail stat 1
'

test_expect_success '--null-fail with an unknown op' '
	usage_error "--null-fail ${SQ}bogus:EIO${SQ}: unknown op ${SQ}bogus${SQ}" \
		-e null --loops 1 --null-fail bogus:EIO 1 &&
	usage_error "--null-fail ${SQ}:EIO${SQ}: unknown op ${SQ}${SQ}" \
		-e null --loops 1 --null-fail :EIO 1
'

test_expect_success '--null-fail with an unknown errno name' '
	usage_error "--null-fail ${SQ}stat:EFOO${SQ}: unknown errno name ${SQ}EFOO${SQ}" \
		-e null --loops 1 --null-fail stat:EFOO 1 &&
	usage_error "--null-fail ${SQ}stat:${SQ}: unknown errno name ${SQ}${SQ}" \
		-e null --loops 1 --null-fail stat: 1 &&
	usage_error "--null-fail ${SQ}stat:eio${SQ}: unknown errno name ${SQ}eio${SQ}" \
		-e null --loops 1 --null-fail stat:eio 1
'

test_expect_success 'a good --null-fail then a bad one' '
	usage_error "--null-fail ${SQ}stat${SQ}: expected OP:ERRNO, e.g. stat:EIO" \
		-e null --loops 1 --null-fail stat:EIO --null-fail stat 1
'

# They would be ignored by every other engine: refused, not ignored.
test_expect_success '--uring-strict and --uring-fixed without the uring engine' '
	usage_error "--uring-fixed needs --engine uring (or a variant on it)" \
		-e posix --loops 1 --uring-fixed 1 &&
	usage_error "--uring-strict needs --engine uring (or a variant on it)" \
		--loops 1 --uring-strict 1 &&
	usage_error "--uring-fixed needs --engine uring (or a variant on it)" \
		--variant engine=posix,null --loops 1 --uring-fixed 1
'

# --- client counts -------------------------------------------------------------

test_expect_success 'CLIENTS 1-8 runs 1 2 4 8 clients' '
	canary_setup &&
	vfsbench -D "$TRASH/work" -c statfs -e null --loops 1 -q 1-8 >out 2>err &&
	test ! -s err &&
	printf "%s\n" 1 2 4 8 >expect &&
	run_counts out >actual &&
	test_cmp expect actual &&
	canary_check &&
	workdir_empty
'

test_expect_success 'CLIENTS 1-6 runs 1 2 4 6 clients' '
	canary_setup &&
	vfsbench -D "$TRASH/work" -c statfs -e null --loops 1 -q 1-6 >out &&
	printf "%s\n" 1 2 4 6 >expect &&
	run_counts out >actual &&
	test_cmp expect actual &&
	canary_check &&
	workdir_empty
'

test_expect_success 'CLIENTS 3 1 keeps the order' '
	canary_setup &&
	vfsbench -D "$TRASH/work" -c statfs -e null --loops 1 -q 3 1 >out &&
	printf "%s\n" 3 1 >expect &&
	run_counts out >actual &&
	test_cmp expect actual &&
	canary_check &&
	workdir_empty
'

test_expect_success 'CLIENTS: single count, mixed forms, 2-2, 3-5' '
	canary_setup &&
	vfsbench -D "$TRASH/work" -c statfs -e null --loops 1 -q 1 >out &&
	test "$(run_counts out)" = 1 &&
	test_grep "^1 client: " out &&
	vfsbench -D "$TRASH/work" -c statfs -e null --loops 1 -q 2-2 >out &&
	test "$(run_counts out)" = 2 &&
	vfsbench -D "$TRASH/work" -c statfs -e null --loops 1 -q 3-5 >out &&
	printf "%s\n" 3 5 >expect &&
	run_counts out >actual &&
	test_cmp expect actual &&
	vfsbench -D "$TRASH/work" -c statfs -e null --loops 1 -q 5 1-4 2 >out &&
	printf "%s\n" 5 1 2 4 2 >expect &&
	run_counts out >actual &&
	test_cmp expect actual &&
	canary_check &&
	workdir_empty
'

test_expect_success 'each run does clients x loops passes' '
	canary_setup &&
	vfsbench -D "$TRASH/work" -c statfs -e null --loops 3 -q 1-8 >out &&
	printf "%s\n" "1 3" "2 6" "4 12" "8 24" >expect &&
	run_ops out >actual &&
	test_cmp expect actual &&
	test "$(op_count out statfs)" = 24 &&
	canary_check &&
	workdir_empty
'

test_expect_success 'a sweep table follows two or more runs, in order' '
	canary_setup &&
	vfsbench -D "$TRASH/work" -c statfs -e null --loops 1 -q 3 1 >out &&
	test_grep "^Sweep: relative to 1 client, by ops/s$" out &&
	sed -n "/^Clients /,\$p" out | awk "NR > 1 { print \$1 }" >actual &&
	printf "%s\n" 3 1 >expect &&
	test_cmp expect actual &&
	vfsbench -D "$TRASH/work" -c statfs -e null --loops 1 -q 4 2 >out &&
	test_grep "^Sweep: relative to 2 clients, by ops/s$" out &&
	vfsbench -D "$TRASH/work" -c statfs -e null --loops 1 -q 4 >out &&
	! grep "^Sweep" out &&
	canary_check &&
	workdir_empty
'

# --- listings -------------------------------------------------------------------

test_expect_success '--list-loadfiles lists all shipped loadfiles' '
	vfsbench --list-loadfiles >out 2>err &&
	test ! -s err &&
	awk "/^[^ ]/ { print \$1 }" out | sort >actual &&
	{
		for l in $SHIPPED; do echo "$l.load"; done &&
		sed "s/#.*//" "$LOADFILES"/*.suite | awk "NF { print \$2 }"
	} | sort -u >expect &&
	test_cmp expect actual
'

# The entry of loadfile NAME in a --list-loadfiles output: its lines
# joined by single spaces, without the name.
list_entry() {
	awk -v n="$2" '
		/^[^ ]/ {
			on = $1 == n
			if (on) { sub(/^[^ ]+ */, ""); s = $0 }
			next
		}
		on { sub(/^ +/, ""); s = s (s == "" ? "" : " ") $0 }
		END { print s }' "$1"
}

# What the entry of FILE should say, worked out from the file: the first
# sentence of its leading comment without "NAME:", then "ops:" and the
# op kinds of its [run] section in order of first use.
expected_entry() {
	awk -v name="${1##*/}" '
		BEGIN { sec = "run"; lead = 1 }
		lead && /^#/ {
			line = $0
			sub(/^#[ \t]*/, "", line)
			if (line == "") { lead = 0; next }
			text = text (text == "" ? "" : " ") line
			next
		}
		{ lead = 0 }
		/^[ \t]*(#|$)/ { next }
		/^\[setup\]/ { sec = "setup"; next }
		/^\[run\]/ { sec = "run"; next }
		sec == "run" && !($1 in seen) { seen[$1] = 1; ops = ops " " $1 }
		END {
			gsub(/  +/, " ", text)
			if (index(text, name ": ") == 1)
				text = substr(text, length(name) + 3)
			if (match(text, /\.( |$)/))
				text = substr(text, 1, RSTART)
			print text " ops:" ops
		}' "$1"
}

# It printed the first line, cut mid-sentence, the same for the statfs
# family.
test_expect_success '--list-loadfiles: each first sentence whole, and its ops' '
	vfsbench --list-loadfiles >out &&
	for l in $SHIPPED; do
		list_entry out "$l.load" >got &&
		expected_entry "$LOADFILES/$l.load" >want &&
		test_cmp want got || return 1
	done &&
	awk "length > 79 { print; bad = 1 } END { exit bad }" out &&
	for l in statfs statvfs statvfs_legacy; do
		list_entry out "$l.load" | sed "s/ ops:.*//"
	done | sort | uniq -d >same &&
	test ! -s same &&
	test "$(list_entry out statfs.load)" = \
		"one raw statfs(2) system call on the client directory per pass. ops: statfs"
'

test_expect_success '--list-loadfiles lists what is in the source tree' '
	vfsbench --list-loadfiles | awk "/^[^ ]/ { print \$1 }" | sort >actual &&
	(cd "$LOADFILES" && ls -- *.load) | sort >expect &&
	test_cmp expect actual
'

test_expect_success '--list-ops lists every op' '
	vfsbench --list-ops >out 2>err &&
	test ! -s err &&
	awk "NF == 0 { exit } { print \$1 }" out >actual &&
	for o in $ALL_OPS; do echo "$o"; done >expect &&
	test_cmp expect actual
'

test_expect_success '--list-ops names the system calls of each op' '
	vfsbench --list-ops >out &&
	awk "NF == 0 { exit } NF < 2 { bad = 1; print \"no syscalls: \" \$0 } END { exit bad }" out &&
	test_grep "^stat  *stat(2)$" out &&
	test_grep "^statfs  *statfs(2)$" out &&
	test_grep "^statvfs  *statvfs(3)" out &&
	test_grep "^statvfs_legacy  *statfs(2), stat(2), open(2)" out &&
	test_grep "^readdir  *open(2) O_DIRECTORY, getdents64(2)" out
'

test_expect_success 'every listed op is a loadfile op, every other word is not' '
	canary_setup &&
	vfsbench --list-ops | awk "NF == 0 { exit } { print \$1 }" >ops &&
	while read -r o
	do
		printf "%s\n" "$o" >lf.load &&
		test_expect_code 2 vfsbench -c lf.load -e null --loops 1 -q \
			-D "$TRASH/work" 1 2>err &&
		! grep "unknown op" err || exit 1
	done <ops &&
	printf "%s\n" "chmod a" >lf.load &&
	test_expect_code 2 vfsbench -c lf.load -e null --loops 1 -q \
		-D "$TRASH/work" 1 2>err &&
	test_grep "^lf.load:1:1: unknown op ${SQ}chmod${SQ}$" err &&
	canary_check &&
	workdir_empty
'

# --- the -D directory ----------------------------------------------------------

test_expect_success '-D missing: exit 2, clear message, nothing created' '
	canary_setup &&
	test_expect_code 2 vfsbench -D nope -e null --loops 1 -q 1 >out 2>err &&
	printf "%s\n" "error: work directory parent ${SQ}nope${SQ} does not exist" >expect &&
	test_cmp expect err &&
	test ! -s out &&
	test ! -e nope &&
	test -z "$(find "$TRASH" -name "vfsbench.*")" &&
	canary_check &&
	workdir_empty
'

test_expect_success '-D below a missing directory: exit 2, nothing created' '
	canary_setup &&
	test_expect_code 2 vfsbench -D "$TRASH/work/no/such" -e null --loops 1 -q 1 \
		>out 2>err &&
	test_grep "^error: work directory parent ${SQ}$TRASH/work/no/such${SQ} does not exist$" err &&
	test ! -e "$TRASH/work/no" &&
	canary_check &&
	workdir_empty
'

test_expect_success '-D a file: exit 2, clear message, file untouched' '
	canary_setup &&
	echo data >afile &&
	test_expect_code 2 vfsbench -D afile -e null --loops 1 -q 1 >out 2>err &&
	printf "%s\n" "error: work directory parent ${SQ}afile${SQ} is not a directory" >expect &&
	test_cmp expect err &&
	test ! -s out &&
	test "$(cat afile)" = data &&
	test -z "$(find "$TRASH" -name "vfsbench.*")" &&
	canary_check &&
	workdir_empty
'

test_expect_success '-D a symlink to a directory: exit 2, nothing created' '
	canary_setup &&
	ln -s work link &&
	test_expect_code 2 vfsbench -D link -e null --loops 1 -q 1 >out 2>err &&
	printf "%s\n" "error: work directory parent ${SQ}link${SQ} is a symlink; give the real path" >expect &&
	test_cmp expect err &&
	test ! -s out &&
	test -z "$(find "$TRASH" -name "vfsbench.*")" &&
	canary_check &&
	workdir_empty
'

test_expect_success '-D a dangling symlink: exit 2, nothing created' '
	canary_setup &&
	ln -s nowhere dangling &&
	test_expect_code 2 vfsbench -D dangling -e null --loops 1 -q 1 >out 2>err &&
	test_grep "^error: work directory parent ${SQ}dangling${SQ} is a symlink; give the real path$" err &&
	test ! -e nowhere &&
	test -z "$(find "$TRASH" -name "vfsbench.*")" &&
	canary_check &&
	workdir_empty
'

# --- options before a subcommand ------------------------------------------

test_expect_success 'setup: two result files' '
	canary_setup &&
	printf "%s\n" "stat a" >s.load &&
	vfsbench -q -e null --loops 2 -c s.load -D "$TRASH/work" \
		--json a.json 1 2 >/dev/null &&
	vfsbench -q -e null --loops 2 -c s.load -D "$TRASH/work" \
		--json b.json 1 2 >/dev/null &&
	canary_check &&
	workdir_empty
'

# It was a bad client count: "vfsbench: bad client count 'compare'".
test_expect_success '-q before compare: the same table as without it' '
	vfsbench compare a.json b.json >expect 2>err &&
	test ! -s err &&
	vfsbench -q compare a.json b.json >out 2>err &&
	test ! -s err &&
	test_cmp expect out &&
	vfsbench --quiet compare -m mbps a.json b.json >out 2>err &&
	vfsbench compare -m mbps a.json b.json >expect &&
	test_cmp expect out
'

test_expect_success '-h and -V before a subcommand: its help, the version' '
	for sub in compare plot fdscale record; do
		vfsbench "$sub" --help >expect &&
		vfsbench -h "$sub" >out 2>err &&
		test ! -s err &&
		test_cmp expect out &&
		vfsbench -q --help "$sub" >out &&
		test_cmp expect out || return 1
	done &&
	vfsbench --version >expect &&
	vfsbench -V fdscale --max 3 >out 2>err &&
	test ! -s err &&
	test_cmp expect out
'

test_expect_success '-q before fdscale: it runs, with its options after it' '
	vfsbench -q fdscale --max 3 --loops 1 >out 2>err &&
	test ! -s err &&
	test "$(grep -c "^num_fds: " out)" -eq 3
'

test_expect_success 'an option of runs before a subcommand: exit 2, which options go there' '
	printf "%s\n" "vfsbench: -t before ${SQ}compare$SQ: only -q, -V and -h go before a subcommand; its own options go after it" \
		"Try ${SQ}vfsbench --help$SQ for more information." >expect &&
	test_expect_code 2 vfsbench -t 5s compare a.json b.json >out 2>err &&
	test_cmp expect err &&
	test ! -s out &&
	test_expect_code 2 vfsbench -q --json x.json fdscale >out 2>err &&
	test "$(head -n 1 err)" = \
		"vfsbench: --json before ${SQ}fdscale$SQ: only -q, -V and -h go before a subcommand; its own options go after it" &&
	test ! -e x.json &&
	test ! -s out
'

test_expect_success 'a subcommand name as an option argument or after a count is not one' '
	canary_setup &&
	test_expect_code 2 vfsbench -c compare -D "$TRASH/work" 1 >out 2>err &&
	test "$(cat err)" = \
		"error: no loadfile ${SQ}compare$SQ: not a file and not a built-in loadfile (see --list-loadfiles)" &&
	usage_error "bad client count ${SQ}compare$SQ: expected N, a range such as 1-64 (1 <= N <= 100000), or topology" \
		-q 1 compare &&
	canary_check &&
	workdir_empty
'

test_done
