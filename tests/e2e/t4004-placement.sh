#!/bin/sh
# shellcheck disable=SC2034,SC2154
test_description='--placement: clients run where the JSON says, within the affinity mask; the topology client list'
. "$srcdir/tests/e2e/lib.sh"

if ! command -v jq >/dev/null 2>&1; then
	test_skip_all "jq is not installed"
fi
if ! command -v taskset >/dev/null 2>&1; then
	test_skip_all "taskset (util-linux) is not installed"
fi

SQ="'"
NCPUS=$(getconf _NPROCESSORS_ONLN)

# The CPUs of a list such as 0-3,8, one a line.
expand_cpus() {
	tr , '\n' | awk -F- '{ for (c = $1; c <= ($2 == "" ? $1 : $2); c++) print c }'
}

# The CPUs this test may use (its affinity mask), and the first two.
CPUS=$(taskset -pc $$ | sed -e 's/.*: //')
NALLOWED=$(echo "$CPUS" | expand_cpus | wc -l)
CPU0=$(echo "$CPUS" | expand_cpus | sed -n 1p)
CPU1=$(echo "$CPUS" | expand_cpus | sed -n 2p)

# each client's CPU, last CPU and affinity, "cpu last affinity" a line
where() {
	jq -r ".runs[$2].clients_detail[] | \"\(.cpu) \(.last_cpu) \(.affinity)\"" "$1"
}

test_expect_success 'setup' '
	canary_setup &&
	printf "[run]\nstat .\nstatfs .\n" >s.load
'

test_expect_success '--placement compact: each client pinned, as the JSON says' '
	vfsbench -q -c s.load --loops 200 --placement compact -D "$TRASH/work" \
		1 2 --json c.json >out &&
	test_grep "  placement compact\$" out &&
	test_grep "^client i on the i-th of " out &&
	jq -r ".options.placement.kind" c.json >kind &&
	echo compact >expect && test_cmp expect kind &&
	jq -r ".options.placement.order | length" c.json >n &&
	test "$(cat n)" -eq "$NALLOWED" &&
	for run in 0 1; do
		where c.json $run >w &&
		jq -r ".options.placement.order[]" c.json >order &&
		i=0 &&
		while read -r cpu last aff; do
			want=$(sed -n "$((i % $(cat n) + 1))p" order) &&
			test "$cpu" = "$want" &&
			test "$last" = "$want" &&
			test "$aff" = "$want" &&
			i=$((i + 1)) || return 1
		done <w &&
		test "$i" -eq "$(jq ".runs[$run].clients" c.json)" || return 1
	done &&
	canary_check && workdir_empty
'

# hwloc numbers its objects its own way: compare what the JSON says
# with sysfs as relations, two clients on two CPUs
if test -n "$CPU1"; then
	test_expect_success 'core and node of each client: those of sysfs' '
		vfsbench -q -e null --loops 2 --placement "$CPU0,$CPU1" \
			-D "$TRASH/work" 2 --json cn.json >out &&
		jq -r ".runs[0].clients_detail[] | \"\(.core) \(.node)\"" cn.json >w &&
		core0=$(sed -n 1p w | cut -d" " -f1) &&
		core1=$(sed -n 2p w | cut -d" " -f1) &&
		sib=/sys/devices/system/cpu/cpu$CPU0/topology/thread_siblings_list &&
		if test -r "$sib"; then
			if cat "$sib" | expand_cpus | grep -qx "$CPU1"; then
				test "$core0" = "$core1"
			else
				test "$core0" != "$core1"
			fi
		fi &&
		i=0 &&
		for cpu in "$CPU0" "$CPU1"; do
			i=$((i + 1)) &&
			node=$(sed -n "${i}p" w | cut -d" " -f2) &&
			if ls -d /sys/devices/system/cpu/cpu$cpu/node* >/dev/null 2>&1; then
				test -d "/sys/devices/system/cpu/cpu$cpu/node$node"
			fi || return 1
		done &&
		canary_check && workdir_empty
	'
fi

test_expect_success '--placement none: nobody is pinned, the main thread stays' '
	vfsbench -q -c s.load --loops 20 -D "$TRASH/work" 1 --json n.json >out &&
	test_grep "  placement none\$" out &&
	! grep "^client i on" out &&
	test "$(jq -r ".runs[0].clients_detail[0].cpu" n.json)" = null &&
	test "$(jq -r ".runs[0].clients_detail[0].core" n.json)" = null &&
	test "$(jq -r ".runs[0].main_affinity" n.json)" = null &&
	test "$(jq -r ".runs[0].clients_detail[0].affinity" n.json)" = \
		"$(jq -r ".environment.affinity" n.json)" &&
	canary_check && workdir_empty
