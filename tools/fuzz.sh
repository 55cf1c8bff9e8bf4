#!/bin/sh
# Fuzz the loadfile parsers and the strace log reader with libFuzzer for SECONDS each (default 60).
#   sh tools/fuzz.sh [SECONDS]
# Builds build-fuzz/ with clang (ASan+UBSan+fuzzer coverage), runs each
# target on a scratch copy of its seed corpus (fuzz/corpus/TARGET), and
# stops at the first crash, leaving the input in build-fuzz/ and printing
# how to turn it into a regression test (tests/data/fuzz/).
set -eu
cd "$(dirname "$0")/.." || exit 1
secs=${1:-60}
top=$(pwd)
[ -x configure ] || ./autogen.sh >/dev/null 2>&1
mkdir -p build-fuzz
cd build-fuzz
if [ ! -f Makefile ]; then
	../configure --quiet CC=clang --enable-fuzzing \
		--enable-sanitizers=address,undefined CFLAGS='-O1 -g' >/dev/null
fi
make -j2 --quiet fuzz/fuzz-native fuzz/fuzz-dbench fuzz/fuzz-strace
status=0
for t in native dbench strace; do
	work=$(mktemp -d "${TMPDIR:-/tmp}/vb-fuzz-$t.XXXXXX")
	echo "fuzzing $t for ${secs}s"
	# -close_fd_mask=2: the parsers print every rejection on stderr
	if ! ./fuzz/fuzz-$t -max_total_time="$secs" -close_fd_mask=2 \
		-max_len=65536 -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix="$top/build-fuzz/crash-$t-" \
		"$work" "$top/fuzz/corpus/$t"; then
		echo "fuzz-$t found a problem: see $top/build-fuzz/crash-$t-*;"
		echo "copy the input to tests/data/fuzz/$t-<what>.bin and fix the parser"
		status=1
	fi
	rm -rf "$work"
done
exit "$status"
