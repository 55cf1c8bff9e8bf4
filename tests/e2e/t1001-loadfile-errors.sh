#!/bin/sh
# shellcheck disable=SC2034
test_description='loadfile errors: exact FILE:LINE:COL messages, exit 2, nothing created'
# shellcheck disable=SC2154
. "$srcdir/tests/e2e/lib.sh"

# A single quote, for messages inside single-quoted test bodies.
SQ="'"


# load_ok [OPTIONS]: lf.load runs once with the null engine, exit 0,
# nothing on stderr; the report is in out.
load_ok() {
	canary_setup &&
	vfsbench -c lf.load -e null --loops 1 -q -D "$TRASH/work" "$@" 1 \
		>out 2>err &&
	test ! -s err &&
	canary_check &&
	workdir_empty
}


# --- accepted forms ------------------------------------------------------------

test_expect_success 'CRLF line ends are accepted' '
	printf "# a CRLF file\r\n[setup]\r\nmkdir d\r\n\r\n[run]\r\nstat d\r\nstat \"d\"\r\naccess d r\r\nreadlink missing ENOENT\r\n" >lf.load &&
	load_ok --null-fail readlink:ENOENT &&
	test_grep "^vfsbench .*loadfile lf.load: 4 ops, 1 in \[setup\]$" out &&
	test "$(op_count out stat)" = 2 &&
	test "$(op_count out access)" = 1 &&
	test "$(op_count out readlink)" = 1 &&
	test "$(unexpected_total out)" = 0
'

test_expect_success 'CRLF line ends: an expectation before CR is one' '
	printf "stat missing ENOENT\r\n" >lf.load &&
	load_ok --null-fail stat:ENOENT &&
	test "$(op_count out stat)" = 1 &&
	test "$(unexpected_total out)" = 0 &&
	! grep "^Unexpected" out
'

test_expect_success 'a last line without a newline is accepted' '
	printf "stat a\nstat b" >lf.load &&
	load_ok &&
	test "$(op_count out stat)" = 2 &&
	printf "stat a\r\nmkdir b\r\nrmdir b" >lf.load &&
	load_ok &&
	test "$(op_count out stat)" = 1 &&
	test "$(op_count out rmdir)" = 1 &&
	printf "stat a\n# no newline after this comment" >lf.load &&
	load_ok &&
	test "$(op_count out stat)" = 1
'

test_expect_success 'blank lines, tabs, comments and quotes are accepted' '
	printf "\n  \t\n# comment\n\tstat\ta\t# trailing\n  stat   \"a b#c\"  # x\nstat a#b\n" >lf.load &&
	load_ok &&
	test_grep "loadfile lf.load: 3 ops, 0 in \[setup\]$" out &&
	test "$(op_count out stat)" = 3
'

test_expect_success 'no op may make a regular file named as the marker, at its column' '
	M=.vfsbench-workdir &&
	why="makes a file named as vfsbench${SQ}s marker: the cleanup would take its directory for another instance${SQ}s and leave it" &&
	printf "%s\n" "mkdir x" "create x/$M" >lf.load &&
	load_error "lf.load:2:10: ${SQ}x/$M${SQ} $why" &&
	printf "%s\n" "open $M rdwr,creat @1" >lf.load &&
	load_error "lf.load:1:6: ${SQ}$M${SQ} $why" &&
	printf "%s\n" "create a" "rename a d/$M" >lf.load &&
	load_error "lf.load:2:12: ${SQ}d/$M${SQ} $why" &&
	printf "%s\n" "create a" "link a $M" >lf.load &&
	load_error "lf.load:2:8: ${SQ}$M${SQ} $why"
'

test_expect_success 'the marker name is a name like any other where no regular file is made' '
	printf "%s\n" "[setup]" "mkdir d" "symlink d .vfsbench-workdir" "[run]" "stat .vfsbench-workdir" "lstat d/.vfsbench-workdir ENOENT" "stat .vfsbench-workdir2" >lf.load &&
	load_ok
'

