#!/bin/sh
# The README's first command: install the build dependencies, build, and
# run a short client-count sweep (1 and 2 clients, 5 s each) of the
# built-in default loadfile in a fresh temporary directory.
# --mpi: the MPI build (Open MPI installed, configure --with-mpi), whose
# build/src/vfsbench mpirun starts as ranks on many hosts
# (doc/multi-host.md); without a launcher it runs as the plain build.
set -eu
cd "$(dirname "$0")/.."
case "${1:-}" in
--mpi) deps=--mpi mpi=yes ;;
"") deps='' mpi=auto ;;
*) echo "usage: $0 [--mpi]" >&2; exit 2 ;;
esac
# shellcheck disable=SC2086
sh tools/install-deps.sh $deps
./autogen.sh
mkdir -p build
cd build
../configure --quiet --with-mpi=$mpi
make -j"$(nproc)" --quiet
dir=$(mktemp -d "${TMPDIR:-/tmp}/vfsbench-quickstart.XXXXXX")
status=0
./src/vfsbench -D "$dir" -t 5s --warmup 1s 1-2 || status=$?
rmdir "$dir"
exit "$status"
