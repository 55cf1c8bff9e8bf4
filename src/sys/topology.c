/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The machine's CPUs through hwloc: each CPU the process may use with its
 * core, cache domain, package and NUMA node, and the client counts of a
 * topology walk (mmtests walks its thread counts the same way: up to the
 * SMT, cache, node and machine boundaries).
 */
#include <config.h>
#include "sys/topology.h"

#include <errno.h>
#include <hwloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/compiler.h"
#include "base/msg.h"
#include "sys/cpulist.h"

/* The outermost data (or unified) cache above @pu, or NULL. */
static hwloc_obj_t outer_cache(hwloc_obj_t pu)
{
	hwloc_obj_t cache = NULL;

	for (hwloc_obj_t o = pu->parent; o; o = o->parent)
		if (hwloc_obj_type_is_dcache(o->type))
			cache = o;
	return cache;
}

static int node_of(hwloc_topology_t h, hwloc_obj_t pu)
{
	int n = hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_NUMANODE);

	for (int i = 0; i < n; i++) {
		hwloc_obj_t node = hwloc_get_obj_by_type(h, HWLOC_OBJ_NUMANODE,
							 (unsigned int)i);

		if (node->cpuset &&
		    hwloc_bitmap_isset(node->cpuset, pu->os_index))
			return (int)node->os_index;
	}
	return -1;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/*
 * The CPUs' (group, member) pairs, @key giving them: how many distinct
 * groups there are, and the most distinct members one group has.
 */
static unsigned int groups(const struct topology *t,
			   uint64_t (*key)(const struct topology_cpu *),
			   unsigned int *most)
{
	uint64_t *k = xcalloc(t->ncpus + 1, sizeof(*k));
	unsigned int ngroups = 0, members = 0;

	for (unsigned int i = 0; i < t->ncpus; i++)
		k[i] = key(&t->cpus[i]);
	qsort(k, t->ncpus, sizeof(*k), cmp_u64);
	*most = 0;
	for (unsigned int i = 0; i < t->ncpus; i++) {
		if (i && k[i] == k[i - 1])
			continue;
		if (!i || k[i] >> 32 != k[i - 1] >> 32) {
			ngroups++;
			members = 0;
		}
		if (++members > *most)
			*most = members;
	}
	free(k);
	return ngroups;
}

static uint64_t core_pu(const struct topology_cpu *c)
{
	return (uint64_t)c->core << 32 | c->cpu;
}

static uint64_t cache_core(const struct topology_cpu *c)
{
	return (uint64_t)c->cache << 32 | c->core;
}

static uint64_t node_core(const struct topology_cpu *c)
{
	return (uint64_t)(uint32_t)c->node << 32 | c->core;
}

static uint64_t package_core(const struct topology_cpu *c)
{
	return (uint64_t)c->package << 32 | c->core;
}

static void count(struct topology *t)
{
	unsigned int most;

	t->ncores = groups(t, core_pu, &most);
	t->smt = most > 1;
	t->ncaches = groups(t, cache_core, &most);
	t->nnodes = groups(t, node_core, &most);
	t->npackages = groups(t, package_core, &most);
}

int topology_load(struct topology *t, const char *synthetic,
		  const struct cpulist *allowed)
{
	hwloc_topology_t h;
	int npu, ret = 0;
	bool cache = false;

	memset(t, 0, sizeof(*t));
	if (hwloc_topology_init(&h))
		return error("hwloc: cannot initialise a topology: %s",
			     strerror(errno));
	if (synthetic && hwloc_topology_set_synthetic(h, synthetic)) {
		ret = error("hwloc: bad synthetic topology '%s'", synthetic);
		goto out;
	}
	if (hwloc_topology_load(h)) {
		ret = -errno;
		error("hwloc: cannot discover the CPU topology: %s",
		      strerror(errno));
		goto out;
	}
	npu = hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_PU);
	t->cpus = xcalloc((size_t)(npu > 0 ? npu : 1), sizeof(*t->cpus));
	for (int i = 0; i < npu; i++) {
		hwloc_obj_t pu =
			hwloc_get_obj_by_type(h, HWLOC_OBJ_PU, (unsigned int)i);
		hwloc_obj_t core, pkg, llc;
		struct topology_cpu *c;

		if (!cpulist_contains(allowed, pu->os_index))
			continue;
		core = hwloc_get_ancestor_obj_by_type(h, HWLOC_OBJ_CORE, pu);
		pkg = hwloc_get_ancestor_obj_by_type(h, HWLOC_OBJ_PACKAGE, pu);
		llc = outer_cache(pu);
		c = &t->cpus[t->ncpus++];
		c->cpu = pu->os_index;
		/* a PU without a core is a core of its own: keep the
		 * numbers apart from real cores' */
		c->core = core ? core->logical_index :
				 0x80000000u | pu->logical_index;
		c->package = pkg ? pkg->logical_index : 0;
		c->cache = llc ? llc->logical_index : c->package;
		c->node = node_of(h, pu);
		if (llc && !cache) {
			snprintf(t->cache_name, sizeof(t->cache_name), "L%u",
				 llc->attr->cache.depth);
			cache = true;
		}
	}
	if (!cache)
		snprintf(t->cache_name, sizeof(t->cache_name), "package");
	if (!t->ncpus) {
		error("hwloc: none of the process's CPUs is in the topology");
		ret = -ENOENT;
		goto out;
	}
	count(t);
out:
	hwloc_topology_destroy(h);
	if (ret)
		topology_release(t);
	return ret;
}

const struct topology_cpu *topology_find(const struct topology *t,
					 unsigned int cpu)
{
	for (unsigned int i = 0; i < t->ncpus; i++)
		if (t->cpus[i].cpu == cpu)
			return &t->cpus[i];
	return NULL;
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return (x > y) - (x < y);
}

void topology_sweep(const struct topology *t, unsigned int **counts,
		    unsigned int *n)
{
	unsigned int b[5], *out, k = 0;

	groups(t, cache_core, &b[0]);
	groups(t, node_core, &b[1]);
	groups(t, package_core, &b[2]);
	b[3] = t->ncores;
	b[4] = t->ncpus;
	qsort(b, ARRAY_SIZE(b), sizeof(*b), cmp_uint);
	/* doublings from 1 to at most 2^13 CPUs, and the boundaries */
	out = xcalloc(14 + ARRAY_SIZE(b) + 1, sizeof(*out));
	out[k++] = 1;
	for (unsigned int i = 0; i < ARRAY_SIZE(b); i++) {
		while (out[k - 1] * 2 < b[i]) {
			out[k] = out[k - 1] * 2;
			k++;
		}
		if (b[i] > out[k - 1])
			out[k++] = b[i];
	}
	*counts = out;
	*n = k;
}

void topology_release(struct topology *t)
{
	free(t->cpus);
	memset(t, 0, sizeof(*t));
}
