#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='--uring-depth: lanes count as threads do, leave the same trees, and are refused where they cannot run'
. "$srcdir/tests/e2e/lib.sh"

SQ="'"

# The work directory a --skip-cleanup run left (exactly one).
left_workdir() {
	set -- "$TRASH"/work/vfsbench.*
	test $# -eq 1 && test -d "$1" && test -f "$1/.vfsbench-workdir" &&
	printf '%s\n' "$1"
}

remove_left() {
	for d in "$TRASH"/work/vfsbench.*; do
		if test -d "$d"; then
			rm -rf "$d" || return 1
		fi
	done
}

# tree DIR: every name below DIR with its type, size and mode, sorted;
# directories' sizes left out, and the work directory's marker.
tree() {
	(cd "$1" && find . -mindepth 1 \( -type d -printf '%p d %m\n' \) -o \
		\( -printf '%p %y %s %m %l\n' \)) |
		grep -v '^\./\.vfsbench-workdir ' | LC_ALL=C sort
}

# counts REPORT: each op's Count and unexpected columns.
counts() {
	awk '$1 == "Operation" { t = 1; next }
	     /^(Unexpected|Total:|io_uring|io-wq)/ { t = 0 }
	     t && NF >= 9 { print $1, $2, $NF }' "$1"
}

# run_tree NAME ARGS...: a --skip-cleanup run; its report in NAME.out,
# the files it left in NAME.tree, then removed.
run_tree() {
	name=$1
	shift
	vfsbench -q --skip-cleanup -D "$TRASH/work" "$@" >"$name.out" \
		2>"$name.err" &&
	w=$(left_workdir) && tree "$w" >"$name.tree" && remove_left &&
	counts "$name.out" >"$name.counts" && test -s "$name.counts"
}

if ! vfsbench -q -e uring -c default.load --loops 1 -D "$TRASH" 1 \
	>/dev/null 2>uring-err; then
	test_skip_all "io_uring unusable here: $(cat uring-err)"
fi

# Shipped loadfiles of every kind (paths, data, fd ops, fallbacks, a
# shared directory): 4 lanes on each of 2 threads against 8 posix
# clients: the same op counts, the same unexpected results, the same
# files. (t3005 holds posix against uring at depth 1 for all of them.)
for name in default.load mixed.load git-status.load mwcl.load dwal.load \
	pathwalk.load statfs.load vc-rename-shared.load wis-dup1.load \
	wis-lock1.load; do
	lf=$abs_top_srcdir/loadfiles/$name
	# ThreadSanitizer does not see a close through the ring, so a dup or
	# fcntl on an fd number another thread had looks like a race to it
	# (at depth 1 as well: -e uring -c wis-dup1.load 8)
	case $name in wis-dup1.load | wis-lock1.load)
		if test "${VB_SANITIZER-}" = thread; then
			test_skip "$name: 2 threads of 4 lanes count as 8 clients" \
				"ThreadSanitizer misses the ring's close (a false race)"
			continue
		fi
		;;
	esac
	test_expect_success "$name: 2 threads of 4 lanes count as 8 clients" '
		canary_setup &&
		run_tree posix -e posix -c "$lf" --loops 2 8 &&
		run_tree lanes -e uring --uring-depth 4 -c "$lf" --loops 2 2 &&
		test_cmp posix.counts lanes.counts &&
		test_cmp posix.tree lanes.tree &&
		canary_check && workdir_empty
	'
done

test_expect_success 'default.load: as the ring'"'"'s 8 threads of depth 1' '
	canary_setup &&
	run_tree threads -e uring -c default.load --loops 2 8 &&
	run_tree lanes -e uring --uring-depth 4 -c default.load --loops 2 2 &&
	test_cmp threads.counts lanes.counts &&
	test_cmp threads.tree lanes.tree &&
	canary_check && workdir_empty
'

