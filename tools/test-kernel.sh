#!/bin/sh
# Debian's own kernel package, unpacked (not installed), for the tests of
# vfsbench kernels: DIR/boot/vmlinuz-RELEASE and DIR/lib/modules/RELEASE,
# as dpkg-deb -x leaves them.
#   sh tools/test-kernel.sh DIR
# prints the kernel image's path. An unpacked DIR is used as it is; else
# the package linux-image-amd64 depends on is downloaded (apt-get
# download, about 70 MB) and unpacked there. x86-64 only.
set -eu
dir=${1:?usage: sh tools/test-kernel.sh DIR}
found() {
	for f in "$dir"/boot/vmlinuz-*; do
		if test -f "$f"; then
			echo "$f"
			return 0
		fi
	done
	return 1
}
found && exit 0
test "$(uname -m)" = x86_64 || {
	echo "test-kernel.sh: $(uname -m): vfsbench kernels boots x86-64 kernels" >&2
	exit 1
}
pkg() {
	apt-cache depends linux-image-amd64 2>/dev/null |
		awk '/Depends: linux-image-[0-9]/ { print $2; exit }'
}
name=$(pkg)
if test -z "$name"; then
	apt-get update -qq
	name=$(pkg)
fi
test -n "$name" || {
	echo "test-kernel.sh: apt-cache names no package for linux-image-amd64" >&2
	exit 1
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && apt-get download -q -o APT::Sandbox::User=root "$name" >/dev/null)
mkdir -p "$dir"
dpkg-deb -x "$tmp"/*.deb "$dir"
found
