#!/bin/sh
# Build the Debian packages vfsbench and vfsbench-mpi from this tree, in
# a temporary copy of it (the files git tracks or would track: no build
# directory, uncommitted edits included), with dpkg-buildpackage -us -uc
# -b, and run lintian on them. The .deb files go to OUTDIR (default:
# build-deb/), the build's log to OUTDIR/build.log. Exits non-zero when
# the build fails or lintian reports an error or a warning.
#   sh tools/deb.sh [OUTDIR]
# Needs the build dependencies of debian/control and lintian (sh
# tools/install-deps.sh --test installs them). Two builds, 4 to 7
# minutes on 2 cores.
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)
out=${1:-$top/build-deb}
mkdir -p "$out"
out=$(cd "$out" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vfsbench-deb.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/vfsbench"
git ls-files -z --cached --others --exclude-standard |
	tar --null -T - -cf - | tar -xf - -C "$tmp/vfsbench"
# a tracked file deleted in the working tree is not copied, as intended
start=$(date +%s)
if ! (cd "$tmp/vfsbench" && dpkg-buildpackage -us -uc -b) >"$out/build.log" 2>&1; then
	tail -n 40 "$out/build.log"
	echo "deb.sh: dpkg-buildpackage failed; its log: $out/build.log" >&2
	exit 1
fi
end=$(date +%s)
rm -f "$out"/*.deb "$out"/*.changes "$out"/*.buildinfo
mv "$tmp"/*.deb "$tmp"/*.changes "$tmp"/*.buildinfo "$out"/
echo "deb.sh: built in $((end - start)) s:"
(cd "$out" && ls -1 ./*.deb)
# lintian warns when run as root (CI's case) before its tags: not a tag
rc=0
lintian --info --fail-on error,warning "$out"/vfsbench_*.changes \
	>"$out/lintian.txt" 2>&1 || rc=$?
echo "deb.sh: lintian (exit $rc):"
grep -v '^running with root privileges is not recommended!$' \
	"$out/lintian.txt" || true
if [ "$rc" -ne 0 ]; then
	echo "deb.sh: lintian reports errors or warnings" >&2
	exit 1
fi
echo "deb.sh: lintian: no errors, no warnings"
