#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# How much two boots of one kernel differ, against how much runs within a
# boot do (doc/performance.md, "The boot as the unit"): one vfsbench
# kernels A/A run, the same kernel twice (labels a and b), boots
# alternated, each boot running the same loadfiles interleaved as
# variants, --runs RUNS of DURATION, at CLIENTS; then, per loadfile and
# client count, from the result file:
#   within  the runs' coefficient of variation within a boot, pooled
#   between the coefficient of variation of the boots' means, all boots
#           of the kernel together (a and b are one kernel)
#   ratio   between / within
#   boots   how many boots a side Welch's t needs to tell a change of 2%
#           and of 5% at 95% with 80% power, by the normal approximation
#           n = 2 (1.96 + 0.84)^2 (between^2 + within^2 / RUNS) / change^2
# and vfsbench compare's table of a against b, which must mark nothing.
set -eu

usage() {
	cat <<EOF2
usage: $0 [-b BOOTS] [-r RUNS] [-t DURATION] [-c LOADFILE]... [-o OUTDIR] KERNEL [CLIENTS...]
       $0 -j FILE [-o OUTDIR]

KERNEL is a bzImage (sh tools/test-kernel.sh DIR unpacks Debian's; its
modules are found beside it). BOOTS per label (default 6: 12 boots in
all), RUNS (--runs) default 5, DURATION (-t) default 2s, LOADFILE
default stat1 (a file's stat, made here) and create-unlink.load, CLIENTS
default 1. OUTDIR (default ./kernels-spread.out) keeps the result file
and the table. Under TCG a boot takes 12 to 20 s, plus its runs.
Environment: VFSBENCH (the binary).
Exit status: 0 ok, 2 bad usage, 3 a tool is missing or a boot failed.
EOF2
}

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

boots=6 runs=5 time=2s out=./kernels-spread.out loads='' json=''
while getopts b:r:t:c:o:j:h opt; do
	case $opt in
	j) json=$OPTARG ;;
	b) boots=$OPTARG ;;
	r) runs=$OPTARG ;;
	t) time=$OPTARG ;;
	c) loads="$loads $OPTARG" ;;
	o) out=$OPTARG ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
command -v jq >/dev/null || { echo "$0: needs jq" >&2; exit 3; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
vb=$(bench_vfsbench)
[ -n "$vb" ] || { echo "$0: no vfsbench built" >&2; exit 3; }
if [ -n "$json" ]; then
	cp "$json" "$out/aa.json"
	runs=$(jq -r .boots[0].result.options.runs "$out/aa.json")
	time=$(jq -r '.boots[0].result.options.time_ns / 1e9 | tostring + "s"' "$out/aa.json")
	boots=$(($(jq -r '.boots | length' "$out/aa.json") / 2))
else
	[ $# -ge 1 ] || { usage >&2; exit 2; }
	kernel=$1
	shift
	[ $# -ge 1 ] || set -- 1
	if [ -z "$loads" ]; then
		printf '[setup]\ncreate f\n[run]\nstat f\n' >"$out/stat1.load"
		loads="$out/stat1.load create-unlink.load"
	fi
	cargs=
	for l in $loads; do
		cargs="$cargs -c $l"
	done
	# shellcheck disable=SC2086 # the loadfiles' -c words
	"$vb" kernels -k "$kernel" -l a -k "$kernel" -l b --boots "$boots" \
		--json "$out/aa.json" -- $cargs --runs "$runs" -t "$time" "$@" \
		>"$out/kernels.txt" || exit 3
fi
"$vb" compare "$out/aa.json" >"$out/compare.txt" || exit 3

echo "boots: $((2 * boots)) of one kernel ($(jq -r .options.accel "$out/aa.json")), $runs runs of $time each"
printf '%-14s %7s %7s %8s %6s %6s %7s %7s %9s\n' loadfile clients within between "runs'" boot \
	"boots2%" "boots5%" "5%,runs->inf"
# per boot, variant and count: the runs' mean, variance and number
jq -r '.boots[] | .index as $b | .result as $r |
	($r.variants // [{label: $r.loadfile.name}]) as $v |
	$r.runs[] | select(.end == "complete") |
	[$b, (($v[.variant // 0].label) // "-"), .clients, .ops_per_sec] |
	map(tostring) | join(" ")' "$out/aa.json" |
awk -v runs="$runs" '
{
	k = $2 " " $3
	key[k] = 1
	n[k, $1]++; s[k, $1] += $4; ss[k, $1] += $4 * $4
	boots[k, $1] = 1
}
END {
	for (k in key) {
		nb = 0; mb = 0; mb2 = 0; wss = 0; wdf = 0; tot = 0; cnt = 0
		for (b = 0; b < 1000; b++) {
			if (!((k, b) in boots))
				continue
			m = s[k, b] / n[k, b]
			nb++; mb += m; mb2 += m * m
			if (n[k, b] > 1) {
				wss += ss[k, b] - n[k, b] * m * m
				wdf += n[k, b] - 1
			}
			tot += s[k, b]; cnt += n[k, b]
		}
		mean = mb / nb
		between = nb > 1 ? sqrt((mb2 - nb * mean * mean) / (nb - 1)) / mean : 0
		within = wdf ? sqrt(wss / wdf) / (tot / cnt) : 0
		runsd = within / sqrt(runs)
		boot = between * between - runsd * runsd
		boot = boot > 0 ? sqrt(boot) : 0
		z = 2 * (1.96 + 0.84) ^ 2
		split(k, kk, " ")
		printf "%-14s %7s %6.1f%% %7.1f%% %5.1f%% %5.1f%% %7.0f %7.0f %9.0f\n",
			kk[1], kk[2], 100 * within, 100 * between, 100 * runsd,
			100 * boot, z * between ^ 2 / 0.02 ^ 2 + 0.5,
			z * between ^ 2 / 0.05 ^ 2 + 0.5, z * boot ^ 2 / 0.05 ^ 2 + 0.5
	}
}' | sort
echo "compare of a against b (A/A): $out/compare.txt"
grep -c '^ *[0-9][0-9]* .* \* ' "$out/compare.txt" |
	sed 's/^/rows marked * (false alarms): /' || :
