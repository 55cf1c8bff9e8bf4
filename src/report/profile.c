/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where the time went, per profiled client count: the perf.data files
 * of --profile read back (stats/perfprofile.h) into shares, as the
 * "where the time goes" table after the sweep (and the knee's verdict,
 * knee.c) and the JSON's "profiles".
 */
#include <config.h>
#include "report/profile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "report/knee.h"
#include "report/proflocks.h"
#include "report/report.h"
#include "run/run.h"
#include "run/sweep.h"
#include "stats/perfprofile.h"
#include "stats/tally.h"
#include "sys/perfstat.h"

/* Rows of the table: each point's top symbols and lock chains. */
#define TOP_SYMBOLS 8
#define TOP_CHAINS  5
/* Kept in the JSON: compare reads these. */
#define JSON_SYMBOLS 200
#define JSON_CHAINS  20

static double share(uint64_t n, uint64_t of)
{
	return of ? (double)n / (double)of : 0.0;
}

/* The user and system CPU time of the point's runs, and the span perf
 * was on for them. */
static void point_usage(const struct sweep *sw, unsigned int v,
			unsigned int clients, double *user_s, double *sys_s,
			uint64_t *span_ns)
{
	*user_s = *sys_s = 0;
	*span_ns = 0;
	for (unsigned int i = 0; sw && i < sw->nruns; i++) {
		const struct run *r = &sw->runs[i];

		if (sw->variant_of[i] != v || r->nclients != clients ||
		    !r->perf_on_ns || r->perf_off_ns < r->perf_on_ns)
			continue;
		*user_s += r->total.usage.user_s;
		*sys_s += r->total.usage.sys_s;
		*span_ns += r->perf_off_ns - r->perf_on_ns;
	}
}

/* A time event: its periods are nanoseconds of CPU time. */
static bool clock_event(const char *ev)
{
	return ev && (!strcmp(ev, "cpu-clock") || !strcmp(ev, "task-clock"));
}

/* The point's lock chains by lock and entry: "LOCK <- ENTRY" -> samples. */
static void by_lock(const struct perf_profile *pp, struct tally *t)
{
	for (size_t i = 0; i < pp->locks.cap; i++) {
		const struct tally_entry *e = &pp->locks.e[i];
		char lock[256], entry[256], key[520];

		if (!e->key)
			continue;
		perf_profile_chain_ends(e->key, lock, entry, sizeof(lock));
		snprintf(key, sizeof(key), "%s%s%s", lock, PERF_CHAIN_SEP,
			 entry);
		tally_add(t, key, e->n);
	}
}

static json_t *chain_json(const char *chain)
{
	json_t *a = json_array();
	const char *p = chain, *sep;
	size_t seplen = strlen(PERF_CHAIN_SEP);

	while ((sep = strstr(p, PERF_CHAIN_SEP))) {
		json_array_append_new(a, json_stringn(p, (size_t)(sep - p)));
		p = sep + seplen;
	}
	json_array_append_new(a, json_string(p));
	return a;
}

/* The most sampled full chain of the lock and entry in @key. */
static const char *main_chain(const struct perf_profile *pp, const char *key)
{
	const struct tally_entry *best = NULL;

	for (size_t i = 0; i < pp->locks.cap; i++) {
		const struct tally_entry *e = &pp->locks.e[i];
		char lock[256], entry[256], k[520];

		if (!e->key)
			continue;
		perf_profile_chain_ends(e->key, lock, entry, sizeof(lock));
		snprintf(k, sizeof(k), "%s%s%s", lock, PERF_CHAIN_SEP, entry);
		if (!strcmp(k, key) &&
		    (!best || e->n > best->n ||
		     (e->n == best->n && strcmp(e->key, best->key) < 0)))
			best = e;
	}
	return best ? best->key : key;
}

/* perf stat's counters: each asked, its value or why there is none. */
static json_t *counters_json(const struct report_profile *p)
{
	json_t *a = json_array();

	for (unsigned int e = 0; p->counters && e < PERF_STAT_NEVENTS; e++) {
		const struct perf_counter *c = &p->counters[e];

		json_array_append_new(
			a, json_pack("{s:s, s:o, s:o}", "event",
				     perf_stat_events[e], "value",
				     c->counted ? json_real(c->value) :
						  json_null(),
				     "absent",
				     c->absent ? json_string(c->absent) :
						 json_null()));
	}
	return a;
}