'

test_expect_success 'an impossible list is refused before anything is created' '
	usage_exact() {
		test_expect_code 2 "$@" >out 2>err &&
		test ! -s out &&
		canary_check && workdir_empty
	} &&
	usage_exact taskset -c "$CPU0" "$VFSBENCH" --placement 8191 -c s.load \
		--loops 1 -D "$TRASH/work" 1 &&
	echo "vfsbench: --placement 8191: CPU 8191 is not one this process may use (its affinity mask, from taskset or the cgroup${SQ}s cpuset: $CPU0)" >expect &&
	echo "Try ${SQ}vfsbench --help${SQ} for more information." >>expect &&
	test_cmp expect err &&
	usage_exact vfsbench --placement "$CPU0,$CPU0" -c s.load --loops 1 \
		-D "$TRASH/work" 1 3 &&
	test_grep "^vfsbench: --placement $CPU0,$CPU0 names 2 CPUs for up to 3 clients: name one per client (a CPU may appear twice)\$" err &&
	usage_exact vfsbench --placement 0,x -c s.load --loops 1 \
		-D "$TRASH/work" 1 &&
	test_grep "^vfsbench: bad --placement ${SQ}0,x${SQ}: expected none, compact, spread or a CPU list such as 0,2-3\$" err &&
	usage_exact vfsbench --placement 3-1 -c s.load --loops 1 \
		-D "$TRASH/work" 1 &&
	usage_exact vfsbench --variant placement=compact,8191 -c s.load \
		--loops 1 -D "$TRASH/work" 1 &&
	test_grep "^vfsbench: --placement 8191: CPU 8191 is not one" err
'

test_expect_success 'a list may name a CPU twice: those clients share it, with a warning' '
	vfsbench -q -c s.load --loops 50 --placement "$CPU0,$CPU0" \
		-D "$TRASH/work" 2 --json twice.json >out &&
	where twice.json 0 >w &&
	printf "%s %s %s\n" "$CPU0" "$CPU0" "$CPU0" "$CPU0" "$CPU0" "$CPU0" >expect &&
	test_cmp expect w &&
	test_grep "^warning: pinned clients shared CPUs (2 clients on 1 CPU): CPU $CPU0: clients 0,1\$" out &&
	test "$(jq ".runs[0].rusage.cpus" twice.json)" = 1 &&
	canary_check && workdir_empty
'

