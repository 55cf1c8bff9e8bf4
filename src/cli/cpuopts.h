/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_CLI_CPUOPTS_H
#define VB_CLI_CPUOPTS_H

#include <stdbool.h>

#include "cli/usage.h"
#include "cli/variants.h"
#include "run/runconfig.h"
#include "sys/cpulist.h"
#include "sys/topology.h"

/*
 * struct cpu_config: the command line's CPUs (cli/cpuopts.c): the
 * process's affinity mask and cgroup quota, read once when parsing
 * starts, the topology (loaded from hwloc the first time something
 * needs it), and --profile's counts. The "topology" client list and
 * each variant's --placement are worked out from it, all checked before
 * anything is created. Part of struct config.
 */
struct cpu_config {
	struct cpulist allowed; /* the process's CPUs when it started */
	double quota; /* the cgroup's CPU quota, in CPUs; 0: none */
	struct topology topo; /* hwloc's, once something needs it */
	bool topo_loaded;
	unsigned int *profile; /* --profile: the counts; NULL: none */
	unsigned int nprofile;
	bool profile_all; /* --profile all: every count, once known */
};

/* Read the affinity mask and the cgroup quota. */
enum options_action cpuopts_init(struct cpu_config *cc);

/* CLIENTS "topology": append the counts of the topology walk to @run. */
enum options_action cpuopts_topology_clients(struct cpu_config *cc,
					     struct run_config *run);

/* --profile all, or N[,N...]. */
enum options_action cpuopts_profile(struct cpu_config *cc, const char *arg);
/* --profile all: every count of @run; else each count is one of them. */
enum options_action cpuopts_profile_check(struct cpu_config *cc,
					  const struct run_config *run);

/*
 * The placement of each of the @n variants @v, from its spec, and
 * v->run.placement: a list naming a CPU the process may not use, or
 * with fewer CPUs than @run's largest client count, is a usage error.
 */
enum options_action cpuopts_placements(struct cpu_config *cc,
				       const struct run_config *run,
				       struct variant_config *v,
				       unsigned int n);

void cpuopts_release(struct cpu_config *cc);

#endif /* VB_CLI_CPUOPTS_H */
