/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The machine in the text report: the header's lines on the CPUs, the
 * placement and the environment that moves results; after each run, its
 * clients' noise and its profile.
 */
#include <config.h>
#include "report/report.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/units.h"
#include "run/runconfig.h"
#include "run/run.h"
#include "stats/result.h"
#include "sys/env.h"
#include "sys/perfctl.h"
#include "sys/placement.h"
#include "sys/topology.h"

/* The most CPUs of an order the header lists. */
#define SHOW_CPUS 16

const char *report_placement(const struct run_config *cfg)
{
	return placement_name(cfg->placement ? cfg->placement->kind :
					       PLACEMENT_NONE);
}

bool report_uring_fixed(const struct run_config *cfg, const char *engine)
{
	return cfg->uring_fixed && engine && !strcmp(engine, "uring");
}

const char *report_dcache(const struct run_config *cfg, char *buf)
{
	if (cfg->dcache == DCACHE_NEGATIVE)
		snprintf(buf, REPORT_DCACHE_LEN, "negative=%u",
			 cfg->dcache_negative);
	else
		snprintf(buf, REPORT_DCACHE_LEN, "%s",
			 cfg->dcache == DCACHE_COLD ? "cold" : "warm");
	return buf;
}

static void print_order(const struct cpulist *order)
{
	for (unsigned int i = 0; i < order->n && i < SHOW_CPUS; i++)
		printf("%s%u", i ? "," : "", order->cpu[i]);
	if (order->n > SHOW_CPUS)
		printf(",... (%u)", order->n);
}

/*
 * "cpus 0-1 of 2 online (1 package, 1 node, 1 L3, 2 cores, no SMT)" and,
 * for each variant that pins its clients, the order they take the CPUs.
 */
static void print_cpus(const struct sweep_variant *v, unsigned int nvariants,
		       const struct env *env)
{
	const struct placement *pl = v[0].cfg->placement;
	const struct topology *topo = NULL;
	char cpus[256];

	for (unsigned int i = 0; i < nvariants && !topo; i++)
		if (v[i].cfg->placement)
			topo = v[i].cfg->placement->topo;
	if (!pl)
		return;
	printf("cpus %s of %ld online",
	       cpulist_format(pl->allowed, cpus, sizeof(cpus)),
	       env->cpus_online);
	if (topo)
		printf(" (%u package%s, %u node%s, %u %s%s, %u core%s, %s)",
		       topo->npackages, topo->npackages == 1 ? "" : "s",
		       topo->nnodes, topo->nnodes == 1 ? "" : "s",
		       topo->ncaches, topo->cache_name,
		       topo->ncaches == 1 ? "" : "s", topo->ncores,
		       topo->ncores == 1 ? "" : "s",
		       topo->smt ? "SMT" : "no SMT");
	if (pl->quota > 0)
		printf(", cgroup quota %.2f CPUs", pl->quota);
	printf("\n");
	for (unsigned int i = 0; i < nvariants; i++) {
		const struct placement *p = v[i].cfg->placement;

		if (!p || !p->order.n)
			continue;
		if (nvariants > 1)
			printf("%s: ", v[i].label);
		printf("client i on the i-th of ");
		print_order(&p->order);
		printf(" (%s); the main thread moves off their CPUs where others are left\n",
		       placement_name(p->kind));
	}
}

/*
 * The sched features that are off: those named NO_...; where they cannot
 * be read, why (and how to mount debugfs) only with --json (@why): a
 * result kept to be compared is where a missing feature list matters.
 */
static void print_sched_features(const struct env *e, bool why)
{
	const char *s = e->sched_features;
	unsigned int n = 0, off = 0;

	if (!s && why)
		printf("sched_features unavailable: %s",
		       e->sched_features_why ? e->sched_features_why : "?");
	if (!s) {
		if (!why)
			printf("sched_features -");
		return;
	}
	for (const char *p = s; *p;) {
		size_t len = strcspn(p, " ");

		if (len) {
			n++;
			off += !strncmp(p, "NO_", 3);
		}
		p += len + strspn(p + len, " ");
	}
	printf("sched_features %u, %u off", n, off);
	for (const char *p = s; *p && off;) {
		size_t len = strcspn(p, " ");

		if (!strncmp(p, "NO_", 3))
			printf(" %.*s", (int)len, p);
		p += len + strspn(p + len, " ");
	}
}

static const char *or_dash(const char *s)
{
	return s ? s : "-";
}

