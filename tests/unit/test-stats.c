/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for stats.c: the bucket layout (hist_index and
 * hist_bucket_low), percentiles of hand-worked data sets, merging, the
 * standard deviation and its exact merge, the
 * empty histogram and the 1/64 error bound against exact nearest-rank
 * percentiles of random data. Output is TAP on stdout.
 */
#include <config.h>
#include "stats/hist.h"
#include "stats/histbatch.h"
#include "base/compiler.h"
#include "unit.h"

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define LAST (HIST_NR - 1)
#define TOP  (UINT64_C(1) << HIST_MAX_BITS) /* 2^40 */

/* splitmix64: a fixed seed makes every run see the same data. */
static uint64_t rng_next(uint64_t *state)
{
	uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/*
 * Log-uniform values in [0, 2^39): every power of two is about as likely,
 * so all octaves below the last bucket get exercised, with a few zeros.
 */
static uint64_t rng_latency(uint64_t *state)
{
	uint64_t r = rng_next(state);
	unsigned int msb = (unsigned int)(r % 39);

	if (r % 53 == 0)
		return 0;
	r = rng_next(state);
	return (UINT64_C(1) << msb) | (r & ((UINT64_C(1) << msb) - 1));
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static struct hist *hist_new(void)
{
	struct hist *h = malloc(sizeof(*h));

	ck_assert_ptr_nonnull(h);
	hist_init(h);
	return h;
}

START_TEST(test_init)
{
	struct hist *h = hist_new();
	unsigned int i;

	ck_assert(hist_empty(h));
	ck_assert_uint_eq(h->count, 0);
	ck_assert_uint_eq(h->sum, 0);
	ck_assert_uint_eq(h->min, UINT64_MAX);
	ck_assert_uint_eq(h->max, 0);
	for (i = 0; i < HIST_NR; i++)
		ck_assert_uint_eq(h->bucket[i], 0);
	free(h);
}
END_TEST

START_TEST(test_empty)
{
	struct hist *h = hist_new();

	ck_assert_uint_eq(hist_percentile(h, 50), 0);
	ck_assert_uint_eq(hist_percentile(h, 100), 0);
	ck_assert_double_eq(hist_mean(h), 0.0);

	/* hist_init() also empties a used histogram. */
	hist_add(h, 12345);
	ck_assert(!hist_empty(h));
	hist_init(h);
	ck_assert(hist_empty(h));
	ck_assert_uint_eq(h->min, UINT64_MAX);
	ck_assert_uint_eq(h->bucket[hist_index(12345)], 0);
	ck_assert_uint_eq(hist_percentile(h, 50), 0);
	free(h);
}
END_TEST

/* The layout, worked out by hand from the comment in stats.h. */
struct layout_case {
	uint64_t ns;
	unsigned int idx;
	uint64_t low;
};

static const struct layout_case layout_cases[] = {
	{ 0, 0, 0 },
	{ 1, 1, 1 },
	{ 63, 63, 63 }, /* last exact bucket */
	{ 64, 64, 64 }, /* 2^6: shift 1, 64 >> 1 = 32, 1 * 32 + 32 */
	{ 65, 64, 64 }, /* buckets are 2 wide in [64, 128) */
	{ 127, 95, 126 },
	{ 128, 96, 128 },
	{ 1000, 190, 992 }, /* msb 9, shift 4: 4 * 32 + 62; 62 << 4 */
	{ 1000000, 509, 999424 }, /* msb 19, shift 14: 14 * 32 + 61 */
	/* 2^39 is the first value of the last full octave: shift 34. */
	{ UINT64_C(1) << 39, 34 * 32 + 32, UINT64_C(1) << 39 },
	/* The last bucket starts at 2^40 - 2^34 and also holds all above. */
	{ TOP - (UINT64_C(1) << 34) - 1, LAST - 1, TOP - (UINT64_C(2) << 34) },
	{ TOP - (UINT64_C(1) << 34), LAST, TOP - (UINT64_C(1) << 34) },
	{ TOP - 1, LAST, TOP - (UINT64_C(1) << 34) },
	{ TOP, LAST, TOP - (UINT64_C(1) << 34) },
	{ TOP + 1, LAST, TOP - (UINT64_C(1) << 34) },
	{ UINT64_C(1) << 50, LAST, TOP - (UINT64_C(1) << 34) },
	{ UINT64_MAX, LAST, TOP - (UINT64_C(1) << 34) },
};

START_TEST(test_layout)
{
	const struct layout_case *c = &layout_cases[_i];

	ck_assert_uint_eq(hist_index(c->ns), c->idx);
	ck_assert_uint_eq(hist_bucket_low(c->idx), c->low);
}
END_TEST

START_TEST(test_layout_size)
{
	ck_assert_uint_eq(HIST_NR, 1152); /* 36 groups of 32 */
	/* count, sum, min, max, the two words of the sum of squares */
	ck_assert_uint_eq(sizeof(struct hist), 6 * 8 + HIST_NR * 8);
}
END_TEST

/*
 * Every bucket: hist_bucket_low() is the inverse of hist_index(), bounds
 * strictly increase with no gap (the value below a bucket's low is in the
 * previous bucket), exact buckets are 1 wide and the others are a power of
 * two no wider than 1/32 of their low bound.
 */
START_TEST(test_roundtrip)
{
	uint64_t low, prev = 0, width;
	unsigned int i;

	for (i = 0; i < HIST_NR; i++) {
		low = hist_bucket_low(i);
		ck_assert_uint_eq(hist_index(low), i);
		if (i > 0) {
			ck_assert_uint_gt(low, prev);
			ck_assert_uint_eq(hist_index(low - 1), i - 1);
		}
		width = hist_bucket_low(i + 1) - low;
		ck_assert_uint_eq(width & (width - 1), 0);
		if (i < 2 * HIST_SUB)
			ck_assert_uint_eq(width, 1);
		else
			ck_assert_uint_le(width * HIST_SUB, low);
		prev = low;
	}
	/* One past the last bucket is the bound 2^40. */
	ck_assert_uint_eq(hist_bucket_low(HIST_NR), TOP);
}
END_TEST

/* hist_index() never goes down and never skips a bucket. */
START_TEST(test_index_monotonic)
{
	uint64_t v, state = 42, vals[4096];
	unsigned int k, i, cur, prev = 0, shift;

	/* Every ck_assert() reports to the parent: check, then assert. */
	for (v = 1; v < (UINT64_C(1) << 20); v++) {
		cur = hist_index(v);
		if (cur < prev || cur > prev + 1)
			ck_abort_msg("hist_index(%ju) = %u after %u",
				     (uintmax_t)v, cur, prev);
		prev = cur;
	}
	for (k = 1; k < 64; k++) {
		v = UINT64_C(1) << k;
		if (k < HIST_MAX_BITS)
			ck_assert_uint_eq(hist_index(v), hist_index(v - 1) + 1);
		else
			ck_assert_uint_eq(hist_index(v), LAST);
	}
	for (i = 0; i < ARRAY_SIZE(vals); i++) {
		shift = (unsigned int)(rng_next(&state) % 64);
		vals[i] = rng_next(&state) >> shift;
	}
	qsort(vals, ARRAY_SIZE(vals), sizeof(vals[0]), cmp_u64);
	for (i = 1; i < ARRAY_SIZE(vals); i++) {
		if (hist_index(vals[i]) < hist_index(vals[i - 1]))
			ck_abort_msg("hist_index(%ju) < hist_index(%ju)",
				     (uintmax_t)vals[i],
				     (uintmax_t)vals[i - 1]);
	}
}
END_TEST

struct pct_case {
	double pct;
	uint64_t want;
};

/*
 * Values 1..100, once each: the value of rank r is r. Below 64 the buckets
 * are exact. From 64 to 127 they are 2 wide ([64, 66), [66, 68), ...) and
 * report low + 1, clamped to max = 100. p14, p28 and p56 catch a rank
 * computed as pct / 100 * count, which gives 14.000000000000002 etc.
 */
static const struct pct_case pct_1_100[] = {
	{ 0.5, 1 }, /* rank ceil(0.5) = 1 */
	{ 1, 1 },      { 1.5, 2 },   { 14, 14 }, { 28, 28 }, { 50, 50 },
	{ 56, 56 },    { 57, 57 },   { 63, 63 }, { 64, 65 }, /* [64, 66) */
	{ 65, 65 },    { 90, 91 }, /* [90, 92) */
	{ 98, 99 }, /* [98, 100) */
	{ 99, 99 }, /* [98, 100) */
	{ 99.5, 100 }, /* rank 100: [100, 102) reports 101, clamped */
	{ 99.9, 100 }, { 100, 100 },
};

START_TEST(test_pct_1_100)
{
	struct hist *h = hist_new();
	uint64_t v;

	for (v = 1; v <= 100; v++)
		hist_add(h, v);
	ck_assert_uint_eq(h->count, 100);
	ck_assert_uint_eq(h->sum, 5050);
	ck_assert_uint_eq(h->min, 1);
	ck_assert_uint_eq(h->max, 100);
	ck_assert_double_eq(hist_mean(h), 50.5);
	ck_assert_msg(hist_percentile(h, pct_1_100[_i].pct) ==
			      pct_1_100[_i].want,
		      "p%g = %ju, want %ju", pct_1_100[_i].pct,
		      (uintmax_t)hist_percentile(h, pct_1_100[_i].pct),
		      (uintmax_t)pct_1_100[_i].want);
	free(h);
}
END_TEST

/* Three exact values: ranks at the edges of 1/3 and 2/3. */
static const struct pct_case pct_thirds[] = {
	{ 1e-9, 10 },  { 33.33, 10 }, { 33.34, 20 }, { 50, 20 },
	{ 66.66, 20 }, { 66.67, 30 }, { 100, 30 },
};

START_TEST(test_pct_thirds)
{
	struct hist *h = hist_new();

	hist_add(h, 30);
	hist_add(h, 10);
	hist_add(h, 20);
	ck_assert_uint_eq(hist_percentile(h, pct_thirds[_i].pct),
			  pct_thirds[_i].want);
	free(h);
}
END_TEST

/*
 * 90 x 1 ms, 9 x 5 ms, 1 x 123456789 ns. By hand:
 *   1000000: 2^19 <= v < 2^20, shift 14, v >> 14 = 61 (61 * 16384 =
 *     999424), bucket [999424, 1015808), middle 999424 + 8192 = 1007616.
 *   5000000: 2^22 <= v < 2^23, shift 17, v >> 17 = 38 (38 * 131072 =
 *     4980736), bucket [4980736, 5111808), middle 4980736 + 65536 = 5046272.
 *   123456789: 2^26 <= v < 2^27, shift 21, v >> 21 = 58 (58 * 2097152 =
 *     121634816), bucket [121634816, 123731968), middle 121634816 +
 *     1048576 = 122683392, below max so not clamped.
 * Each is within 1/64 of the true value (0.76%, 0.93%, 0.63%).
 */
static const struct pct_case pct_large[] = {
	{ 1, 1000000 }, /* rank 1: min, exact */
	{ 50, 1007616 },    { 90, 1007616 },
	{ 90.01, 5046272 }, /* rank 91 */
	{ 99, 5046272 },    { 99.01, 123456789 }, /* rank 100: max, exact */
	{ 100, 123456789 },
};

START_TEST(test_pct_large)
{
	struct hist *h = hist_new();
	unsigned int i;

	for (i = 0; i < 90; i++)
		hist_add(h, 1000000);
	for (i = 0; i < 9; i++)
		hist_add(h, 5000000);
	hist_add(h, 123456789);
	ck_assert_uint_eq(h->sum, 258456789);
	ck_assert_double_eq_tol(hist_mean(h), 2584567.89, 1e-6);
	ck_assert_uint_eq(hist_percentile(h, pct_large[_i].pct),
			  pct_large[_i].want);
	free(h);
}
END_TEST

/* The bucket middle is clamped to [min, max]. */
START_TEST(test_pct_clamp)
{
	struct hist *h = hist_new();

	/* Alone in [999424, 1015808): the middle 1007616 is above max. */
	hist_add(h, 1000000);
	ck_assert_uint_eq(hist_percentile(h, 50), 1000000);
	ck_assert_uint_eq(hist_percentile(h, 100), 1000000);

	/* Both in [1015808, 1032192): the middle 1024000 is below min. */
	hist_init(h);
	hist_add(h, 1030000);
	hist_add(h, 1031000);
	ck_assert_uint_eq(hist_percentile(h, 50), 1030000);
	ck_assert_uint_eq(hist_percentile(h, 100), 1031000); /* max */
	free(h);
}
END_TEST

/* Values of 2^40 and above share the last bucket, reported as max. */
START_TEST(test_last_bucket)
{
	struct hist *h = hist_new();

	hist_add(h, 100);
	hist_add(h, UINT64_C(1) << 41);
	hist_add(h, UINT64_C(1) << 45);
	ck_assert_uint_eq(h->bucket[LAST], 2);
	ck_assert_uint_eq(hist_percentile(h, 33), 100); /* rank 1: min */
	ck_assert_uint_eq(hist_percentile(h, 34), UINT64_C(1) << 45);
	ck_assert_uint_eq(hist_percentile(h, 100), UINT64_C(1) << 45);

	hist_init(h);
	hist_add(h, UINT64_MAX);
	ck_assert_uint_eq(h->bucket[LAST], 1);
	ck_assert_uint_eq(h->sum, UINT64_MAX);
	ck_assert_uint_eq(hist_percentile(h, 50), UINT64_MAX);
	free(h);
}
END_TEST

/* Merging two histograms equals one histogram fed both data sets. */
START_TEST(test_merge)
{
	struct hist *a = hist_new(), *b = hist_new(), *all = hist_new();
	struct hist *e = hist_new();
	uint64_t state = 7, v;
	unsigned int i;

	for (i = 0; i < 1000; i++) {
		v = rng_latency(&state);
		hist_add(a, v);
		hist_add(all, v);
	}
	for (i = 0; i < 777; i++) {
		v = rng_latency(&state) + 1000; /* min and max from either */
		hist_add(b, v);
		hist_add(all, v);
	}
	hist_add(b, UINT64_C(1) << 42);
	hist_add(all, UINT64_C(1) << 42);

	hist_merge(a, b);
	ck_assert_uint_eq(a->count, 1778);
	ck_assert(memcmp(a, all, sizeof(*a)) == 0);

	/* Empty into full and full into empty. */
	hist_merge(a, e);
	ck_assert(memcmp(a, all, sizeof(*a)) == 0);
	hist_merge(e, all);
	ck_assert(memcmp(e, all, sizeof(*e)) == 0);
	ck_assert_uint_eq(hist_percentile(e, 99), hist_percentile(all, 99));

	/* Empty into empty stays empty. */
	hist_init(a);
	hist_init(b);
	hist_merge(a, b);
	ck_assert(hist_empty(a));
	ck_assert_uint_eq(a->min, UINT64_MAX);
	ck_assert_uint_eq(a->max, 0);
	ck_assert_uint_eq(hist_percentile(a, 50), 0);
	free(a);
	free(b);
	free(all);
	free(e);
}
END_TEST

/*
 * A batch: what it flushes equals hist_add() of the same values into the
 * same slots, whether it filled (hist_batch_add's own flush, every
 * HIST_BATCH entries) or the caller flushed what was left; until then
 * the histograms are untouched.
 */
START_TEST(test_batch)
{
	struct hist *set = calloc(3, sizeof(*set)),
		    *ref = calloc(3, sizeof(*ref));
	struct hist_batch *b = malloc(sizeof(*b));
	uint64_t state = 11, v;
	unsigned int n = 0, i, total = 2 * HIST_BATCH + 5;

	for (i = 0; i < 3; i++) {
		hist_init(&set[i]);
		hist_init(&ref[i]);
	}
	for (i = 0; i < total; i++) {
		/* alternating slots, then runs of one slot */
		uint8_t slot = (uint8_t)(i < total / 2 ? i * 7 % 3 : i / 5 % 3);

		v = rng_latency(&state);
		n = hist_batch_add(b, n, set, slot, v);
		hist_add(&ref[slot], v);
		ck_assert_uint_eq(n, (i + 1) % HIST_BATCH);
		/* flushed whole batches only */
		ck_assert_uint_eq(set[0].count + set[1].count + set[2].count,
				  (i + 1) / HIST_BATCH * HIST_BATCH);
	}
	hist_batch_flush(b, n, set);
	ck_assert(memcmp(set, ref, 3 * sizeof(*set)) == 0);
	ck_assert_uint_eq(set[0].count + set[1].count + set[2].count, total);

	/* an empty flush adds nothing */
	hist_batch_flush(b, 0, set);
	ck_assert(memcmp(set, ref, 3 * sizeof(*set)) == 0);
	free(set);
	free(ref);
	free(b);
}
END_TEST

/*
 * Random data against the exact nearest-rank percentile of the sorted
 * values, computed in integers: rank = ceil(pm * N / 100000) for pm in
 * thousandths of a percent. The reported value must be the middle of the
 * bucket holding the exact value (clamped), and within 1/64 of it.
 */
#define NR_RANDOM 12345

START_TEST(test_error_bound)
{
	struct hist *h = hist_new();
	uint64_t *vals, state = 2024, rank, exact, got, diff, low, mid;
	unsigned int i, idx;
	uint32_t pm;

	vals = malloc(NR_RANDOM * sizeof(*vals));
	ck_assert_ptr_nonnull(vals);
	for (i = 0; i < NR_RANDOM; i++) {
		vals[i] = rng_latency(&state);
		hist_add(h, vals[i]);
	}
	qsort(vals, NR_RANDOM, sizeof(*vals), cmp_u64);
	ck_assert_uint_eq(h->min, vals[0]);
	ck_assert_uint_eq(h->max, vals[NR_RANDOM - 1]);

	for (pm = 1; pm <= 100000; pm += pm < 99000 ? 97 : 1) {
		rank = ((uint64_t)pm * NR_RANDOM + 99999) / 100000;
		exact = vals[rank - 1];
		got = hist_percentile(h, pm / 1000.0);

		idx = hist_index(exact);
		low = hist_bucket_low(idx);
		mid = low + (hist_bucket_low(idx + 1) - low) / 2;
		if (mid < h->min)
			mid = h->min;
		if (mid > h->max)
			mid = h->max;
		/* the first and last ranks are min and max, exactly */
		if (rank == 1 || rank == NR_RANDOM)
			mid = exact;
		ck_assert_msg(got == mid,
			      "p%.3f: got %ju, want %ju (exact %ju)",
			      pm / 1000.0, (uintmax_t)got, (uintmax_t)mid,
			      (uintmax_t)exact);

		diff = got > exact ? got - exact : exact - got;
		ck_assert_msg(
			diff * 64 <= exact,
			"p%.3f: got %ju, exact %ju, off by more than 1/64",
			pm / 1000.0, (uintmax_t)got, (uintmax_t)exact);
	}
	free(vals);
	free(h);
}
END_TEST

/* Sample sd by two passes over the values, in long double: the reference. */
static double two_pass_sd(const uint64_t *v, unsigned int n)
{
	long double mean = 0, ss = 0;

	for (unsigned int i = 0; i < n; i++)
		mean += (long double)v[i];
	mean /= n;
	for (unsigned int i = 0; i < n; i++)
		ss += ((long double)v[i] - mean) * ((long double)v[i] - mean);
	return (double)sqrtl(ss / (n - 1));
}

/*
 * hist_sd: ab's sample sd of hand-worked sets, exact whatever the mean
 * (the 128-bit sums do not cancel), 0 below two values, and the sum of
 * squares carried past 64 bits.
 */
START_TEST(test_sd)
{
	static const uint64_t eight[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct hist *h = hist_new();

	ck_assert(hist_sd(h) == 0.0);
	hist_add(h, 123456);
	ck_assert(hist_sd(h) == 0.0);

	/* mean 5, squared deviations 32: sd sqrt(32 / 7) */
	hist_init(h);
	for (unsigned int i = 0; i < ARRAY_SIZE(eight); i++)
		hist_add(h, eight[i]);
	ck_assert_uint_eq(h->sumsq_lo, 232);
	ck_assert_uint_eq(h->sumsq_hi, 0);
	ck_assert_double_eq_tol(hist_sd(h), sqrt(32.0 / 7.0), 1e-12);

	/* 1e12 + {0, 1, 2}: sd exactly 1, though x^2 is near 2^80 */
	hist_init(h);
	for (uint64_t k = 0; k < 3; k++)
		hist_add(h, UINT64_C(1000000000000) + k);
	ck_assert(h->sumsq_hi != 0);
	ck_assert(hist_sd(h) == 1.0);

	/* two of 2^33: sum of squares 2^67, high word 8, sd 0 */
	hist_init(h);
	hist_add(h, UINT64_C(1) << 33);
	hist_add(h, UINT64_C(1) << 33);
	ck_assert_uint_eq(h->sumsq_lo, 0);
	ck_assert_uint_eq(h->sumsq_hi, 8);
	ck_assert(hist_sd(h) == 0.0);
	free(h);
}
END_TEST

/*
 * Merging: three parts merged in either order give the sums of one
 * histogram fed everything, word for word, and its sd is the two-pass
 * sd of the values (the low word wraps many times on the way).
 */
START_TEST(test_sd_merge)
{
	enum { N = 3000 };
	struct hist *p[3] = { hist_new(), hist_new(), hist_new() };
	struct hist *all = hist_new(), *m1 = hist_new(), *m2 = hist_new();
	uint64_t *v = malloc(N * sizeof(*v)), state = 31;

	ck_assert_ptr_nonnull(v);
	for (unsigned int i = 0; i < N; i++) {
		v[i] = rng_latency(&state) + (i % 3) * UINT64_C(5000000000);
		hist_add(p[i % 3], v[i]);
		hist_add(all, v[i]);
	}
	hist_merge(m1, p[0]);
	hist_merge(m1, p[1]);
	hist_merge(m1, p[2]);
	hist_merge(m2, p[2]);
	hist_merge(m2, p[0]);
	hist_merge(m2, p[1]);
	ck_assert(memcmp(m1, all, sizeof(*m1)) == 0);
	ck_assert(memcmp(m2, all, sizeof(*m2)) == 0);
	ck_assert(all->sumsq_hi != 0);
	ck_assert_double_eq_tol(hist_sd(m2) / two_pass_sd(v, N), 1.0, 1e-12);
	for (unsigned int i = 0; i < 3; i++)
		free(p[i]);
	free(all);
	free(m1);
	free(m2);
	free(v);
}
END_TEST

static Suite *stats_suite(void)
{
	Suite *s = suite_create("stats");
	TCase *tc;

	tc = tcase_create("layout");
	tcase_add_test(tc, test_init);
	tcase_add_test(tc, test_empty);
	tcase_add_loop_test(tc, test_layout, 0, (int)ARRAY_SIZE(layout_cases));
	tcase_add_test(tc, test_layout_size);
	tcase_add_test(tc, test_roundtrip);
	tcase_add_test(tc, test_index_monotonic);
	suite_add_tcase(s, tc);

	tc = tcase_create("percentile");
	tcase_add_loop_test(tc, test_pct_1_100, 0, (int)ARRAY_SIZE(pct_1_100));
	tcase_add_loop_test(tc, test_pct_thirds, 0,
			    (int)ARRAY_SIZE(pct_thirds));
	tcase_add_loop_test(tc, test_pct_large, 0, (int)ARRAY_SIZE(pct_large));
	tcase_add_test(tc, test_pct_clamp);
	tcase_add_test(tc, test_last_bucket);
	tcase_add_test(tc, test_merge);
	tcase_add_test(tc, test_sd);
	tcase_add_test(tc, test_sd_merge);
	tcase_add_test(tc, test_batch);
	tcase_add_test(tc, test_error_bound);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(stats_suite());
}
