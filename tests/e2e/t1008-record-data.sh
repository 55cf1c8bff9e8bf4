#!/bin/sh
# shellcheck disable=SC2034
test_description='vfsbench record --with-data: [setup] makes the files with their bytes; the data op'
# shellcheck disable=SC2154
. "$srcdir/tests/e2e/lib.sh"

SQ="'"

umask 022

# from_setup LOADFILE: the header from its [setup] lines to the end,
# [run] by its opens only: cat reads by read(2) or copy_file_range(2) (not
# an op, dropped) as the file systems of its files and output allow.
from_setup() {
	sed -n "/^# \[setup\] makes/,/^\[run\]/p;/^open .* rdonly @/p" "$1"
}

# The work directory a --skip-cleanup run left (exactly one).
left_workdir() {
	set -- "$TRASH"/work/vfsbench.*
	test $# -eq 1 && test -d "$1" && test -f "$1/.vfsbench-workdir" &&
	printf '%s\n' "$1"
}

test_expect_success 'setup: a root of text, binary, empty and big files' '
	mkdir root root/d &&
	printf "hello\nworld\n" >root/text &&
	printf "\000\377\001ab\n\000" >root/d/bin &&
	: >root/empty &&
	head -c 65537 /dev/zero | tr "\000" x >root/big &&
	printf "not read" >root/unread &&
	chmod 600 root/d/bin
'

strace_test '--with-data: [setup] holds each file'"'"'s bytes; a big one its size' '
	(cd root && vfsbench record --with-data -o ../rec.load \
		-- cat text d/bin empty big >/dev/null 2>../err) &&
	from_setup rec.load >actual &&
	cat >expect <<-\EOT &&
	# [setup] makes 1 directories, 4 files (2 with their data), 0 symlinks
	# files made with their size only (over 64 KiB, past 1 MiB in all, or unreadable): 1
	# bytes of files others could not read: this loadfile is made readable by its owner only (0600)
	# not made: 0 symlinks whose targets lead out, 0 special files or unnamable paths
	[setup]
	open big wronly,creat,trunc @1 644
	ftruncate @1 65537
	close @1
	mkdir d 755
	open d/bin wronly,creat,trunc @1 600
	data @1 00ff0161620a00
	close @1
	create empty 644
	open text wronly,creat,trunc @1 644
	data @1 68656c6c6f0a776f726c640a
	close @1
	[run]
	open text rdonly @1
	open d/bin rdonly @1
	open empty rdonly @1
	open big rdonly @1
	EOT
	test_cmp expect actual
'

strace_test '--with-data: the replay leaves exactly the recorded bytes' '
	canary_setup &&
	vfsbench -q --loops 1 --skip-cleanup -c rec.load -D "$TRASH/work" 1 \
		>out 2>err &&
	wd=$(left_workdir) &&
	c="$wd/run0/clients/client0" &&
	cmp root/text "$c/text" &&
	cmp root/d/bin "$c/d/bin" &&
	cmp root/empty "$c/empty" &&
	test "$(wc -c <"$c/big")" -eq 65537 &&
	test "$(tr -d "\000" <"$c/big" | wc -c)" -eq 0 &&
	! test -e "$c/unread" &&
	test "$(unexpected_total out)" -eq 0 &&
	canary_check &&
	rm -rf "$wd" &&
	workdir_empty
'

strace_test 'without --with-data: sizes only, as before' '
	(cd root && vfsbench record -o ../nodata.load \
		-- cat text >/dev/null 2>../err) &&
	test_grep "^# \[setup\] makes 0 directories, 1 files (their sizes, not their data), 0 symlinks\$" nodata.load &&
	! grep "^data " nodata.load &&
	test_grep "^ftruncate @1 12\$" nodata.load
'

strace_test '--with-data: past 1 MiB in all, the files keep their sizes' '
	mkdir many &&
	for i in 00 01 02 03 04 05 06 07 08 09 10 11 12 13 14 15; do
		head -c 65536 /dev/zero >many/f$i || return 1
	done &&
	printf z >many/g &&
	(cd many && vfsbench record --with-data -o ../many.load \
		-- sh -c "cat f* g >/dev/null" 2>../err) &&
	test_grep "^# \[setup\] makes 0 directories, 17 files (16 with their data), 0 symlinks\$" many.load &&
	test_grep "^# files made with their size only (over 64 KiB, past 1 MiB in all, or unreadable): 1\$" many.load &&
	test "$(grep -c "^data @1 " many.load)" -eq 16 &&
	sed -n "/^open g wronly/,/^close/p" many.load >actual &&
	printf "%s\n" "open g wronly,creat,trunc @1 644" "ftruncate @1 1" \
		"close @1" >expect &&
	test_cmp expect actual
