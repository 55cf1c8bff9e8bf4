#!/bin/sh
# root and keep are set by tools/fresh-root-lib.sh (shellcheck -x sees it)
# shellcheck disable=SC2034,SC2154
# Opt-in, not part of tools/test.sh: prove on a fresh Debian 12 as root
# that the Debian packages build, are lintian clean, install, and pass
# their autopkgtest (debian/tests/).
#   sh tools/fresh-root-deb.sh [--keep] [DIR]
# Makes the root as tools/fresh-root.sh does (tools/fresh-root-lib.sh:
# debootstrap minbase + git in DIR, this repository's current commit in
# /root/vfsbench, /proc, /sys, /dev mounted), then, in a chroot:
#   1. apt-get build-dep ./ and install lintian and autopkgtest;
#   2. sh tools/deb.sh /root/build-deb: dpkg-buildpackage -us -uc -b and
#      lintian --fail-on error,warning;
#   3. apt-get install both .deb files, and run vfsbench -V and
#      vfsbench-mpi -V as installed;
#   4. autopkgtest /root/build-deb/*.deb /root/vfsbench -- null: the
#      tests of debian/tests against the installed packages (null: the
#      chroot, a throw-away root, is the testbed).
# Prints one line per step, ok or failed, and exits 0 only when all four
# passed. Logs: DIR/deps.log, DIR/deb.log, DIR/install.log and
# DIR/autopkgtest.log (its output directory DIR/root/autopkgtest-out).
# DIR is removed afterwards unless --keep is given or a step failed.
# Needs root and the network (the Debian mirror; VB_MIRROR to use
# another). Takes 30 to 50 minutes on 2 cores.
set -u
cd "$(dirname "$0")/.." || exit 1
top=$(pwd)

# shellcheck source=tools/fresh-root-lib.sh
. "$top/tools/fresh-root-lib.sh"
fresh_root_make "$0" git,ca-certificates "$@"

# step NAME LOG CMD: CMD in the root, its output to DIR/LOG; on failure
# the log's end, the root kept, exit 1.
step() {
	echo "$1 (log: $root/$2)"
	if ! in_root "$3" >"$root/$2" 2>&1; then
		tail -n 30 "$root/$2"
		echo "$1: failed"
		keep=t
		exit 1
	fi
	echo "$1: ok"
}

apt='DEBIAN_FRONTEND=noninteractive apt-get -y -q --no-install-recommends'
step "build dependencies, lintian, autopkgtest" deps.log \
	"apt-get -q update && $apt build-dep ./ &&
	 $apt install lintian autopkgtest"
step "package build and lintian" deb.log 'sh tools/deb.sh /root/build-deb'
tail -n 1 "$root/deb.log"
step "install" install.log \
	"$apt install /root/build-deb/vfsbench_*.deb \
		/root/build-deb/vfsbench-mpi_*.deb &&
	 dpkg -l vfsbench vfsbench-mpi && vfsbench -V && vfsbench-mpi -V"
step "autopkgtest" autopkgtest.log \
	'autopkgtest -o /root/autopkgtest-out /root/build-deb/*.deb \
		/root/vfsbench -- null'
# the summary's lines, one a test: "sweep PASS"
sed -n '/@@@ summary$/,$p' "$root/autopkgtest.log" |
	grep -E '^(sweep|compare|dbench) '

exit 0
