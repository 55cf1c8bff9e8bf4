#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='dbench client.txt: one full pass on the posix engine, exact counts and bytes'
. "$srcdir/tests/e2e/lib.sh"

CLIENT_TXT=/usr/share/dbench/client.txt

if ! test -f "$CLIENT_TXT"; then
	test_skip_all "dbench's client.txt not installed (apt-get install dbench)"
fi

# One pass writes about 1 GB and reads 1.5 GB (files are rewritten and
# deleted as it goes): want 2 GB free where the trash directory is.
free_kb=$(df -Pk "$TRASH" | awk 'NR == 2 { print $4 }')
if test -z "$free_kb" || test "$free_kb" -lt $((2 * 1024 * 1024)); then
	test_skip_all "under 2 GB free in $TRASH (${free_kb:-?} KiB)"
fi

# The lines of each op of a dbench loadfile: "Name count" in dbench's
# table order (ops with no line left out), as vfsbench names them.
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
	END { for (k = 1; k <= 18; k++) if (n[key[k]]) print name[k], n[key[k]] }'
}

# The payload of one pass: the sizes of every WriteX and ReadX.
db_bytes() {
	tr -d '\r' <"$1" | awk '
	{ i = 1; if ($1 ~ /^[0-9]/) i = 2 }
	tolower($i) == "writex" || tolower($i) == "readx" { s += $(i + 3) }
	END { printf "%.0f\n", s }'
}

test_expect_success 'setup: the op counts and the payload of client.txt' '
	db_counts "$CLIENT_TXT" >counts &&
	test "$(awk "{ s += \$2 } END { print s }" counts)" -eq 458344 &&
	test "$(awk "\$1 == \"ReadX\" { print \$2 }" counts)" -eq 124199 &&
	test "$(awk "\$1 == \"NTCreateX\" { print \$2 }" counts)" -eq 79230 &&
	test "$(db_bytes "$CLIENT_TXT")" = 2488062937
'

test_expect_success 'one pass, 1 client: exit 0, 0 unexpected, exact counts and bytes' '
	canary_setup &&
	vfsbench -q --loops 1 -c "$CLIENT_TXT" -D "$TRASH/work" 1 >out &&
	test_grep "^vfsbench .*  loadfile $CLIENT_TXT: 458344 ops, 0 in \[setup\]\$" out &&
	test_grep "^1 client: 458344 ops in " out &&
	! grep "^Unexpected results" out &&
	! grep "^note:" out &&
	awk "\$1 == \"Operation\" && \$3 == \"ops/s\" { t = 1; next }
		NF != 9 || \$1 == \"Total:\" { t = 0 }
		t { print \$1, \$2; s += \$NF } END { exit s != 0 }" out >rows &&
	sort rows >native &&
	sort counts >expect &&
	test_cmp expect native &&
	sed -n -e "s/^Total: .*(\\([0-9]*\\) passes, \\([0-9]*\\) bytes,.*/\\1 \\2/p" \
		out >total &&
	echo "1 2488062937" >expect &&
	test_cmp expect total &&
	canary_check &&
	workdir_empty
'

test_expect_success 'the dbench table of that pass: dbench'\''s rows and counts' '
	sed -n -e "/^ -----/,/^\$/p" out | sed -e "1d" -e "\$d" |
	awk "{ print \$1, \$2 }" >rows &&
	grep -v "^Sleep " counts >expect &&
	test_cmp expect rows
'

test_done