test_expect_success 'names that only look like ..: a..b, ..a, a/... are paths' '
	printf "%s\n" "stat a..b" "stat ..a" "stat a/..." "stat ./." >lf.load &&
	load_ok &&
	test "$(op_count out stat)" = 4
'

test_expect_success 'a handle may be opened again after its close' '
	printf "%s\n" "open f rdonly @1" "close @1" "open f rdonly,cloexec @1 0600" \
		"close @1" "open g rdwr @64" "close @64" >lf.load &&
	load_ok &&
	test "$(op_count out open)" = 3 &&
	test "$(op_count out close)" = 3
'

# --- CRLF and missing newline with errors ---------------------------------------

test_expect_success 'CRLF: the CR is not part of the message or the column' '
	printf "stat a\r\nbogus\r\n" >lf.load &&
	load_error "lf.load:2:1: unknown op ${SQ}bogus${SQ}" &&
	printf "stat\r\n" >lf.load &&
	load_error "lf.load:1:5: missing argument to ${SQ}stat${SQ} (expected 1)"
'

test_expect_success 'an error on a last line without a newline' '
	printf "stat a\nstat a b" >lf.load &&
	load_error "lf.load:2:8: too many arguments to ${SQ}stat${SQ} (at most 1)"
'

# --- empty loadfiles -------------------------------------------------------------

test_expect_success 'an empty loadfile' '
	: >lf.load &&
	load_error "lf.load:1:1: no ops in loadfile"
'

test_expect_success 'a loadfile of comments and blank lines only' '
	printf "# nothing\n\n   \n\t# here\n" >lf.load &&
	load_error "lf.load:1:1: no ops in loadfile" &&
	printf "[setup]\n[run]\n" >lf.load &&
	load_error "lf.load:1:1: no ops in loadfile"
'

test_expect_success 'a loadfile with [setup] ops only' '
	printf "%s\n" "[setup]" "mkdir d" >lf.load &&
	load_error "lf.load:2:1: no ops in the [run] section" &&
	printf "%s\n" "[run]" "[setup]" "mkdir d" "" >lf.load &&
	load_error "lf.load:4:1: no ops in the [run] section"
'

# --- one test per error class ------------------------------------------------------

test_expect_success 'unknown op' '
	printf "%s\n" "stat a" "  STAT a" >lf.load &&
	load_error "lf.load:2:3: unknown op ${SQ}STAT${SQ}" &&
	printf "\tchmod a 644\n" >lf.load &&
	load_error "lf.load:1:2: unknown op ${SQ}chmod${SQ}" &&
	printf "%s\n" "NTCreateX a" >lf.load &&
	load_error "lf.load:1:1: unknown op ${SQ}NTCreateX${SQ} (${SQ}NTCreateX${SQ} is an op of dbench loadfiles; this file is read as native, since its first op line does not end in a status, NT_STATUS_... or 0x...: --dialect dbench reads it as dbench${SQ}s)"
'

test_expect_success 'missing argument' '
	printf "%s\n" "stat" >lf.load &&
	load_error "lf.load:1:5: missing argument to ${SQ}stat${SQ} (expected 1)" &&
	printf "%s\n" "# open needs path, flags and handle" "open a rdwr" >lf.load &&
	load_error "lf.load:2:12: missing argument to ${SQ}open${SQ} (expected 3)" &&
	printf "%s\n" "rename   a" >lf.load &&
	load_error "lf.load:1:11: missing argument to ${SQ}rename${SQ} (expected 2)"
'

test_expect_success 'too many arguments' '
	printf "%s\n" "rmdir a b c" >lf.load &&
	load_error "lf.load:1:9: too many arguments to ${SQ}rmdir${SQ} (at most 1)" &&
	printf "%s\n" "mkdir d 755 x" >lf.load &&
	load_error "lf.load:1:13: too many arguments to ${SQ}mkdir${SQ} (at most 2)"
'

test_expect_success 'too many tokens' '
	printf "%s\n" "stat a b c d e f g h i j k l m n o p q" >lf.load &&
	load_error "lf.load:1:36: too many tokens (at most 16)"
'