if test -n "$CPU1"; then
	test_expect_success 'a mask from taskset is respected: clients, CPU share, environment' '
		taskset -c "$CPU1" "$VFSBENCH" -q -c s.load --loops 50 \
			--placement compact -D "$TRASH/work" 2 --json t.json >out &&
		where t.json 0 >w &&
		printf "%s %s %s\n" "$CPU1" "$CPU1" "$CPU1" "$CPU1" "$CPU1" "$CPU1" >expect &&
		test_cmp expect w &&
		test "$(jq -r ".environment.affinity" t.json)" = "$CPU1" &&
		test "$(jq ".environment.cpus_allowed" t.json)" = 1 &&
		test "$(jq ".runs[0].rusage.cpus" t.json)" = 1 &&
		test_grep "^cpus $CPU1 of $NCPUS online" out &&
		taskset -c "$CPU1" "$VFSBENCH" -q -c s.load --loops 50 \
			-D "$TRASH/work" 2 --json u.json >out &&
		where u.json 0 >w &&
		printf "null %s %s\n" "$CPU1" "$CPU1" "$CPU1" "$CPU1" >expect &&
		test_cmp expect w &&
		test "$(jq ".runs[0].rusage.cpus" u.json)" = 1 &&
		canary_check && workdir_empty
	'

	test_expect_success 'the main thread moves off the clients'"'"' CPUs where it can' '
		vfsbench -q -c s.load --loops 20 --placement "$CPU0" \
			-D "$TRASH/work" 1 --json m.json >out &&
		jq -r ".runs[0].main_affinity" m.json | expand_cpus >main &&
		echo "$CPUS" | expand_cpus | grep -vx "$CPU0" >expect &&
		test_cmp expect main &&
		vfsbench -q -c s.load --loops 20 --placement compact \
			-D "$TRASH/work" 2 --json m2.json >out &&
		if test "$NALLOWED" -eq 2; then
			test "$(jq -r ".runs[0].main_affinity" m2.json)" = null
		fi &&
		canary_check && workdir_empty
	'

	# The clients block in [run] on a FIFO outside the work directory
	# (through a symlink [setup] made), pinned, until this test opens
	# it for writing: meanwhile /proc shows where each thread runs.
	test_expect_success 'pinned clients really run where the JSON says (/proc, field 39)' '
		mkfifo "$TRASH/gate" &&
		printf "[setup]\nsymlink \"%s\" g\n[run]\nopen g rdonly @1\nclose @1\n" \
			"$TRASH/gate" >gate.load &&
		start_vfsbench -q -c gate.load --links-out --loops 1 \
			--placement "$CPU1,$CPU0" \
			-D "$TRASH/work" 2 --json g.json &&
		blocked 2 wait_for_partner &&
		# the clients only (a sanitizer has threads of its own)
		for t in /proc/$pid/task/*; do
			test "$(cat "$t/wchan")" = wait_for_partner || continue
			printf "%s %s %s\n" "${t##*/}" \
				"$(sed -e "s/.*) //" "$t/stat" | cut -d" " -f37)" \
				"$(sed -n -e "s/^Cpus_allowed_list:[[:space:]]*//p" "$t/status")"
		done | sort >seen &&
		sed -n -e "s/^Cpus_allowed_list:[[:space:]]*//p" /proc/$pid/status >main &&
		exec 3>"$TRASH/gate" &&
		finish 0 &&
		exec 3>&- &&
		jq -r ".runs[0].clients_detail[] | \"\(.tid) \(.cpu) \(.affinity)\"" g.json |
			sort >expect &&
		test_cmp expect seen &&
		test "$(jq -r ".runs[0].clients_detail[0].cpu" g.json)" = "$CPU1" &&
		test "$(jq -r ".runs[0].clients_detail[1].cpu" g.json)" = "$CPU0" &&
		main_json=$(jq -r ".runs[0].main_affinity" g.json) &&
		if test "$main_json" = null; then
			main_json=$CPUS
		fi &&
		test "$(expand_cpus <main)" = "$(echo "$main_json" | expand_cpus)" &&
		canary_check && workdir_empty
	'

	# A pinned client moved by someone else while it measured (taskset
	# on its thread while it waits on the FIFO): it wakes up on the
	# other CPU, and the report says so.
	test_expect_success 'a pinned client that migrated: counted, and a warning' '
		rm -f "$TRASH/gate" && mkfifo "$TRASH/gate" &&
		start_vfsbench -c gate.load --links-out --loops 1 \
			--placement "$CPU1" -D "$TRASH/work" 1 --json mig.json &&
		blocked 1 wait_for_partner &&
		for t in /proc/$pid/task/*; do
			if test "$(cat "$t/wchan")" = wait_for_partner; then
				taskset -pc "$CPU0" "${t##*/}" >/dev/null ||
					return 1
			fi
		done &&
		exec 3>"$TRASH/gate" &&
		finish 0 &&
		exec 3>&- &&
		test "$(jq -r ".runs[0].clients_detail[0].cpu" mig.json)" = "$CPU1" &&
		test "$(jq -r ".runs[0].clients_detail[0].last_cpu" mig.json)" = "$CPU0" &&
		m=$(jq -r ".runs[0].clients_detail[0].migrations" mig.json) &&
		if test -r /proc/self/sched; then
			test "$m" -ge 1 &&
			test "$(jq -r ".runs[0].rusage.migrations" mig.json)" = "$m"
		else
			test "$m" = null && m=0
		fi &&
		test_grep "^warning: client 0, pinned to CPU $CPU1, migrated while it measured: $m migration$(test "$m" = 1 || echo s), last ran on CPU $CPU0\$" out &&
		canary_check && workdir_empty
	'

	test_expect_success 'CLIENTS topology: 1, then the boundaries within the mask' '
		taskset -c "$CPU0" "$VFSBENCH" -q -e null --loops 1 \
			-D "$TRASH/work" topology --json t1.json >out &&
		test "$(jq -c ".options.clients" t1.json)" = "[1]" &&
		taskset -c "$CPU0,$CPU1" "$VFSBENCH" -q -e null --loops 1 \
			-D "$TRASH/work" topology 5 --json t2.json >out &&
		test "$(jq -c ".options.clients" t2.json)" = "[1,2,5]" &&
		canary_check && workdir_empty
	'

	test_expect_success '--variant placement: none and compact, interleaved' '
		vfsbench -q -e null --loops 5 --runs 2 \
			--variant placement=none,compact -D "$TRASH/work" 2 \
			--json v.json >out &&
		jq -r ".variants[].options.placement.kind" v.json >kinds &&
		printf "none\ncompact\n" >expect && test_cmp expect kinds &&
		jq -r ".runs[] | select(.variant == 1) | .clients_detail[0].cpu" \
			v.json >pinned &&
		test "$(sort -u pinned)" = "$(jq -r ".variants[1].options.placement.order[0]" v.json)" &&
		jq -r ".runs[] | select(.variant == 0) | .clients_detail[0].cpu" \
			v.json | sort -u >unpinned &&
		echo null >expect && test_cmp expect unpinned &&
		canary_check && workdir_empty
	'
