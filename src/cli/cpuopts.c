/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The options about CPUs: --placement for each variant, the "topology"
 * client list, --profile's counts. The CPUs are the process's affinity
 * mask when vfsbench starts (taskset and the cgroup's cpuset narrow
 * it); the topology comes from hwloc, loaded only when needed.
 */
#include <config.h>
#include "cli/cpuopts.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/units.h"
#include "sys/cgroup.h"
#include "sys/placement.h"
#include "sys/topology.h"

enum options_action cpuopts_init(struct cpu_config *cc)
{
	struct cgroup_cpu cg;
	int ret;

	memset(cc, 0, sizeof(*cc));
	ret = cpulist_affinity(&cc->allowed, 0);

	if (ret)
		return usage_error("cannot read the process's CPU affinity: %s",
				   strerror(-ret));
	cgroup_cpu_read(&cg);
	cc->quota = cg.quota;
	cgroup_cpu_release(&cg);
	return OPTIONS_RUN;
}

static enum options_action need_topology(struct cpu_config *cc)
{
	if (cc->topo_loaded)
		return OPTIONS_RUN;
	/* a message is printed already */
	if (topology_load(&cc->topo, NULL, &cc->allowed))
		return usage_error(
			"the CPU topology is needed for --placement and the topology client list");
	cc->topo_loaded = true;
	return OPTIONS_RUN;
}

enum options_action cpuopts_topology_clients(struct cpu_config *cc,
					     struct run_config *run)
{
	enum options_action act = need_topology(cc);
	unsigned int *counts, n;

	if (act != OPTIONS_RUN)
		return act;
	topology_sweep(&cc->topo, &counts, &n);
	run->clients = xrealloc(run->clients,
				(run->nclients + n) * sizeof(*run->clients));
	memcpy(run->clients + run->nclients, counts, n * sizeof(*counts));
	run->nclients += n;
	free(counts);
	return OPTIONS_RUN;
}

enum options_action cpuopts_profile(struct cpu_config *cc, const char *arg)
{
	const char *s = arg;

	free(cc->profile);
	cc->profile = NULL;
	cc->nprofile = 0;
	/* every count of the sweep, filled in once the counts are known */
	cc->profile_all = !strcmp(arg, "all");
	if (cc->profile_all)
		return OPTIONS_RUN;
	for (;;) {
		size_t len = strcspn(s, ",");
		char buf[16];
		uint64_t v;

		if (!len || len >= sizeof(buf))
			return usage_error(
				"bad --profile '%s': expected 'all' or client counts, comma-separated, such as 1,8",
				arg);
		memcpy(buf, s, len);
		buf[len] = '\0';
		if (units_parse_uint(buf, MAX_CLIENTS, &v) || !v)
			return usage_error(
				"bad --profile '%s': '%s' is not a client count (1 to %d)",
				arg, buf, MAX_CLIENTS);
		cc->profile = xrealloc(
			cc->profile, (cc->nprofile + 1) * sizeof(*cc->profile));
		cc->profile[cc->nprofile++] = (unsigned int)v;
		if (!s[len])
			break;
		s += len + 1;
	}
	return OPTIONS_RUN;
}

enum options_action cpuopts_profile_check(struct cpu_config *cc,
					  const struct run_config *run)
{
	if (cc->profile_all) {
		free(cc->profile);
		cc->profile = xcalloc(run->nclients, sizeof(*cc->profile));
		cc->nprofile = 0;
		for (unsigned int k = 0; k < run->nclients; k++) {
			bool dup = false;

			for (unsigned int i = 0; i < cc->nprofile; i++)
				dup = dup || cc->profile[i] == run->clients[k];
			if (!dup)
				cc->profile[cc->nprofile++] = run->clients[k];
		}
	}
	for (unsigned int i = 0; i < cc->nprofile; i++) {
		bool found = false;

		for (unsigned int k = 0; k < run->nclients; k++)
			found = found || run->clients[k] == cc->profile[i];
		if (!found)
			return usage_error(
				"--profile %u: %u is not one of the sweep's client counts",
				cc->profile[i], cc->profile[i]);
	}
	return OPTIONS_RUN;
}

/* The largest client count of the sweep. */
static unsigned int most_clients(const struct run_config *run)
{
	unsigned int most = 0;

	for (unsigned int i = 0; i < run->nclients; i++)
		if (run->clients[i] > most)
			most = run->clients[i];
	return most;
}

static enum options_action variant_placement(struct cpu_config *cc,
					     unsigned int most,
					     struct variant_config *v)
{
	enum placement_kind kind = PLACEMENT_NONE;
	struct cpulist list = { 0 };
	enum options_action act = OPTIONS_RUN;
	unsigned int bad;
	char cpus[256];

	if (v->placement_spec &&
	    placement_parse(v->placement_spec, &kind, &list))
		return usage_error(
			"bad --placement '%s': expected none, compact, spread or a CPU list such as 0,2-3",
			v->placement_spec);
	if (kind == PLACEMENT_LIST &&
	    placement_check(&list, &cc->allowed, &bad))
		act = usage_error(
			"--placement %s: CPU %u is not one this process may use (its affinity mask, from taskset or the cgroup's cpuset: %s)",
			v->placement_spec, bad,
			cpulist_format(&cc->allowed, cpus, sizeof(cpus)));
	else if (kind == PLACEMENT_LIST && list.n < most)
		act = usage_error(
			"--placement %s names %u CPU%s for up to %u clients: name one per client (a CPU may appear twice)",
			v->placement_spec, list.n, list.n == 1 ? "" : "s",
			most);
	else if (kind != PLACEMENT_NONE)
		act = need_topology(cc);
	if (act == OPTIONS_RUN) {
		placement_init(&v->placement, kind, &list, &cc->allowed,
			       cc->topo_loaded ? &cc->topo : NULL, cc->quota);
		v->run.placement = &v->placement;
	}
	cpulist_release(&list);
	return act;
}

enum options_action cpuopts_placements(struct cpu_config *cc,
				       const struct run_config *run,
				       struct variant_config *v, unsigned int n)
{
	enum options_action act = OPTIONS_RUN;
	unsigned int most = most_clients(run);

	for (unsigned int i = 0; i < n && act == OPTIONS_RUN; i++)
		act = variant_placement(cc, most, &v[i]);
	return act;
}

void cpuopts_release(struct cpu_config *cc)
{
	cpulist_release(&cc->allowed);
	if (cc->topo_loaded)
		topology_release(&cc->topo);
	free(cc->profile);
	memset(cc, 0, sizeof(*cc));
}