test_expect_success 'bad size or offset' '
	printf "%s\n" "open f rdwr @1" "pread @1 0 4x" "close @1" >lf.load &&
	load_error "lf.load:2:12: bad size ${SQ}4x${SQ}" &&
	printf "%s\n" "open f rdwr @1" "pwrite @1 -1 4k" "close @1" >lf.load &&
	load_error "lf.load:2:11: bad offset ${SQ}-1${SQ}" &&
	printf "%s\n" "open f rdwr @1" "ftruncate @1 1.5k" "close @1" >lf.load &&
	load_error "lf.load:2:14: bad size ${SQ}1.5k${SQ}"
'

test_expect_success 'size too large: pread and pwrite up to 16m' '
	printf "%s\n" "open f rdwr @1" "pread @1 0 17m" "close @1" >lf.load &&
	load_error "lf.load:2:12: size ${SQ}17m${SQ} too large (at most 16777216)" &&
	printf "%s\n" "open f rdwr @1" "pwrite @1 0 16777217" "close @1" >lf.load &&
	load_error "lf.load:2:13: size ${SQ}16777217${SQ} too large (at most 16777216)" &&
	printf "%s\n" "open f rdwr @1" "pwrite @1 0 16m" "pread @1 1g 16M" \
		"ftruncate @1 1t" "close @1" >lf.load &&
	load_ok &&
	test_grep "(1 passes, 33554432 bytes, " out
'

test_expect_success 'bad mode' '
	printf "%s\n" "mkdir d 999" >lf.load &&
	load_error "lf.load:1:9: bad mode ${SQ}999${SQ} (expected octal)" &&
	printf "%s\n" "create f 17777" >lf.load &&
	load_error "lf.load:1:10: bad mode ${SQ}17777${SQ} (expected octal <= 7777)"
'

test_expect_success 'bad access mode' '
	printf "%s\n" "access f rr" >lf.load &&
	load_error "lf.load:1:10: bad access mode ${SQ}rr${SQ} (expected f or some of r, w, x)" &&
	printf "%s\n" "access f rwxf" >lf.load &&
	load_error "lf.load:1:10: bad access mode ${SQ}rwxf${SQ} (expected f or some of r, w, x)"
'

test_expect_success 'bad handle' '
	printf "%s\n" "fstat @0" >lf.load &&
	load_error "lf.load:1:7: bad handle ${SQ}@0${SQ} (expected @1 .. @256)" &&
	printf "%s\n" "open f rdonly @257" >lf.load &&
	load_error "lf.load:1:15: bad handle ${SQ}@257${SQ} (expected @1 .. @256)" &&
	printf "%s\n" "close 1" >lf.load &&
	load_error "lf.load:1:7: bad handle ${SQ}1${SQ} (expected @1 .. @256)"
'

test_expect_success 'bad open flag' '
	printf "%s\n" "open f rdwr,bogus @1" >lf.load &&
	load_error "lf.load:1:13: bad open flag ${SQ}bogus${SQ}" &&
	printf "%s\n" "open f RDWR @1" >lf.load &&
	load_error "lf.load:1:8: bad open flag ${SQ}RDWR${SQ}"
'

test_expect_success 'open flags need exactly one access mode' '
	printf "%s\n" "open f creat @1" >lf.load &&
	load_error "lf.load:1:8: open flags need exactly one of rdonly, wronly, rdwr" &&
	printf "%s\n" "open f rdonly,creat,wronly @1" >lf.load &&
	load_error "lf.load:1:8: open flags need exactly one of rdonly, wronly, rdwr"
'

test_expect_success 'unknown errno name' '
	printf "%s\n" "stat f EFOO" >lf.load &&
	load_error "lf.load:1:8: unknown errno name ${SQ}EFOO${SQ}" &&
	printf "%s\n" "mkdir d 755 ENOTANERRNO" >lf.load &&
	load_error "lf.load:1:13: unknown errno name ${SQ}ENOTANERRNO${SQ}"
'

test_expect_success 'absolute path' '
	printf "%s\n" "stat /etc/passwd" >lf.load &&
	load_error "lf.load:1:6: absolute path ${SQ}/etc/passwd${SQ}: paths are relative to the client directory" &&
	printf "%s\n" "rename a /tmp/b" >lf.load &&
	load_error "lf.load:1:10: absolute path ${SQ}/tmp/b${SQ}: paths are relative to the client directory"
