#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='bad inputs: odd -D paths, junk, huge lines and NUL bytes in loadfiles'
. "$srcdir/tests/e2e/lib.sh"

# t0001-cli.sh covers -D missing, below a missing directory, a file, a
# symlink to a directory and a dangling symlink; t1001-loadfile-errors.sh
# short loadfiles with a NUL byte, an ELF header, a directory given by a
# relative path. This script adds the other -D forms, bigger junk, 10 MB
# lines, NUL bytes in more places and loadfiles that are not regular files.
# Every case: the exit status, the message, nothing on stdout, no crash
# and nothing created beside the canary.

# A single quote, for messages inside single-quoted test bodies.
SQ="'"

# A cap on memory for the loadfile tests, where the shell can set one and
# no sanitizer needs its huge shadow mappings: `ulimit -v` is not POSIX,
# but dash, bash, busybox sh and mksh have it.
memcap=
# shellcheck disable=SC3045
if test -z "${VB_SANITIZER:-}" && (ulimit -v 524288) 2>/dev/null; then
	memcap=524288
fi

# bounded CMD...: CMD with at most 512 MiB of address space (where
# memcap is set) and 60 s (where timeout(1) exists, exit 124 past it).
bounded() {
	(
		if test -n "$memcap"; then
			# shellcheck disable=SC3045
			ulimit -v "$memcap" || exit 125
		fi
		if command -v timeout >/dev/null 2>&1; then
			exec timeout 60 "$@"
		fi
		exec "$@"
	)
}

# bad_dir DIR MESSAGE: vfsbench -D DIR exits 2 with exactly "error:
# MESSAGE", prints nothing on stdout, creates nothing.
bad_dir() {
	canary_setup &&
	printf 'error: %s\n' "$2" >expect &&
	test_expect_code 2 vfsbench -q --loops 1 -c statfs -D "$1" 1 \
		>out 2>err &&
	test_cmp expect err &&
	test ! -s out &&
	test -z "$(find "$TRASH" -name "vfsbench.*")" &&
	canary_check &&
	workdir_empty
}

# bad_load FILE MESSAGE [OPTIONS]: vfsbench -c FILE exits 2 with exactly
# MESSAGE on stderr (one line), nothing on stdout, nothing created.
bad_load() {
	file=$1 msg=$2
	shift 2
	canary_setup &&
	printf '%s\n' "$msg" >expect &&
	test_expect_code 2 bounded "$VFSBENCH" -q --loops 1 "$@" -c "$file" \
		-D "$TRASH/work" 1 >out 2>err &&
	test_cmp expect err &&
	test ! -s out &&
	canary_check &&
	workdir_empty
}

# load_error_at FILE [OPTIONS]: vfsbench -c FILE exits 2 with one line
# "FILE:LINE:COL: ..." on stderr (the text depends on the bytes), nothing
# on stdout, nothing created.
load_error_at() {
	file=$1
	shift
	canary_setup &&
	test_expect_code 2 bounded "$VFSBENCH" -q --loops 1 "$@" -c "$file" \
		-D "$TRASH/work" 1 >out 2>err &&
	test "$(wc -l <err)" -eq 1 &&
	LC_ALL=C grep -q "^$file:[1-9][0-9]*:[1-9][0-9]*: " err &&
	test ! -s out &&
	canary_check &&
	workdir_empty
}

# junk N SEED [NUL]: N bytes from a fixed generator (x = 75x + 74 mod
# 65537, the ZX81's, exact in any awk), NUL bytes replaced by 1 unless NUL
# is given. LC_ALL=C: %c writes bytes, not characters.
junk() {
	LC_ALL=C awk -v n="$1" -v x="$2" -v nul="${3-}" 'BEGIN {
		for (i = 0; i < n; i++) {
			x = (x * 75 + 74) % 65537
			b = x % 256
			if (b == 0 && nul == "")
				b = 1
			printf "%c", b
		}
	}'
}

# repeat N STRING: STRING N times (N a power of two), no newline.
repeat() {
	awk -v n="$1" -v s="$2" 'BEGIN {
		while (n > 1) { s = s s; n /= 2 }
		printf "%s", s
	}'
}

