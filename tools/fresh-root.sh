#!/bin/sh
# root and keep are set by tools/fresh-root-lib.sh (shellcheck -x sees it)
# shellcheck disable=SC2034,SC2154
# Opt-in, not part of tools/test.sh: prove that the README's two commands
# work on a fresh Debian 12 as root.
#   sh tools/fresh-root.sh [--keep] [DIR]
# Builds a Debian 12 (bookworm) root in DIR (default: a new directory under
# /var/tmp) with debootstrap --variant=minbase and git, clones this
# repository's current commit to /root/vfsbench inside it (where user
# nobody cannot go: /root is 0700), and runs there, in a chroot,
#   sh tools/quickstart.sh && sh tools/test.sh
# with the root bind-mounted on itself (a mount point, as / is), /proc,
# /sys, /dev (a private bind mount of the host's), /dev/pts and /dev/shm
# (new instances) mounted. Ends with the last
# line of tools/test.sh ("N passed, N failed, N skipped") and exits with its
# status. Logs: DIR/quickstart.log and DIR/test.log. The mounts are undone
# on exit; DIR is removed afterwards unless --keep is given (or a mount could
# not be undone). Needs root and the network (the Debian mirror; set
# VB_MIRROR to use another). Takes 20 to 40 minutes on 2 cores.
set -u
cd "$(dirname "$0")/.." || exit 1
top=$(pwd)

# shellcheck source=tools/fresh-root-lib.sh
. "$top/tools/fresh-root-lib.sh"
fresh_root_make "$0" git,ca-certificates "$@"

echo "sh tools/quickstart.sh (log: $root/quickstart.log)"
if ! in_root 'sh tools/quickstart.sh' >"$root/quickstart.log" 2>&1; then
	tail -n 30 "$root/quickstart.log"
	echo "quickstart failed"
	exit 1
fi
tail -n 3 "$root/quickstart.log"
echo "sh tools/test.sh (log: $root/test.log)"
in_root 'sh tools/test.sh' >"$root/test.log" 2>&1
status=$?
grep -E '^(FAIL|ERROR|XPASS|SKIP):' "$root/test.log"
[ $status -ne 0 ] && keep=t
tail -n 1 "$root/test.log"
exit $status