'

test_expect_success 'a symlink target must be relative, its .. inside from the link' '
	printf "%s\n" "symlink /etc/passwd l" "unlink l" >lf.load &&
	load_error "lf.load:1:9: absolute symlink target ${SQ}/etc/passwd${SQ}: a link must lead inside the client directory (a loadfile that only reads may link out with --links-out)" &&
	printf "%s\n" "symlink a/../.. l" >lf.load &&
	load_error "lf.load:1:14: ${SQ}..${SQ} in symlink target ${SQ}a/../..${SQ} leads out of the client directory from link ${SQ}l${SQ}: a link must lead inside the client directory (a loadfile that only reads may link out with --links-out)" &&
	printf "%s\n" "mkdir src" "symlink ../doc/readme src/link" "readlink src/link" >lf.load &&
	load_ok &&
	test "$(op_count out readlink)" = 1 &&
	printf "%s\n" "symlink a/b l" "unlink l" >lf.load &&
	load_ok &&
	test "$(op_count out symlink)" = 1
'

test_expect_success '--links-out: absolute targets, and reads only' '
	printf "%s\n" "symlink /etc/passwd l" "lstat l" >lf.load &&
	load_ok --links-out &&
	test "$(op_count out symlink)" = 1 &&
	printf "%s\n" "symlink /etc/passwd l" "unlink l" >lf.load &&
	test_expect_code 2 vfsbench -c lf.load --links-out -e null -q --loops 1 \
		-D "$TRASH/work" 1 >out 2>err &&
	printf "%s\n" "lf.load:2:1: ${SQ}unlink${SQ} changes the filesystem: with --links-out a loadfile may only read (and mkdir or symlink a name directly in the client directory)" >expect &&
	test_cmp expect err &&
	canary_check &&
	workdir_empty
'

test_expect_success 'a .. component in a path' '
	printf "%s\n" "unlink a/b/../c" >lf.load &&
	load_error "lf.load:1:12: ${SQ}..${SQ} in path ${SQ}a/b/../c${SQ}: paths must stay inside the client directory" &&
	printf "%s\n" "stat a/../../c" >lf.load &&
	load_error "lf.load:1:11: ${SQ}..${SQ} in path ${SQ}a/../../c${SQ} leads out of the client directory" &&
	printf "%s\n" "rename a .." >lf.load &&
	load_error "lf.load:1:10: ${SQ}..${SQ} in path ${SQ}..${SQ}: paths must stay inside the client directory" &&
	printf "%s\n" "link a x/.." >lf.load &&
	load_error "lf.load:1:10: ${SQ}..${SQ} in path ${SQ}x/..${SQ}: paths must stay inside the client directory"
'

test_expect_success 'unknown variable' '
	printf "%s\n" "create f\${clients}" >lf.load &&
	load_error "lf.load:1:9: unknown variable ${SQ}\${clients}${SQ} (only \${client} is defined)" &&
	printf "%s\n" "stat d/\$HOME" >lf.load &&
	load_error "lf.load:1:8: unknown variable ${SQ}\$HOME${SQ} (only \${client} is defined)"
'

test_expect_success 'unterminated quote' '
	printf "%s\n" "stat \"a b" >lf.load &&
	load_error "lf.load:1:6: unterminated quote" &&
	printf "%s\n" "stat a" "rename \"a\\\" b" >lf.load &&
	load_error "lf.load:2:8: unterminated quote"
'

test_expect_success 'text after a closing quote' '
	printf "%s\n" "stat \"a\"b" >lf.load &&
	load_error "lf.load:1:9: text after closing quote"
'

test_expect_success 'empty path' '
	printf "%s\n" "stat \"\"" >lf.load &&
	load_error "lf.load:1:6: empty path" &&
	printf "%s\n" "rename a \"\"" >lf.load &&
	load_error "lf.load:1:10: empty path"
'

