# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
#
# Shared by bench/compare-aa.sh, compare-ab.sh and compare-smallest.sh:
# finding vfsbench, a work directory, the machine's load, and reading the
# marks of a vfsbench compare table. Sourced, not run.

cmp_die() {
	echo "$cmp_name: $*" >&2
	exit 3
}

# cmp_setup NAME OUTDIR BASE: VFSBENCH, $out (kept: every JSON and table)
# and $vdir (vfsbench's -D, removed at the end).
cmp_setup() {
	cmp_name=$1
	out=$2
	AWK=${AWK:-awk}
	here=$(cd "$(dirname "$0")" && pwd)
	# shellcheck source=bench/lib.sh
	. "$here/lib.sh"
	VFSBENCH=$(bench_vfsbench)
	[ -n "$VFSBENCH" ] && [ -x "$VFSBENCH" ] ||
		cmp_die "no vfsbench binary (build it, or set VFSBENCH)"
	[ -d "$3" ] || cmp_die "no directory $3"
	mkdir -p "$out" || cmp_die "cannot create $out"
	vb_log=$out/vfsbench.log
	vdir=$(mktemp -d "$3/$cmp_name.XXXXXX") || cmp_die "mktemp in $3 failed"
	trap 'rm -rf "$vdir"' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
}

# The machine: CPUs and load averages, for the record.
cmp_machine() {
	echo "machine: $(getconf _NPROCESSORS_ONLN) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg), $(uname -r)"
}

# vb ARGS...: vfsbench with the bench's directory; stdout to $vb_log.
vb() {
	"$VFSBENCH" -q -D "$vdir" "$@" >"$vb_log" 2>&1 ||
		cmp_die "vfsbench $* failed: $(tail -n 3 "$vb_log")"
}

# cmp_marks TABLE: for each row, "CLIENTS CHANGE MARK" of every column but
# the first (one line per column), from a vfsbench compare table. A cell
# without a test prints "-" as its mark.
cmp_marks() {
	"$AWK" '$1 ~ /^[0-9]+$/ {
		for (i = 2; i <= NF; i++) {
			if ($i !~ /^\[.*\]$/)
				continue
			print $1, $(i - 1), $(i + 1)
		}
	}' "$1"
}

# cmp_count MARKS: "ROWS STARS QUESTIONS" of a list whose last field is
# the mark (cmp_marks, with fields before it or not).
cmp_count() {
	"$AWK" '{ n++; if ($NF == "*") s++; if ($NF == "?") q++ }
		END { printf "%d %d %d\n", n, s, q }' "$1"
}

# cmp_old TABLE...: rows whose p-value (compare -p) is below 0.05, and
# rows; with --test welch --correction none --threshold 0 that is the
# rule compare marked by before it had a rank test, a correction, a
# threshold and '?'.
cmp_old() {
	"$AWK" '$1 ~ /^[0-9]+$/ {
		for (i = 2; i <= NF; i++)
			if ($i ~ /^p=/) {
				n++
				if (substr($i, 3) + 0 < 0.05)
					s++
			}
	} END { printf "%d %d\n", s, n }' "$@"
}
