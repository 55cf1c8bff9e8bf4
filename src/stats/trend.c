/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The seasonal Mann-Kendall trend test over a file's runs in run order.
 */
#include <config.h>
#include "stats/trend.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

/* One stratum's values, in run order. */
struct stratum {
	unsigned int id;
	double *v;
	size_t n;
};

static long sign(double x)
{
	return (x > 0) - (x < 0);
}

/*
 * The distribution of S for one stratum of @n runs without ties, as
 * probabilities: S = M - 2 I with M = n(n - 1)/2 pairs and I the
 * inversions of a random permutation, whose distribution grows one
 * element at a time (the k-th adds 0 .. k - 1 inversions, equally
 * likely). Returns prob[I], I = 0 .. M.
 */
static double *inversions(size_t n)
{
	size_t m = n * (n - 1) / 2;
	double *p = xcalloc(m + 1, sizeof(*p)), *q = xcalloc(m + 2, sizeof(*q));

	p[0] = 1;
	for (size_t k = 2; k <= n; k++) {
		size_t top = (k - 1) * k / 2; /* max inversions of k */

		/* q: prefix sums of p, q[i + 1] = p[0] + ... + p[i] */
		q[0] = 0;
		for (size_t i = 0; i <= top; i++)
			q[i + 1] = q[i] + p[i];
		for (size_t i = 0; i <= top; i++) {
			size_t lo = i + 1 > k ? i + 1 - k : 0;

			p[i] = (q[i + 1] - q[lo]) / (double)k;
		}
	}
	free(q);
	return p;
}

/*
 * P(|S| >= |s|) for the sum of the strata's S, exactly: dist is indexed
 * by S + total, total the sum of the strata's pair counts.
 */
static double exact_p(const struct stratum *st, size_t ns, long s)
{
	size_t total = 0, span;
	double *dist, *next, p = 0;

	for (size_t g = 0; g < ns; g++)
		total += st[g].n * (st[g].n - 1) / 2;
	span = 2 * total + 1;
	dist = xcalloc(span, sizeof(*dist));
	next = xcalloc(span, sizeof(*next));
	dist[total] = 1;
	for (size_t g = 0; g < ns; g++) {
		size_t m = st[g].n * (st[g].n - 1) / 2;
		double *inv;

		if (!m)
			continue;
		inv = inversions(st[g].n);
		memset(next, 0, span * sizeof(*next));
		for (size_t x = 0; x < span; x++) {
			if (!dist[x])
				continue;
			/* S_g = m - 2 I moves the index by m - 2 I */
			for (size_t i = 0; i <= m; i++)
				next[x + m - 2 * i] += dist[x] * inv[i];
		}
		free(inv);
		memcpy(dist, next, span * sizeof(*dist));
	}
	for (size_t x = 0; x < span; x++)
		if (labs((long)x - (long)total) >= labs(s))
			p += dist[x];
	free(next);
	free(dist);
	return fmin(1, p);
}

/* The strata of @v, each in run order; returns how many. */
static size_t split(const double *v, const unsigned int *stratum, size_t n,
		    struct stratum *st)
{
	size_t ns = 0;

	for (size_t i = 0; i < n; i++) {
		size_t g;

		for (g = 0; g < ns && st[g].id != stratum[i]; g++)
			;
		if (g == ns) {
			st[ns].id = stratum[i];
			st[ns].v = xcalloc(n, sizeof(*st[ns].v));
			st[ns].n = 0;
			ns++;
		}
		st[g].v[st[g].n++] = v[i];
	}
	return ns;
}

static int cmp_double(const void *a, const void *b)
{
	const double *x = a, *y = b;

	return (*x > *y) - (*x < *y);
}

/* The median of @n values, sorted in place; NAN for none. */
static double median(double *x, size_t n)
{
	if (!n)
		return NAN;
	qsort(x, n, sizeof(*x), cmp_double);
	return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

/*
 * The seasonal Kendall slope (Hirsch, Slack and Smith 1982): the median
 * of every within-stratum slope (x[j] - x[i]) / (j - i), each relative to
 * its stratum's median, so that strata of different levels pool; times
 * the steps of the largest stratum, it is the span (trend.h).
 */
static double span_of(const struct stratum *st, size_t ns)
{
	size_t pairs = 0, k = 0, longest = 0;
	double *slope, *tmp, span;

	for (size_t g = 0; g < ns; g++) {
		pairs += st[g].n * (st[g].n - 1) / 2;
		if (st[g].n > longest)
			longest = st[g].n;
	}
	slope = xcalloc(pairs + 1, sizeof(*slope));
	tmp = xcalloc(longest + 1, sizeof(*tmp));
	for (size_t g = 0; g < ns; g++) {
		double mid;

		memcpy(tmp, st[g].v, st[g].n * sizeof(*tmp));
		mid = fabs(median(tmp, st[g].n));
		for (size_t i = 0; i < st[g].n; i++)
			for (size_t j = i + 1; j < st[g].n; j++)
				slope[k++] = mid > 0 ?
						     (st[g].v[j] - st[g].v[i]) /
							     (double)(j - i) /
							     mid :
						     0;
	}
	span = pairs ? fabs(median(slope, pairs)) * (double)(longest - 1) : 0;
	free(tmp);
	free(slope);
	return span;
}

int trend_test(const double *v, const unsigned int *stratum, size_t n,
	       struct trend *t)
{
	struct stratum *st = xcalloc(n + 1, sizeof(*st));
	size_t ns = split(v, stratum, n, st), pairs = 0;
	bool ties = false;

	memset(t, 0, sizeof(*t));
	for (size_t g = 0; g < ns; g++) {
		const double *x = st[g].v;
		double m = (double)st[g].n, tie_terms = 0;
		bool *seen = xcalloc(st[g].n + 1, sizeof(*seen));

		for (size_t i = 0; i < st[g].n; i++)
			for (size_t j = i + 1; j < st[g].n; j++)
				t->s += sign(x[j] - x[i]);
		/* runs of equal values: t(t - 1)(2t + 5) each */
		for (size_t i = 0; i < st[g].n; i++) {
			double c = 0;

			if (seen[i])
				continue;
			for (size_t j = i; j < st[g].n; j++)
				if (x[j] == x[i]) {
					seen[j] = true;
					c++;
				}
			if (c > 1) {
				ties = true;
				tie_terms += c * (c - 1) * (2 * c + 5);
			}
		}
		t->var += (m * (m - 1) * (2 * m + 5) - tie_terms) / 18;
		pairs += st[g].n * (st[g].n - 1) / 2;
		free(seen);
	}
	t->p = 1;
	if (pairs && !ties && n <= TREND_EXACT_MAX) {
		t->exact = true;
		t->p = exact_p(st, ns, t->s);
	} else if (t->var > 0) {
		double z = fmax(fabs((double)t->s) - 1, 0) / sqrt(t->var);

		t->p = fmin(1, 2 * gsl_cdf_ugaussian_Q(z));
	}
	t->span = span_of(st, ns);
	for (size_t g = 0; g < ns; g++)
		free(st[g].v);
	free(st);
	return 0;
}
