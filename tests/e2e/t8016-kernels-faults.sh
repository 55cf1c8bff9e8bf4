#!/bin/sh
# shellcheck disable=SC2034,SC2154
SQ="'"
test_description='vfsbench kernels: what it refuses, a guest that panics, hangs or fails, a stop during a boot'
. "$srcdir/tests/e2e/lib.sh"

# Exit statuses (vfsbench-kernels(1)): 2 for what was given (options, a
# kernel that is no bzImage or lacks a module, the guests' arguments), 3
# for the host (QEMU, mkfs missing) and for a boot or a guest's run that
# failed, 128 + the signal. Every failure leaves the -D as it was and no
# QEMU behind.
kernels_setup
boots=$kernels_skip

kv() {
	vfsbench kernels -D "$TRASH/work" "$@"
}

test_expect_success 'vfsbench-kernels.1 documents exactly the options of --help' '
	vfsbench kernels --help >help.txt &&
	sed -n "s/^ \{1,8\}\(-[a-zA-Z], \)\{0,1\}\(--[a-z][a-z0-9-]*\).*/\2/p" \
		help.txt | sort -u >help &&
	test "$(wc -l <help)" -eq 20 &&
	roff_text "$abs_top_srcdir/doc/vfsbench-kernels.1" |
		awk "/^\\.SH/ { on = (\$2 == \"OPTIONS\"); next } on" |
		awk "/^\\.SS/ { keep = (\$0 !~ /arguments/) } keep" |
		long_options >man &&
	test_cmp help man &&
	test "$(awk "length > 79" help.txt | wc -l)" -eq 0
'

test_expect_success 'usage: two kernels, a run after --, per-kernel options after a kernel' '
	canary_setup &&
	test_expect_code 2 vfsbench kernels -k /k -- 1 2>err &&
	test_grep "^vfsbench: vfsbench kernels compares two kernels or more: give --kernel IMAGE for each" err &&
	test_expect_code 2 vfsbench kernels -k /k -k /k 2>err &&
	test_grep "^vfsbench: no run for the guests: give vfsbench${SQ}s arguments after ${SQ}--${SQ}, such as ${SQ}-- -c stat1.load -t 5s 1 2${SQ}\$" err &&
	test_expect_code 2 vfsbench kernels --append x -k /k -k /k -- 1 2>err &&
	test_grep "^vfsbench: --append applies to the --kernel before it: give --kernel IMAGE first\$" err &&
	test_expect_code 2 vfsbench kernels -k /k -l a -k /k -l a -- 1 2>err &&
	test_grep "^vfsbench: two kernels are labelled ${SQ}a${SQ}: each --label names one\$" err &&
	test_expect_code 2 vfsbench kernels -k /k -k /k 1 -- 1 2>err &&
	test_grep "^vfsbench: ${SQ}1${SQ}: vfsbench${SQ}s arguments in the guests go after ${SQ}--${SQ}\$" err &&
	test_expect_code 2 vfsbench kernels -k /k -k /k --boots 0 -- 1 2>err &&
	test_grep "^vfsbench: bad --boots ${SQ}0${SQ}: expected 1 to 1000\$" err &&
	canary_check && workdir_empty
'

test_expect_success 'a kernel that is no bzImage, or is not there: exit 2, nothing made' '
	canary_setup &&
	echo "not a kernel" >notk &&
	test_expect_code 2 kv -k notk -k notk -- 1 >out 2>err &&
	echo "error: ${SQ}notk${SQ} is not a bzImage (too short): vfsbench kernels boots x86 kernel images, as arch/x86/boot/bzImage or /boot/vmlinuz-*" >expect &&
	test_cmp expect err &&
	head -c 70000 /dev/zero >zeros &&
	test_expect_code 2 kv -k zeros -k zeros -- 1 >out 2>err &&
	test_grep "is not a bzImage (no boot sector signature)" err &&
	test_expect_code 2 kv -k missing -k missing -- 1 >out 2>err &&
	echo "error: cannot open kernel image ${SQ}missing${SQ}: No such file or directory" >expect &&
	test_cmp expect err &&
	test ! -s out && canary_check && workdir_empty
'

