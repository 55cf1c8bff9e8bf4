/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The knee of a profiled sweep: where its efficiency first falls below
 * --knee, and what grew in the profiles from the baseline to there; in
 * the text report after "Where the time goes" and in the JSON.
 */
#include <config.h>
#include "report/knee.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "report/report.h"
#include "run/run.h"
#include "run/sweep.h"
#include "run/verdict.h"
#include "stats/perfprofile.h"
#include "stats/tally.h"

static double share(uint64_t n, uint64_t of)
{
	return of ? (double)n / (double)of : 0.0;
}

/* The profile of variant @v at @clients with samples, or NULL. */
static const struct report_profile *profile_at(const struct report_profile *p,
					       unsigned int n, unsigned int v,
					       unsigned int clients)
{
	for (unsigned int i = 0; i < n; i++)
		if (p[i].vindex == v && p[i].clients == clients && p[i].ok &&
		    p[i].prof && p[i].prof->samples)
			return &p[i];
	return NULL;
}

/* The KNEE_SYMBOLS symbols whose self share grew most from @from to @to. */
static void grew_most(struct knee *k, const struct perf_profile *from,
		      const struct perf_profile *to)
{
	for (size_t i = 0; i < to->self.cap; i++) {
		const struct tally_entry *e = &to->self.e[i];
		double x;
		unsigned int at;

		if (!e->key)
			continue;
		x = share(e->n, to->samples) -
		    share(tally_get(&from->self, e->key), from->samples);
		/* ties by name, so that the hash's order does not show */
		for (at = 0; at < k->nsym; at++)
			if (x > k->grew[at] || (x == k->grew[at] &&
						strcmp(e->key, k->sym[at]) < 0))
				break;
		if (x <= 0 || at == KNEE_SYMBOLS)
			continue;
		if (k->nsym < KNEE_SYMBOLS)
			k->nsym++;
		memmove(&k->grew[at + 1], &k->grew[at],
			(k->nsym - 1 - at) * sizeof(k->grew[0]));
		memmove(&k->sym[at + 1], &k->sym[at],
			(k->nsym - 1 - at) * sizeof(k->sym[0]));
		k->grew[at] = x;
		k->sym[at] = e->key;
	}
}

void knee_find(struct knee *k, const struct report_config *rc,
	       const struct sweep *sw, unsigned int v,
	       const struct report_profile *p, unsigned int n)
{
	unsigned int nc = sw->cfg->nclients, nr = 0, base, at;
	struct sweep_row *rows = xcalloc(nc + 1, sizeof(*rows));
	const struct point **pts = xcalloc(nc + 1, sizeof(*pts));
	const struct report_profile *from, *to;

	memset(k, 0, sizeof(*k));
	k->threshold = rc->knee;
	for (unsigned int i = v * nc; i < (v + 1) * nc; i++) {
		const struct point *pt = &sw->points[i];

		if (!pt->nruns)
			continue;
		pts[nr] = pt;
		rows[nr].clients = pt->clients;
		rows[nr].ops_s = pt->ops_s.median;
		rows[nr].mb_s = pt->mb_s.median;
		rows[nr].cpus = pt->runs[0]->cpus;
		nr++;
	}
	if (nr < 2)
		goto out;
	k->shown = true;
	base = sweep_rows_compute(rows, nr, rc->metric);
	k->from = rows[base].clients;
	for (at = 0; at < nr; at++)
		if (at != base && rows[at].efficiency < rc->knee)
			break;
	if (at == nr) {
		k->clients = rows[nr - 1].clients;
		goto out;
	}
	k->found = true;
	k->clients = rows[at].clients;
	k->efficiency = rows[at].efficiency;
	k->starved = run_verdict_starved(pts[at]->runs, pts[at]->nruns) ||
		     run_verdict_starved(pts[base]->runs, pts[base]->nruns);
	from = profile_at(p, n, v, k->from);
	to = profile_at(p, n, v, k->clients);
	k->profiled = from && to;
	if (k->profiled && !k->starved)
		grew_most(k, from->prof, to->prof);
out:
	free(pts);
	free(rows);
}

void knee_print(const struct knee *k)
{
	if (!k->shown)
		return;
	printf("Knee (--knee %.2f): ", k->threshold);
	if (!k->found) {
		printf("none: efficiency stays at or above it up to %u clients\n",
		       k->clients);
		return;
	}
	printf("%u clients, efficiency %.2f", k->clients, k->efficiency);
	if (k->starved) {
		printf("; runs of %u or %u clients were starved (!): their profiles show the wait for a CPU, no symbol is blamed\n",
		       k->from, k->clients);
		return;
	}
	if (!k->profiled) {
		printf("; no profile of %u and %u clients to say what grew\n",
		       k->from, k->clients);
		return;
	}
	printf("; grew most from %u client%s:", k->from,
	       k->from == 1 ? "" : "s");
	for (unsigned int i = 0; i < k->nsym; i++)
		printf("%s %s +%.1f%%", i ? "," : "", k->sym[i],
		       100 * k->grew[i]);
	if (!k->nsym)
		printf(" nothing");
	printf("\n");
}

json_t *knee_json(const struct knee *k, unsigned int v)
{
	bool blamed = k->found && k->profiled && !k->starved;
	json_t *grew = blamed ? json_array() : json_null();

	if (!k->shown)
		return grew;
	for (unsigned int i = 0; blamed && i < k->nsym; i++)
		json_array_append_new(grew,
				      json_pack("{ss sf}", "symbol", k->sym[i],
						"share_change", k->grew[i]));
	return json_pack(
		"{si sf so so so si sb so}", "variant", v, "threshold",
		k->threshold, "clients",
		k->found ? json_integer(k->clients) : json_null(), "efficiency",
		k->found ? json_real(k->efficiency) : json_null(), "up_to",
		k->found ? json_null() : json_integer(k->clients), "from",
		k->from, "starved", k->starved, "grew", grew);
}