# Counts written out: depth 4 is 4 times depth 1 at the same client
# count; the ops that have no opcode (statfs, readlink, utimens, the
# getdents64 of readdir) run in their lane, synchronously.
cat >mixed.load <<'LF'
[setup]
mkdir d
create d/f
symlink f d/l
[run]
stat d/f
stat d/missing ENOENT
statfs .
readlink d/l
utimens d/f
readdir d
open d/f rdwr @1
pwrite @1 0 4096
pread @1 0 4096
fsync @1
close @1
mkdir d/s
rename d/s d/t
rmdir d/t
LF

test_expect_success 'depth 4 counts 4 times depth 1, fallbacks included' '
	canary_setup &&
	run_tree one -e uring -c mixed.load --loops 5 2 &&
	run_tree four -e uring --uring-depth 4 -c mixed.load --loops 5 2 &&
	awk "{ print \$1, 4 * \$2, \$3 }" one.counts >one.times4 &&
	test_cmp one.times4 four.counts &&
	test "$(op_count four.out stat)" = 80 &&
	test "$(op_count four.out statfs)" = 40 &&
	test "$(op_count four.out readdir)" = 40 &&
	canary_check && workdir_empty
'

# The ops that fail unexpectedly are counted by errno, in every lane.
cat >errors.load <<'LF'
[run]
stat missing
stat here ENOENT
LF

test_expect_success 'unexpected results counted by errno in every lane' '
	canary_setup &&
	vfsbench -e uring --uring-depth 3 -c errors.load --loops 7 \
		-D "$TRASH/work" 2 >out 2>err &&
	test "$(op_count out stat)" = 84 &&
	test_grep "^stat .* 42\$" out &&
	test_grep "ENOENT" out &&
	vfsbench -e posix -c errors.load --loops 7 -D "$TRASH/work" 6 \
		>posix.out 2>posix.err &&
	counts out >lanes.c && counts posix.out >posix.c &&
	test_cmp posix.c lanes.c &&
	canary_check && workdir_empty
'

# Lanes in one shared directory: lane k of thread t is client 4t+k, so
# ${client} names what 8 clients name.
cat >shared.load <<'LF'
[setup]
mkdir c${client}
[run]
create c${client}/f
stat c${client}/f
rename c${client}/f c${client}/g
unlink c${client}/g
create c${client}/kept
LF

test_expect_success '--cwd shared: the lanes are clients 0 to 7' '
	canary_setup &&
	run_tree posix -e posix --cwd shared -c shared.load --loops 2 8 &&
	run_tree lanes -e uring --cwd shared --uring-depth 4 -c shared.load \
		--loops 2 2 &&
	test_cmp posix.counts lanes.counts &&
	test_cmp posix.tree lanes.tree &&
	grep -q "/c7/kept " lanes.tree &&
	canary_check && workdir_empty
'

test_expect_success '--resolve abs and dirfd: the same counts and trees' '
	canary_setup &&
	run_tree posix -e posix --resolve abs -c mixed.load --loops 2 6 &&
	run_tree abs -e uring --resolve abs --uring-depth 3 -c mixed.load \
		--loops 2 2 &&
	run_tree dirfd -e uring --resolve dirfd --uring-depth 3 \
		-c mixed.load --loops 2 2 &&
	test_cmp posix.counts abs.counts &&
	test_cmp posix.counts dirfd.counts &&
	test_cmp posix.tree abs.tree &&
	test_cmp posix.tree dirfd.tree &&
	canary_check && workdir_empty
'

