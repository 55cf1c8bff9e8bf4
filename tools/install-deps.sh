#!/bin/sh
# Install what building vfsbench needs on Debian 12 (as root); with --mpi
# Open MPI too, for the MPI build (tools/quickstart.sh --mpi); with
# --kernels what vfsbench kernels runs (QEMU, busybox-static, kmod and the
# mkfs of ext4, xfs and btrfs; doc/kernels.md); with --test what its
# tests and CI need too (Open MPI among them: CI builds with and without
# it; debhelper and lintian for tools/deb.sh; --kernels' packages).
# Installs only what is missing.
# libclang-rt-dev: clang's sanitizer and libFuzzer runtimes (on Debian 12
# libclang-rt-14-dev, for clang 14). clang only recommends them (through
# libclang-common-14-dev), so --no-install-recommends leaves them out, and
# without them clang cannot link the ASan, UBSan and fuzzing builds.
set -eu
pkgs="build-essential autoconf automake autoconf-archive pkg-config libpopt-dev
libjansson-dev libgsl-dev nettle-dev libhwloc-dev liburing-dev"
kernels="qemu-system-x86 busybox-static kmod e2fsprogs xfsprogs btrfs-progs"
case "${1:-}" in
--mpi) pkgs="$pkgs libopenmpi-dev openmpi-bin" ;;
--kernels) pkgs="$pkgs $kernels" ;;
--test) pkgs="$pkgs $kernels cpio check clang libclang-rt-dev clang-format shellcheck groff-base man-db strace dbench
gnuplot-nox ministat jq linux-perf libopenmpi-dev openmpi-bin procps
xz-utils ruby ruby-activesupport php-cli php-xml zlib1g-dev libtirpc-dev
dpkg-dev debhelper lintian bash-completion git" ;;
"") ;;
*) echo "usage: $0 [--mpi|--kernels|--test]" >&2; exit 2 ;;
esac
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