# --- loadfile size (vfsbench-loadfile(5), LIMITS) ---------------------------

test_expect_success 'a loadfile over 2000000 lines: exit 2, named, nothing made' '
	canary_setup &&
	yes "stat ." | head -n 2000001 >big.load &&
	test_expect_code 2 vfsbench -q --loops 1 -c big.load -D "$TRASH/work" 1 \
		>out 2>err &&
	echo "error: big.load:2000001: loadfile too large (limit 2000000 lines)" >expect &&
	test_cmp expect err &&
	rm big.load &&
	canary_check && workdir_empty
'

test_expect_success 'a loadfile over 64 MiB: exit 2, at the line of the byte past it' '
	canary_setup &&
	{ printf "[run]\n#" && head -c 67108864 /dev/zero | tr "\0" x; } >wide.load &&
	test_expect_code 2 vfsbench -q --loops 1 -c wide.load -D "$TRASH/work" 1 \
		>out 2>err &&
	echo "error: wide.load:2: loadfile too large (limit 67108864 bytes)" >expect &&
	test_cmp expect err &&
	rm wide.load &&
	canary_check && workdir_empty
'

test_expect_success 'an endless loadfile on a pipe: refused at the limit' '
	canary_setup &&
	yes "stat ." | test_expect_code 2 vfsbench -q --loops 1 -c /dev/stdin \
		-D "$TRASH/work" 1 >out 2>err &&
	echo "error: /dev/stdin:2000001: loadfile too large (limit 2000000 lines)" >expect &&
	test_cmp expect err &&
	canary_check && workdir_empty
'

# --- -D ------------------------------------------------------------------

test_expect_success '-D a symlink to a directory, with a trailing slash: exit 2' '
	mkdir real &&
	ln -s real link &&
	bad_dir link/ "work directory parent ${SQ}link${SQ} is a symlink; give the real path" &&
	bad_dir link// "work directory parent ${SQ}link${SQ} is a symlink; give the real path" &&
	test -z "$(ls -A real)"
'

test_expect_success '-D through a symlink anywhere, link/. too: exit 2, nothing made' '
	mkdir -p real/sub &&
	bad_dir link/. "work directory parent ${SQ}link/.${SQ} goes through the symlink ${SQ}link${SQ}; give the real path" &&
	bad_dir link/sub "work directory parent ${SQ}link/sub${SQ} goes through the symlink ${SQ}link${SQ}; give the real path" &&
	bad_dir "$TRASH/link/sub/." "work directory parent ${SQ}$TRASH/link/sub/.${SQ} goes through the symlink ${SQ}$TRASH/link${SQ}; give the real path" &&
	bad_dir real/../link/ "work directory parent ${SQ}real/../link${SQ} is a symlink; give the real path" &&
	test -z "$(ls -A real/sub)" &&
	vfsbench -q -e null --loops 1 -c mixed -D real/sub/../sub/. 1 >out 2>err &&
	test -z "$(ls -A real/sub)" &&
	rmdir real/sub
'

test_expect_success '-D a symlink to a file: exit 2, the file untouched' '
	echo data >afile &&
	ln -s afile flink &&
	bad_dir flink "work directory parent ${SQ}flink${SQ} is a symlink; give the real path" &&
	test "$(cat afile)" = data
'

test_expect_success '-D a path through a file: exit 2' '
	bad_dir afile/sub "cannot access work directory parent ${SQ}afile/sub${SQ}: Not a directory" &&
	test "$(cat afile)" = data
'

test_expect_success '-D a FIFO, a device, an empty name: exit 2' '
	mkfifo fifo &&
	bad_dir fifo "work directory parent ${SQ}fifo${SQ} is not a directory" &&
	test -p fifo &&
	bad_dir /dev/null "work directory parent ${SQ}/dev/null${SQ} is not a directory" &&
	test -c /dev/null &&
	bad_dir "" "work directory parent ${SQ}${SQ} does not exist"
'

test_expect_success '-D with trailing slashes works, and names the work dir once' '
	canary_setup &&
	vfsbench -q --loops 1 -c statfs -D "$TRASH/work//" 1 >out 2>err &&
	test_grep "^directory $TRASH/work/vfsbench\.[A-Za-z0-9]*$" out &&
	canary_check &&
	workdir_empty
