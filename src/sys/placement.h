/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_SYS_PLACEMENT_H
#define VB_SYS_PLACEMENT_H

#include <stdbool.h>
#include <stddef.h>

#include "sys/cpulist.h"

struct topology;

/* --placement: where the clients of a run are pinned. */
enum placement_kind {
	PLACEMENT_NONE, /* not pinned: the scheduler decides */
	PLACEMENT_COMPACT, /* SMT siblings, then cores of a cache domain */
	PLACEMENT_SPREAD, /* packages, nodes, cache domains, cores first */
	PLACEMENT_LIST, /* the CPUs given, client i on the i-th */
};

/*
 * struct placement: the CPU of each client of a run, within the CPUs the
 * process may use (its affinity mask when vfsbench started: taskset and
 * the cgroup's cpuset both narrow it). Client i is pinned to order[i mod
 * n]: with more clients than CPUs, clients share CPUs, and the report
 * says so.
 */
struct placement {
	enum placement_kind kind;
	const struct cpulist *allowed; /* ascending; not owned */
	const struct topology *topo; /* NULL for none; not owned */
	struct cpulist order; /* empty for none */
	/* the cgroup's CPU bandwidth limit, in CPUs; 0 for none */
	double quota;
};

/*
 * Parse a --placement value: none, compact, spread or a CPU list
 * (cpulist_parse()). Returns 0 or -EINVAL; fills @list for a list.
 */
int placement_parse(const char *spec, enum placement_kind *kind,
		    struct cpulist *list);

/*
 * The CPUs of @topo in the order @kind gives them (compact or spread),
 * into @order. Compact is hwloc's logical order: the SMT siblings of a
 * core, then the cores of its cache domain, then the next domain,
 * node and package. Spread deals one CPU to each package in turn, within
 * a package to each node, within a node to each cache domain, then each
 * core, and the SMT siblings of a core last.
 */
void placement_order(const struct topology *topo, enum placement_kind kind,
		     struct cpulist *order);

/*
 * The first CPU of @list that is not in @allowed, into *@bad: returns
 * -EINVAL when there is one, else 0. What the caller tells the user.
 */
int placement_check(const struct cpulist *list, const struct cpulist *allowed,
		    unsigned int *bad);

/*
 * Set up @pl of @kind within @allowed: the order of @topo for compact
 * and spread (@topo may be NULL for none and a list), a copy of @list
 * (checked with placement_check()) for a list. @quota: the cgroup's CPU
 * limit, 0 for none.
 */
void placement_init(struct placement *pl, enum placement_kind kind,
		    const struct cpulist *list, const struct cpulist *allowed,
		    const struct topology *topo, double quota);

/* The CPU client @client is pinned to, or -1 when it is not. */
int placement_cpu(const struct placement *pl, unsigned int client);

/*
 * How many CPUs @nclients clients may use: the distinct CPUs they are
 * pinned to, else the allowed CPUs; no more than the cgroup's quota.
 */
double placement_cpus(const struct placement *pl, unsigned int nclients);

/*
 * Where the main thread goes while @nclients clients run: the allowed
 * CPUs no client is pinned to. Returns false (and leaves @out empty)
 * when there is none, or the clients are not pinned.
 */
bool placement_main(const struct placement *pl, unsigned int nclients,
		    struct cpulist *out);

/* "none", "compact", "spread" or "list". */
const char *placement_name(enum placement_kind kind);

void placement_release(struct placement *pl);

#endif /* VB_SYS_PLACEMENT_H */
