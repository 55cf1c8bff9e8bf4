#!/bin/sh
# shellcheck disable=SC2034,SC2154
SQ="'"
test_description='compare with the boot as the unit: single-boot files, several boots a side, a vfsbench kernels file'
. "$srcdir/tests/e2e/lib.sh"

# Fixed result files (write_result), so that every figure below is
# worked out by hand. Each boot of side A has 3 runs around its centre,
# 100, 102 and 98 ops/s (runs c-1, c, c+1); side B's 110, 112, 108.
#   Welch's t on the boots' means: A 100 (sd 2), B 110 (sd 2), 3 and 3:
#   se = sqrt(4/3 + 4/3) = 1.633, t = 6.12, df = 4, p = 0.0036;
#   95% interval of the difference: 10 -/+ 2.776 x 1.633 = [5.47, 14.53],
#   over A's 100: [+5.5,+14.5].
#   Spread: between A's boots 2/100 = 2.0%, B's 2/110 = 1.8%; within a
#   boot the runs' sd is 1: 1/100 = 1.0%, 1/110 = 0.9%; 2.0 times.
#   A/A against 101, 99, 100 (sd 1): se = sqrt(4/3 + 1/3) = 1.291, Welch's
#   df = 2.94, t(0.975, 2.94) = 3.219: +/-4.16, p = 1.
# (t quantiles from the regularised incomplete beta function, computed
# apart from GSL, which vfsbench uses.)
boot_file() { # FILE BOOT CENTRE
	write_result "$1" boot="$2" "1:$(($3 - 1))" "1:$3" "1:$(($3 + 1))"
}

boot_file a1.json boot-a1 100
boot_file a2.json boot-a2 102
boot_file a3.json boot-a3 98
boot_file b1.json boot-b1 110
boot_file b2.json boot-b2 112
boot_file b3.json boot-b3 108
# the same kernel again, for an A/A: centres 101, 99, 100
boot_file c1.json boot-c1 101
boot_file c2.json boot-c2 99
boot_file c3.json boot-c3 100

test_expect_success 'three boots a side: Welch on the boots, the change, its interval, the spreads' '
	vfsbench compare a1.json a2.json a3.json -- b1.json b2.json b3.json \
		>out 2>err &&
	test ! -s err &&
	cat >expect <<-EOF &&
	Metric: ops/s, mean over boots of each boot${SQ}s mean of runs, relative to a1+a2+a3 at 1 client (= 100.00 ops/s)
	Cells: relative value, spread or change vs a1+a2+a3 at the same count [95% interval], mark, (boots/runs): each boot one sample
	Clients  a1+a2+a3            b1+b2+b3
	      1  1.00 +/-2.0% (3/9)  1.10 +10.0% [+5.5,+14.5] * (3/9)
	Marks: Welch${SQ}s t-test, two-sided; Benjamini-Hochberg over 1 test (false discovery rate 5%): * significant, ~ not significant, ? suspect (below)
	Interval: the difference of the means, Welch${SQ}s t; +/-: the boots${SQ} coefficient of variation
	Never marked: a change under 1% (--threshold)
	Spread: between a side${SQ}s boots | of the runs within a boot (coefficients of variation)
	Clients  a1+a2+a3     b1+b2+b3
	      1  2.0% | 1.0%  1.8% | 0.9%
	The boots spread up to 2.0 times as much as the runs within one: more boots a side narrow the intervals, more runs do not
	Note: a1+a2+a3: 3 boots, 9 runs
	Note: b1+b2+b3: 3 boots, 9 runs
	EOF
	test_cmp expect out
'

test_expect_success 'the p-value by boot is that of the boots, not of the runs' '
	vfsbench compare -p a1.json a2.json a3.json -- b1.json b2.json b3.json \
		>out &&
	test_grep "1.10 +10.0% \[+5.5,+14.5\] \* p=0.0036 (3/9)" out
'

test_expect_success 'A/A by boot: the same kernel again marks nothing' '
	vfsbench compare -p a1.json a2.json a3.json -- c1.json c2.json c3.json \
		>out &&
	test_grep "^      1  1.00 +/-2.0% (3/9)  1.00 +0.0% \[-4.2,+4.2\] ~ p=1 (3/9)\$" out &&
	! grep "^ *1 .*\*" out
'

# A: 100 and 102, mean 101 (sd 1.414: 1.4%); B: 110 and 112, 111: +9.9%.
test_expect_success 'two boots a side: too few boots to mark anything' '
	vfsbench compare a1.json a2.json -- b1.json b2.json >out &&
	test_grep "^      1  1.00 +/-1.4% (2/6)  1.10 +9.9% too few boots (2/6)\$" out &&
	test_grep "^too few boots: under 3 boots on a side, no test\$" out &&
	test_grep "no row tested" out