'

# --- loadfiles that are not text files ---------------------------------------

test_expect_success 'a loadfile that is a directory, by absolute path: exit 2' '
	mkdir ldir &&
	bad_load "$TRASH/ldir" "error: cannot read loadfile ${SQ}$TRASH/ldir${SQ}: Is a directory" &&
	bad_load ldir/ "error: cannot read loadfile ${SQ}ldir/${SQ}: Is a directory"
'

test_expect_success 'binary junk without NUL bytes: exit 2, one FILE:LINE:COL line' '
	junk 4096 12345 >junk.load &&
	test "$(wc -c <junk.load)" -eq 4096 &&
	load_error_at junk.load &&
	load_error_at junk.load --dialect native &&
	load_error_at junk.load --dialect dbench &&
	junk 65536 777 >junk2.load &&
	test "$(wc -c <junk2.load)" -eq 65536 &&
	load_error_at junk2.load
'

test_expect_success 'binary junk with NUL bytes: exit 2, one FILE:LINE:COL line' '
	junk 4096 4242 nul >nul.load &&
	test "$(wc -c <nul.load)" -eq 4096 &&
	test "$(LC_ALL=C tr -d "\\000" <nul.load | wc -c)" -lt 4096 &&
	load_error_at nul.load &&
	load_error_at nul.load --dialect dbench
'

test_expect_success 'a valid line, then junk: the error is on line 2 or later' '
	{ printf "[run]\nstatfs .\n" && junk 1024 99; } >tail.load &&
	load_error_at tail.load &&
	! grep -q "^tail.load:1:" err
'

# --- one 10 MB line ----------------------------------------------------------

# 10485760 bytes on one line: read, rejected (or accepted) at once, and
# with the memory cap where the shell has one.
test_expect_success '10 MB line: a path too long, exit 2' '
	{ printf "stat " && repeat 1048576 aaaaaaaaaa && echo; } >long.load &&
	test "$(wc -c <long.load)" -eq 10485766 &&
	bad_load long.load "long.load:1:6: path longer than 4095 bytes"
'

test_expect_success '10 MB line: one 10 MB op name, exit 2, short message' '
	{ repeat 1048576 aaaaaaaaaa && echo; } >long.load &&
	load_error_at long.load &&
	test_grep "^long.load:1:1: unknown op ${SQ}aaaaaaaa" err &&
	test "$(wc -c <err)" -lt 8192
'

test_expect_success '10 MB line: an unterminated quote, exit 2' '
	{ printf "[run]\nstat \"" && repeat 1048576 aaaaaaaaaa && echo; } >long.load &&
	bad_load long.load "long.load:2:6: unterminated quote"
'

test_expect_success '10 MB line: too many tokens, exit 2' '
	{ printf "[run]\n" && repeat 1048576 "a b c d e " && echo; } >long.load &&
	bad_load long.load "long.load:2:33: too many tokens (at most 16)"
'

test_expect_success '10 MB line: a dbench loadfile, exit 2' '
	{
		echo "0 Close 1 NT_STATUS_OK" &&
		printf "0 NTCreateX \"\\\\" &&
		repeat 1048576 aaaaaaaaaa &&
		echo "\" 0x0 0x0 1 NT_STATUS_OK"
	} >long.load &&
	bad_load long.load "long.load:2:13: path longer than 4095 bytes"
'

test_expect_success '10 MB of blanks or of a comment: accepted, exit 0' '
	{ printf "[run]\nstatfs .\n" && repeat 1048576 "          " && echo; } >long.load &&
	canary_setup &&
	bounded "$VFSBENCH" -q --loops 2 -e null -c long.load -D "$TRASH/work" 1 \
		>out 2>err &&
	test "$(op_count out statfs)" = 2 &&
	{ printf "[run]\n# " && repeat 1048576 "a comment " &&
		printf "\nstatfs .\n"; } >long.load &&
	bounded "$VFSBENCH" -q --loops 2 -e null -c long.load -D "$TRASH/work" 1 \
		>out 2>err &&
	test "$(op_count out statfs)" = 2 &&
	canary_check &&
	workdir_empty
