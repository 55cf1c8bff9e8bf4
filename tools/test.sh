#!/bin/sh
# The README's second command: every test, as CI runs it.
#   lint       clang-format and shellcheck
#   build-gcc  gcc, --enable-werror, with Open MPI: make check (the MPI
#              tests run), and make distcheck, whose make check is that
#              of the plain build (--without-mpi)
#   build-asan clang, ASan+UBSan, --enable-werror: make check
#   build-tsan gcc, ThreadSanitizer: make check
#   build-fuzz clang libFuzzer: a 20 s smoke run of each parser target
#   deb        tools/deb.sh: both Debian packages built, lintian clean
#              (4 to 7 minutes on 2 cores)
# Every build's make check boots Debian's kernel under QEMU (t6016,
# t8016: VB_TEST_KERNEL, from tools/test-kernel.sh), about 4 minutes of
# TCG boots in the plain builds and 2 in the sanitizer builds.
# The sanitizer builds are plain: Open MPI's own allocations and threads
# would be what they report.
# Ends with the line "N passed, N failed, N skipped" counted from the
# test results of all builds (plus one result per lint step), and exits
# non-zero if anything failed.
set -u
cd "$(dirname "$0")/.." || exit 1
top=$(pwd)
sh tools/install-deps.sh --test || exit 1
./autogen.sh >/dev/null 2>&1 || { echo "autogen.sh failed" >&2; exit 1; }
# The kernel vfsbench kernels' tests boot: Debian's own package,
# unpacked into test-kernel/ (downloaded once, about 70 MB)
VB_TEST_KERNEL=$(sh tools/test-kernel.sh "$top/test-kernel") ||
	{ echo "tools/test-kernel.sh failed" >&2; exit 1; }
export VB_TEST_KERNEL

lint_pass=0
lint_fail=0
step() {
	name=$1
	shift
	if "$@"; then
		echo "PASS: $name"
		lint_pass=$((lint_pass + 1))
	else
		echo "FAIL: $name"
		lint_fail=$((lint_fail + 1))
	fi
}

step "clang-format" clang-format --dry-run --Werror src/*/*.c src/*/*.h tests/unit/*.c
step "shellcheck" shellcheck -s sh -S warning tests/e2e/*.sh tools/*.sh \
	src/lang/gen-builtin.sh autogen.sh .ci/run debian/tests/common.sh \
	debian/tests/sweep debian/tests/compare debian/tests/dbench
step "shellcheck bash" shellcheck -s bash -S warning completion/vfsbench

variant() {
	dir=$1
	shift
	rm -rf "${top:?}/${dir:?}"
	mkdir -p "$top/$dir"
	(
		cd "$top/$dir" &&
		"$@" >configure.out 2>&1 &&
		make -j2 >make.out 2>&1 &&
		make -j2 check >check.out 2>&1
	)
	rc=$?
	grep -h -E '^(FAIL|ERROR|XPASS|SKIP):' "$top/$dir/check.out" 2>/dev/null
	if [ $rc -ne 0 ]; then
		echo "FAIL: $dir (exit $rc); last lines of its logs:"
		tail -n 30 "$top/$dir"/*.out "$top/$dir"/tests/*/*.log 2>/dev/null | tail -n 60
	fi
	return $rc
}

failed_builds=0
variant build-gcc ../configure --enable-werror --with-mpi CFLAGS='-O2 -g' ||
	failed_builds=$((failed_builds + 1))
if (cd build-gcc && make -j2 distcheck DISTCHECK_CONFIGURE_FLAGS=--without-mpi \
	>distcheck.out 2>&1); then
	echo "PASS: make distcheck"
	lint_pass=$((lint_pass + 1))
else
	echo "FAIL: make distcheck"
	tail -n 40 build-gcc/distcheck.out
	lint_fail=$((lint_fail + 1))
fi
# VB_SANITIZER tells the tests which sanitizer runs: no memory cap
# (ulimit -v) under ASan's shadow mappings, and no private fd tables under
# TSan, which tracks fds process-wide (the tests say why they skip)
VB_SANITIZER=address
export VB_SANITIZER
variant build-asan ../configure --enable-werror --without-mpi CC=clang \
	--enable-sanitizers=address,undefined CFLAGS='-O1 -g' ||
	failed_builds=$((failed_builds + 1))
VB_SANITIZER=thread
variant build-tsan ../configure --without-mpi --enable-sanitizers=thread \
	CFLAGS='-O1 -g' ||
	failed_builds=$((failed_builds + 1))
unset VB_SANITIZER

step "fuzz smoke" sh tools/fuzz.sh "${VB_FUZZ_SECONDS:-20}"

deb() {
	mkdir -p build-deb &&
	sh tools/deb.sh build-deb >build-deb/deb.out 2>&1 ||
		{ tail -n 40 build-deb/deb.out; return 1; }
}
step "deb package and lintian" deb

# The failures again, by name, just above the closing line: CI shows only
# the tail of this output
trs=$(find build-gcc build-asan build-tsan -name '*.trs' -not -path '*/_build/*')
for f in $(grep -l -E '^:test-result: (FAIL|ERROR|XPASS)' $trs /dev/null); do
	echo "FAILED in ${f%.trs}:"
	grep -E '^(not ok|Bail out)' "${f%.trs}.log" 2>/dev/null | grep -v '# TODO' |
		head -n 5 | sed 's/^/  /'
done
grep -h '^:test-result:' $trs /dev/null |
	awk -v lp="$lint_pass" -v lf="$lint_fail" -v fb="$failed_builds" '
	{ n[$2]++ }
	END {
		pass = n["PASS"] + n["XFAIL"] + lp
		fail = n["FAIL"] + n["ERROR"] + n["XPASS"] + lf
		if (fail == 0 && fb > 0)
			fail = fb
		printf "%d passed, %d failed, %d skipped\n", pass, fail, n["SKIP"]
		exit fail > 0
	}'