'

test_expect_success '--test mwu by boot: 3 and 3 cannot reach 95%' '
	vfsbench compare --test mwu a1.json a2.json a3.json -- b1.json b2.json \
		b3.json >out &&
	test_grep "too few boots (3/9)\$" out &&
	test_grep "^too few boots: with so few boots the test cannot reach 95% (it needs 4 boots a side, or 3 and 5)\$" out
'

# The runs as the sample, Mann-Whitney and Hodges-Lehmann's interval of
# the ratio: of the 25 ratios y/x the 3rd from each end (U's critical
# value for 5 and 5 is 2): 110/101 = +8.9%, 110/99 = +11.1%.
test_expect_success 'one boot a side, not the same boot: ? with the reason' '
	write_result x.json boot=boot-x 1:99 1:100 1:101 1:100 1:99 &&
	write_result y.json boot=boot-y 1:109 1:110 1:111 1:110 1:109 &&
	vfsbench compare x.json y.json >out &&
	test_grep "^      1  1.00 +/-0.8% (5)  1.10 +10.0% \[+8.9,+11.1\] ? (5)\$" out &&
	test_grep "^? y: x and y ran in one boot each, not the same: a boot${SQ}s layout alone moves results by several percent, so the change cannot be told from the boot; give several boots a side (vfsbench kernels, or A1.json A2.json -- B1.json B2.json)\$" out
'

test_expect_success 'one boot, the same for both sides: the runs are the sample, the mark stands' '
	write_result x.json boot=boot-x 1:99 1:100 1:101 1:100 1:99 &&
	write_result y.json boot=boot-x 1:109 1:110 1:111 1:110 1:109 &&
	vfsbench compare x.json y.json >out &&
	test_grep "^      1  1.00 +/-0.8% (5)  1.10 +10.0% \[+8.9,+11.1\] \* (5)\$" out &&
	! grep "one boot each" out
'

test_expect_success 'files of one boot pooled on a side: one boot, not two' '
	write_result p.json boot=boot-p 1:99 1:100 1:101 &&
	write_result q.json boot=boot-p 1:100 1:99 1:101 &&
	write_result r.json boot=boot-p 1:110 1:109 1:111 &&
	write_result s.json boot=boot-p 1:111 1:109 1:110 &&
	vfsbench compare p.json q.json -- r.json s.json >out &&
	test_grep "(6)\$" out &&
	! grep "boots" out &&
	test_grep "^Note: p+q: 2 files, 6 runs pooled\$" out
'

# Runs that trend within every boot (a guest warming up): by boot, each
# boot's mean takes the trend in, and every boot has it: no '?' for
# drift, as there is between files of runs, which did not run
# interleaved (Mann-Kendall of 5 rising runs: p = 0.017).
trend_file() { # FILE BOOT CENTRE
	write_result "$1" boot="$2" "1:$(($3 - 10))" "1:$(($3 - 5))" "1:$3" \
		"1:$(($3 + 5))" "1:$(($3 + 10))"
}

test_expect_success 'runs that trend within each boot: no drift suspicion by boot' '
	trend_file ta1.json boot-ta1 100 && trend_file ta2.json boot-ta2 102 &&
	trend_file ta3.json boot-ta3 98 && trend_file tb1.json boot-tb1 110 &&
	trend_file tb2.json boot-tb2 112 && trend_file tb3.json boot-tb3 108 &&
	vfsbench compare ta1.json ta2.json ta3.json -- tb1.json tb2.json \
		tb3.json >out &&
	test_grep "^      1  1.00 +/-2.0% (3/15)  1.10 +10.0% \[+5.5,+14.5\] \* (3/15)\$" out &&
	test_grep "^Note: ta1+ta2+ta3: the runs trend over their order" out &&
	! grep "^? .*drift" out
'

# A vfsbench kernels file made of the same boots: each boot's result in
# boots[].result, its kernel in kernels[]: the same table, the kernels'
# labels as the sides.
kernels_file() { # FILE, then LABEL:FILE... in boot order
	kf_out=$1
	shift
	kf_labels=
	for kf in "$@"; do
		case " $kf_labels " in
		*" ${kf%%:*} "*) ;;
		*) kf_labels="$kf_labels ${kf%%:*}" ;;
		esac
	done
	{
		printf '{"schema": "vfsbench-kernels", "schema_version": 1, "kernels": ['
		kf_sep=
		for kf in $kf_labels; do
			printf '%s{"label": "%s"}' "$kf_sep" "$kf"
			kf_sep=', '
		done
		printf '], "boots": ['
		kf_sep=
		kf_i=0
		for kf in "$@"; do
			kf_k=0
			for kf_l in $kf_labels; do
				test "$kf_l" = "${kf%%:*}" && break
				kf_k=$((kf_k + 1))
			done
			printf '%s{"index": %d, "kernel": %d, "result": ' \
				"$kf_sep" "$kf_i" "$kf_k"
			cat "${kf#*:}"
			printf '}'
			kf_sep=', '
			kf_i=$((kf_i + 1))
		done
		printf ']}\n'
	} >"$kf_out"
}