else
	test_skip 'a mask from taskset is respected' 'needs 2 CPUs'
	test_skip 'the main thread moves off the clients'"'"' CPUs' 'needs 2 CPUs'
	test_skip 'pinned clients really run where the JSON says' 'needs 2 CPUs'
	test_skip 'a pinned client that migrated' 'needs 2 CPUs'
	test_skip 'CLIENTS topology' 'needs 2 CPUs'
	test_skip '--variant placement' 'needs 2 CPUs'
fi

# The cgroup's CPU quota, faked without touching the system's cgroups:
# in a mount namespace of the test's own, a tmpfs over the mount of the
# hierarchy vfsbench reads (cgroup v1's cpu controller, else cgroup2)
# holds the process's cgroup directory with a limit of 1.5 CPUs.
cg_mount() {
	awk -v v="$1" '{
		for (i = 7; $i != "-"; i++)
			;
		t = $(i + 1); o = "," $(i + 3) ","
		if ((v == 1 && t == "cgroup" && o ~ /,cpu,/) ||
		    (v == 2 && t == "cgroup2")) {
			print $4, $5
			exit
		}
	}' /proc/self/mountinfo
}
test_expect_success 'setup: which cgroup hierarchy vfsbench reads' '
	vfsbench -q -e null --loops 1 -D "$TRASH/work" 1 --json cg.json >out &&
	cg_mount "$(jq -r .environment.cgroup.version cg.json)" >cgm
'
if test "$(cut -d" " -f1 cgm 2>/dev/null)" = / &&
	unshare -m --propagation private sh -c \
		"mount -t tmpfs none \"$(cut -d" " -f2 cgm)\"" 2>/dev/null; then
	test_expect_success 'a cgroup CPU quota caps the CPUs the run may use' '
		mp=$(cut -d" " -f2 cgm) &&
		cg_version=$(jq -r .environment.cgroup.version cg.json) &&
		cg_path=$(jq -r .environment.cgroup.path cg.json) &&
		unshare -m --propagation private sh -c "
			mount -t tmpfs none \"\$4\" &&
			mkdir -p \"\$4\$5\" &&
			if test \"\$3\" = 1; then
				echo 150000 >\"\$4\$5/cpu.cfs_quota_us\" &&
				echo 100000 >\"\$4\$5/cpu.cfs_period_us\"
			else
				echo 150000 100000 >\"\$4\$5/cpu.max\"
			fi &&
			\"\$1\" -q -e null --loops 1 -D \"\$2\" 1 2 --json q.json >qout &&
			\"\$1\" -q -e null --loops 1 -D \"\$2\" --placement compact 2 \\
				--json qc.json >qcout
		" sh "$VFSBENCH" "$TRASH/work" "$cg_version" "$mp" \
			"${cg_path%/}" &&
		test "$(jq -r .environment.cgroup.cpu_max q.json)" = "150000 100000" &&
		test "$(jq -r .environment.cgroup.cpu_quota q.json)" = 1.5 &&
		test_grep "cgroup v$cg_version $cg_path: cpu.max 150000 100000," qout &&
		test_grep "^cpus $(jq -r .environment.affinity q.json) of $NCPUS online.*, cgroup quota 1.50 CPUs\$" qout &&
		if test "$NALLOWED" -ge 2; then
			want=1.5
		else
			want=1
		fi &&
		test "$(jq -r ".runs[0].rusage.cpus" q.json)" = $want &&
		test "$(jq -r ".runs[1].rusage.cpus" q.json)" = $want &&
		test "$(jq -r ".runs[0].rusage.cpus" qc.json)" = $want &&
		canary_check && workdir_empty
	'
else
	test_skip 'a cgroup CPU quota caps the CPUs the run may use' \
		'no cgroup hierarchy mounted at its root, or no private mount namespace'
fi

test_expect_success 'spread with more clients than CPUs: they wrap, and share' '
	taskset -c "$CPU0" "$VFSBENCH" -q -e null --loops 3 --placement spread \
		-D "$TRASH/work" 3 --json w.json >out &&
	test "$(jq -r "[.runs[0].clients_detail[].cpu] | unique | .[]" w.json)" = "$CPU0" &&
	test_grep "^warning: pinned clients shared CPUs (3 clients on 1 CPU): CPU $CPU0: clients 0,1,2\$" out &&
	canary_check && workdir_empty
'

test_done
