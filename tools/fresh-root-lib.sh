# Sourced by tools/fresh-root.sh and tools/fresh-root-deb.sh (POSIX sh):
# a fresh Debian 12 (bookworm) root made with debootstrap --variant=minbase,
# mounted as a machine's / is, and undone on exit.
#   fresh_root_make PROG INCLUDE [--keep] [DIR]
# checks that it runs as root (exit 2), parses [--keep] [DIR], installs
# debootstrap on the host if missing, debootstraps bookworm with the
# packages INCLUDE (comma-separated) into DIR (default: a new directory
# under /var/tmp), clones this repository's current commit to
# /root/vfsbench inside it (where user nobody cannot go: /root is 0700),
# and mounts the root on itself (a mount point, as / is), /proc, /sys,
# /dev (a private bind mount of the host's), /dev/pts and /dev/shm (new
# instances). It sets root (the root's path) and keep, and traps EXIT,
# INT and TERM: the mounts are undone in reverse, and DIR is removed
# unless keep is set (--keep, a failure that sets it, or a mount that
# could not be undone). in_root CMD then runs CMD as a root login would,
# in /root/vfsbench. The caller sets top (the repository) and cds there.
# Needs the network (the Debian mirror; set VB_MIRROR
# to use another).

# The mounts inside the root, in mount order; undone in reverse on exit.
mounted=
undo_mounts() {
	failed=0
	for m in $mounted; do
		umount "$m" 2>/dev/null || umount -l "$m" || failed=1
	done
	mounted=
	return $failed
}

# Remove the root only when nothing is mounted inside it any more, and
# never across a file system boundary (a bind mount of /dev left behind
# must not be emptied).
finish() {
	status=$?
	trap - EXIT INT TERM
	if ! undo_mounts ||
		findmnt -rn -o TARGET | grep -q -e "^$root\$" -e "^$root/"; then
		echo "$prog: a mount under $root could not be undone; left in place" >&2
		keep=t
	fi
	if [ -n "$keep" ]; then
		echo "root kept in $root"
	else
		rm -rf --one-file-system "$root"
	fi
	exit $status
}

# mnt TARGET ARGS...: mount ARGS on ROOT/TARGET (ROOT itself if TARGET is
# empty) and note it for undoing.
mnt() {
	target=$root${1:+/$1}
	shift
	mount "$@" "$target" || return 1
	mounted="$target $mounted"
}

# chroot ROOT CMD: CMD as a root login would run it, in /root/vfsbench.
in_root() {
	chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		sh -c "cd /root/vfsbench && $1"
}

fresh_root_make() {
	prog=$1
	include=$2
	shift 2
	keep=
	root=
	case "${1:-}" in
	--keep) keep=t; shift ;;
	-*) echo "usage: $prog [--keep] [DIR]" >&2; exit 2 ;;
	esac
	if [ "$(id -u)" -ne 0 ]; then
		echo "$prog: needs root (debootstrap, chroot, mount)" >&2
		exit 2
	fi
	if ! command -v debootstrap >/dev/null 2>&1; then
		echo "installing: debootstrap"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			--no-install-recommends debootstrap >/dev/null || exit 1
	fi
	commit=$(git rev-parse HEAD) || exit 1
	if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
		echo "note: uncommitted changes are not tested; testing $commit" >&2
	fi

	if [ $# -gt 0 ]; then
		root=$1
		mkdir -p "$root" || exit 1
		if [ -n "$(ls -A "$root")" ]; then
			echo "$prog: $root is not empty" >&2
			exit 2
		fi
	else
		root=$(mktemp -d /var/tmp/vfsbench-fresh-root.XXXXXX) || exit 1
	fi
	root=$(cd "$root" && pwd) || exit 1
	# the root's / as on a machine: mktemp -d makes it 0700, where user
	# nobody could not even load the C library
	chmod 755 "$root" || exit 1

	trap finish EXIT
	trap 'echo "$prog: SIGINT: stopping" >&2; exit 130' INT
	trap 'echo "$prog: SIGTERM: stopping" >&2; exit 143' TERM

	echo "debootstrap: bookworm, minbase + $include, in $root"
	# shellcheck disable=SC2086
	debootstrap --variant=minbase --include="$include" bookworm \
		"$root" ${VB_MIRROR:-} >"$root.debootstrap.log" 2>&1 || {
		tail -n 20 "$root.debootstrap.log" >&2
		exit 1
	}
	mv "$root.debootstrap.log" "$root/debootstrap.log"
	cp /etc/resolv.conf "$root/etc/resolv.conf"
	# no daemon starts inside the chroot when a package is installed
	printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
	chmod 755 "$root/usr/sbin/policy-rc.d"

	git clone -q --no-hardlinks "${top:?}" "$root/root/vfsbench" &&
		git -C "$root/root/vfsbench" checkout -q --detach "$commit" ||
		exit 1

	# the root a mount point of its own, as / is on a machine (findmnt
	# and the environment's target mount point read the mount table)
	mnt "" --bind "$root" &&
		mount --make-private "$root" &&
		mnt proc -t proc proc &&
		mnt sys -t sysfs sysfs &&
		mnt dev --bind /dev &&
		mount --make-private "$root/dev" &&
		mnt dev/pts -t devpts -o newinstance,ptmxmode=0666 devpts &&
		mnt dev/shm -t tmpfs -o mode=1777 shm || exit 1
}
