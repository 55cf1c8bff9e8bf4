#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='dbench loadfiles: detection, exact counts, dbench table, posix replay, load errors, options'
. "$srcdir/tests/e2e/lib.sh"

# A hand-written dbench loadfile with every op: CRLF, no final newline.
SAMPLE="$TEST_DATA/dbench-sample.txt"

# The lines of each op in a dbench loadfile, one pass: "Name count" for
# every op (0 when absent), in dbench's table order, Sleep last. Skips
# comment and blank lines and leading timestamps; op names in any case.
db_counts() {
	tr -d '\r' <"$1" | awk '
	BEGIN {
		split("ntcreatex close rename unlink deltree rmdir mkdir " \
		      "query_path_information query_file_information " \
		      "query_fs_information set_file_information find_first " \
		      "writex readx lockx unlockx flush sleep", key, " ")
		split("NTCreateX Close Rename Unlink Deltree Rmdir Mkdir " \
		      "Qpathinfo Qfileinfo Qfsinfo Sfileinfo Find WriteX " \
		      "ReadX LockX UnlockX Flush Sleep", name, " ")
	}
	{ i = 1; if ($1 ~ /^[0-9]/) i = 2 }
	NF < i || $1 ~ /^#/ { next }
	{ n[tolower($i)]++ }
	END { for (k = 1; k <= 18; k++) print name[k], n[key[k]] + 0 }'
}

# The lines of one op in a dbench loadfile.
db_count() {
	db_counts "$1" | awk -v op="$2" '$1 == op { print $2 }'
}

# The payload of one pass: the sizes of every WriteX and ReadX.
db_bytes() {
	tr -d '\r' <"$1" | awk '
	{ i = 1; if ($1 ~ /^[0-9]/) i = 2 }
	tolower($i) == "writex" || tolower($i) == "readx" { s += $(i + 3) }
	END { printf "%.0f\n", s }'
}

# The Count of OP in the native table of the run with N clients.
run_count() {
	awk -v n="$2" -v op="$3" '
		$2 == "client:" || $2 == "clients:" { cur = $1 }
		cur == n && $1 == op && NF == 9 { print $2 }' "$1"
}

# "PASSES BYTES" from the Total line of the run with N clients.
run_total() {
	awk -v n="$2" '
		$2 == "client:" || $2 == "clients:" { cur = $1 }
		cur == n && $1 == "Total:" { print }' "$1" |
	sed -n -e 's/.*(\([0-9]*\) passes, \([0-9]*\) bytes,.*/\1 \2/p'
}

# The lines of dbench's table (between its dashes and the blank line
# after them) of the run with N clients.
dbench_table() {
	awk -v n="$2" '
		$2 == "client:" || $2 == "clients:" { cur = $1; t = 0 }
		cur == n && $0 == " ----------------------------------------" { t = 1; next }
		cur == n && t && $0 == "" { t = 0 }
		cur == n && t { print }' "$1"
}

# The count of an "Unexpected results" line, e.g. unexpected_count out "Close: EBADF".
unexpected_count() {
	sed -n -e "s/^  $2 x \\([0-9]*\\)\$/\\1/p" "$1"
}

# The sum of the native tables' unexpected columns.
unexpected_sum() {
	awk '$1 == "Operation" && $3 == "ops/s" { t = 1; next }
		$1 == "Unexpected" || $1 == "Total:" || NF != 9 { t = 0 }
		t { s += $NF } END { print s + 0 }' "$1"
}

# Every op of the sample in the native table of the run with C clients
# and L loops: C * L * its lines.
expect_sample_counts() {
	db_counts "$SAMPLE" >lines &&
	while read -r op n; do
		got=$(run_count "$1" "$2" "$op")
		if test "$n" -eq 0; then
			continue
		fi
		if test "$got" != "$(($2 * $3 * n))"; then
			say "Count of $op with $2 clients: expected $(($2 * $3 * n)), got '$got'" >&2
			cat "$1" >&2
			return 1
		fi
	done <lines
}

