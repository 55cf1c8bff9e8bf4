/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The report's header, before any run: what each variant replays and
 * how, the run's length and order, the machine, the work directory, an
 * MPI job's ranks and hosts.
 */
#include <config.h>
#include "report/header.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/units.h"
#include "lang/loadfile.h"
#include "report/report.h"
#include "report/uring.h"
#include "report/walk.h"
#include "run/clientdir.h"
#include "run/runconfig.h"
#include "run/sweep.h"
#include "workdir/workdir.h"

static const char *const cwd_names[] = { "private", "shared" };
static const char *const fs_names[] = { "private", "shared" };
static const char *const fdt_names[] = { "shared", "private" };
static const char *const order_names[] = { "sequential", "interleaved",
					   "random", "shuffled" };

/* A variant's loadfile and settings: two lines, indented by @indent. */
static void print_setup(const char *indent, const struct report_config *rc,
			const char *engine, const struct run_config *cfg,
			const struct loadfile *lf)
{
	/* an ESC or a newline in a name must not break the line */
	char *name = escape_shown(lf->name);
	struct walk_figures w;
	char dcache[REPORT_DCACHE_LEN], lanes[48] = "";

	if (run_config_lanes(cfg) > 1)
		snprintf(lanes, sizeof(lanes), " (%u lanes a client thread)",
			 run_config_lanes(cfg));
	else if (report_uring_fixed(cfg, engine))
		snprintf(lanes, sizeof(lanes), " (fixed files)");
	printf("%sloadfile %s: %u ops, %u in [setup]\n", indent, name,
	       loadfile_run_nops(lf), lf->nsetup);
	free(name);
	printf("%sengine %s%s  cwd %s  fs_struct %s  fd table %s  depth %u  dcache %s  placement %s\n",
	       indent, engine, lanes, cwd_names[cfg->cwd], fs_names[cfg->fs],
	       fdt_names[cfg->fdt], cfg->depth, report_dcache(cfg, dcache),
	       report_placement(cfg));
	walk_figures(&w, rc, cfg, lf);
	printf("%swalk: resolve %s  prefix %s  a lookup walks %u component%s before the loadfile's path, then the path's own (%.1f on average)",
	       indent, resolve_names[run_config_resolve(cfg)], walk_prefix(cfg),
	       w.added, w.added == 1 ? "" : "s", w.own);
	if (run_config_resolve(cfg) == RESOLVE_ABS)
		printf(", %u of them from / to the work directory, crossing %u mount point%s",
		       rc->abs_components, w.mounts, w.mounts == 1 ? "" : "s");
	printf("\n");
}

void report_rank_list(const struct layout *l, unsigned int h, char *buf,
		      size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (unsigned int i = l->first[h]; i < l->first[h + 1] && n < len;) {
		unsigned int j = i;

		while (j + 1 < l->first[h + 1] &&
		       l->by_host[j + 1] == l->by_host[j] + 1)
			j++;
		if (j == i)
			n += (size_t)snprintf(buf + n, len - n, "%s%u",
					      n ? "," : "", l->by_host[i]);
		else
			n += (size_t)snprintf(buf + n, len - n, "%s%u-%u",
					      n ? "," : "", l->by_host[i],
					      l->by_host[j]);
		i = j + 1;
	}
}

/* An MPI job's ranks and hosts, and who shares the work directory. */
static void print_job(const struct report_config *rc)
{
	const struct layout *l = rc->layout;
	unsigned int shared = 1;

	if (!l || l->nranks < 2)
		return;
	for (unsigned int r = 1; rc->attached && r < l->nranks; r++)
		shared += rc->attached[r];
	printf("ranks %u on %u host%s, clients %s; the work directory shared by %u of %u ranks%s\n",
	       l->nranks, l->nhosts, l->nhosts == 1 ? "" : "s",
	       l->distribute == DISTRIBUTE_HOST_BY_HOST ? "host by host" :
							  "round-robin",
	       shared, l->nranks,
	       shared < l->nranks ? " (the others have their own)" : "");
}

void report_header(const struct report_config *rc, const struct run_config *cfg,
		   const struct sweep_variant *v, unsigned int nvariants,
		   const struct workdir *wd, const struct env *env)
{
	char t[32], w[32], *dir;

	if (nvariants == 1) {
		printf("vfsbench %s  ", PACKAGE_VERSION);
		print_setup("", rc, rc->engine, v[0].cfg, v[0].lf);
	} else {
		printf("vfsbench %s  %u variants, run interleaved:\n",
		       PACKAGE_VERSION, nvariants);
		for (unsigned int i = 0; i < nvariants; i++) {
			char *label = escape_shown(v[i].label);

			printf("  %s:\n", label);
			free(label);
			print_setup("    ", rc, rc->variants[i].engine,
				    v[i].cfg, v[i].lf);
		}
	}
	if (cfg->loops)
		printf("loops %llu per client", (unsigned long long)cfg->loops);
	else
		printf("time %s", units_format_ns(t, sizeof(t), cfg->time_ns));
	if (cfg->warmup_kind == WARMUP_PASSES)
		printf("  warmup %llu passes\n",
		       (unsigned long long)cfg->warmup);
	else
		printf("  warmup %s\n",
		       cfg->warmup ?
			       units_format_ns(w, sizeof(w), cfg->warmup) :
			       "none");
	if (cfg->order == ORDER_RANDOM ||
	    (cfg->order == ORDER_SHUFFLED && (cfg->runs > 1 || nvariants > 1)))
		printf("runs %u per client count, order %s, seed %llu\n",
		       cfg->runs, order_names[cfg->order],
		       (unsigned long long)cfg->seed);
	else if (cfg->runs > 1)
		printf("runs %u per client count, order %s\n", cfg->runs,
		       order_names[cfg->order]);
	report_machine(v, nvariants, env, rc->json);
	dir = escape_shown(wd->path);
	printf("directory %s\n", dir);
	free(dir);
	print_job(rc);
}
