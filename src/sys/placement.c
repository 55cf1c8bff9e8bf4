/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Client placement: the order in which a run's clients take the CPUs
 * (compact, spread, or a list), the CPUs a run may use, and where the
 * main thread goes meanwhile.
 */
#include <config.h>
#include "sys/placement.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/compiler.h"
#include "sys/topology.h"

static const char *const kind_names[] = {
	[PLACEMENT_NONE] = "none",
	[PLACEMENT_COMPACT] = "compact",
	[PLACEMENT_SPREAD] = "spread",
	[PLACEMENT_LIST] = "list",
};

const char *placement_name(enum placement_kind kind)
{
	return kind_names[kind];
}

int placement_parse(const char *spec, enum placement_kind *kind,
		    struct cpulist *list)
{
	for (unsigned int k = PLACEMENT_NONE; k < PLACEMENT_LIST; k++)
		if (!strcmp(spec, kind_names[k])) {
			*kind = (enum placement_kind)k;
			return 0;
		}
	if (cpulist_parse(list, spec))
		return -EINVAL;
	*kind = PLACEMENT_LIST;
	return 0;
}

/* The levels of the tree above a CPU, each as (parent, child) keys. */
static uint64_t up_machine(const struct topology_cpu *c)
{
	(void)c;
	return 0;
}

static uint64_t package(const struct topology_cpu *c)
{
	return c->package;
}

static uint64_t node(const struct topology_cpu *c)
{
	return (uint32_t)c->node;
}

static uint64_t package_node(const struct topology_cpu *c)
{
	return (uint64_t)c->package << 32 | (uint32_t)c->node;
}

/*
 * The cache domain within its node: a package without caches stands for
 * its cache domain, and then its nodes must still tell its cores apart.
 */
static uint64_t node_cache(const struct topology_cpu *c)
{
	return (uint64_t)c->cache << 32 | (uint32_t)c->node;
}

static uint64_t cache(const struct topology_cpu *c)
{
	return c->cache;
}

static uint64_t core(const struct topology_cpu *c)
{
	return c->core;
}

static uint64_t cpu(const struct topology_cpu *c)
{
	return c->cpu;
}

static const struct level {
	uint64_t (*parent)(const struct topology_cpu *);
	uint64_t (*child)(const struct topology_cpu *);
} levels[] = {
	/* the SMT sibling within its core comes first: it varies last */
	{ core, cpu },	   { node_cache, core },    { package_node, cache },
	{ package, node }, { up_machine, package },
};

#define NLEVELS ARRAY_SIZE(levels)

/*
 * Each CPU's rank at level @l: the position of its child among the
 * children of its parent, in the order they first appear.
 */
static void ranks(const struct topology *t, const struct level *l,
		  unsigned int *rank)
{
	struct seen {
		uint64_t parent, child;
		unsigned int rank;
	} *s = xcalloc(t->ncpus + 1, sizeof(*s));
	unsigned int n = 0;

	for (unsigned int i = 0; i < t->ncpus; i++) {
		uint64_t p = l->parent(&t->cpus[i]), c = l->child(&t->cpus[i]);
		unsigned int k, siblings = 0;

		for (k = 0; k < n; k++) {
			if (s[k].parent != p)
				continue;
			if (s[k].child == c)
				break;
			siblings++;
		}
		if (k == n)
			s[n++] = (struct seen){ p, c, siblings };
		rank[i] = s[k].rank;
	}
	free(s);
}

/* A CPU's ranks, SMT level first, then its logical position. */
struct spread_key {
	unsigned int rank[NLEVELS + 1];
	unsigned int cpu;
};

static int cmp_key(const void *a, const void *b)
{
	const struct spread_key *x = a, *y = b;

	for (unsigned int i = 0; i <= NLEVELS; i++)
		if (x->rank[i] != y->rank[i])
			return x->rank[i] < y->rank[i] ? -1 : 1;
	return 0;
}

void placement_order(const struct topology *topo, enum placement_kind kind,
		     struct cpulist *order)
{
	struct spread_key *k;
	unsigned int *r;

	memset(order, 0, sizeof(*order));
	if (kind == PLACEMENT_COMPACT) {
		for (unsigned int i = 0; i < topo->ncpus; i++)
			cpulist_add(order, topo->cpus[i].cpu);
		return;
	}
	/*
	 * Spread: sorted by the rank within the core, then within the
	 * cache domain, ... then the package: consecutive CPUs differ in
	 * the outermost level first.
	 */
	k = xcalloc(topo->ncpus + 1, sizeof(*k));
	r = xcalloc(topo->ncpus + 1, sizeof(*r));
	for (unsigned int l = 0; l < NLEVELS; l++) {
		ranks(topo, &levels[l], r);
		for (unsigned int i = 0; i < topo->ncpus; i++)
			k[i].rank[l] = r[i];
	}
	free(r);
	for (unsigned int i = 0; i < topo->ncpus; i++) {
		k[i].rank[NLEVELS] = i;
		k[i].cpu = topo->cpus[i].cpu;
	}
	qsort(k, topo->ncpus, sizeof(*k), cmp_key);
	for (unsigned int i = 0; i < topo->ncpus; i++)
		cpulist_add(order, k[i].cpu);
	free(k);
}

int placement_check(const struct cpulist *list, const struct cpulist *allowed,
		    unsigned int *bad)
{
	for (unsigned int i = 0; i < list->n; i++)
		if (!cpulist_contains(allowed, list->cpu[i])) {
			*bad = list->cpu[i];
			return -EINVAL;
		}
	return 0;
}

void placement_init(struct placement *pl, enum placement_kind kind,
		    const struct cpulist *list, const struct cpulist *allowed,
		    const struct topology *topo, double quota)
{
	memset(pl, 0, sizeof(*pl));
	pl->kind = kind;
	pl->allowed = allowed;
	pl->topo = topo;
	pl->quota = quota;
	if (kind == PLACEMENT_COMPACT || kind == PLACEMENT_SPREAD)
		placement_order(topo, kind, &pl->order);
	else if (kind == PLACEMENT_LIST)
		for (unsigned int i = 0; i < list->n; i++)
			cpulist_add(&pl->order, list->cpu[i]);
}

int placement_cpu(const struct placement *pl, unsigned int client)
{
	if (!pl || !pl->order.n)
		return -1;
	return (int)pl->order.cpu[client % pl->order.n];
}

double placement_cpus(const struct placement *pl, unsigned int nclients)
{
	struct cpulist used = { 0 };
	double n;

	if (!pl || !pl->order.n) {
		n = pl ? pl->allowed->n : 0;
	} else {
		for (unsigned int i = 0; i < nclients && i < pl->order.n; i++)
			cpulist_add(&used, pl->order.cpu[i]);
		n = cpulist_distinct(&used);
		cpulist_release(&used);
	}
	if (pl && pl->quota > 0 && pl->quota < n)
		n = pl->quota;
	return n;
}

bool placement_main(const struct placement *pl, unsigned int nclients,
		    struct cpulist *out)
{
	memset(out, 0, sizeof(*out));
	if (!pl || !pl->order.n)
		return false;
	for (unsigned int i = 0; i < pl->allowed->n; i++) {
		unsigned int c = pl->allowed->cpu[i];
		bool used = false;

		for (unsigned int k = 0; k < nclients && k < pl->order.n; k++)
			used = used || pl->order.cpu[k] == c;
		if (!used)
			cpulist_add(out, c);
	}
	return out->n > 0;
}

void placement_release(struct placement *pl)
{
	cpulist_release(&pl->order);
	memset(pl, 0, sizeof(*pl));
}