test_expect_success 'handle misuse 1: a handle used before it is opened' '
	printf "%s\n" "stat f" "fstat @3" >lf.load &&
	load_error "lf.load:2:7: handle @3 used before it is opened" &&
	printf "%s\n" "open f rdonly @1" "close @1" "pread @1 0 4k" >lf.load &&
	load_error "lf.load:3:7: handle @1 used before it is opened"
'

test_expect_success 'handle misuse 1: an open expected to fail leaves it closed' '
	printf "%s\n" "open f rdonly @1 ENOENT" "close @1" >lf.load &&
	load_error "lf.load:2:7: handle @1 used before it is opened"
'

test_expect_success 'handle misuse 2: a handle opened while already open' '
	printf "%s\n" "# two opens" "open f rdonly @2" "" "open g rdonly @2" "close @2" >lf.load &&
	load_error "lf.load:4:15: handle @2 is already open (opened at line 2)"
'

# Not an error any more (issue 12, 7: cuts of real loadfiles): a warning,
# and the handle is closed when the section ends; t8009-open-handles.sh.
test_expect_success 'handle misuse 3: a handle never closed in its section is a warning' '
	printf "%s\n" "stat f" "open f rdonly @1" "stat g" >lf.load &&
	canary_setup &&
	vfsbench -c lf.load -e null --loops 1 -q -D "$TRASH/work" 1 \
		>out 2>err &&
	printf "%s\n" "warning: lf.load:2:15: 1 handle is still open at the end of a pass, the first opened here; vfsbench closes it after each pass, outside the timed ops" >expect &&
	test_cmp expect err &&
	printf "%s\n" "[setup]" "create f" "open f rdonly @7" "[run]" "close @7" >lf.load &&
	printf "%s\n" "warning: lf.load:3:15: 1 handle is still open at the end of [setup], the first opened here; vfsbench closes it after [setup], outside the timed ops" \
		"lf.load:5:7: handle @7 used before it is opened" >expect &&
	load_error "$(cat expect)"
'

test_expect_success 'NUL byte' '
	printf "stat a\nsta\000t b\n" >lf.load &&
	load_error "lf.load:2:4: NUL byte in loadfile (is it a text file?)" &&
	printf "# a\000b\nstat a\n" >lf.load &&
	load_error "lf.load:1:4: NUL byte in loadfile (is it a text file?)"
'

test_expect_success 'binary junk: an ELF header' '
	printf "\177ELF\002\001\001\000\000\000\000\000\000\000\000\000\002\000>\000" >lf.load &&
	load_error "lf.load:1:8: NUL byte in loadfile (is it a text file?)"
'

test_expect_success 'binary junk without a NUL byte: escaped in the message' '
	printf "\377\376\375junk\033[2J here\n" >lf.load &&
	load_error "lf.load:1:1: unknown op ${SQ}\\xff\\xfe\\xfdjunk\\x1b[2J${SQ}"
'

test_expect_success 'C1 controls, overlong forms and surrogates are escaped too' '
	printf "st\302\2331m\340\200\257\355\240\200 a\n" >lf.load &&
	load_error "lf.load:1:1: unknown op ${SQ}st\\xc2\\x9b1m\\xe0\\x80\\xaf\\xed\\xa0\\x80${SQ}"
'

test_expect_success 'a loadfile name with a control byte is escaped' '
	canary_setup &&
	name=$(printf "l\033f") &&
	echo "bogus" >"$name" &&
	test_expect_code 2 vfsbench -c "$name" -q --loops 1 \
		-D "$TRASH/work" 1 >out 2>err &&
	echo "l\\x1bf:1:1: unknown op ${SQ}bogus${SQ}" >expect &&
	test_cmp expect err &&
	canary_check &&
	workdir_empty
'

test_expect_success 'UTF-8 in a message is written as it is' '
	printf "st\303\244t a\n" >lf.load &&
	printf "lf.load:1:1: unknown op ${SQ}st\303\244t${SQ}\n" >expect.raw &&
	load_error "$(cat expect.raw)"
'