'

# --- NUL bytes ---------------------------------------------------------------

test_expect_success 'NUL right after a 10 MB line: line 2, column 1' '
	{ printf "# " && repeat 1048576 "a comment " && printf "\n\000\n"; } >nul.load &&
	bad_load nul.load "nul.load:2:1: NUL byte in loadfile (is it a text file?)"
'

test_expect_success 'NUL as the last byte, no newline; in [setup]; after CR' '
	printf "[run]\nstatfs .\n\000" >nul.load &&
	bad_load nul.load "nul.load:3:1: NUL byte in loadfile (is it a text file?)" &&
	printf "[setup]\nmkdir d\000\n[run]\nstat d\n" >nul.load &&
	bad_load nul.load "nul.load:2:8: NUL byte in loadfile (is it a text file?)" &&
	printf "[run]\r\nstatfs .\r\000\n" >nul.load &&
	bad_load nul.load "nul.load:2:10: NUL byte in loadfile (is it a text file?)"
'

test_expect_success 'NUL in a dbench loadfile' '
	printf "0 Close 1 NT_STATUS_OK\n0 Close 1 NT\000STATUS_OK\n" >nul.load &&
	bad_load nul.load "nul.load:2:13: NUL byte in loadfile (is it a text file?)"
'

# A loadfile is read whole before it is parsed; an endless one must not
# be read forever. /dev/zero is all NUL bytes: the first is at 1:1.
if test -c /dev/zero && test -n "$memcap"; then
	test_expect_success 'a loadfile that never ends (/dev/zero): exit 2, NUL at 1:1' '
		bad_load /dev/zero "/dev/zero:1:1: NUL byte in loadfile (is it a text file?)"
	'
else
	test_skip 'a loadfile that never ends (/dev/zero): exit 2, NUL at 1:1' \
		'no /dev/zero, or no memory cap (ulimit -v; none under a sanitizer) to stop a runaway read'
fi

# --- loadfiles that are not regular files --------------------------------------

test_expect_success 'a loadfile on a pipe (/dev/stdin) works; /dev/null is empty' '
	canary_setup &&
	printf "[run]\nstatfs .\n" |
		vfsbench -q --loops 3 -e null -c /dev/stdin -D "$TRASH/work" 1 \
			>out 2>err &&
	test_grep "loadfile /dev/stdin: 1 ops, 0 in \[setup\]" out &&
	test "$(op_count out statfs)" = 3 &&
	canary_check &&
	workdir_empty &&
	bad_load /dev/null "/dev/null:1:1: no ops in loadfile"
'

test_expect_success 'a loadfile through a FIFO with a writer works' '
	canary_setup &&
	mkfifo lf.fifo &&
	{ printf "[run]\nstatfs .\n" >lf.fifo & } &&
	vfsbench -q --loops 2 -e null -c lf.fifo -D "$TRASH/work" 1 >out 2>err &&
	wait &&
	test "$(op_count out statfs)" = 2 &&
	canary_check &&
	workdir_empty
'

# Many threads, or the ranks of an MPI job forwarded by mpirun onto one
# stream, write messages at once: each must be one write(2), or lines cut
# into each other (t8010 saw rank 1's line split by rank 0's).
test_expect_success 'a message, escapes and all, is one write(2) of its line' '
	if ! command -v strace >/dev/null 2>&1 ||
		! strace -f -o /dev/null true >/dev/null 2>&1; then
		say "no usable strace: skipped"
		return 0
	fi
	printf "[run]\nbo\001gus\303x .\n" >esc.load &&
	# LeakSanitizer cannot run under ptrace
	test_expect_code 2 env ASAN_OPTIONS=detect_leaks=0 \
		strace -e trace=write -o tr \
		"$VFSBENCH" -q -c esc.load -D "$TRASH/work" 1 >out 2>err &&
	printf "%s\n" "esc.load:2:1: unknown op '"'"'bo\\x01gus\\xc3x'"'"'" >expect &&
	test_cmp expect err &&
	grep "^write(2, " tr >writes &&
	test "$(wc -l <writes)" = 1 &&
	grep " = $(wc -c <err)$" writes
'

test_done
