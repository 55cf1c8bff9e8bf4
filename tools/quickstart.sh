#!/bin/sh
# The README's first command: install the build dependencies, build, and
# run a short client-count sweep (1 and 2 clients, 5 s each) of the
# built-in default loadfile in a fresh temporary directory.
set -eu
cd "$(dirname "$0")/.."
sh tools/install-deps.sh
./autogen.sh
mkdir -p build
cd build
../configure --quiet
make -j"$(nproc)" --quiet
dir=$(mktemp -d "${TMPDIR:-/tmp}/vfsbench-quickstart.XXXXXX")
status=0
./src/vfsbench -D "$dir" -t 5s --warmup 1s 1-2 || status=$?
rmdir "$dir"
exit "$status"
