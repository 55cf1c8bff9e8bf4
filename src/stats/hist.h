/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_STATS_HIST_H
#define VB_STATS_HIST_H

#include <stdbool.h>
#include <stdint.h>

/*
 * struct hist: one latency distribution (nanoseconds), log-linear, after
 * fio's stat.h and HdrHistogram.
 *
 * Values below 2 * HIST_SUB (64 ns) have one bucket each and are exact.
 * Above that, every power of two [2^k, 2^(k+1)) is split into HIST_SUB (32)
 * equal buckets, so a bucket is 1/32 of its lower bound wide. A percentile
 * is reported as the middle of its bucket, clamped to [min, max], so the
 * error is at most 1/64 (1.6%) of the true value; the lowest and highest
 * ranks are min and max themselves, which are exact. Values of 2^40 ns (about
 * 18 minutes) and above share the last bucket, which starts at 2^40 - 2^34
 * ns; a percentile that falls in it is reported as max, with no bound.
 *
 * Memory: HIST_NR (1152) 64-bit buckets plus the summary, about 9 KiB per
 * histogram. Clients keep one per op kind that the loadfile uses, so a
 * client of a one-op loadfile costs one histogram.
 *
 * Count, sum, sum of squares, min and max are exact; the mean is
 * sum / count and the standard deviation comes from the sum of squares
 * (ab's "+/-sd"), not from the buckets. Histograms with the same layout
 * merge by adding buckets and sums, so per-client histograms are merged
 * after the clients are joined, and the merge is exact whatever its order.
 */
#define HIST_SUB_BITS 5
#define HIST_SUB      (1u << HIST_SUB_BITS)
#define HIST_MAX_BITS 40
#define HIST_NR	      ((HIST_MAX_BITS - HIST_SUB_BITS + 1) * HIST_SUB)
/* A percentile's largest relative error: half a bucket, 1/64. */
#define HIST_REL_ERROR (1.0 / (2 * HIST_SUB))

struct hist {
	uint64_t count;
	uint64_t sum; /* ns; wraps after 584 years of latency */
	uint64_t min; /* UINT64_MAX while empty */
	uint64_t max;
	/*
	 * Sum of ns^2, 128 bits as two words (low, high), so that it is
	 * exact: a 64-bit sum wraps after 2^64 ns^2, one op of 4.3 s. Two
	 * words rather than an unsigned __int128 keep the struct's 8-byte
	 * alignment and give result_pack() its words.
	 */
	uint64_t sumsq_lo;
	uint64_t sumsq_hi;
	uint64_t bucket[HIST_NR];
};

/* Empty the histogram. */
void hist_init(struct hist *h);

/* Bucket index of a value; exposed for tests. */
static inline unsigned int hist_index(uint64_t ns)
{
	unsigned int msb, shift;

	if (ns < 2 * HIST_SUB)
		return (unsigned int)ns;
	msb = 63 - (unsigned int)__builtin_clzll(ns);
	if (msb >= HIST_MAX_BITS)
		return HIST_NR - 1;
	shift = msb - HIST_SUB_BITS;
	return shift * HIST_SUB + (unsigned int)(ns >> shift);
}

/* Add @sq to the 128-bit sum @lo, @hi: exact, it wraps only past 2^128. */
static inline void hist_sumsq_add(uint64_t *lo, uint64_t *hi,
				  unsigned __int128 sq)
{
	unsigned __int128 s = ((unsigned __int128)*hi << 64 | *lo) + sq;

	*lo = (uint64_t)s;
	*hi = (uint64_t)(s >> 64);
}

/* Record one value. Hot path: no branches beyond min/max, no calls. */
static inline void hist_add(struct hist *h, uint64_t ns)
{
	h->count++;
	h->sum += ns;
	hist_sumsq_add(&h->sumsq_lo, &h->sumsq_hi, (unsigned __int128)ns * ns);
	if (ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
	h->bucket[hist_index(ns)]++;
}

/*
 * Lowest value that falls in bucket @idx, the inverse of hist_index().
 * @idx == HIST_NR gives 2^HIST_MAX_BITS, the end of the last bucket's
 * regular range, so hist_bucket_low(idx + 1) - hist_bucket_low(idx) is the
 * width of any bucket.
 */
uint64_t hist_bucket_low(unsigned int idx);

/* Add @src into @dst. */
void hist_merge(struct hist *dst, const struct hist *src);

/*
 * Nearest-rank percentile, 0 < @pct <= 100: the bucket holding the
 * ceil(pct/100 * count)-th smallest value, reported as described above
 * (rank 1 is min and rank count is max, exactly).
 * Returns 0 for an empty histogram.
 */
uint64_t hist_percentile(const struct hist *h, double pct);

/* Mean in ns; 0 for an empty histogram. */
double hist_mean(const struct hist *h);

/*
 * Sample standard deviation in ns, sqrt(sum((x - mean)^2) / (count - 1)),
 * as ab prints it; 0 for fewer than two values. From the exact sums, so
 * it does not depend on the buckets' width or on the merge order.
 */
double hist_sd(const struct hist *h);

static inline bool hist_empty(const struct hist *h)
{
	return h->count == 0;
}

#endif /* VB_STATS_HIST_H */