'

test_expect_success 'data: the bytes of a hand-written [setup], through -e posix' '
	cat >hand.load <<-\EOF &&
	[setup]
	open f wronly,creat,trunc @1
	data @1 "00FFfe0a41"
	close @1
	[run]
	stat f
	EOF
	canary_setup &&
	vfsbench -q --loops 2 --skip-cleanup -c hand.load -D "$TRASH/work" 1 \
		>out 2>err &&
	wd=$(left_workdir) &&
	printf "\000\377\376\nA" >expect &&
	cmp expect "$wd/run0/clients/client0/f" &&
	test "$(op_count out stat)" = 2 &&
	canary_check &&
	rm -rf "$wd" &&
	workdir_empty
'

test_expect_success 'data: the same bytes with --resolve dirfd and abs' '
	printf "\000\377\376\nA" >expect &&
	for mode in dirfd abs; do
		canary_setup &&
		vfsbench -q --loops 1 --resolve $mode --skip-cleanup \
			-c hand.load -D "$TRASH/work" 1 >out 2>err &&
		wd=$(left_workdir) &&
		cmp expect "$wd/run0/clients/client0/f" &&
		canary_check &&
		rm -rf "$wd" &&
		workdir_empty || return 1
	done
'

test_expect_success 'data: -e null runs the [setup] and makes nothing' '
	canary_setup &&
	vfsbench -q -e null --loops 3 -c hand.load -D "$TRASH/work" 1 \
		>out 2>err &&
	test "$(op_count out stat)" = 3 &&
	canary_check &&
	workdir_empty
'

test_expect_success 'data: an odd number of hex digits' '
	printf "%s\n" "[setup]" "open f wronly,creat @1" "data @1 abc" >lf.load &&
	load_error "lf.load:3:11: odd number of hex digits (3): each byte is two"
'

test_expect_success 'data: a character that is no hex digit' '
	printf "%s\n" "[setup]" "open f wronly,creat @1" "data @1 00g1" >lf.load &&
	load_error "lf.load:3:11: bad hex digit ${SQ}g${SQ} in data"
'

test_expect_success 'data: outside [setup]' '
	printf "%s\n" "[run]" "open f wronly,creat @1" "data @1 00" \
		"close @1" >lf.load &&
	load_error "lf.load:3:1: ${SQ}data${SQ} outside [setup]: it makes the files a run starts from"
'

test_expect_success 'data: more than 64 KiB on a line' '
	{
		printf "%s\n" "[setup]" "open f wronly,creat @1" &&
		printf "data @1 " &&
		head -c 131074 /dev/zero | tr "\000" 0 &&
		printf "\n"
	} >lf.load &&
	load_error "lf.load:3:9: 65537 bytes of data (at most 65536)"
'

test_expect_success 'data: more than 1 MiB in all' '
	{
		printf "%s\n" "[setup]" "open f wronly,creat @1" &&
		for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17; do
			printf "data @1 " &&
			head -c 131072 /dev/zero | tr "\000" 0 &&
			printf "\n" || return 1
		done
	} >lf.load &&
	load_error "lf.load:19:9: 1114112 bytes of data in the loadfile with this line (at most 1048576)"
'

# The loadfile is never readable by more than the files whose bytes it
# holds: 0600 (less the umask) when one of them others could not read,
# by its mode or a directory's above it, up to /; else as any new file.
mode_log() {
	cat >mode.log <<-EOT
	100 1700000000.000001 openat(AT_FDCWD<$TRASH/mtree>, "d/f", O_RDONLY) = 3<$TRASH/mtree/d/f>
	100 1700000000.000002 close(3<$TRASH/mtree/d/f>) = 0
	100 1700000000.000003 +++ exited with 0 +++
	EOT
}

private_line="# bytes of files others could not read: this loadfile is made readable by its owner only (0600)"

