#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='the environment that moves results: in the JSON, in the header, and compared'
. "$srcdir/tests/e2e/lib.sh"

if ! command -v jq >/dev/null 2>&1; then
	test_skip_all "jq is not installed"
fi

SQ="'"

# env FIELD: the environment's FIELD (jq path) of r.json, raw
env_of() {
	jq -r ".environment.$1" r.json
}

test_expect_success 'setup: a result file' '
	canary_setup &&
	vfsbench -q -e null --loops 2 --runs 2 -D "$TRASH/work" 1 2 \
		--json r.json >out 2>err &&
	canary_check && workdir_empty
'

test_expect_success 'the kernel command line, THP, NUMA nodes, SMT: as the kernel says' '
	test "$(env_of cmdline)" = "$(cat /proc/cmdline)" &&
	if test -r /sys/kernel/mm/transparent_hugepage/enabled; then
		sed -e "s/.*\[\(.*\)\].*/\1/" \
			/sys/kernel/mm/transparent_hugepage/enabled >expect &&
		env_of transparent_hugepage.enabled >got &&
		test_cmp expect got
	fi &&
	if test -r /sys/devices/system/node/online; then
		test "$(env_of numa_nodes)" = "$(cat /sys/devices/system/node/online)"
	fi &&
	if test -r /sys/devices/system/cpu/smt/control; then
		test "$(env_of smt.control)" = "$(cat /sys/devices/system/cpu/smt/control)"
	fi
'

test_expect_success 'CPU vulnerabilities: every file, its state' '
	if test -d /sys/devices/system/cpu/vulnerabilities; then
		(cd /sys/devices/system/cpu/vulnerabilities &&
		 for f in *; do printf "%s=%s\n" "$f" "$(cat "$f")"; done) |
			LC_ALL=C sort >expect &&
		jq -r ".environment.cpu_vulnerabilities | to_entries[] | \"\(.key)=\(.value)\"" \
			r.json | LC_ALL=C sort >got &&
		test_cmp expect got
	fi
'

test_expect_success 'sched features: from debugfs, or unavailable and why' '
	sf=$(env_of sched_features) &&
	why=$(env_of sched_features_unavailable) &&
	if test -r /sys/kernel/debug/sched/features; then
		test "$sf" = "$(cat /sys/kernel/debug/sched/features)" &&
		test "$why" = null
	elif test -r /sys/kernel/debug/sched_features; then
		test "$sf" = "$(cat /sys/kernel/debug/sched_features)"
	else
		test "$sf" = null &&
		test "$why" != null &&
		test_grep "^sched_features unavailable: $why  " out &&
		test ! -s err
	fi
'

# Why, and how to mount debugfs, only with --json, where a result is
# kept to be compared: a run without it says "-", and no more.
test_expect_success 'unavailable sched features: "-" without --json, why with it, once' '
	canary_setup &&
	vfsbench -e null --loops 1 --runs 2 -D "$TRASH/work" 1 2 >out 2>err &&
	! grep -i debugfs out err &&
	if test "$(env_of sched_features)" = null; then
		test_grep "^sched_features -  " out
	fi &&
	vfsbench -e null --loops 1 --runs 2 -D "$TRASH/work" --json two.json \
		1 2 >out 2>err &&
	! grep -i debugfs err &&
	if test "$(jq -r .environment.sched_features two.json)" = null; then
		test "$(grep -c debugfs out)" = 1
	else
		! grep -i debugfs out
	fi &&
	canary_check && workdir_empty
'

# debugfs mounted in a mount namespace of the test's own, so the
# system's mounts stay as they are (root only)
if unshare -m --propagation private sh -c \
	'mount -t debugfs none /sys/kernel/debug' 2>/dev/null; then
	test_expect_success 'sched features with debugfs mounted (a private mount namespace)' '
		unshare -m --propagation private sh -c "
			mount -t debugfs none /sys/kernel/debug &&
			cat /sys/kernel/debug/sched/features >sf 2>sf.err
			\"\$1\" -q -e null --loops 1 -D \"\$2\" 1 --json d.json >dout
		" sh "$VFSBENCH" "$TRASH/work" &&
		if test -s sf; then
			test "$(jq -r .environment.sched_features d.json)" = "$(cat sf)" &&
			test_grep "^sched_features [0-9]*, [0-9]* off" dout
		else
			test "$(jq -r .environment.sched_features d.json)" = null &&
			case $(cat sf.err) in
			*"not permitted"*|*"ermission denied"*)
				test "$(jq -r .environment.sched_features_unavailable d.json)" = \
					"debugfs: permission denied (it needs root, and no kernel lockdown)" ;;
			*)
				test "$(jq -r .environment.sched_features_unavailable d.json)" = \
					"debugfs has no sched/features (a kernel without CONFIG_SCHED_DEBUG)" ;;
			esac
		fi &&
		canary_check && workdir_empty
	'
else
	test_skip 'sched features with debugfs mounted' 'cannot mount debugfs in a private mount namespace'
fi