static json_t *one_json(const struct report_profile *p, const struct sweep *sw)
{
	const struct perf_profile *pp = p->prof;
	const struct tally_entry **v;
	json_t *o = json_object(), *syms = json_array(), *chains = json_array();
	double user_s, sys_s;
	uint64_t span;
	struct tally locks = { 0 };

	point_usage(sw, p->vindex, p->clients, &user_s, &sys_s, &span);
	json_object_set_new(o, "variant", json_integer(p->vindex));
	json_object_set_new(o, "clients", json_integer(p->clients));
	json_object_set_new(o, "file", json_string(p->file));
	json_object_set_new(o, "folded",
			    p->folded ? json_string(p->folded) : json_null());
	json_object_set_new(o, "event_asked",
			    p->event_asked ? json_string(p->event_asked) :
					     json_null());
	json_object_set_new(o, "event",
			    pp && pp->event ? json_string(pp->event) :
					      json_null());
	json_object_set_new(o, "mixed_events", json_boolean(pp && pp->mixed));
	json_object_set_new(o, "counters", counters_json(p));
	json_object_set_new(o, "counters_absent",
			    p->counters_absent ?
				    json_string(p->counters_absent) :
				    json_null());
	proflocks_json(o, p);
	json_object_set_new(o, "samples",
			    json_integer(pp ? (json_int_t)pp->samples : 0));
	json_object_set_new(o, "kernel_share",
			    json_real(pp ? share(pp->kernel, pp->samples) : 0));
	json_object_set_new(o, "user_share",
			    json_real(pp ? share(pp->user, pp->samples) : 0));
	/* off CPU: of the CPU time the process's threads could have had */
	json_object_set_new(o, "sampled_cpu_s",
			    pp && clock_event(pp->event) ?
				    json_real((double)pp->period / 1e9) :
				    json_null());
	json_object_set_new(
		o, "idle_share",
		pp && clock_event(pp->event) && span ?
			json_real(fmax(0.0, 1.0 - (double)pp->period /
							    ((double)span *
							     p->clients))) :
			json_null());
	json_object_set_new(
		o, "rusage",
		json_pack("{sf sf sf}", "user_s", user_s, "sys_s", sys_s,
			  "kernel_share",
			  user_s + sys_s > 0 ? sys_s / (user_s + sys_s) : 0.0));
	if (pp) {
		v = tally_sorted(&pp->self);
		for (size_t i = 0; i < pp->self.len && i < JSON_SYMBOLS; i++)
			json_array_append_new(
				syms, json_pack("{ss sI sf}", "symbol",
						v[i]->key, "samples",
						(json_int_t)v[i]->n, "share",
						share(v[i]->n, pp->samples)));
		json_object_set_new(o, "symbols_complete",
				    json_boolean(pp->self.len <= JSON_SYMBOLS));
		free(v);
		by_lock(pp, &locks);
		v = tally_sorted(&locks);
		for (size_t i = 0; i < locks.len && i < JSON_CHAINS; i++) {
			char lock[256], entry[256];
			const char *c = main_chain(pp, v[i]->key);

			perf_profile_chain_ends(c, lock, entry, sizeof(lock));
			json_array_append_new(
				chains, json_pack("{ss ss so sI sf}", "lock",
						  lock, "entry", entry, "chain",
						  chain_json(c), "samples",
						  (json_int_t)v[i]->n, "share",
						  share(v[i]->n, pp->samples)));
		}
		json_object_set_new(o, "lock_chains_complete",
				    json_boolean(locks.len <= JSON_CHAINS));
		free(v);
		tally_release(&locks);
	}
	json_object_set_new(o, "symbols", syms);
	json_object_set_new(o, "lock_chains", chains);
	return o;
}

json_t *report_profiles_json(const struct report_config *rc,
			     const struct sweep *sw)
{
	json_t *a = json_array();

	for (unsigned int i = 0; i < rc->nprofiles; i++)
		if (rc->profiles[i].ok)
			json_array_append_new(a,
					      one_json(&rc->profiles[i], sw));
	return a;
}

/* A row of the table: its label and each column's count. */
struct row {
	char *label;
	uint64_t *n;
};

static void add_rows(struct row **rows, unsigned int *nrows,
		     const struct tally *t, unsigned int top, unsigned int ncol)
{
	const struct tally_entry **v = tally_sorted(t);

	for (size_t i = 0; i < t->len && i < top; i++) {
		unsigned int r;

		for (r = 0; r < *nrows; r++)
			if (!strcmp((*rows)[r].label, v[i]->key))
				break;
		if (r < *nrows)
			continue;
		*rows = xrealloc(*rows, (*nrows + 1) * sizeof(**rows));
		(*rows)[r].label = xstrdup(v[i]->key);
		(*rows)[r].n = xcalloc(ncol, sizeof(uint64_t));
		(*nrows)++;
	}
	free(v);
}

static void print_rows(struct row *rows, unsigned int nrows,
		       const struct report_profile *const *col,
		       unsigned int ncol)
{
	for (unsigned int r = 0; r < nrows; r++) {
		printf("  %-46.46s", rows[r].label);
		for (unsigned int c = 0; c < ncol; c++)
			printf(" %10.1f%%", 100 * share(rows[r].n[c],
							col[c]->prof->samples));
		printf("\n");
		free(rows[r].label);
		free(rows[r].n);
	}
	free(rows);
}

