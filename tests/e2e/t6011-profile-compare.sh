#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='vfsbench compare of two files with profiles: share changes marked only beyond the sample counts, events compared'
. "$srcdir/tests/e2e/lib.sh"

command -v jq >/dev/null 2>&1 || test_skip_all "jq is not installed"

# Fixtures, recorded on a loaded 2-CPU VM (tests/data/profile): vfsbench
# -c create-unlink.load --placement compact -t 2s 1 2 --profile all
# --profile-event cpu-clock on a tmpfs, --cwd shared (shared.json: every
# create and unlink takes the one directory's i_rwsem) and, twice, --cwd
# private (private-a.json, private-b.json: no lock shared). Fixtures, not
# live runs, so that what is marked is the same on every machine: the
# test is of compare's arithmetic and rules, t6010 runs the live path.
# Two live runs of the contended setup can differ beyond what their
# sample counts allow (how much the clients collide varies from run to
# run on a loaded VM, which a test on sample counts cannot know of), so
# the A/A is of the uncontended setup; doc/profiling.md says so.
P="$TEST_DATA/profile"
SQ="'"

test_expect_success 'contended against not: the lock chain change is marked' '
	vfsbench compare "$P/private-a.json" "$P/shared.json" >out 2>err &&
	test_grep "^Profiles: share of the cpu-clock samples, ${SQ}private-a${SQ} against ${SQ}shared${SQ}\$" out &&
	test_grep "^(\\* the change is beyond what the sample counts allow: two-proportion z-test, Benjamini-Hochberg correction, p < 0.05, and at least 1 point" out &&
	# the directory lock, taken by create (path_openat) and unlink, at 2
	test_grep "^      2  down_write <- path_openat  *0.0%  *1.8%  *+1.8% \\*\$" out &&
	test_grep "^      2  down_write <- do_unlinkat  *0.1%  *1.7%  *+1.6% \\*\$" out &&
	test_grep "^      2  rwsem_spin_on_owner  *0.0%  *2.6%  *+2.6% \\*\$" out &&
	# and nothing at 1 client, where nothing is shared
	test "$(grep -c "^      1 .*\\*\$" out)" -eq 0
'

test_expect_success 'the mark follows the counts: recomputed with jq and a normal table' '
	# down_write <- path_openat at 2 clients: x of n samples in each file
	cnt() {
		jq -r ".profiles[] | select(.clients == 2) |
			[([.lock_chains[] | select(.lock == \"down_write\" and .entry == \"path_openat\") | .samples] | add // 0), .samples] | @tsv" "$1"
	} &&
	cnt "$P/private-a.json" >a &&
	cnt "$P/shared.json" >b &&
	# pooled two-proportion z: far beyond 1.96 (BH leaves it below 0.05)
	paste a b | awk "{
		pa = \$1 / \$2; pb = \$3 / \$4; p = (\$1 + \$3) / (\$2 + \$4)
		z = (pb - pa) / sqrt(p * (1 - p) * (1 / \$2 + 1 / \$4))
		print z
		exit !(z > 4)
	}"
'

test_expect_success 'A/A: two runs of the same setup mark nothing' '
	vfsbench compare "$P/private-a.json" "$P/private-b.json" >aa 2>err &&
	test_grep "^Profiles: share of the cpu-clock samples" aa &&
	test "$(sed -n "/^Profiles:/,\$p" aa | grep -c "\\*\$")" -eq 0 &&
	test "$(sed -n "/^Profiles:/,\$p" aa | grep -c "^      [12]  ")" -gt 10
'

test_expect_success 'profiles of different events: refused, not compared' '
	jq "(.profiles[] | select(.clients == 2) | .event) = \"cycles\"" \
		"$P/shared.json" >cycles.json &&
	test_expect_code 2 vfsbench compare "$P/private-a.json" cycles.json \
		>out 2>err &&
	test_grep "^error: compare: the profiles of ${SQ}private-a${SQ} and ${SQ}cycles${SQ} at 2 clients sampled different events (cpu-clock, cycles): not like for like, not compared\$" err &&
	! grep -q "^Profiles:" out
'

test_expect_success 'files without profiles: no profile table' '
	jq "del(.profiles)" "$P/shared.json" >plain.json &&
	vfsbench compare "$P/private-a.json" plain.json >out 2>err &&
	! grep -q "^Profiles:" out
'

if command -v gnuplot >/dev/null 2>&1; then
	test_expect_success 'plot --profile: the stacked chart of the top symbols' '
		vfsbench plot --profile -o p.svg "$P/shared.json" >out 2>err &&
		test -s p.svg &&
		grep -q "<svg" p.svg &&
		# the legend: the top symbols, and the rest
		grep -q "rwsem_spin_on_owner" p.svg &&
		grep -q "pvm_irq_enable" p.svg &&
		grep -q ">other<" p.svg
	'
else
	test_skip 'plot --profile: the stacked chart of the top symbols' 'gnuplot is not installed'
fi

test_expect_success 'plot --profile: a file without profiles, or two files, refused' '
	test_expect_code 2 vfsbench plot --profile -o q.svg plain.json >out 2>err &&
	test_grep "^error: ${SQ}plain.json${SQ} has no profiles (vfsbench --profile ... --json): nothing to plot\$" err &&
	test_expect_code 2 vfsbench plot --profile -o q.svg "$P/shared.json" \
		"$P/private-a.json" >out 2>err &&
	test_grep "^error: plot --profile: one result of runs of one variant, not 2\$" err &&
	test ! -e q.svg
'

test_done
