/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Two files' profiles: shares and the two-proportion z-test. A sample
 * count is binomial (each sample falls in the symbol or not), so two
 * shares differ beyond chance when |pa - pb| exceeds what the pooled
 * share's variance allows for na and nb samples.
 */
#include <config.h>
#include "compare/profdiff.h"

#include <errno.h>
#include <gsl/gsl_cdf.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/msg.h"
#include "compare/resultfile.h"

/* The profile of @clients in @profiles, NULL when none. */
static json_t *at(json_t *profiles, unsigned int clients)
{
	size_t i;
	json_t *p;

	for (i = 0; (p = json_array_get(profiles, i)); i++)
		if (json_integer_value(json_object_get(p, "clients")) ==
		    (json_int_t)clients)
			return p;
	return NULL;
}

/* @key's samples in @list (objects with @name and "samples"). */
static bool count_of(json_t *list, const char *name, const char *key,
		     uint64_t *n)
{
	size_t i;
	json_t *e;

	for (i = 0; (e = json_array_get(list, i)); i++) {
		const char *k = json_string_value(json_object_get(e, name));

		if (k && !strcmp(k, key)) {
			*n = (uint64_t)json_integer_value(
				json_object_get(e, "samples"));
			return true;
		}
	}
	*n = 0;
	return false;
}

/* A lock chain's key: "LOCK <- ENTRY", into @buf. */
static const char *chain_key(json_t *c, char *buf, size_t len)
{
	snprintf(buf, len, "%s <- %s",
		 json_string_value(json_object_get(c, "lock")) ?: "?",
		 json_string_value(json_object_get(c, "entry")) ?: "?");
	return buf;
}

/* Its samples in the chains of @p: all chains with that lock and entry. */
static bool chain_count(json_t *p, const char *key, uint64_t *n)
{
	json_t *list = json_object_get(p, "lock_chains"), *c;
	bool found = false;
	char buf[1024];
	size_t i;

	*n = 0;
	for (i = 0; (c = json_array_get(list, i)); i++) {
		if (strcmp(chain_key(c, buf, sizeof(buf)), key))
			continue;
		*n += (uint64_t)json_integer_value(
			json_object_get(c, "samples"));
		found = true;
	}
	return found;
}

static bool has_row(const struct profdiff *pd, unsigned int clients,
		    const char *key, bool chain)
{
	for (unsigned int i = 0; i < pd->nrows; i++)
		if (pd->rows[i].clients == clients &&
		    pd->rows[i].chain == chain && !strcmp(pd->rows[i].key, key))
			return true;
	return false;
}

/* Two-sided p of the pooled two-proportion z-test; 1 when undefined. */
static double two_proportion(uint64_t a, uint64_t na, uint64_t b, uint64_t nb)
{
	double pa = (double)a / (double)na, pb = (double)b / (double)nb;
	double pool = (double)(a + b) / (double)(na + nb);
	double se = sqrt(pool * (1 - pool) * (1.0 / na + 1.0 / nb));

	if (!(se > 0))
		return 1.0;
	return fmin(1.0, 2 * gsl_cdf_ugaussian_Q(fabs(pa - pb) / se));
}

static void add(struct profdiff *pd, unsigned int clients, const char *key,
		bool chain, json_t *pa, json_t *pb)
{
	struct profdiff_row *r;

	if (has_row(pd, clients, key, chain))
		return;
	pd->rows = xrealloc(pd->rows, (pd->nrows + 1) * sizeof(*pd->rows));
	r = &pd->rows[pd->nrows++];
	memset(r, 0, sizeof(*r));
	r->clients = clients;
	r->key = xstrdup(key);
	r->chain = chain;
	r->na = (uint64_t)json_integer_value(json_object_get(pa, "samples"));
	r->nb = (uint64_t)json_integer_value(json_object_get(pb, "samples"));
	if (chain) {
		r->known_a = chain_count(pa, key, &r->a) ||
			     json_is_true(json_object_get(
				     pa, "lock_chains_complete"));
		r->known_b = chain_count(pb, key, &r->b) ||
			     json_is_true(json_object_get(
				     pb, "lock_chains_complete"));
	} else {
		r->known_a =
			count_of(json_object_get(pa, "symbols"), "symbol", key,
				 &r->a) ||
			json_is_true(json_object_get(pa, "symbols_complete"));
		r->known_b =
			count_of(json_object_get(pb, "symbols"), "symbol", key,
				 &r->b) ||
			json_is_true(json_object_get(pb, "symbols_complete"));
	}
	r->p = r->p_adj = NAN;
	if (r->known_a && r->known_b && r->na && r->nb)
		r->p = two_proportion(r->a, r->na, r->b, r->nb);
}