# A loadfile that must fail to load: exit 2, MESSAGE alone on stderr,
# nothing on stdout, nothing created.
load_error() {
	canary_setup &&
	test_expect_code 2 vfsbench -q --loops 1 -c "$1" -D "$TRASH/work" 1 \
		>out 2>err &&
	printf '%s\n' "$2" >expect &&
	test_cmp expect err &&
	test ! -s out &&
	canary_check &&
	workdir_empty
}

# "Deltree" first so that auto-detection picks dbench's dialect.
FIRST='Deltree "\clients\client1" NT_STATUS_OK'

test_expect_success 'the sample: CRLF, no final newline, every op' '
	test -f "$SAMPLE" &&
	test "$(tail -c 2 "$SAMPLE" | od -An -c | tr -d " ")" = "OK" &&
	test "$(grep -c "$(printf "\r")\$" "$SAMPLE")" -eq "$(($(wc -l <"$SAMPLE")))" &&
	db_counts "$SAMPLE" >lines &&
	test "$(awk "\$2 == 0" lines | wc -l)" -eq 0 &&
	test "$(db_bytes "$SAMPLE")" = 17564
'

test_expect_success 'detection: the sample is dbench, auto or forced' '
	canary_setup &&
	vfsbench -q -e null --loops 1 -c "$SAMPLE" -D "$TRASH/work" 1 >auto &&
	test_grep "^NTCreateX  " auto &&
	test_grep "^ NTCreateX  " auto &&
	! grep "^ntcreatex" auto &&
	vfsbench -q -e null --loops 1 --dialect dbench -c "$SAMPLE" \
		-D "$TRASH/work" 1 >forced &&
	test "$(run_count auto 1 NTCreateX)" = "$(db_count "$SAMPLE" NTCreateX)" &&
	test "$(run_count forced 1 NTCreateX)" = "$(db_count "$SAMPLE" NTCreateX)" &&
	vfsbench -q -e null --loops 1 --dialect auto -c "$SAMPLE" \
		-D "$TRASH/work" 1 >auto2 &&
	test "$(run_count auto2 1 Close)" = "$(db_count "$SAMPLE" Close)" &&
	canary_check &&
	workdir_empty
'

test_expect_success 'detection: --dialect native reads the sample as native (exit 2)' '
	canary_setup &&
	test_expect_code 2 vfsbench -q -e null --loops 1 --dialect native \
		-c "$SAMPLE" -D "$TRASH/work" 1 >out 2>err &&
	echo "$SAMPLE:3:1: unknown op '\''Deltree'\'' ('\''Deltree'\'' is an op of dbench loadfiles; this file is read as native, as --dialect native says)" >expect &&
	test_cmp expect err &&
	canary_check &&
	workdir_empty
'

test_expect_success 'detection: a native loadfile stays native; --dialect dbench rejects it' '
	cat >native.load <<-\EOF &&
	# close, mkdir, rmdir: names dbench has too
	mkdir d
	create d/f 0600
	open d/f rdwr @1
	close @1
	unlink d/f
	rmdir d
	EOF
	canary_setup &&
	vfsbench -q -e null --loops 2 -c native.load -D "$TRASH/work" 1 >out &&
	test "$(run_count out 1 mkdir)" = 2 &&
	test "$(run_count out 1 close)" = 2 &&
	! grep "^ Operation  " out &&
	test_expect_code 2 vfsbench -q -e null --loops 1 --dialect dbench \
		-c native.load -D "$TRASH/work" 1 >out 2>err &&
	echo "native.load:2:7: bad status '\''d'\'' (expected NT_STATUS_... or 0x...)" >expect &&
	test_cmp expect err &&
	canary_check &&
	workdir_empty
'

test_expect_success 'detection: timestamps and comments before the first op line' '
	cat >ts.txt <<-\EOF &&
	# a comment

	0.125 Mkdir "\clients\client1\t" NT_STATUS_OK
	0.250 Rmdir "\clients\client1\t" NT_STATUS_OK
	EOF
	canary_setup &&
	vfsbench -q -e null --loops 3 -c ts.txt -D "$TRASH/work" 2 >out &&
	test "$(run_count out 2 Mkdir)" = 6 &&
	test "$(run_count out 2 Rmdir)" = 6 &&
	canary_check &&
	workdir_empty
