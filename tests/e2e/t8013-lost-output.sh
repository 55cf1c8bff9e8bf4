#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='lost output: every command exits 3 when standard output cannot be written, 141 quietly when its reader has gone'
. "$srcdir/tests/e2e/lib.sh"

# vfsbench(1) EXIT STATUS. /dev/full fails every write with ENOSPC; a pipe
# whose read end was closed before vfsbench started fails every write
# with EPIPE (no race with a reader that has not exited yet, as in
# "| head -1" where a short output may fit in the pipe first). perl makes
# that pipe; without perl, or without a /dev/full that fails, those
# tests skip.

if test -c /dev/full && ! printf x >/dev/full 2>/dev/null; then
	full=
else
	full='no /dev/full that fails writes'
fi
if command -v perl >/dev/null 2>&1; then
	noperl=
else
	noperl='no perl'
fi

# closed_pipe CMD...: CMD with standard output on a pipe nobody reads.
closed_pipe() {
	perl -e 'pipe(R, W) or die "pipe: $!\n"; close R;
		open(STDOUT, ">&W") or die "dup: $!\n"; close W;
		exec { $ARGV[0] } @ARGV or die "exec $ARGV[0]: $!\n"' "$@"
}

test_expect_success 'setup: a result file' '
	write_result a.json 1:100 1:110 1:105 2:200 2:190 2:210 &&
	write_result b.json 1:90 1:95 1:92 2:180 2:185 2:170
'

# Each command: its words, a tab, its title.
tab=$(printf '\t')
while IFS=$tab read -r args title; do
	test_if "$full" "$title >/dev/full: exit 3, said" "
		test_expect_code 3 vfsbench $args >/dev/full 2>err &&
		echo 'error: cannot write to standard output' >expect &&
		test_cmp expect err
	"
	test_if "$noperl" "$title to a closed pipe: exit 141, quietly" "
		test_expect_code 141 closed_pipe \"\$VFSBENCH\" $args 2>err &&
		test ! -s err
	"
done <<EOF
compare a.json b.json	compare
--list-ops	--list-ops
--help	--help
-V	-V
compare --help	compare --help
fdscale --help	fdscale --help
plot --help	plot --help
dbench --help	dbench --help
fdscale -q --max 10 --loops 1	fdscale
EOF

test_if "$noperl" 'fdscale to a closed pipe still writes its result file' '
	rm -f r.json &&
	test_expect_code 141 closed_pipe "$VFSBENCH" fdscale -q --max 10 \
		--loops 1 --json r.json 2>err &&
	test ! -s err &&
	json_flat r.json >flat &&
	test "$(jget flat schema)" = vfsbench-fdscale
'

# A run that succeeds but whose warning (a handle left open by [setup])
# is lost: 3, with no one to tell; the report is there, the tree gone.
test_if "$full" 'standard error lost in a run that succeeds: exit 3, cleaned up' '
	canary_setup &&
	printf "%s\n" "[setup]" "create f" "open f rdonly @1" "[run]" \
		"stat f" >open.load &&
	vfsbench -q --loops 1 -c open.load -D "$TRASH/work" 1 >out 2>err &&
	test_grep "^warning: .*handle is still open" err &&
	test_expect_code 3 vfsbench -q --loops 1 -c open.load \
		-D "$TRASH/work" 1 >out 2>/dev/full &&
	test_grep "^1 client: " out &&
	canary_check &&
	workdir_empty
'

test_done