# One run, interleaved: lanes against threads at 4 in flight, the JSON
# holding the depth of each variant and the op counts of each point.
test_expect_success '--variant uring-depth: 1 thread of 4 lanes counts as 4 threads' '
	canary_setup &&
	vfsbench -q -e uring -c mixed.load --variant uring-depth=1,4 \
		--loops 3 --json r.json -D "$TRASH/work" 1 4 >out 2>err &&
	json_valid r.json && json_flat r.json >flat &&
	test "$(jget flat "variants[0].options.uring_depth")" = 1 &&
	test "$(jget flat "variants[1].options.uring_depth")" = 4 &&
	test "$(jget flat "options.uring_depth")" = 1 &&
	awk -F "\t" "
		\$1 ~ /^runs\\[[0-9]+\\]\\.(variant|clients)\$/ {
			split(\$1, a, /[][]/); k = a[2]
			if (\$1 ~ /variant\$/) v[k] = \$2; else c[k] = \$2
		}
		\$1 ~ /^runs\\[[0-9]+\\]\\.ops_detail\\[[0-9]+\\]\\.(op|count)\$/ {
			split(\$1, a, /[][]/); k = a[2]; o = a[4]
			if (\$1 ~ /op\$/) n[k, o] = \$2; else m[k, o] = \$2
		}
		END {
			for (key in n) {
				split(key, b, SUBSEP)
				print v[b[1]], c[b[1]], n[key], m[key]
			}
		}" flat | LC_ALL=C sort >points &&
	grep "^0 4 " points | cut -d " " -f 3- >threads &&
	grep "^1 1 " points | cut -d " " -f 3- >lanes &&
	test -s lanes && test_cmp threads lanes &&
	test "$(grep -c . lanes)" = 13 &&
	canary_check && workdir_empty
'

test_expect_success 'the report says how many lanes' '
	canary_setup &&
	vfsbench -e uring --uring-depth 2 -c mixed.load --loops 1 \
		-D "$TRASH/work" 1 >out 2>err &&
	test_grep "^engine uring (2 lanes a client thread)  cwd private" out &&
	canary_check && workdir_empty
'

# A run by the clock: the lanes stop with it and clean up.
test_expect_success 'a timed run with a warmup ends and cleans up' '
	canary_setup &&
	vfsbench -q -e uring --uring-depth 8 -c mixed.load -t 300ms \
		--warmup 100ms -D "$TRASH/work" 2 >out 2>err &&
	test "$(op_count out stat)" -gt 0 &&
	canary_check && workdir_empty
'

# SIGINT: every lane of every thread stops, the ops in flight reaped;
# the partial report, the cleanup, exit 130. The handshake: both client
# threads are there, so the run has begun (it slept 0.5 s before).
test_expect_success 'SIGINT stops the lanes: report, cleanup, exit 130' '
	canary_setup &&
	start_vfsbench -q -e uring --uring-depth 8 -c mixed.load -t 60s \
		--warmup 0 -D "$TRASH/work" 2 &&
	wait_threads 3 &&
	kill -INT "$pid" &&
	ends 130 &&
	test_grep "^Total: " out &&
	canary_check && workdir_empty
'

# A lane's [setup] that fails is told as its client's: with --cwd
# shared, d0 exists for client 0 (lane 0) and not for client 1 (lane 1).
cat >lane1.load <<'LF'
[setup]
mkdir d0
stat d${client}
[run]
stat .
LF

test_expect_success 'a failed [setup] names the lane'"'"'s client' '
	canary_setup &&
	echo "error: lane1.load:3: [setup] of client 1: stat: unexpected result ENOENT (No such file or directory)" >expect &&
	test_expect_code 3 vfsbench -q -e uring --cwd shared --uring-depth 2 \
		-c lane1.load --loops 1 -D "$TRASH/work" 1 >out 2>err &&
	test_cmp expect err &&
	canary_check && workdir_empty
'

# compare: lanes against threads is not like for like; a file from
# before --uring-depth (no uring_depth) counts as depth 1.
test_expect_success 'compare names a difference in uring_depth' '
	canary_setup &&
	vfsbench -q -e uring -c mixed.load --loops 1 --json one.json \
		-D "$TRASH/work" 1 >/dev/null 2>&1 &&
	vfsbench -q -e uring --uring-depth 4 -c mixed.load --loops 1 \
		--json four.json -D "$TRASH/work" 1 >/dev/null 2>&1 &&
	vfsbench compare one.json four.json >out 2>err &&
	test_grep "^warning: NOT LIKE FOR LIKE: .* differ in: uring_depth 1 vs 4, resolve cwd vs dirfd\$" err &&
	grep -v "\"uring_depth\"" one.json >old.json &&
	! grep -q uring_depth old.json &&
	vfsbench compare old.json one.json >out 2>err &&
	! grep -q "NOT LIKE FOR LIKE" err &&
	canary_check && workdir_empty