'

test_expect_success 'bad --dialect and --format values are usage errors' '
	test_expect_code 2 vfsbench --dialect client -c "$SAMPLE" 1 2>err &&
	test_grep "^vfsbench: bad --dialect '\''client'\'': expected auto, native or dbench\$" err &&
	test_grep "^Try '\''vfsbench --help'\'' for more information.\$" err &&
	test_expect_code 2 vfsbench --format lkp -c "$SAMPLE" 1 2>err &&
	test_grep "^vfsbench: bad --format '\''lkp'\'': expected native, dbench or both\$" err &&
	test_expect_code 2 vfsbench --fsinfo statvfs64 -c "$SAMPLE" 1 2>err &&
	test_grep "^vfsbench: bad --fsinfo '\''statvfs64'\'': expected statvfs, statfs or statvfs_legacy\$" err
'

test_expect_success 'null engine, 2 clients x 3 loops: exact counts of every op' '
	canary_setup &&
	vfsbench -q -e null --loops 3 -c "$SAMPLE" -D "$TRASH/work" 2 >out &&
	expect_sample_counts out 2 3 &&
	nops=$(db_counts "$SAMPLE" | awk "{ s += \$2 } END { print s }") &&
	test "$nops" -eq 51 &&
	test_grep "^2 clients: $((6 * nops)) ops in " out &&
	test_grep "^vfsbench .*  loadfile $SAMPLE: $nops ops, 0 in \[setup\]\$" out &&
	test "$(run_count out 2 Sleep)" = 6 &&
	test "$(run_total out 2)" = "6 $((6 * $(db_bytes "$SAMPLE")))" &&
	! grep "^Unexpected results" out &&
	test "$(unexpected_sum out)" = 0 &&
	canary_check &&
	workdir_empty
'

test_expect_success 'a dbench loadfile prints both tables by default' '
	canary_setup &&
	vfsbench -q -e null --loops 3 -c "$SAMPLE" -D "$TRASH/work" 2 >out &&
	test "$(grep -c "^Operation  *Count  *ops/s " out)" -eq 1 &&
	test "$(grep -c "^ Operation      Count    AvgLat    MaxLat\$" out)" -eq 1 &&
	vfsbench -q -e null --loops 3 --format both -c "$SAMPLE" \
		-D "$TRASH/work" 2 >both &&
	test "$(grep -c "^Operation  *Count  *ops/s " both)" -eq 1 &&
	test "$(grep -c "^ Operation      Count    AvgLat    MaxLat\$" both)" -eq 1 &&
	canary_check &&
	workdir_empty
'

test_expect_success '--format dbench: dbench table only, its order, its counts, no Sleep' '
	canary_setup &&
	vfsbench -q -e null --loops 3 --format dbench -c "$SAMPLE" \
		-D "$TRASH/work" 2 >out &&
	! grep "^Operation " out &&
	! grep "^Sleep " out &&
	! grep "^ Sleep " out &&
	dbench_table out 2 | awk "{ print \$1, \$2 }" >rows &&
	db_counts "$SAMPLE" |
	awk "\$1 != \"Sleep\" && \$2 > 0 { print \$1, \$2 * 6 }" >expect &&
	test "$(wc -l <expect)" -eq 17 &&
	test_cmp expect rows &&
	canary_check &&
	workdir_empty
'