test_expect_success 'a directory as loadfile' '
	canary_setup &&
	mkdir dir.load &&
	test_expect_code 2 vfsbench -c dir.load -q --loops 1 -D "$TRASH/work" 1 \
		>out 2>err &&
	printf "%s\n" "error: cannot read loadfile ${SQ}dir.load${SQ}: Is a directory" >expect &&
	test_cmp expect err &&
	test ! -s out &&
	canary_check &&
	workdir_empty
'

test_expect_success 'a directory named like a built-in does not hide it' '
	canary_setup &&
	mkdir statfs &&
	vfsbench -c statfs --loops 1 -D "$TRASH/work" 1 >out 2>err &&
	rmdir statfs &&
	test_grep "^vfsbench .*  loadfile statfs\.load (built-in): " out &&
	test "$(op_count out statfs)" = 1 &&
	canary_check &&
	workdir_empty
'

test_expect_success 'a missing loadfile given by name' '
	canary_setup &&
	test_expect_code 2 vfsbench -c nope -q --loops 1 -D "$TRASH/work" 1 \
		>out 2>err &&
	printf "%s\n" "error: no loadfile ${SQ}nope${SQ}: not a file and not a built-in loadfile (see --list-loadfiles)" >expect &&
	test_cmp expect err &&
	test ! -s out &&
	canary_check &&
	workdir_empty
'

test_expect_success 'a missing loadfile given by path' '
	canary_setup &&
	test_expect_code 2 vfsbench -c ./nope.load -q --loops 1 -D "$TRASH/work" 1 \
		>out 2>err &&
	printf "%s\n" "error: cannot read loadfile ${SQ}./nope.load${SQ}: No such file or directory" >expect &&
	test_cmp expect err &&
	test ! -s out &&
	canary_check &&
	workdir_empty
'

test_expect_success 'the message names the loadfile as given' '
	canary_setup &&
	printf "%s\n" "bogus" >lf.load &&
	test_expect_code 2 vfsbench -c "$TRASH/lf.load" -q --loops 1 \
		-D "$TRASH/work" 1 >out 2>err &&
	printf "%s\n" "$TRASH/lf.load:1:1: unknown op ${SQ}bogus${SQ}" >expect &&
	test_cmp expect err &&
	canary_check &&
	workdir_empty
'

test_expect_success 'unknown section' '
	printf "%s\n" "[bogus]" "stat a" >lf.load &&
	load_error "lf.load:1:1: unknown section ${SQ}[bogus]${SQ} (expected [setup], [run] or [run N])" &&
	printf "%s\n" "stat a" "  [Run]" "stat a" >lf.load &&
	load_error "lf.load:2:3: unknown section ${SQ}[Run]${SQ} (expected [setup], [run] or [run N])" &&
	printf "%s\n" "[run" "stat a" >lf.load &&
	load_error "lf.load:1:1: unknown section ${SQ}[run${SQ} (expected [setup], [run] or [run N])"
'

test_expect_success 'text after a section header' '
	printf "%s\n" "[setup] mkdir d" "[run]" "stat d" >lf.load &&
	load_error "lf.load:1:9: text after section header"
'

test_expect_success 'errors in [setup] give their own line' '
	printf "%s\n" "[setup]" "mkdir d" "mkdir d/../x" "[run]" "stat d" >lf.load &&
	load_error "lf.load:3:9: ${SQ}..${SQ} in path ${SQ}d/../x${SQ}: paths must stay inside the client directory" &&
	printf "%s\n" "# setup" "[setup]" "mkdir d" "  unlnk d/f" "[run]" "stat d" >lf.load &&
	load_error "lf.load:4:3: unknown op ${SQ}unlnk${SQ}" &&
	printf "%s\n" "[setup]" "create f" "[run]" "stat f" "[setup]" "fsync @1" >lf.load &&
	load_error "lf.load:6:7: handle @1 used before it is opened"
'

test_expect_success 'the first error is the one reported' '
	printf "%s\n" "stat a" "bogus" "stat /abs" >lf.load &&
	load_error "lf.load:2:1: unknown op ${SQ}bogus${SQ}"
'