'

# What ran, as the report and the JSON say it: lanes resolve from a
# dirfd whatever --resolve cwd says; a lane is a client in the run's
# title, dbench's line, the sweep table and the variants' table (so 1
# thread of 4 lanes is set against 4 threads, as the README says); the
# JSON's clients count threads.
test_expect_success 'lanes: resolve dirfd, and counted as clients wherever the report says clients' '
	canary_setup &&
	vfsbench -e uring --variant uring-depth=1,4 -c mixed.load --loops 2 \
		--json r.json -D "$TRASH/work" 1 4 >out 2>err &&
	canary_check && workdir_empty &&
	grep "^    walk:" out >walk &&
	cat >expect <<-\EOF &&
	    walk: resolve cwd  prefix private  a lookup walks 0 components before the loadfile${SQ}s path, then the path${SQ}s own (1.8 on average)
	    walk: resolve dirfd  prefix private  a lookup walks 0 components before the loadfile${SQ}s path, then the path${SQ}s own (1.8 on average)
	EOF
	sed "s/\${SQ}/$SQ/g" expect >expect.q &&
	test_cmp expect.q walk &&
	test "$(jq -r "[.variants[].options.resolve] | join(\" \")" r.json)" = "cwd dirfd" &&
	grep -E "^uring-depth=[14], [0-9]+ clients?( \(.*\))?: " out | sed "s/: .*//" | sort >titles &&
	printf "%s\n" "uring-depth=1, 1 client" "uring-depth=1, 4 clients" \
		"uring-depth=4, 16 clients (4 threads of 4 lanes)" \
		"uring-depth=4, 4 clients (1 thread of 4 lanes)" >expect &&
	test_cmp expect titles &&
	grep "^Throughput" out | awk "{ print \$4, \$6 }" | sort -n | uniq >dbench &&
	printf "%s\n" "1 1" "4 1" "4 4" "16 4" >expect &&
	test_cmp expect dbench &&
	awk "/^Sweep of uring-depth=4/ { t = 1; getline; next } t && NF == 0 { exit } t && \$1 ~ /^[0-9]+\$/ { print \$1 }" out >rows &&
	printf "%s\n" 4 16 >expect &&
	test_cmp expect rows &&
	awk "/^Variants, each against/ { t = 1 } t && \$1 == 4" out >row4 &&
	test "$(grep -o "(1)" row4 | wc -l)" = 2 &&
	awk "/^Variants, each against/ { t = 1 } t && \$1 ~ /^[0-9]+\$/ { print \$1 }" out >vrows &&
	printf "%s\n" 1 4 16 >expect &&
	test_cmp expect vrows &&
	test "$(jq -r "[.runs[] | select(.variant == 1) | .clients] | sort | unique | join(\" \")" r.json)" = "1 4"
'

test_expect_success 'the CPU time of the clients counts that of their io-wq workers: the line, the share' '
	canary_setup &&
	vfsbench -e uring --uring-depth 4 -c mixed.load -t 200ms --warmup 0 \
		--json r.json -D "$TRASH/work" 1 >out 2>err &&
	canary_check && workdir_empty &&
	test "$(jq ".runs[0].iowq_cpu_ns != null" r.json)" = true &&
	test_grep "^CPU: user [0-9.]* s  sys [0-9.]* s  io-wq [0-9.]* s  ([0-9]*% of what the clients could use)" out &&
	jq -e ".runs[0] | .rusage as \$u | (\$u.cpus | if . < 4 then . else 4 end) as \$could |
		((\$u.user_s + \$u.sys_s + .iowq_cpu_ns / 1e9) / (\$could * .elapsed_ns / 1e9)) as \$share |
		(\$share - \$u.cpu_share | fabs) < 1e-9 * (1 + \$share)" r.json >/dev/null