test_expect_success '--format dbench: the header and rows in dbench'\''s printf formats' '
	canary_setup &&
	vfsbench -q -e null --loops 3 --format dbench -c "$SAMPLE" \
		-D "$TRASH/work" 2 >out &&
	sed -n -e "/^Time per pass per client: /,\$p" out >tail &&
	printf "%s\n" "" " Operation      Count    AvgLat    MaxLat" \
		" ----------------------------------------" >expect &&
	sed -n -e "2,4p" tail >head &&
	test_cmp expect head &&
	dbench_table out 2 >rows &&
	test "$(wc -l <rows)" -eq 17 &&
	awk "{
		l = sprintf(\" %-12s %7d %9.03f %9.03f\", \$1, \$2, \$3, \$4)
		if (l != \$0 || NF != 4) { print \"bad row: [\" \$0 \"]\"; bad = 1 }
	} END { exit bad }" rows &&
	sed -n -e "/^ -----/,\$p" out | sed -n -e "/^\$/{n;p;}" >last &&
	test "$(wc -l <last)" -eq 1 &&
	test_grep "^Throughput [0-9.e+]* MB/sec  2 clients  2 procs  max_latency=[0-9.]* ms\$" last &&
	canary_check &&
	workdir_empty
'

test_expect_success '--format dbench: the Throughput line parses as LKP does' '
	canary_setup &&
	vfsbench -q -e null --loops 2 --format dbench -c "$SAMPLE" \
		-D "$TRASH/work" 1 3 >out &&
	test "$(grep -c "^Throughput " out)" -eq 2 &&
	grep "^Throughput " out | awk -F"[ =]" "
		function num(s) { return s ~ /^[0-9]+(\\.[0-9]+)?(e[-+][0-9]+)?\$/ }
		{
			if (\$1 != \"Throughput\" || \$3 != \"MB/sec\" ||
			    \$6 != \"clients\" || \$9 != \"procs\" ||
			    \$11 != \"max_latency\" || \$13 != \"ms\" || NF != 13)
				bad = 1
			if (!num(\$2) || !num(\$5) || !num(\$8) || !num(\$12))
				bad = 1
			print \$5
		}
		END { exit bad }" >clients &&
	printf "%s\n" 1 3 >expect &&
	test_cmp expect clients &&
	canary_check &&
	workdir_empty
'

test_expect_success '--format native: no dbench table' '
	canary_setup &&
	vfsbench -q -e null --loops 1 --format native -c "$SAMPLE" \
		-D "$TRASH/work" 1 >out &&
	test_grep "^Operation  *Count  *ops/s " out &&
	! grep "^ Operation " out &&
	! grep "^ ------" out &&
	test_grep "^Throughput " out &&
	canary_check &&
	workdir_empty
'

test_expect_success 'the dbench table hides zero rows and keeps dbench'\''s order' '
	cat >few.txt <<-\EOF &&
	Sleep 1 NT_STATUS_OK
	Mkdir "\clients\client1\a" NT_STATUS_OK
	QUERY_FS_INFORMATION 259 NT_STATUS_OK
	Rmdir "\clients\client1\a" NT_STATUS_OK
	NTCreateX "\clients\client1\f" 0x40 0x2 1 NT_STATUS_OK
	Close 1 NT_STATUS_OK
	EOF
	canary_setup &&
	vfsbench -q -e null --loops 2 --format dbench -c few.txt \
		-D "$TRASH/work" 1 >out &&
	dbench_table out 1 | awk "{ print \$1, \$2 }" >rows &&
	printf "%s\n" "NTCreateX 2" "Close 2" "Rmdir 2" "Mkdir 2" "Qfsinfo 2" >expect &&
	test_cmp expect rows &&
	canary_check &&
	workdir_empty
'

test_expect_success 'posix engine: the sample with 1 and 2 clients x 2 loops, 0 unexpected' '
	canary_setup &&
	vfsbench -q --loops 2 -c "$SAMPLE" -D "$TRASH/work" 1 2 >out &&
	! grep "^Unexpected results" out &&
	! grep "^note:" out &&
	test "$(unexpected_sum out)" = 0 &&
	expect_sample_counts out 1 2 &&
	expect_sample_counts out 2 2 &&
	test "$(run_total out 1)" = "2 $((2 * $(db_bytes "$SAMPLE")))" &&
	test "$(run_total out 2)" = "4 $((4 * $(db_bytes "$SAMPLE")))" &&
	canary_check &&
	workdir_empty
'

test_expect_success 'posix engine: --strict passes the sample (exit 0)' '
	canary_setup &&
	vfsbench -q --strict --loops 2 -c "$SAMPLE" -D "$TRASH/work" 2 >out &&
	! grep "^note:" out &&
	canary_check &&
	workdir_empty
'

test_expect_success 'setup: the sample with an op on an unknown handle' '
	{ cat "$SAMPLE" &&
	  printf "\r\nQUERY_FILE_INFORMATION 999 1004 NT_STATUS_OK\r\n"; } >unknown.txt &&
	test "$(db_count unknown.txt Qfileinfo)" = 3
'

test_expect_success 'posix: an unknown handle fails with EBADF, counted, exit 0' '
	canary_setup &&
	vfsbench -q --loops 3 -c unknown.txt -D "$TRASH/work" 2 >out &&
	test_grep "^Unexpected results (op: outcome x count):\$" out &&
	test "$(unexpected_count out "Qfileinfo: EBADF")" = 6 &&
	test "$(grep -c "^  " out)" -eq 1 &&
	test "$(run_count out 2 Qfileinfo)" = 18 &&
	test "$(unexpected_sum out)" = 6 &&
	! grep "^note:" out &&
	canary_check &&
	workdir_empty
'

test_expect_success 'posix: an unknown handle with --strict: exit 1' '
	canary_setup &&
	test_expect_code 1 vfsbench -q --strict --loops 3 -c unknown.txt \
		-D "$TRASH/work" 1 >out &&
	test_grep "^note: stopped by --strict at an unexpected result: partial results\$" out &&
	test "$(unexpected_count out "Qfileinfo: EBADF")" = 1 &&
	canary_check &&
	workdir_empty
'

test_expect_success 'posix: --format dbench still lists the unexpected results' '
	canary_setup &&
	vfsbench -q --loops 2 --format dbench -c unknown.txt -D "$TRASH/work" 1 >out &&
	! grep "^Operation " out &&
	test_grep "^Unexpected results (op: outcome x count):\$" out &&
	test "$(unexpected_count out "Qfileinfo: EBADF")" = 2 &&
	test "$(dbench_table out 1 | awk "\$1 == \"Qfileinfo\" { print \$2 }")" = 6 &&
	canary_check &&
	workdir_empty
'

test_expect_success 'null engine: an unknown handle just succeeds' '
	canary_setup &&
	vfsbench -q -e null --loops 3 -c unknown.txt -D "$TRASH/work" 2 >out &&
	! grep "^Unexpected results" out &&
	test "$(run_count out 2 Qfileinfo)" = 18 &&
	canary_check &&
	workdir_empty
'

test_expect_success 'posix: status mismatches counted per errno, dead handle ops skipped' '
	cat >mismatch.txt <<-\EOF &&
	Deltree "\clients\client1" NT_STATUS_OK
	NTCreateX "\clients\client1\missing.dat" 0x40 0x1 42 NT_STATUS_OK
	WriteX 42 0 100 100 NT_STATUS_OK
	QUERY_FILE_INFORMATION 42 1004 NT_STATUS_OK
	Close 42 NT_STATUS_OK
	Mkdir "\clients\client1\d" NT_STATUS_OK
	Unlink "\clients\client1\d\nothere" 0x6 NT_STATUS_OK
	Rmdir "\clients\client1\d" NT_STATUS_OBJECT_NAME_NOT_FOUND
	NTCreateX "\clients\client1\new.dat" 0x40 0x2 43 NT_STATUS_OK
	Close 43 NT_STATUS_OK
	Rename "\clients\client1\new.dat" "\clients\client1\old.dat" NT_STATUS_OK
	Unlink "\clients\client1\old.dat" 0x6 NT_STATUS_OK
	EOF
	canary_setup &&
	vfsbench -q --loops 2 -c mismatch.txt -D "$TRASH/work" 2 >out &&
	test "$(unexpected_count out "NTCreateX: ENOENT")" = 4 &&
	test "$(unexpected_count out "WriteX: skipped (handle dead: its open failed)")" = 4 &&
	test "$(unexpected_count out "Qfileinfo: skipped (handle dead: its open failed)")" = 4 &&
	test "$(unexpected_count out "Close: skipped (handle dead: its open failed)")" = 4 &&
	test "$(unexpected_count out "Unlink: ENOENT")" = 4 &&
	test "$(unexpected_count out "Rmdir: success (an errno was expected)")" = 4 &&
	test "$(grep -c "^  " out)" -eq 6 &&
	test "$(run_count out 2 NTCreateX)" = 8 &&
	test -z "$(run_count out 2 WriteX)" &&
	test "$(grep "^Left out" out)" = \
		"Left out, no call measured: WriteX (4 skipped), Qfileinfo (4 skipped)" &&
	test "$(run_count out 2 Close)" = 4 &&
	test "$(run_count out 2 Rename)" = 4 &&
	test "$(run_count out 2 Unlink)" = 8 &&
	test "$(run_total out 2)" = "4 0" &&
	! grep "^note:" out &&
	canary_check &&
	workdir_empty
'

test_expect_success 'posix: a status mismatch with --strict: exit 1' '
	canary_setup &&
	test_expect_code 1 vfsbench -q --strict --loops 2 -c mismatch.txt \
		-D "$TRASH/work" 1 >out &&
	test_grep "^note: stopped by --strict" out &&
	test "$(unexpected_count out "NTCreateX: ENOENT")" = 1 &&
	canary_check &&
	workdir_empty
'

test_expect_success 'load error: malformed status' '
	printf "%s\n" "$FIRST" "Close 1 OK" >e-status.txt &&
	load_error e-status.txt \
		"e-status.txt:2:9: bad status '\''OK'\'' (expected NT_STATUS_... or 0x...)"
'

test_expect_success 'load error: malformed status on a last line without newline, CRLF' '
	printf "%s\r\n%s\r\n%s" "$FIRST" "Mkdir \"\\clients\\client1\\d\" NT_STATUS_OK" \
		"Flush 1 OK" >e-crlf2.txt &&
	load_error e-crlf2.txt \
		"e-crlf2.txt:3:9: bad status '\''OK'\'' (expected NT_STATUS_... or 0x...)"
'

test_expect_success 'load error: unknown op' '
	printf "%s\n" "$FIRST" "" "# comment" "Frobnicate 1 NT_STATUS_OK" >e-op.txt &&
	load_error e-op.txt "e-op.txt:4:1: unknown dbench op '\''Frobnicate'\''"
'

test_expect_success 'load error: wrong argument count' '
	printf "%s\n" "$FIRST" "Close 1 2 NT_STATUS_OK" >e-args.txt &&
	load_error e-args.txt \
		"e-args.txt:2:11: '\''Close'\'' takes 1 argument before its status, not 2" &&
	printf "%s\n" "$FIRST" "WriteX 1 0 10 NT_STATUS_OK" >e-args2.txt &&
	load_error e-args2.txt \
		"e-args2.txt:2:15: '\''WriteX'\'' takes 4 arguments before its status, not 3" &&
	printf "%s\n" "$FIRST" "Close" >e-args3.txt &&
	load_error e-args3.txt "e-args3.txt:2:6: missing status after '\''Close'\''"
'

test_expect_success 'load error: bad number' '
	printf "%s\n" "$FIRST" "WriteX 1 x 10 10 NT_STATUS_OK" >e-num.txt &&
	load_error e-num.txt "e-num.txt:2:10: bad number '\''x'\''" &&
	printf "%s\n" "$FIRST" "ReadX 1 0 16777217 16777217 NT_STATUS_OK" >e-num2.txt &&
	load_error e-num2.txt "e-num2.txt:2:11: bad number '\''16777217'\''"
'

test_expect_success 'load error: bad disposition' '
	cat >e-disp.txt <<-\EOF &&
	Deltree "\clients\client1" NT_STATUS_OK
	NTCreateX "\clients\client1\f" 0x40 0x6 1 NT_STATUS_OK
	Close 1 NT_STATUS_OK
	EOF
	load_error e-disp.txt \
		"e-disp.txt:2:37: bad disposition '\''0x6'\'' (expected 0 to 5)"
'

test_expect_success 'load error: handle opened twice' '
	cat >e-twice.txt <<-\EOF &&
	Deltree "\clients\client1" NT_STATUS_OK
	NTCreateX "\clients\client1\f" 0x40 0x2 1 NT_STATUS_OK
	NTCreateX "\clients\client1\g" 0x40 0x2 1 NT_STATUS_OK
	Close 1 NT_STATUS_OK
	EOF
	load_error e-twice.txt \
		"e-twice.txt:3:41: handle 1 is already open (opened at line 2)"
'

# A handle never closed is no error since issue 12 (cuts of client.txt):
# a warning, closed after each pass (t8009-open-handles.sh).
test_expect_success 'a handle never closed: a warning, not an error' '
	cat >e-open.txt <<-\EOF &&
	Deltree "\clients\client1" NT_STATUS_OK
	NTCreateX "\clients\client1\f" 0x40 0x2 7 NT_STATUS_OK
	NTCreateX "\clients\client1\g" 0x40 0x2 8 NT_STATUS_OK
	Close 8 NT_STATUS_OK
	EOF
	canary_setup &&
	vfsbench -q -e null --loops 2 -c e-open.txt -D "$TRASH/work" 1 \
		>out 2>err &&
	printf "%s\n" "warning: e-open.txt:2:41: 1 handle is still open at the end of a pass, the first opened here; vfsbench closes it after each pass, outside the timed ops" >expect &&
	test_cmp expect err &&
	canary_check &&
	workdir_empty
'

test_expect_success 'load error: unterminated quote' '
	cat >e-quote.txt <<-\EOF &&
	Deltree "\clients\client1" NT_STATUS_OK
	Unlink "\clients\client1\f 0x6 NT_STATUS_OK
	EOF
	load_error e-quote.txt "e-quote.txt:2:8: unterminated quote"
'

test_expect_success 'load error: .. in a path' '
	cat >e-dotdot.txt <<-\EOF &&
	Deltree "\clients\client1" NT_STATUS_OK
	Unlink "\clients\client1\..\client2\f" 0x6 NT_STATUS_OK
	EOF
	load_error e-dotdot.txt \
		"e-dotdot.txt:2:8: '\''..'\'' in path '\''\\clients\\client1\\..\\client2\\f'\'': paths must stay inside the client directory"
'

test_expect_success 'load error: forced dbench on a file with no ops' '
	printf "# nothing\n\n" >e-empty.txt &&
	canary_setup &&
	test_expect_code 2 vfsbench -q --dialect dbench --loops 1 \
		-c e-empty.txt -D "$TRASH/work" 1 >out 2>err &&
	echo "e-empty.txt:1:1: no ops in loadfile" >expect &&
	test_cmp expect err &&
	canary_check &&
	workdir_empty
'

for opt in --no-resolve -s -S -F --fsinfo=statfs --fsinfo=statvfs_legacy; do
	test_expect_success "posix: $opt is accepted, 0 unexpected" '
		canary_setup &&
		vfsbench -q '"$opt"' --loops 2 -c "$SAMPLE" -D "$TRASH/work" 2 >out &&
		! grep "^Unexpected results" out &&
		test "$(unexpected_sum out)" = 0 &&
		expect_sample_counts out 2 2 &&
		canary_check &&
		workdir_empty
	'
done

test_expect_success 'posix: every dbench option at once, long names, 0 unexpected' '
	canary_setup &&
	vfsbench -q --no-resolve --sync-open --sync-dirs --fsync \
		--fsinfo statvfs --loops 2 \
		-c "$SAMPLE" -D "$TRASH/work" 1 >out &&
	! grep "^Unexpected results" out &&
	expect_sample_counts out 1 2 &&
	canary_check &&
	workdir_empty
'

# The system calls of a 1-client run: syscalls NAME OUT OPTIONS... counts
# the calls of NAME (entry lines only) in OUT's trace.
syscalls() {
	name=$1
	out=$2
	shift 2
	canary_setup &&
	# LeakSanitizer cannot run under ptrace: the ASan build's leak check
	# is off for these traced runs only
	ASAN_OPTIONS=detect_leaks=0 \
	strace -f -e trace="$name" -o "$out" "$VFSBENCH" -q "$@" \
		-D "$TRASH/work" 1 >/dev/null &&
	canary_check &&
	workdir_empty &&
	{ grep -c "$name(" "$out" || test $? -eq 1; }
}

strace_test 'strace: -F adds one fsync per WriteX' '
	a=$(syscalls fsync tr-a --loops 2 -c "$SAMPLE") &&
	b=$(syscalls fsync tr-b -F --loops 2 -c "$SAMPLE") &&
	test "$((b - a))" -eq "$((2 * $(db_count "$SAMPLE" WriteX)))"
'

strace_test 'strace: -S adds one fdatasync per Unlink, Rmdir and Rename' '
	a=$(syscalls fdatasync tr-a --loops 2 -c "$SAMPLE") &&
	b=$(syscalls fdatasync tr-b -S --loops 2 -c "$SAMPLE") &&
	n=$(($(db_count "$SAMPLE" Unlink) + $(db_count "$SAMPLE" Rmdir) +
		$(db_count "$SAMPLE" Rename))) &&
	test "$((b - a))" -eq "$((2 * n))"
'

strace_test 'strace: --no-resolve drops the directory reads of lookup misses' '
	cat >miss.txt <<-\EOF &&
	Deltree "\clients\client1" NT_STATUS_OK
	QUERY_PATH_INFORMATION "\clients\client1\nothere" 1004 NT_STATUS_OBJECT_NAME_NOT_FOUND
	QUERY_PATH_INFORMATION "\clients\client1\NotThere" 1004 NT_STATUS_OBJECT_NAME_NOT_FOUND
	QUERY_PATH_INFORMATION "\clients\client1\nodir\x" 1004 NT_STATUS_OBJECT_PATH_NOT_FOUND
	EOF
	a=$(syscalls getdents64 tr-a --loops 3 -c miss.txt) &&
	b=$(syscalls getdents64 tr-b --no-resolve --loops 3 -c miss.txt) &&
	test "$((a - b))" -eq 12 &&
	c=$(syscalls getdents64 tr-c --loops 2 -c "$SAMPLE") &&
	d=$(syscalls getdents64 tr-d --no-resolve --loops 2 -c "$SAMPLE") &&
	test "$d" -lt "$c"
'

strace_test 'strace: --fsinfo statvfs_legacy opens /proc/self/mounts per Qfsinfo' '
	syscalls openat tr-a --loops 2 -c "$SAMPLE" >/dev/null &&
	syscalls openat tr-b --fsinfo statvfs_legacy --loops 2 \
		-c "$SAMPLE" >/dev/null &&
	a=$(grep -c "/proc/self/mounts" tr-a || :) &&
	b=$(grep -c "/proc/self/mounts" tr-b) &&
	test "$((b - a))" -eq "$((2 * $(db_count "$SAMPLE" Qfsinfo)))"
'

# A dbench loadfile's sweep is relative by MB/s, dbench's metric (it was
# ops/s), unless --relative says otherwise; a native one's stays ops/s.
test_expect_success 'a dbench loadfile: the sweep relative by MB/s unless --relative' '
	canary_setup &&
	vfsbench -q -e null --loops 1 -c "$SAMPLE" -D "$TRASH/work" 1 2 >out &&
	test_grep "^Sweep: relative to 1 client, by MB/s\$" out &&
	sed -n "/^Sweep:/,\$p" out >sweep &&
	awk "\$1 == 1 { b = \$3 } \$1 == 2 { m = \$3; r = \$4 }
		END {
			want = sprintf(\"%.2f\", m / b)
			if (r != want) { print r \" is not \" want; exit 1 }
		}" sweep &&
	vfsbench -q -e null --loops 1 -c "$SAMPLE" -D "$TRASH/work" \
		--relative ops 1 2 >out &&
	test_grep "^Sweep: relative to 1 client, by ops/s\$" out &&
	vfsbench -q -e null --loops 1 -c "$SAMPLE" -D "$TRASH/work" \
		--relative mbps 1 2 >out &&
	test_grep "^Sweep: relative to 1 client, by MB/s\$" out &&
	vfsbench -q -e null --loops 1 -c "$SAMPLE" -D "$TRASH/work" \
		--ministat ms 1 >out &&
	mb=$(sed -n "s/^Total: .* ops\\/s  \\([0-9.]*\\) MB\\/s .*/\\1/p" out) &&
	awk -v mb="$mb" "{ d = \$1 - mb; exit !(mb > 0 && d <= 0.005 && d >= -0.005) }" \
		ms-1.txt &&
	canary_check &&
	workdir_empty
'

test_done