test_expect_success 'the guests${SQ} arguments: checked here first, as vfsbench checks them' '
	canary_setup &&
	test_expect_code 2 kv -k /k -k /k -- -D /tmp 1 2>err &&
	test_grep "^vfsbench: -D in a guest${SQ}s arguments: the guest${SQ}s is its own: a tmpfs, or --fs${SQ}s fresh disk\$" err &&
	test_expect_code 2 kv -k /k -k /k -- --json x.json 1 2>err &&
	test_grep "^vfsbench: --json, --csv and --ministat in a guest${SQ}s arguments: vfsbench kernels writes one result of every boot: give it --json, before ${SQ}--${SQ}\$" err &&
	test_expect_code 2 kv -k /k -k /k -- --profile 1 1 2>err &&
	test_grep "^vfsbench: --profile and --perf-ctl in a guest${SQ}s arguments: the guest has no perf\$" err &&
	test_expect_code 2 kv -k /k -k /k -- -c /dev/null 1 2>err &&
	test_grep "^vfsbench: loadfile ${SQ}/dev/null${SQ} is not a regular file: a pipe or a device cannot go into a guest\$" err &&
	printf "[run]\nstat\n" >bad.load &&
	test_expect_code 2 kv -k /k -k /k -- -c bad.load 1 2>err &&
	test_grep "^bad.load:2:" err &&
	test_expect_code 2 kv -k /k -k /k -- --help 2>err &&
	test_grep "^vfsbench: --help prints here, not in a guest: give a run after ${SQ}--${SQ}\$" err &&
	test_expect_code 2 kv -k /k -k /k -- --bogus 1 2>err &&
	test_grep "^vfsbench: --bogus: unknown option\$" err &&
	canary_check && workdir_empty
'

test_expect_success '-D that another user could change: refused, as --resolve abs is' '
	canary_setup &&
	mkdir -p open && chmod 0777 open &&
	test_expect_code 2 vfsbench kernels -D "$TRASH/open" -k /k -k /k \
		-- 1 2>err &&
	test_grep "^error: vfsbench kernels -D: ${SQ}$TRASH/open${SQ} is writable by others without the sticky bit (mode 0777): another user could swap the work directory for a symlink mid-run; give a -D that only root and you can change\$" err &&
	test -z "$(ls -A open)"
'

test_if "$boots" '--json naming the kernel: refused before anything' '
	canary_setup &&
	test_expect_code 2 kv -k "$K" -l a -k "$K" -l b --json "$K" -- 1 2>err &&
	test_grep "^vfsbench: --json ${SQ}$K${SQ} names the input --kernel ${SQ}$K${SQ}: a result file never replaces what vfsbench reads\$" err &&
	canary_check && workdir_empty
'

test_if "$boots" 'no QEMU, no mkfs: exit 3, naming the package' '
	canary_setup &&
	test_expect_code 3 kv --qemu /nonexistent/qemu -k "$K" -l a -k "$K" \
		-l b -- 1 >out 2>err &&
	echo "error: cannot find ${SQ}/nonexistent/qemu${SQ} (on Debian: apt-get install qemu-system-x86)" >expect &&
	test_cmp expect err &&
	mkdir -p bin &&
	for p in qemu-system-x86_64 depmod modprobe; do
		ln -sf "$(command -v $p)" bin/$p || return 1
	done &&
	PATH="$TRASH/bin" test_expect_code 3 "$VFSBENCH" kernels \
		-D "$TRASH/work" --fs ext4 -k "$K" -l a -k "$K" -l b -- 1 \
		>out 2>err &&
	echo "error: cannot find ${SQ}mkfs.ext4${SQ} for --fs ext4 (on Debian: apt-get install e2fsprogs)" >expect &&
	test_cmp expect err &&
	canary_check && workdir_empty
'

test_if "$boots" 'a module the kernel lacks: exit 2, named, no boot' '
	canary_setup &&
	mkdir -p mods/kernel &&
	: >mods/modules.builtin && : >mods/modules.order &&
	test_expect_code 2 kv -k "$K" -l a --modules "$TRASH/mods" -k "$K" \
		-l b --modules "$TRASH/mods" -- 1 >out 2>err &&
	echo "error: the kernel $R has no module virtio_pci, built in or in ${SQ}$TRASH/mods${SQ}: the guest needs it (build it in, or as a module there)" >expect &&
	test_cmp expect err &&
	test ! -s out && canary_check && workdir_empty