'

# --uring-fixed in the header and the JSON, and as a variant: compare
# tells a file with it from one without.
test_expect_success '--variant uring-fixed=0,1: both run, the header and the JSON say which' '
	canary_setup &&
	vfsbench -e uring --variant uring-fixed=0,1 -c mixed.load --loops 1 \
		--json f.json -D "$TRASH/work" 1 >out 2>err &&
	canary_check && workdir_empty &&
	awk "/^    engine/ { print \$1, \$2, \$3 }" out >engines &&
	printf "%s\n" "engine uring cwd" "engine uring (fixed" >expect &&
	test_cmp expect engines &&
	test_grep "^  uring-fixed=1:\$" out &&
	test "$(jq -r "[.variants[].options.uring_fixed] | join(\" \")" f.json)" = "false true" &&
	test "$(jq -r .options.uring_fixed f.json)" = false &&
	vfsbench -q -e uring --uring-fixed -c mixed.load --loops 1 \
		--json fixed.json -D "$TRASH/work" 1 >out 2>err &&
	test_grep "^engine uring (fixed files)  cwd private" out &&
	test "$(jq -r .options.uring_fixed fixed.json)" = true &&
	vfsbench -q -e uring -c mixed.load --loops 1 \
		--json plain.json -D "$TRASH/work" 1 >out 2>err &&
	vfsbench compare plain.json fixed.json >out 2>err &&
	test_grep "^warning: NOT LIKE FOR LIKE: .* differ in: uring_fixed false vs true\$" err &&
	jq "del(.options.uring_fixed, .variants[].options.uring_fixed)" plain.json >old.json &&
	vfsbench compare old.json plain.json >out 2>err &&
	! grep -q "NOT LIKE FOR LIKE" err &&
	canary_check && workdir_empty
'

# Refusals: the message, exit 2, nothing created.
refused() {
	canary_setup &&
	test_expect_code 2 vfsbench "$@" -D "$TRASH/work" 1 >out 2>err &&
	test_cmp expect err && workdir_empty && canary_check
}

test_expect_success '--variant uring-fixed: a bad value, or no uring engine, is refused' '
	cat >expect <<-\EOF &&
	vfsbench: bad uring-fixed '"'"'2'"'"': expected 0 or 1
	Try '"'"'vfsbench --help'"'"' for more information.
	EOF
	refused -e uring --variant uring-fixed=0,2 --loops 1 &&
	cat >expect <<-\EOF &&
	vfsbench: --variant uring-fixed needs --engine uring (or a variant on it)
	Try '"'"'vfsbench --help'"'"' for more information.
	EOF
	refused -e posix --variant uring-fixed=0,1 --loops 1
'

test_expect_success 'posix with --uring-depth is refused' '
	cat >expect <<-\EOF &&
	vfsbench: --uring-depth 4 needs --engine uring: lanes are a ring'"'"'s ops in flight
	Try '"'"'vfsbench --help'"'"' for more information.
	EOF
	refused -e posix --uring-depth 4 --loops 1
'

test_expect_success 'a variant of posix with depth 2 is refused, named' '
	cat >expect <<-\EOF &&
	vfsbench: variant engine=posix,uring-depth=2: --uring-depth 2 needs --engine uring: lanes are a ring'"'"'s ops in flight
	Try '"'"'vfsbench --help'"'"' for more information.
	EOF
	refused --variant engine=uring,posix --variant uring-depth=1,2 \
		--loops 1
'

test_expect_success '--uring-depth 0 and 257 are out of range' '
	cat >expect <<-\EOF &&
	vfsbench: bad --uring-depth '"'"'0'"'"': expected 1 to 256
	Try '"'"'vfsbench --help'"'"' for more information.
	EOF
	refused -e uring --uring-depth 0 --loops 1 &&
	cat >expect <<-\EOF &&
	vfsbench: bad --uring-depth '"'"'257'"'"': expected 1 to 256
	Try '"'"'vfsbench --help'"'"' for more information.
	EOF
	refused -e uring --uring-depth 257 --loops 1
