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

test_done
