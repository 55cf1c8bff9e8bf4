#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Setup time per client against the client count, before and after: for
# each round, each variant (in an order that rotates by round) and each
# client count N it runs
#     BINARY -q -e null --loops 1 -D DIR --json F N
# and reads the JSON's runs[0].setup_ns (the first client's directory to
# the release of the gate) divided by N. Then per variant and count the
# median over the rounds, and its ratio to the first variant's.
# VARIANT is LABEL=BINARY. See doc/performance.md, "Parallel setup".
set -eu

usage() {
	cat <<EOF
usage: $0 [-r ROUNDS] [-n "COUNTS"] [-D DIR] VARIANT VARIANT...

VARIANT: LABEL=BINARY. ROUNDS default 3, COUNTS default "100 1000 10000",
DIR default /dev/shm.
Exit status: 0 ok, 2 bad usage, 3 a tool is missing or a run failed.
EOF
}

die() {
	echo "setupscale.sh: $*" >&2
	exit 3
}

rounds=3
counts="100 1000 10000"
base=/dev/shm
while getopts r:n:D:h o; do
	case $o in
	r) rounds=$OPTARG ;;
	n) counts=$OPTARG ;;
	D) base=$OPTARG ;;
	h)
		usage
		exit 0
		;;
	*)
		usage >&2
		exit 2
		;;
	esac
done
shift $((OPTIND - 1))
if test $# -lt 1; then
	usage >&2
	exit 2
fi
command -v jq >/dev/null 2>&1 || die "jq is needed"
dir=$(mktemp -d "$base/setupscale.XXXXXX")
trap 'rm -rf "$dir"' EXIT
nv=$#
r=0
while test "$r" -lt "$rounds"; do
	k=0
	while test "$k" -lt "$nv"; do
		i=$(((k + r) % nv + 1))
		eval "v=\${$i}"
		label=${v%%=*}
		bin=${v#*=}
		for n in $counts; do
			"$bin" -q -e null --loops 1 -D "$dir" --json "$dir/r.json" \
				"$n" >/dev/null 2>&1 || die "$label: $n clients failed"
			ns=$(jq '.runs[0].setup_ns' "$dir/r.json")
			echo "$label $n $r $((ns / n))" >>"$dir/all"
		done
		k=$((k + 1))
	done
	r=$((r + 1))
done
printf '%-12s %8s %16s %8s\n' variant clients "ns/client (med)" ratio
first=${1%%=*}
for n in $counts; do
	for v in "$@"; do
		label=${v%%=*}
		awk -v l="$label" -v n="$n" '$1 == l && $2 == n { print $4 }' \
			"$dir/all" | sort -n | awk '{ a[NR] = $1 }
			END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }' \
			>"$dir/med.$label.$n"
		med=$(cat "$dir/med.$label.$n")
		ref=$(cat "$dir/med.$first.$n")
		printf '%-12s %8s %16s %8s\n' "$label" "$n" "$med" \
			"$(awk -v a="$med" -v b="$ref" 'BEGIN { printf "%.3f", a / b }')"
	done
done
echo "raw (label clients round ns/client):"
cat "$dir/all"
