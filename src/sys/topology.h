/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_SYS_TOPOLOGY_H
#define VB_SYS_TOPOLOGY_H

#include <stdbool.h>

struct cpulist;

/*
 * struct topology: the CPUs the process may use and where each sits, as
 * hwloc discovers them: its core, its cache domain, its package and its
 * NUMA node. Only hwloc's view is kept (topology.c is the only file that
 * includes <hwloc.h>); the placement orders and the sweep points are
 * worked out from this array, so they can be tested on any machine.
 */
struct topology_cpu {
	unsigned int cpu; /* the kernel's number (hwloc's OS index) */
	/* hwloc logical indexes, unique per object across the machine */
	unsigned int core; /* its core; its own PU's without cores */
	/* its cache domain: the outermost data cache above it, else its
	 * package: clients in one share that cache */
	unsigned int cache;
	unsigned int package; /* 0 without packages */
	int node; /* the OS index of its NUMA node, -1 without */
};

struct topology {
	struct topology_cpu *cpus; /* [ncpus], in hwloc's logical order */
	unsigned int ncpus;
	/* how many of each the CPUs above span */
	unsigned int ncores, ncaches, npackages, nnodes;
	bool smt; /* some core has more than one of the CPUs */
	char cache_name[16]; /* "L3", or "package" when there is no cache */
};

/*
 * Discover the machine (or build the hwloc synthetic topology
 * @synthetic, "package:2 l3:2 core:4 pu:2", for tests) and keep the CPUs
 * of @allowed. hwloc honours HWLOC_XMLFILE and HWLOC_SYNTHETIC in the
 * environment. Returns 0, or -errno with a message; -ENOENT when none of
 * @allowed is in the topology.
 */
int topology_load(struct topology *t, const char *synthetic,
		  const struct cpulist *allowed);

/* The entry of kernel CPU @cpu, or NULL. */
const struct topology_cpu *topology_find(const struct topology *t,
					 unsigned int cpu);

/*
 * The client counts of a topology walk, ascending, into *@counts (of
 * *@n, allocated): 1, the machine's boundaries (the most cores of one
 * cache domain, of one NUMA node, of one package; all cores; all CPUs)
 * and, between two of them, doublings of the smaller.
 */
void topology_sweep(const struct topology *t, unsigned int **counts,
		    unsigned int *n);

void topology_release(struct topology *t);

#endif /* VB_SYS_TOPOLOGY_H */