/* The environment that moves results, in two lines. */
static void print_env(const struct env *e, bool json)
{
	const struct cgroup_cpu *cg = &e->cgroup;
	char vuln[256];
	unsigned int nv = env_vulnerable(e, vuln, sizeof(vuln));

	printf("environment: kernel %s  smt %s  numa nodes %s  cpufreq %s/%s boost %s  thp %s",
	       or_dash(e->release), or_dash(e->smt_control),
	       or_dash(e->numa_nodes), or_dash(e->cpufreq_driver),
	       or_dash(e->governor),
	       e->boost < 0 ? "-" :
	       e->boost	    ? "on" :
			      "off",
	       or_dash(e->thp_enabled));
	if (e->loadavg[0] >= 0)
		printf("  load %.2f %.2f %.2f", e->loadavg[0], e->loadavg[1],
		       e->loadavg[2]);
	printf("\n");
	print_sched_features(e, json);
	if (cg->version)
		printf("  cgroup v%d %s: cpu.max %s, cpuset %s", cg->version,
		       or_dash(cg->path), or_dash(cg->cpu_max),
		       or_dash(cg->cpuset));
	if (nv)
		printf("  vulnerable: %s", vuln);
	else
		printf("  vulnerable: none of %u", e->nvulns);
	printf("\n");
}

void report_machine(const struct sweep_variant *v, unsigned int nvariants,
		    const struct env *env, bool json)
{
	print_cpus(v, nvariants, env);
	print_env(env, json);
}

/* One CPU of one host (an MPI job's hosts each have a CPU 0). */
static bool same_cpu(const struct client_sample *a,
		     const struct client_sample *b)
{
	return a->cpu == b->cpu && a->host == b->host;
}

/* Pinned clients that shared a CPU: "CPU 0: clients 0,2; CPU 1: 1,3". */
static void print_shared(const struct run *run)
{
	unsigned int shared = 0;

	for (unsigned int i = 0; i < run->started; i++) {
		const struct client_sample *a = &run->samples[i];
		bool first = true;

		if (a->cpu < 0)
			continue;
		for (unsigned int k = 0; k < i; k++)
			first = first && !same_cpu(&run->samples[k], a);
		if (!first)
			continue;
		for (unsigned int k = i + 1; k < run->started; k++) {
			if (!same_cpu(&run->samples[k], a))
				continue;
			if (!shared++)
				printf("warning: pinned clients shared CPUs (%u clients on %.0f CPU%s):",
				       run->nclients, run->cpus,
				       run->cpus == 1 ? "" : "s");
			if (first)
				printf("%s CPU %d: clients %u",
				       shared > 1 ? ";" : "", a->cpu, i);
			first = false;
			printf(",%u", k);
		}
	}
	if (shared)
		printf("\n");
}

/* A client's CPU time, in s. */
static double cpu_s(const struct client_sample *cs)
{
	return cs->usage.user_s + cs->usage.sys_s;
}

void report_noise(const struct run *run)
{
	unsigned int most_mig = 0, most_inv = 0, lo = 0, hi = 0;
	uint64_t migrations = 0;
	bool known = false;
	char b[2][16];

	if (!run->started)
		return;
	for (unsigned int i = 0; i < run->started; i++) {
		const struct client_sample *cs = &run->samples[i];

		known = known || cs->usage.migrations_known;
		migrations += cs->usage.migrations;
		if (cs->usage.migrations >
		    run->samples[most_mig].usage.migrations)
			most_mig = i;
		if (cs->usage.involuntary >
		    run->samples[most_inv].usage.involuntary)
			most_inv = i;
		if (cpu_s(cs) < cpu_s(&run->samples[lo]))
			lo = i;
		if (cpu_s(cs) > cpu_s(&run->samples[hi]))
			hi = i;
	}
	printf("Noise per client: CPU time min %.3f s (client %u) max %.3f s (client %u)",
	       cpu_s(&run->samples[lo]), lo, cpu_s(&run->samples[hi]), hi);
	if (known)
		printf("  migrations %llu (most %llu, client %u)",
		       (unsigned long long)migrations,
		       (unsigned long long)run->samples[most_mig]
			       .usage.migrations,
		       most_mig);
	printf("  involuntary switches most %llu (client %u)\n",
	       (unsigned long long)run->samples[most_inv].usage.involuntary,
	       most_inv);
	for (unsigned int i = 0; i < run->started; i++) {
		const struct client_sample *cs = &run->samples[i];

		if (cs->cpu < 0 ||
		    (!cs->usage.migrations &&
		     (cs->last_cpu < 0 || cs->last_cpu == cs->cpu)))
			continue;
		printf("warning: client %u, pinned to CPU %d, migrated while it measured: %llu migration%s, last ran on CPU %d\n",
		       i, cs->cpu, (unsigned long long)cs->usage.migrations,
		       cs->usage.migrations == 1 ? "" : "s", cs->last_cpu);
	}
	print_shared(run);
	if (run->perf && run->perf_on_ns && run->total.t_end) {
		printf("profile %s: perf's events on %s before the measurement, off %s after it\n",
		       run->perf_file ? run->perf_file : run->perf->name,
		       units_format_ns(b[0], sizeof(b[0]),
				       run->total.t_start - run->perf_on_ns),
		       units_format_ns(b[1], sizeof(b[1]),
				       run->perf_off_ns - run->total.t_end));
	}
}