'

test_expect_success 'lanes refuse --uring-fixed and --dcache negative' '
	cat >expect <<-\EOF &&
	vfsbench: --uring-depth 2 needs no --uring-fixed: the lanes would share the ring'"'"'s slots
	Try '"'"'vfsbench --help'"'"' for more information.
	EOF
	refused -e uring --uring-depth 2 --uring-fixed --loops 1 &&
	cat >expect <<-\EOF &&
	vfsbench: --uring-depth 2 needs no --dcache negative: it is made in one cwd per thread
	Try '"'"'vfsbench --help'"'"' for more information.
	EOF
	refused -e uring --uring-depth 2 --dcache negative=4 --loops 1
'

cat >legacy.load <<'LF'
[run]
stat .
statvfs_legacy .
LF

test_expect_success 'an op with no dirfd form is refused with lanes' '
	cat >expect <<-EOF &&
	legacy.load:3:1: op '"'"'statvfs_legacy'"'"' has no form that resolves from a directory fd (--resolve dirfd)
	error: --uring-depth 2: each lane resolves from its own directory'"'"'s fd, as with --resolve dirfd
	EOF
	canary_setup &&
	test_expect_code 2 vfsbench -e uring --uring-depth 2 -c legacy.load \
		--loops 1 -D "$TRASH/work" 1 >out 2>err &&
	test_cmp expect err && workdir_empty && canary_check
'

# A bug found with lanes: -e uring --resolve dirfd called posix's dirfd
# form of statvfs_legacy, which has none (a NULL function: SIGSEGV).
test_expect_success 'uring --resolve dirfd refuses statvfs_legacy' '
	cat >expect <<-EOF &&
	legacy.load:3:1: op '"'"'statvfs_legacy'"'"' has no form that resolves from a directory fd (--resolve dirfd)
	EOF
	canary_setup &&
	test_expect_code 2 vfsbench -e uring --resolve dirfd -c legacy.load \
		--loops 1 -D "$TRASH/work" 1 >out 2>err &&
	test_cmp expect err && workdir_empty && canary_check
'

SQ="'"

# [run N] streams (a recording's tasks): client i runs [run i mod N], and
# a lane is a client. The check that no stream is left without a client
# counted threads: one thread of 2 lanes was refused 2 streams.
printf '%s\n' "[run 0]" "stat ." "[run 1]" "stat ." "stat ." >streams2.load
printf '%s\n' "[run 0]" "stat ." "[run 1]" "stat ." "[run 2]" "stat ." >streams3.load

test_expect_success '[run N] streams count lanes: one thread of 2 lanes runs 2 streams, as 2 threads do' '
	canary_setup &&
	vfsbench -q -e uring --uring-depth 2 -c streams2.load --loops 3 \
		-D "$TRASH/work" 1 >lanes.out 2>err &&
	quiet_err err &&
	vfsbench -q -e uring -c streams2.load --loops 3 -D "$TRASH/work" 2 \
		>threads.out 2>err &&
	test "$(op_count lanes.out stat)" = 9 &&
	test "$(op_count threads.out stat)" = 9 &&
	echo "error: ${SQ}streams3.load${SQ} has 3 [run N] streams, one per recorded task: run it with at least 3 clients, not 2 (1 thread of 2 lanes; client i runs [run i mod 3])" >expect &&
	test_expect_code 2 vfsbench -q -e uring --uring-depth 2 \
		-c streams3.load --loops 3 -D "$TRASH/work" 1 >out 2>err &&
	test_cmp expect err &&
	test ! -s out &&
	vfsbench -q -e uring --uring-depth 3 -c streams3.load --loops 3 \
		-D "$TRASH/work" 1 >out 2>err &&
	test "$(op_count out stat)" = 9 &&
	canary_check && workdir_empty
'

test_done