static void print_variant(const struct report_config *rc,
			  const struct sweep *sw, unsigned int v,
			  const struct report_profile *p, unsigned int n)
{
	struct knee knee;
	const struct report_profile **col = xcalloc(n + 1, sizeof(*col));
	struct tally *locks = xcalloc(n + 1, sizeof(*locks));
	struct row *rows = NULL;
	unsigned int ncol = 0, nrows = 0;
	const char *event = NULL;

	for (unsigned int i = 0; i < n; i++)
		if (p[i].vindex == v && p[i].ok && p[i].prof &&
		    p[i].prof->samples)
			col[ncol++] = &p[i];
	if (!ncol)
		goto out;
	event = col[0]->prof->event;
	printf("\nWhere the time goes%s%s (share of perf's %s samples):\n",
	       col[0]->variant ? " in " : "",
	       col[0]->variant ? col[0]->variant : "", event);
	printf("  %-46s", "clients");
	for (unsigned int c = 0; c < ncol; c++)
		printf(" %11u", col[c]->clients);
	printf("\n  %-46s", "samples");
	for (unsigned int c = 0; c < ncol; c++)
		printf(" %11llu", (unsigned long long)col[c]->prof->samples);
	printf("\n  %-46s", "kernel");
	for (unsigned int c = 0; c < ncol; c++)
		printf(" %10.1f%%", 100 * share(col[c]->prof->kernel,
						col[c]->prof->samples));
	printf("\n  %-46s", "user");
	for (unsigned int c = 0; c < ncol; c++)
		printf(" %10.1f%%",
		       100 * share(col[c]->prof->user, col[c]->prof->samples));
	printf("\n  %-46s", "kernel, by the clients' rusage");
	for (unsigned int c = 0; c < ncol; c++) {
		double u, s;
		uint64_t span;

		point_usage(sw, v, col[c]->clients, &u, &s, &span);
		printf(" %10.1f%%", u + s > 0 ? 100 * s / (u + s) : 0.0);
	}
	printf("\n Symbols (self):\n");
	for (unsigned int c = 0; c < ncol; c++)
		add_rows(&rows, &nrows, &col[c]->prof->self, TOP_SYMBOLS, ncol);
	for (unsigned int r = 0; r < nrows; r++)
		for (unsigned int c = 0; c < ncol; c++)
			rows[r].n[c] =
				tally_get(&col[c]->prof->self, rows[r].label);
	/* "other": each column adds up to 100% */
	rows = xrealloc(rows, (nrows + 1) * sizeof(*rows));
	rows[nrows].label = xstrdup("(other symbols)");
	rows[nrows].n = xcalloc(ncol, sizeof(uint64_t));
	for (unsigned int c = 0; c < ncol; c++) {
		uint64_t listed = 0;

		for (unsigned int r = 0; r < nrows; r++)
			listed += rows[r].n[c];
		rows[nrows].n[c] = col[c]->prof->samples - listed;
	}
	print_rows(rows, nrows + 1, col, ncol);
	rows = NULL;
	nrows = 0;
	for (unsigned int c = 0; c < ncol; c++) {
		by_lock(col[c]->prof, &locks[c]);
		add_rows(&rows, &nrows, &locks[c], TOP_CHAINS, ncol);
	}
	printf(" Lock chains (lock <- VFS entry, the samples under it):\n");
	for (unsigned int r = 0; r < nrows; r++)
		for (unsigned int c = 0; c < ncol; c++)
			rows[r].n[c] = tally_get(&locks[c], rows[r].label);
	if (!nrows)
		printf("  (none)\n");
	print_rows(rows, nrows, col, ncol);
	knee_find(&knee, rc, sw, v, p, n);
	knee_print(&knee);
out:
	for (unsigned int c = 0; c < n; c++)
		tally_release(&locks[c]);
	free(locks);
	free(col);
}

/* "    counters: cycles 1234, instructions not supported, ..." */
static void print_counters(const struct report_profile *p)
{
	printf("    counters:");
	if (!p->counters) {
		printf(" none (%s)\n", p->counters_absent);
		return;
	}
	for (unsigned int e = 0; e < PERF_STAT_NEVENTS; e++) {
		const struct perf_counter *c = &p->counters[e];

		printf("%s %s ", e ? "," : "", perf_stat_events[e]);
		if (c->counted)
			printf("%.0f", c->value);
		else
			printf("%s", c->absent);
	}
	printf("\n");
}

void report_profiles(const struct report_config *rc, const struct sweep *sw,
		     const struct report_profile *p, unsigned int n)
{
	if (!n)
		return;
	printf("\nProfiles (perf report -i FILE; folded stacks for flame graphs):\n");
	for (unsigned int i = 0; i < n; i++) {
		printf("  %s%s%u client%s: %s",
		       p[i].variant ? p[i].variant : "",
		       p[i].variant ? ", " : "", p[i].clients,
		       p[i].clients == 1 ? "" : "s", p[i].file);
		if (p[i].folded)
			printf(", %s", p[i].folded);
		if (!p[i].ok)
			printf(" (perf failed: see its messages)");
		else if (!p[i].prof)
			printf(" (not read: see the messages)");
		else if (p[i].event_asked && p[i].prof->event &&
			 strcmp(p[i].event_asked, p[i].prof->event))
			printf(" (perf sampled %s, not the %s asked for)",
			       p[i].prof->event, p[i].event_asked);
		printf("\n");
		print_counters(&p[i]);
		proflocks_print(&p[i]);
	}
	for (unsigned int v = 0; sw && v < sw->nvariants; v++)
		print_variant(rc, sw, v, p, n);
	fflush(stdout);
}