'

# A wrong command line: no such init in the initramfs, so the kernel
# looks for a root file system, finds none and panics ("VFS: Unable to
# mount root fs"); panic=-1 with QEMU's -no-reboot ends the guest at
# once: exit 3 with the panic in the quoted log, well within the timeout.
test_if "$boots" 'a guest that panics: exit 3, the serial log${SQ}s end' '
	canary_setup &&
	test_expect_code 3 kv -k "$K" -l a --append "rdinit=/nonexistent" \
		-k "$K" -l b --boots 1 --boot-timeout 10m -- -t 1s 1 >out 2>err &&
	test_grep "^error: boot1: the guest did not boot; the serial log${SQ}s end:\$" err &&
	test_grep "^  serial| .*Kernel panic - not syncing" err &&
	test_grep "^vfsbench kernels: boot 1 of 2: a\$" err &&
	! grep "boot 2 of 2" err &&
	test ! -s out && canary_check && workdir_empty && no_qemu_left
'

# A boot that hangs: no init in the initramfs to run and a root device
# that never comes (rootwait): the boot timeout ends it.
test_if "$boots" 'a guest that never boots: the boot timeout, exit 3' '
	canary_setup &&
	test_expect_code 3 kv -k "$K" -l a \
		--append "rdinit=/nonexistent root=/dev/vdz rootwait" \
		-k "$K" -l b --boots 1 --boot-timeout 20s -- -t 1s 1 >out 2>err &&
	test_grep "^error: boot1: the guest did not boot within --boot-timeout 20 s; the serial log${SQ}s end:\$" err &&
	test_grep "^  serial| " err &&
	canary_check && workdir_empty && no_qemu_left
'

# A run that hangs: its hook sleeps in the guest; the run timeout, which
# counts from the guest's start of its run, ends it.
test_if "$boots" 'a guest run that never ends: the run timeout, exit 3' '
	canary_setup &&
	test_expect_code 3 kv -k "$K" -l a -k "$K" -l b --boots 1 \
		--run-timeout 15s -- --exec-before "sleep 600" -t 1s 1 \
		>out 2>err &&
	test_grep "^error: boot1: the guest${SQ}s run did not end within --run-timeout 15 s; the serial log${SQ}s end:\$" err &&
	test_grep "^  serial| vfsbench-guest: run" err &&
	canary_check && workdir_empty && no_qemu_left
'

test_if "$boots" 'a guest run that fails: exit 3, the guest${SQ}s status and its log' '
	canary_setup &&
	test_expect_code 3 kv -k "$K" -l a -k "$K" -l b --boots 1 -- \
		--exec-before false -t 1s 1 >out 2>err &&
	test_grep "^error: boot 1 (a): vfsbench in the guest exited with status 3; the serial log${SQ}s end:\$" err &&
	test_grep "^  serial| error: --exec-before" err &&
	canary_check && workdir_empty && no_qemu_left
'

has_qemu() {
	! kill -0 "$pid" 2>/dev/null || pgrep -P "$pid" qemu-system >/dev/null
}

# The handshake: QEMU is vfsbench's child. The boot would hang (as
# above) for 10 minutes: the stop is what ends it.
for sig in INT:130 TERM:143; do
	test_if "$boots" "SIG${sig%:*} during a boot: QEMU killed, nothing left, exit ${sig#*:}" "
		canary_setup &&
		start_vfsbench kernels -D \"\$TRASH/work\" -k \"\$K\" -l a \\
			--append \"rdinit=/nonexistent root=/dev/vdz rootwait\" \\
			-k \"\$K\" -l b --boot-timeout 10m -- -t 1s 1 &&
		wait_until \"no QEMU\" has_qemu &&
		kill -${sig%:*} \"\$pid\" &&
		ends ${sig#*:} &&
		! grep ^error err &&
		canary_check && workdir_empty && no_qemu_left
	"
done

test_done
