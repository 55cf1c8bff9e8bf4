/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The exact permutation distribution of a rank sum, ties included, for
 * the Mann-Whitney U test and its confidence interval.
 */
#include <config.h>
#include "stats/ranksum.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

int ranksum_init(struct ranksum *d, const unsigned long *rank2, size_t n,
		 size_t k)
{
	unsigned long top = 0;
	double *ways;

	memset(d, 0, sizeof(*d));
	if (k > n)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		top += rank2[i];
	d->k = k;
	d->nsums = (size_t)top + 1;
	/* ways[j * nsums + s]: subsets of j of the values seen so far */
	ways = xcalloc((k + 1) * d->nsums, sizeof(*ways));
	ways[0] = 1;
	for (size_t i = 0; i < n; i++) {
		size_t r = rank2[i], jmax = i + 1 < k ? i + 1 : k;

		/* downwards in j: each value is used at most once */
		for (size_t j = jmax; j > 0; j--) {
			double *to = ways + j * d->nsums;
			const double *from = ways + (j - 1) * d->nsums;

			for (size_t s = d->nsums - 1; s >= r; s--) {
				to[s] += from[s - r];
				if (s == r)
					break;
			}
		}
	}
	d->count = xcalloc(d->nsums, sizeof(*d->count));
	memcpy(d->count, ways + k * d->nsums, d->nsums * sizeof(*d->count));
	free(ways);
	for (size_t s = 0; s < d->nsums; s++)
		d->total += d->count[s];
	return 0;
}

double ranksum_tail(const struct ranksum *d, long centre2, long dist2)
{
	double hits = 0;

	for (size_t s = 0; s < d->nsums; s++) {
		long off = (long)s - centre2;

		if (d->count[s] && (off >= dist2 || -off >= dist2))
			hits += d->count[s];
	}
	return d->total > 0 ? hits / d->total : 1;
}

double ranksum_cdf(const struct ranksum *d, long s2)
{
	double hits = 0;

	for (size_t s = 0; s < d->nsums && (long)s <= s2; s++)
		hits += d->count[s];
	return d->total > 0 ? hits / d->total : 1;
}

void ranksum_release(struct ranksum *d)
{
	free(d->count);
	memset(d, 0, sizeof(*d));
}

struct ranked {
	double v;
	size_t i;
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	return (x->v > y->v) - (x->v < y->v);
}

double ranksum_midranks(const double *v, size_t n, unsigned long *rank2)
{
	struct ranked *r = xcalloc(n + 1, sizeof(*r));
	double ties = 0;

	for (size_t i = 0; i < n; i++) {
		r[i].v = v[i];
		r[i].i = i;
	}
	qsort(r, n, sizeof(*r), cmp_ranked);
	for (size_t lo = 0; lo < n;) {
		size_t hi = lo + 1;
		double t;

		while (hi < n && r[hi].v == r[lo].v)
			hi++;
		/* ranks lo+1 .. hi: their mean, doubled, is lo + 1 + hi */
		for (size_t j = lo; j < hi; j++)
			rank2[r[j].i] = (unsigned long)(lo + 1 + hi);
		t = (double)(hi - lo);
		ties += t * t * t - t;
		lo = hi;
	}
	free(r);
	return ties;
}
