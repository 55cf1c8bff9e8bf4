/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Latency histograms: bucket bounds, merging, nearest-rank percentiles and
 * the mean. Recording (hist_add) is inline in hist.h; everything here runs
 * after the clients are joined. Pure code: no output, no exits.
 */
#include <config.h>
#include "stats/hist.h"

#include <math.h>
#include <string.h>

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

/*
 * Inverse of hist_index(). Bucket idx >= 2 * HIST_SUB was filled by values
 * with shift = idx / HIST_SUB - 1, which hist_index() maps to
 * shift * HIST_SUB + (ns >> shift), so the lowest such value is
 * (idx - shift * HIST_SUB) << shift. idx == HIST_NR gives 2^HIST_MAX_BITS,
 * the bound just past the last regular bucket, so that
 * hist_bucket_low(idx + 1) - hist_bucket_low(idx) is the width of every
 * bucket but the last, which also holds everything above.
 */
uint64_t hist_bucket_low(unsigned int idx)
{
	unsigned int shift;

	if (idx < 2 * HIST_SUB)
		return idx;
	if (idx > HIST_NR)
		idx = HIST_NR;
	shift = idx / HIST_SUB - 1;
	return (uint64_t)(idx - shift * HIST_SUB) << shift;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	unsigned int i;

	dst->count += src->count;
	dst->sum += src->sum;
	hist_sumsq_add(&dst->sumsq_lo, &dst->sumsq_hi,
		       (unsigned __int128)src->sumsq_hi << 64 | src->sumsq_lo);
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	for (i = 0; i < HIST_NR; i++)
		dst->bucket[i] += src->bucket[i];
}

/*
 * 1-based rank of the nearest-rank percentile: ceil(pct / 100 * count),
 * within [1, count]. pct * count is computed first, so a whole-number
 * result such as 99 * 100 / 100 is exact. The tiny relative slack keeps a
 * rank that is whole in decimal (99.9% of 1000) from being pushed up by
 * one when pct itself is not exact in binary.
 */
static uint64_t hist_rank(uint64_t count, double pct)
{
	double x;
	uint64_t rank;

	if (!(pct > 0.0))
		return 1;
	if (pct >= 100.0)
		return count;
	x = pct * (double)count / 100.0;
	x -= x * 1e-12;
	if (x >= (double)count)
		return count;
	rank = (uint64_t)x; /* 0 <= x < count: truncation is floor */
	if ((double)rank < x)
		rank++;
	return rank ? rank : 1;
}

uint64_t hist_percentile(const struct hist *h, double pct)
{
	uint64_t rank, seen = 0, low, width, val;
	unsigned int idx;

	if (h->count == 0)
		return 0;
	rank = hist_rank(h->count, pct);
	/* the smallest and largest values are known exactly */
	if (rank == 1)
		return h->min;
	if (rank == h->count)
		return h->max;
	for (idx = 0; idx < HIST_NR - 1; idx++) {
		seen += h->bucket[idx];
		if (seen >= rank)
			break;
	}
	/* The last bucket has no upper bound: max is the best estimate. */
	if (idx == HIST_NR - 1)
		return h->max;

	low = hist_bucket_low(idx);
	width = hist_bucket_low(idx + 1) - low;
	val = low + width / 2;
	if (val < h->min)
		val = h->min;
	if (val > h->max)
		val = h->max;
	return val;
}

double hist_mean(const struct hist *h)
{
	if (h->count == 0)
		return 0.0;
	return (double)h->sum / (double)h->count;
}

/*
 * count * sumsq - sum^2 = count * sum((x - mean)^2), exact in 128 bits
 * while it fits (a million ops of one second each still fits 2^128 with
 * room to spare), so that an sd far below the mean does not vanish in the
 * cancellation of two large doubles. If the product would not fit, the
 * same difference in long double.
 */
double hist_sd(const struct hist *h)
{
	unsigned __int128 sq, nsq, s2;
	long double n = (long double)h->count, d;

	if (h->count < 2)
		return 0.0;
	sq = (unsigned __int128)h->sumsq_hi << 64 | h->sumsq_lo;
	s2 = (unsigned __int128)h->sum * h->sum;
	if (!__builtin_mul_overflow(sq, (unsigned __int128)h->count, &nsq))
		d = nsq >= s2 ? (long double)(nsq - s2) : 0.0L;
	else
		d = n * (long double)sq - (long double)s2;
	if (d < 0)
		d = 0;
	return (double)sqrtl(d / (n * (n - 1)));
}
