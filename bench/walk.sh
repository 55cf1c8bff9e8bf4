#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The cost of one more component in a lookup: one stat of one file, at
# --depth 0 and --depth 32, for each --resolve mode (cwd, dirfd, abs), on
# tmpfs and on ext4. Each (filesystem, mode) is one vfsbench invocation,
#     vfsbench -q -D DIR -c stat1 --resolve MODE --variant depth=0,32 \
#         --runs ROUNDS --order interleaved -t Ts --warmup Ws 1 --json F
# so the two depths run side by side, alternating, in the same process;
# each round's ratio is ops/s at depth 32 over ops/s at depth 0, and the
# script prints the median ratio and the time per extra component that
# it implies, (1/ops32 - 1/ops0) / 32, from the medians. Then it runs
# pathwalk.load at --depth 0 and 32, --runs 5, and prints what
# vfsbench compare says of it.
# See doc/performance.md, "Path walks".
set -eu

usage() {
	cat <<EOF
usage: $0 [-r ROUNDS] [-t SECONDS] [-w SECONDS] [-s TMPFS_DIR] [-e EXT4_DIR]

ROUNDS default 5, SECONDS per run default 1 after a warmup of 0.3 (-w).
TMPFS_DIR default /dev/shm, EXT4_DIR default /var/tmp (it must be on
ext4: the script says what it is on). About 2 x 3 x 2 x ROUNDS x (t + w)
seconds plus the pathwalk runs: a minute by default.
Environment: VFSBENCH (the binary).
Exit status: 0 ok, 2 bad usage, 3 a tool is missing or a run failed.
EOF
}

die() {
	echo "walk.sh: $*" >&2
	exit 3
}

rounds=5
t=1
w=0.3
shm=/dev/shm
ext4=/var/tmp
while getopts r:t:w:s:e:h o; do
	case $o in
	r) rounds=$OPTARG ;;
	t) t=$OPTARG ;;
	w) w=$OPTARG ;;
	s) shm=$OPTARG ;;
	e) ext4=$OPTARG ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
vb=$(bench_vfsbench)
[ -n "$vb" ] || die "no vfsbench built (set VFSBENCH)"
command -v jq >/dev/null || die "jq is missing"
tmp=$(mktemp -d) || die "mktemp"
trap 'rm -rf "$tmp"' EXIT
printf '[setup]\ncreate f\n[run]\nstat f\n' >"$tmp/stat1.load"

# the filesystem's type as mounted (stat -f says ext2/ext3 for ext4)
fstype() {
	{ findmnt -n -o FSTYPE -T "$1" 2>/dev/null || stat -f -c %T "$1"; } | head -n 1
}

printf '%-6s %-6s %7s %12s %12s %9s %14s\n' fs mode rounds \
	"ops/s d=0" "ops/s d=32" "ratio" "ns/component"
for dir in "$shm" "$ext4"; do
	fs=$(fstype "$dir")
	for mode in cwd dirfd abs; do
		json="$tmp/$mode.json"
		"$vb" -q -D "$dir" -c "$tmp/stat1.load" --resolve "$mode" \
			--variant depth=0,32 --runs "$rounds" --order interleaved \
			-t "${t}s" --warmup "${w}s" 1 --json "$json" >/dev/null ||
			die "vfsbench failed on $dir, --resolve $mode"
		jq -r '[.runs[] | select(.variant == 0) | .ops_per_sec] as $a |
			[.runs[] | select(.variant == 1) | .ops_per_sec] as $b |
			[range(0; $a | length) | $b[.] / $a[.]] as $r |
			def med: sort | if length % 2 == 1 then .[length / 2 | floor]
				else (.[length / 2 - 1] + .[length / 2]) / 2 end;
			[($a | med), ($b | med), ($r | med)] | @tsv' "$json" |
		while read -r a b r; do
			awk -v fs="$fs" -v m="$mode" -v n="$rounds" -v a="$a" \
				-v b="$b" -v r="$r" 'BEGIN {
				printf "%-6s %-6s %7d %12.0f %12.0f %9.3f %14.1f\n",
					fs, m, n, a, b, r, (1 / b - 1 / a) / 32 * 1e9
			}'
		done
	done
done

echo
echo "pathwalk.load, --variant depth=0,32 --runs 5, 1 client, on $(fstype "$shm"):"
"$vb" -q -D "$shm" -c pathwalk.load --variant depth=0,32 --runs 5 \
	--order interleaved -t "${t}s" --warmup "${w}s" 1 \
	--json "$tmp/pw.json" >/dev/null || die "vfsbench failed on pathwalk.load"
"$vb" compare "$tmp/pw.json"