test_expect_success '--with-data: the loadfile is 0600 when it holds bytes others could not read' '
	chmod 0711 "$TRASH" &&
	mkdir -p mtree/d && printf "x\n" >mtree/d/f && chmod 0755 mtree mtree/d &&
	mode_log &&
	chmod 0600 mtree/d/f &&
	vfsbench record --with-data --from-trace mode.log --root mtree \
		-o m1.load 2>err &&
	test "$(stat -c %a m1.load)" = 600 &&
	test_grep "^$private_line\$" m1.load &&
	chmod 0644 mtree/d/f && chmod 0700 mtree/d &&
	vfsbench record --with-data --from-trace mode.log --root mtree \
		-o m2.load 2>err &&
	test "$(stat -c %a m2.load)" = 600 &&
	chmod 0755 mtree/d &&
	vfsbench record --with-data --from-trace mode.log --root mtree \
		-o m3.load 2>err &&
	test "$(stat -c %a m3.load)" = 644 &&
	! grep "^$private_line\$" m3.load &&
	chmod 0640 mtree/d/f &&
	vfsbench record --with-data --from-trace mode.log --root mtree \
		-o m3.load --force 2>err &&
	test "$(stat -c %a m3.load)" = 600 &&
	chmod 0700 "$TRASH" &&
	chmod 0644 mtree/d/f &&
	vfsbench record --with-data --from-trace mode.log --root mtree \
		-o m4.load 2>err &&
	test "$(stat -c %a m4.load)" = 600 &&
	vfsbench record --from-trace mode.log --root mtree -o m5.load 2>err &&
	test "$(stat -c %a m5.load)" = 644
'

# The tree is read by fds, without following a link at any step: another
# user who owns a directory of the root and swaps it for a symlink while
# the tree is read does not get root's private bytes into the loadfile.
# The swap is made while vfsbench's open is held (tests/helper/vb-hold:
# DIR/held says it is, a write to the FIFO DIR/go lets it run): no timing.
# nobody owns the root; "$TRASH/outside" is a scratch directory with
# root's file of mode 0600, never a real system file.
# shellcheck disable=SC2154
HOLD="$abs_top_builddir/tests/helper/vb-hold"

as_nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
}

if test "$(id -u)" -ne 0 || ! command -v setpriv >/dev/null 2>&1 ||
	! id nobody >/dev/null 2>&1 || ! getent group nogroup >/dev/null; then
	swap_skip='needs root, setpriv and user nobody, group nogroup'
elif ! mkdir hold-try || ! mkfifo hold-try/go ||
	! "$HOLD" none hold-try true 2>/dev/null; then
	swap_skip='no seccomp user notification to hold an open with'
else
	swap_skip=
fi

# swap_setup MODE: nobody's root "$TRASH/tree" with d/secret (7 bytes
# "public\n", mode MODE), root's "$TRASH/outside/secret" (7 bytes
# "SECRET\n", mode 0600), and a trace that opens d/secret.
swap_setup() {
	chmod 0711 "$TRASH" &&
	rm -rf tree outside hold &&
	mkdir tree outside hold && mkfifo hold/go &&
	chown nobody:nogroup tree &&
	as_nobody sh -c "umask 022 && mkdir tree/d &&
		printf \"public\\n\" >tree/d/secret && chmod $1 tree/d/secret" &&
	printf "SECRET\n" >outside/secret && chmod 0600 outside/secret &&
	chmod 0700 outside &&
	cat >swap.log <<-EOT
	100 1700000000.000001 openat(AT_FDCWD<$TRASH/tree>, "d/secret", O_RDONLY) = 3<$TRASH/tree/d/secret>
	100 1700000000.000002 close(3<$TRASH/tree/d/secret>) = 0
	100 1700000000.000003 +++ exited with 0 +++
	EOT
}

# swap_record NAME: vfsbench record --with-data of swap.log, its open of
# NAME held while nobody moves d away and makes d a link to the outside.
swap_record() {
	rm -f swap.load &&
	"$HOLD" "$1" hold "$VFSBENCH" record --with-data --from-trace swap.log \
		--root tree -o swap.load >out 2>err &
	hpid=$! &&
	wait_until "no open of $1 held" test -e hold/held &&
	as_nobody sh -c "mv tree/d tree/d.old && ln -s \"$TRASH/outside\" tree/d" &&
	echo go >hold/go &&
	wait "$hpid"
}

if test -n "$swap_skip"; then
	test_skip '--with-data: a directory swapped for a link before its file is read' "$swap_skip"
	test_skip '--with-data: a directory swapped for a link before it is opened' "$swap_skip"
else
	test_expect_success '--with-data: a directory swapped for a link before its file is read' '
		swap_setup 0644 &&
		swap_record secret &&
		test_grep "^data @1 7075626c69630a\$" swap.load &&
		! grep "^data @1 5345435245540a" swap.load &&
		test "$(stat -c %a swap.load)" = 644 &&
		test "$(cat outside/secret)" = SECRET
	'

	test_expect_success '--with-data: a directory swapped for a link before it is opened' '
		swap_setup 0644 &&
		swap_record d &&
		! grep "^data @1 " swap.load &&
		test_grep "^# \[setup\] makes 0 directories, 0 files (0 with their data), 0 symlinks\$" swap.load &&
		echo "warning: $TRASH/tree/d changed while the tree was read: left out" >expect &&
		grep -v "^vfsbench record: " err >actual &&
		test_cmp expect actual
	'
fi

test_done