/* The rows of one client count: each side's top symbols and chains. */
static void add_point(struct profdiff *pd, unsigned int clients, json_t *pa,
		      json_t *pb)
{
	json_t *sides[2] = { pa, pb }, *e;
	char buf[1024];
	size_t i;

	for (int s = 0; s < 2; s++)
		for (i = 0; (e = json_array_get(
				     json_object_get(sides[s], "symbols"), i));
		     i++) {
			if (i >= PROFDIFF_TOP_SYMBOLS)
				break;
			add(pd, clients,
			    json_string_value(json_object_get(e, "symbol")) ?:
									      "?",
			    false, pa, pb);
		}
	for (int s = 0; s < 2; s++)
		for (i = 0;
		     (e = json_array_get(
			      json_object_get(sides[s], "lock_chains"), i));
		     i++) {
			if (i >= PROFDIFF_TOP_CHAINS)
				break;
			add(pd, clients, chain_key(e, buf, sizeof(buf)), true,
			    pa, pb);
		}
}

int profdiff_build(struct profdiff *pd, const struct resultfile *a,
		   const struct resultfile *b, enum padjust_method correction,
		   double alpha)
{
	json_t *p;
	size_t i;
	double *pv, *adj;
	unsigned int nt = 0;

	memset(pd, 0, sizeof(*pd));
	pd->label_a = a->label;
	pd->label_b = b->label;
	pd->correction = correction;
	pd->alpha = alpha;
	if (!a->profiles || !b->profiles)
		return 0;
	for (i = 0; (p = json_array_get(a->profiles, i)); i++) {
		unsigned int c = (unsigned int)json_integer_value(
			json_object_get(p, "clients"));
		json_t *q = at(b->profiles, c);
		const char *ea = json_string_value(json_object_get(p, "event"));
		const char *eb =
			q ? json_string_value(json_object_get(q, "event")) :
			    NULL;

		if (!q)
			continue;
		if (!ea || !eb || strcmp(ea, eb)) {
			error("compare: the profiles of '%s' and '%s' at %u client%s sampled different events (%s, %s): not like for like, not compared",
			      a->label, b->label, c, c == 1 ? "" : "s",
			      ea ? ea : "none", eb ? eb : "none");
			profdiff_release(pd);
			return -EINVAL;
		}
		if (!pd->event)
			pd->event = xstrdup(ea);
		add_point(pd, c, p, q);
	}
	/* the correction over every test of the table */
	pv = xcalloc(pd->nrows + 1, sizeof(*pv));
	adj = xcalloc(pd->nrows + 1, sizeof(*adj));
	for (unsigned int r = 0; r < pd->nrows; r++)
		if (!isnan(pd->rows[r].p))
			pv[nt++] = pd->rows[r].p;
	padjust(pv, nt, correction, adj);
	nt = 0;
	for (unsigned int r = 0; r < pd->nrows; r++) {
		struct profdiff_row *row = &pd->rows[r];
		double change;

		if (isnan(row->p))
			continue;
		row->p_adj = adj[nt++];
		change = (double)row->b / (double)row->nb -
			 (double)row->a / (double)row->na;
		row->marked = row->p_adj < alpha &&
			      fabs(change) >= PROFDIFF_MIN_CHANGE;
	}
	free(pv);
	free(adj);
	return 0;
}

void profdiff_release(struct profdiff *pd)
{
	for (unsigned int i = 0; i < pd->nrows; i++)
		free(pd->rows[i].key);
	free(pd->rows);
	free(pd->event);
	memset(pd, 0, sizeof(*pd));
}