test_expect_success 'a failing [setup] line: exit 3, work directory removed' '
	canary_setup &&
	printf "%s\n" "[setup]" "mkdir d" "stat missing" "[run]" "stat d" >lf.load &&
	test_expect_code 3 vfsbench -c lf.load -q --loops 1 -D "$TRASH/work" 1 \
		>out 2>err &&
	test_grep "^error: lf.load:3: " err &&
	canary_check &&
	workdir_empty
'

# --- the expectation rule ------------------------------------------------------

test_expect_success 'a last token spelled like an errno is an expectation' '
	printf "%s\n" "stat missing ENOENT" "mkdir d 755 EEXIST" "access f ENOENT" \
		"rmdir g E2BIG" >lf.load &&
	load_ok --null-fail stat:ENOENT --null-fail mkdir:EEXIST \
		--null-fail access:ENOENT --null-fail rmdir:E2BIG &&
	test "$(op_count out stat)" = 1 &&
	test "$(op_count out mkdir)" = 1 &&
	test "$(op_count out access)" = 1 &&
	test "$(op_count out rmdir)" = 1 &&
	test "$(unexpected_total out)" = 0 &&
	load_ok --null-fail stat:EIO --null-fail rmdir:ENOENT &&
	test "$(unexpected_total out)" = 2 &&
	test_grep "^  stat: EIO x 1$" out &&
	test_grep "^  rmdir: ENOENT x 1$" out
'

test_expect_success 'ok and any as the last token' '
	printf "%s\n" "unlink h ok" "link i j any" >lf.load &&
	load_ok --null-fail unlink:EIO --null-fail link:EIO &&
	test "$(op_count out unlink)" = 1 &&
	test "$(op_count out link)" = 1 &&
	test "$(unexpected_total out)" = 1 &&
	test_grep "^  unlink: EIO x 1$" out
'

test_expect_success 'an expected errno is not unexpected' '
	printf "%s\n" "stat missing ENOENT" >lf.load &&
	load_ok --null-fail stat:ENOENT &&
	test "$(unexpected_total out)" = 0 &&
	load_ok --null-fail stat:EIO &&
	test_grep "^  stat: EIO x 1$" out
'

test_expect_success 'the optional argument is not taken for an expectation' '
	printf "%s\n" "mkdir d EEXIST" "access f ENOENT" >lf.load &&
	load_ok --null-fail mkdir:EEXIST --null-fail access:ENOENT &&
	test "$(op_count out mkdir)" = 1 &&
	test "$(op_count out access)" = 1 &&
	test "$(unexpected_total out)" = 0
'

test_expect_success '"stat ENOENT" alone is an expectation with no path' '
	printf "%s\n" "stat ENOENT" >lf.load &&
	load_error "lf.load:1:5: missing argument to '"'"'stat'"'"' (expected 1)"
'

test_expect_success 'a lone expectation-shaped token is never the path' '
	printf "%s\n" "stat ok" >lf.load &&
	load_error "lf.load:1:5: missing argument to '"'"'stat'"'"' (expected 1)" &&
	printf "%s\n" "rename a ENOENT" >lf.load &&
	load_error "lf.load:1:9: missing argument to '"'"'rename'"'"' (expected 2)"
'

test_expect_success 'a path written ./ENOENT is always a path' '
	printf "%s\n" "stat ./ENOENT" "stat ./ENOENT ENOENT" >lf.load &&
	load_ok --null-fail stat:ENOENT &&
	test "$(op_count out stat)" = 2 &&
	test_grep "^  stat: ENOENT x 1$" out
'

test_expect_success 'tokens that are not errno-shaped are arguments' '
	printf "%s\n" "stat a Enoent" >lf.load &&
	load_error "lf.load:1:8: too many arguments to ${SQ}stat${SQ} (at most 1)" &&
	printf "%s\n" "stat a E" >lf.load &&
	load_error "lf.load:1:8: too many arguments to ${SQ}stat${SQ} (at most 1)" &&
	printf "%s\n" "stat a OK" >lf.load &&
	load_error "lf.load:1:8: too many arguments to ${SQ}stat${SQ} (at most 1)"
'

test_done