test_expect_success 'a vfsbench kernels file: the kernels are the sides, the boots the unit' '
	kernels_file k.json base:a1.json patched:b1.json base:a2.json \
		patched:b2.json base:a3.json patched:b3.json &&
	json_valid k.json &&
	vfsbench compare k.json >out 2>err &&
	test ! -s err &&
	test_grep "^Clients  base                patched\$" out &&
	test_grep "^      1  1.00 +/-2.0% (3/9)  1.10 +10.0% \[+5.5,+14.5\] \* (3/9)\$" out &&
	test_grep "^      1  2.0% | 1.0%  1.8% | 0.9%\$" out &&
	test_grep "^Note: base: 3 boots, 9 runs\$" out
'

# Two variants in each boot (-c twice in the guests): a table per
# variant, the kernels its sides. v1's centres are v0's halved, its runs
# still c-1, c, c+1: the same t and interval relative to its base, the
# spread within a boot twice v0's (1/50).
two_variants() { # FILE BOOT CENTRE
	write_result "$1" variants=2 boot="$2" \
		"1:$(($3 - 1)):0:0:complete:false:0:0" "1:$3:0:0:complete:false:0:0" \
		"1:$(($3 + 1)):0:0:complete:false:0:0" \
		"1:$(($3 / 2 - 1)):0:0:complete:false:0:1" "1:$(($3 / 2)):0:0:complete:false:0:1" \
		"1:$(($3 / 2 + 1)):0:0:complete:false:0:1"
}

test_expect_success 'a vfsbench kernels file of two variants: a table per variant' '
	two_variants va1.json boot-a1 100 && two_variants va2.json boot-a2 102 &&
	two_variants va3.json boot-a3 98 && two_variants vb1.json boot-b1 110 &&
	two_variants vb2.json boot-b2 112 && two_variants vb3.json boot-b3 108 &&
	kernels_file kv.json base:va1.json patched:vb1.json base:va2.json \
		patched:vb2.json base:va3.json patched:vb3.json &&
	vfsbench compare kv.json >out 2>err &&
	test ! -s err &&
	sed -n "/^Workload \|^Clients\|^      1/p" out >got &&
	cat >expect <<-EOF &&
	Workload v0
	Clients  base                patched
	      1  1.00 +/-2.0% (3/9)  1.10 +10.0% [+5.5,+14.5] * (3/9)
	Clients  base         patched
	      1  2.0% | 1.0%  1.8% | 0.9%
	Workload v1
	Clients  base                patched
	      1  1.00 +/-2.0% (3/9)  1.10 +10.0% [+5.5,+14.5] * (3/9)
	Clients  base         patched
	      1  2.0% | 2.0%  1.8% | 1.8%
	EOF
	test_cmp expect got
'

test_expect_success 'a vfsbench kernels file: bad members named with their path' '
	printf "{\"schema\": \"vfsbench-kernels\", \"schema_version\": 1, \"kernels\": [{\"label\": \"a\"}], \"boots\": [{\"kernel\": 3, \"result\": {}}]}\n" >bad.json &&
	test_expect_code 2 vfsbench compare bad.json >out 2>err &&
	echo "error: ${SQ}bad.json${SQ}: boots[0].kernel: 3 names no kernel (kernels[] has 1)" >expect &&
	test_cmp expect err &&
	printf "{\"schema\": \"vfsbench-kernels\", \"schema_version\": 1, \"kernels\": [{\"label\": \"a\"}], \"boots\": [{\"kernel\": 0, \"result\": {\"schema\": \"vfsbench-fdscale\", \"schema_version\": 1}}]}\n" >bad.json &&
	test_expect_code 2 vfsbench compare bad.json >out 2>err &&
	echo "error: ${SQ}bad.json${SQ}: boots[0].result: not a vfsbench result of runs this vfsbench reads (schema vfsbench-result, version 1 to 2)" >expect &&
	test_cmp expect err &&
	printf "{\"schema\": \"vfsbench-kernels\", \"schema_version\": 2}\n" >bad.json &&
	test_expect_code 2 vfsbench compare bad.json 2>err &&
	test_grep "schema_version 2 is newer than this vfsbench reads (1)" err
'

test_done