test_expect_success 'load average, affinity, cgroup, cpufreq: present, typed' '
	test "$(jq ".environment.loadavg | length" r.json)" -eq 3 &&
	test "$(jq ".environment.loadavg | map(type == \"number\") | all" r.json)" = true &&
	test "$(jq ".environment.cgroup.version | type" r.json)" = "\"number\"" &&
	test "$(jq ".environment.cpus_allowed" r.json)" -eq \
		"$(jq -r ".environment.affinity" r.json | tr , "\n" |
		   awk -F- "{ n += \$2 == \"\" ? 1 : \$2 - \$1 + 1 } END { print n }")" &&
	for k in governor driver boost; do
		jq -e ".environment.cpufreq | has(\"$k\")" r.json >/dev/null ||
			return 1
	done
'

test_expect_success 'the header: two lines of it' '
	test_grep "^environment: kernel $(uname -r)  smt " out &&
	test "$(grep -c "^sched_features " out)" -eq 1 &&
	test_grep "^cpus $(jq -r .environment.affinity r.json) of $(getconf _NPROCESSORS_ONLN) online\$" out
'

test_expect_success 'compare lists the environment fields that differ' '
	jq ".environment.sched_features = \"GENTLE_FAIR_SLEEPERS START_DEBIT NO_NEXT_BUDDY\"" \
		r.json >a.json &&
	jq ".environment.sched_features = \"NO_GENTLE_FAIR_SLEEPERS START_DEBIT NO_NEXT_BUDDY\"
	    | .environment.kernel.release = \"9.9.9-test\"
	    | .environment.loadavg = [9, 9, 9]
	    | .environment.transparent_hugepage.enabled = \"never\"" \
		r.json >b.json &&
	vfsbench compare a.json b.json >cmp 2>err &&
	sed -n -e "/^Environment differs:\$/,\$p" cmp >got &&
	cat >expect <<-EOF &&
	Environment differs:
	${SQ}b.json${SQ} against ${SQ}a.json${SQ}:
	  kernel.release: $(uname -r) | 9.9.9-test
	  sched_features: -GENTLE_FAIR_SLEEPERS +NO_GENTLE_FAIR_SLEEPERS
	  transparent_hugepage.enabled: $(env_of transparent_hugepage.enabled) | never
	EOF
	test_cmp expect got &&
	vfsbench compare a.json a.json >same &&
	! grep "^Environment differs" same
'

test_expect_success 'compare: the clock'"'"'s calibration is measured anew, its source is not' '
	jq ".environment.clock = {source: \"tsc\", why_not_tsc: null,
	    tsc_hz: 2e9, calibration_ns: 20000000, calibration_ticks: 40000000,
	    mult: 1, shift: 1, drift_ppm: 3}" r.json >ca.json &&
	jq ".environment.clock = {source: \"monotonic\", why_not_tsc: \"--clock monotonic\",
	    tsc_hz: 3e9, calibration_ns: 20000001, calibration_ticks: 60000000,
	    mult: 2, shift: 2, drift_ppm: 4}" r.json >cb.json &&
	vfsbench compare ca.json cb.json >cmp 2>err &&
	sed -n -e "/^Environment differs:\$/,\$p" cmp >got &&
	cat >expect <<-EOF &&
	Environment differs:
	${SQ}cb.json${SQ} against ${SQ}ca.json${SQ}:
	  clock.source: tsc | monotonic
	  clock.why_not_tsc: null | --clock monotonic
	EOF
	test_cmp expect got
'

test_expect_success 'compare: a field only one file has (an older or a newer file)' '
	jq "del(.environment.numa_nodes) | .environment.newer = \"x y\"" \
		r.json >c.json &&
	vfsbench compare r.json c.json >cmp 2>err &&
	sed -n -e "/^Environment differs:\$/,\$p" cmp >got &&
	cat >expect <<-EOF &&
	Environment differs:
	${SQ}c.json${SQ} against ${SQ}r.json${SQ}:
	  numa_nodes: $(env_of numa_nodes) | (none)
	  newer: (none) | x y
	EOF
	test_cmp expect got
'

test_expect_success 'compare: free text is diffed as whole values, word lists by words' '
	jq ".environment.sched_features = null
	    | .environment.sched_features_unavailable = \"debugfs is not mounted at /sys/kernel/debug\"
	    | .environment.cmdline = \"ro quiet mitigations=off\"" \
		r.json >fa.json &&
	jq ".environment.sched_features = null
	    | .environment.sched_features_unavailable = \"debugfs: permission denied\"
	    | .environment.cmdline = \"ro mitigations=auto quiet\"" \
		r.json >fb.json &&
	vfsbench compare fa.json fb.json >cmp 2>err &&
	sed -n -e "/^Environment differs:\$/,\$p" cmp >got &&
	cat >expect <<-EOF &&
	Environment differs:
	${SQ}fb.json${SQ} against ${SQ}fa.json${SQ}:
	  cmdline: -mitigations=off +mitigations=auto
	  sched_features_unavailable: debugfs is not mounted at /sys/kernel/debug | debugfs: permission denied
	EOF
	test_cmp expect got
'

test_done
