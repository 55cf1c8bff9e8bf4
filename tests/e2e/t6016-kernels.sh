#!/bin/sh
# shellcheck disable=SC2034,SC2154
SQ="'"
test_description='vfsbench kernels: Debian'"'"'s kernel booted under QEMU, boots alternated, the boot as the unit'
. "$srcdir/tests/e2e/lib.sh"

# The kernel is Debian's own package, unpacked, not installed
# (tools/test-kernel.sh); its modules are found beside it. Each boot here
# runs a 1-second run of a shipped loadfile. Under TCG a boot takes about
# 12 s on 2 cores (doc/performance.md); the A/A and the other file
# systems are left to the plain builds, whose guests are not sanitized.
kernels_setup
if test -n "$kernels_skip"; then
	test_skip_all "$kernels_skip"
fi
heavy=
if test -n "${VB_SANITIZER:-}"; then
	heavy="the $VB_SANITIZER build runs the A/B boots; its guests are the sanitized binary"
fi

accel=tcg
if test -w /dev/kvm 2>/dev/null; then
	accel=kvm
fi

# The rows of the comparison, from "Metric:" on. A cell may end in '!'
# (starved runs, which the guest's accounting may see on a busy host).
table() {
	sed -n '/^Metric:/,$p' "$1"
}

test_expect_success 'A/B: the default command line against mitigations=off, 2 boots each' '
	canary_setup &&
	vfsbench kernels -D "$TRASH/work" -k "$K" -l default \
		-k "$K" -l nomit --append mitigations=off --boots 2 \
		--json k.json -- -c statfs.load -t 1s 1 >out 2>err &&
	sed -n "s/^boot \([0-9]\) of 4: \([a-z]*\) (\(.*\)), \([a-z]*\): up in .*; 1 client [0-9]* ops\/s\$/\1 \2 \3 \4/p" \
		out >boots &&
	printf "%s\n" "1 default $R $accel" "2 nomit $R $accel" \
		"3 default $R $accel" "4 nomit $R $accel" >expect &&
	test_cmp expect boots &&
	json_valid k.json &&
	jq -r ".schema, .schema_version, (.boots | length), .options.accel, .options.fs, .options.boots, .complete" k.json >got &&
	printf "%s\n" vfsbench-kernels 1 4 "$accel" tmpfs 2 true >expect &&
	test_cmp expect got &&
	sha=$(sha256sum "$KROOT/boot/config-$R" | cut -d" " -f1) &&
	jq -r ".boots[] | [.index, .kernel, .label, .release, .accel, .status, .result.environment.kernel.release, (.result.runs | length), .config_sha256] | map(tostring) | join(\" \")" \
		k.json >got &&
	printf "%s\n" "0 0 default $R $accel 0 $R 1 $sha" "1 1 nomit $R $accel 0 $R 1 $sha" \
		"2 0 default $R $accel 0 $R 1 $sha" "3 1 nomit $R $accel 0 $R 1 $sha" \
		>expect &&
	test_cmp expect got &&
	jq -r ".boots[].cmdline" k.json >cmdlines &&
	test "$(grep -c "^console=ttyS0 panic=-1 quiet\$" cmdlines)" -eq 2 &&
	test "$(grep -c "^console=ttyS0 panic=-1 quiet mitigations=off\$" cmdlines)" -eq 2 &&
	test "$(jq -r ".boots | map(.result.environment.boot_id) | unique | length" k.json)" -eq 4 &&
	jq -r ".kernels[] | .config_sha256, .release, (.modules_loaded | index(\"virtio_console.ko\") != null)" \
		k.json >got &&
	printf "%s\n" "$sha" "$R" true "$sha" "$R" true >expect &&
	test_cmp expect got &&
	test_grep "^Cells: .*(boots/runs): each boot one sample\$" out &&
	test_grep "^      1  1.00 +/-[0-9.]*% (2/2)!\{0,1\}  [0-9.]* [-+][0-9.]*% too few boots (2/2)!\{0,1\}\$" out &&
	test_grep "^Spread: between a side${SQ}s boots | of the runs within a boot" out &&
	test_grep "^too few boots: under 3 boots on a side, no test\$" out &&
	test_grep "^  cmdline: +mitigations=off\$" out &&
	vfsbench compare k.json >cmp &&
	table out >expect &&
	test_cmp expect cmp &&
	canary_check && workdir_empty && no_qemu_left
'

test_if "$heavy" 'A/A on a fresh ext4 each boot: the same kernel twice marks nothing' '
	canary_setup &&
	vfsbench kernels -q -D "$TRASH/work" -k "$K" -l a -k "$K" -l b \
		--fs ext4 --boots 2 --json aa.json -- -c create-unlink.load \
		-t 1s 1 >out 2>err &&
	test ! -s err &&
	jq -r ".boots[] | [.label, .result.environment.target.fs_type, .result.environment.target.source] | join(\" \")" \
		aa.json >got &&
	printf "%s\n" "a ext4 /dev/vda" "b ext4 /dev/vda" "a ext4 /dev/vda" \
		"b ext4 /dev/vda" >expect &&
	test_cmp expect got &&
	test_grep "too few boots (2/2)!\{0,1\}\$" out &&
	! grep "^ *1 .*[*~?] (" out &&
	! grep "^Environment differs" out &&
	canary_check && workdir_empty && no_qemu_left
'

# --initrd: an archive the kernel unpacks before vfsbench's own, whose
# files the guest has: a hook in the guest finds its file, or the run
# fails (exit 3).
test_if "$heavy" '--initrd: its files are in the guest' '
	canary_setup &&
	mkdir -p extra/extra &&
	echo hello >extra/extra/hello &&
	(cd extra && find . | cpio -o -H newc --quiet) >extra.cpio &&
	vfsbench kernels -q -D "$TRASH/work" -k "$K" -l a --initrd extra.cpio \
		-k "$K" -l b --initrd extra.cpio --boots 1 --json i.json -- \
		--exec-before "grep -q hello /extra/hello" -t 1s 1 >out 2>err &&
	test "$(jq -r ".kernels[].initrd" i.json | sort -u)" = extra.cpio &&
	canary_check && workdir_empty && no_qemu_left
'

for fs in xfs btrfs; do
	skip=$heavy
	if test -z "$skip" && ! command -v "mkfs.$fs" >/dev/null 2>&1; then
		skip="no mkfs.$fs"
	fi
	test_if "$skip" "--fs $fs: a fresh $fs image, made by the host, in each boot" "
		canary_setup &&
		vfsbench kernels -q -D \"\$TRASH/work\" -k \"\$K\" -l a -k \"\$K\" -l b \\
			--fs $fs --boots 1 --json $fs.json -- -c create-unlink.load \\
			-t 1s 1 >out 2>err &&
		test \"\$(jq -r \"[.boots[].result.environment.target.fs_type] | unique | join(\\\" \\\")\" $fs.json)\" = $fs &&
		test \"\$(jq -r \".kernels[0].modules_loaded | index(\\\"$fs.ko\\\") != null\" $fs.json)\" = true &&
		canary_check && workdir_empty && no_qemu_left
	"
done

test_done
