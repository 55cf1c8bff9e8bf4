/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The client-count sweep: one run per count (times --runs, in the order
 * chosen), each handed to the caller's hooks as it ends, then the
 * summaries of each count and the arithmetic of the table relative to the
 * baseline count. Prints nothing itself.
 */
#include <config.h>
#include "run/sweep.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/clock.h"
#include "base/exit.h"
#include "base/msg.h"
#include "run/exechook.h"
#include "run/layout.h"
#include "run/memory.h"
#include "run/peers.h"
#include "run/run.h"
#include "run/signals.h"
#include "workdir/workdir.h"
#include "stats/result.h"
#include "sys/memory.h"

/* What a row's clients can use at once: themselves, or fewer CPUs. */
static double used(const struct sweep_row *r)
{
	return r->cpus > 0 && r->cpus < r->clients ? r->cpus :
						     (double)r->clients;
}

unsigned int sweep_rows_compute(struct sweep_row *rows, unsigned int n,
				enum metric metric)
{
	unsigned int base = 0;
	double bm;

	for (unsigned int i = 0; i < n; i++) {
		if (rows[i].clients == 1) {
			base = i;
			break;
		}
		if (rows[i].clients < rows[base].clients)
			base = i;
	}
	bm = metric == METRIC_MBPS ? rows[base].mb_s : rows[base].ops_s;
	for (unsigned int i = 0; i < n; i++) {
		double m = metric == METRIC_MBPS ? rows[i].mb_s : rows[i].ops_s;
		double scale = used(&rows[i]) / used(&rows[base]);

		rows[i].relative = bm > 0 ? m / bm : 0;
		rows[i].efficiency = rows[i].relative / scale;
	}
	return base;
}

/* "3.13 GiB", "16.8 MiB", "27.6 KiB": bytes for a message. */
static char *bytes_str(char *buf, size_t len, uint64_t b)
{
	if (b >= (1ull << 30))
		snprintf(buf, len, "%.2f GiB", (double)b / (1ull << 30));
	else if (b >= (1ull << 20))
		snprintf(buf, len, "%.1f MiB", (double)b / (1ull << 20));
	else
		snprintf(buf, len, "%.1f KiB", (double)b / (1ull << 10));
	return buf;
}

int sweep_check_memory(const struct run_config *cfg,
		       const struct sweep_variant *variants,
		       unsigned int nvariants)
{
	uint64_t kept = 0, need, each, limit, stack;
	struct run_memory rm, as = { 0 }, mem = { 0 };
	unsigned int most = 0;
	struct memory_limits ml;
	const struct run_memory *w;
	const char *what, *left;
	char b[6][32];

	/* in an MPI job, this rank's share of each count */
	for (unsigned int p = 0; p < cfg->nclients; p++) {
		unsigned int n =
			cfg->layout ? layout_place(cfg->layout, cfg->clients[p],
						   cfg->layout->rank, NULL) :
				      cfg->clients[p];

		if (n > most)
			most = n;
	}
	/* the largest run is that of the variant that needs the most */
	for (unsigned int v = 0; v < nvariants; v++) {
		run_memory(&rm, variants[v].lf, variants[v].engine,
			   variants[v].cfg);
		for (unsigned int p = 0; p < cfg->nclients; p++)
			kept += (uint64_t)cfg->runs * cfg->clients[p] *
					rm.kept +
				cfg->runs * rm.fixed;
		if (rm.mapped > as.mapped)
			as = rm;
		if (rm.touched > mem.touched)
			mem = rm;
	}
	memory_limits(&ml);
	/* address space: whole stacks; memory: what is touched */
	if (most * as.mapped + kept > ml.as_left) {
		w = &as;
		each = as.mapped;
		stack = as.stack;
		limit = ml.as_left;
		what = "address space";
		left = "RLIMIT_AS (ulimit -v) leaves";
	} else {
		w = &mem;
		each = mem.touched;
		stack = mem.touched - mem.mapped + mem.stack;
		limit = ml.available < ml.cgroup_left ? ml.available :
							ml.cgroup_left;
		what = "memory";
		left = ml.available < ml.cgroup_left ?
			       "the machine has available (MemAvailable)" :
			       "the memory cgroup leaves";
	}
	need = most * each + kept;
	if (need <= limit)
		return 0;
	error("%u client%s need%s %s of %s (%s a client: %s of pread/pwrite buffer, %s of statistics, %s of stack), but %s %s: use fewer clients or a smaller pread/pwrite size",
	      most, most == 1 ? "" : "s", most == 1 ? "s" : "",
	      bytes_str(b[0], 32, need), what, bytes_str(b[1], 32, each),
	      bytes_str(b[2], 32, w->client.data),
	      bytes_str(b[3], 32, w->client.stats), bytes_str(b[4], 32, stack),
	      left, bytes_str(b[5], 32, limit));
	return -ENOMEM;
}

/*
 * --exec-before (@end NULL) or --exec-after of run @index. Returns the
 * exit status that stops the sweep, or VB_EXIT_OK.
 */
static int exec_hook(const char *cmd, unsigned int index,
		     const struct point *pt, const struct sweep *sw,
		     const struct workdir *wd, const char *end)
{
	struct exec_hook h = {
		.cmd = cmd,
		.when = end ? "after" : "before",
		.run = index,
		.clients = pt->clients,
		.repeat = pt->nruns,
		.variant = sw->variants[pt->variant].label,
		.several = sw->nvariants > 1,
		.workdir = wd->path,
		.end = end,
	};
	int ret;

	if (!cmd)
		return VB_EXIT_OK;
	/* a stop before a run starts nothing; the hook after one still runs */
	if (!end && signals.count)
		return VB_EXIT_SIGNAL(signals.last);
	ret = exec_hook_run(&h);
	if (signals.count)
		return VB_EXIT_SIGNAL(signals.last);
	return ret ? VB_EXIT_RUNTIME : VB_EXIT_OK;
}

static int exit_status(const struct run *run)
{
	switch (atomic_load(&run->state.end)) {
	case RUN_END_COMPLETE:
		return VB_EXIT_OK;
	case RUN_END_STRICT:
	case RUN_END_MAX_ERRORS:
		return VB_EXIT_UNEXPECTED;
	case RUN_END_SIGNAL:
		return VB_EXIT_SIGNAL(signals.last);
	case RUN_END_FAILED:
	case RUN_END_STUCK:
		break;
	}
	return VB_EXIT_RUNTIME;
}

static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void sweep_schedule(unsigned int *order, unsigned int npoints,
		    unsigned int runs, enum run_order how, uint64_t seed)
{
	unsigned int n = npoints * runs, k = 0;

	if (how == ORDER_SHUFFLED) {
		for (unsigned int r = 0; r < runs; r++) {
			unsigned int *round = order + r * npoints;

			for (unsigned int p = 0; p < npoints; p++)
				round[p] = p;
			for (unsigned int i = npoints - 1; i > 0; i--) {
				unsigned int j =
					(unsigned int)(splitmix64(&seed) %
						       (i + 1));
				unsigned int t = round[i];

				round[i] = round[j];
				round[j] = t;
			}
		}
		return;
	}
	if (how == ORDER_INTERLEAVED) {
		for (unsigned int r = 0; r < runs; r++)
			for (unsigned int p = 0; p < npoints; p++)
				order[k++] = p;
		return;
	}
	for (unsigned int p = 0; p < npoints; p++)
		for (unsigned int r = 0; r < runs; r++)
			order[k++] = p;
	if (how != ORDER_RANDOM)
		return;
	for (unsigned int i = n - 1; i > 0; i--) {
		unsigned int j = (unsigned int)(splitmix64(&seed) % (i + 1));
		unsigned int t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
}

/* Summaries of each point over its measured runs. */
static void summarise(struct sweep *sw)
{
	double *v = xcalloc(sw->cfg->runs, 3 * sizeof(*v));

	for (unsigned int p = 0; p < sw->npoints; p++) {
		struct point *pt = &sw->points[p];
		unsigned int n = pt->nruns;

		for (unsigned int r = 0; r < n; r++) {
			v[r] = run_ops_per_sec(pt->runs[r]);
			v[n + r] = run_mb_per_sec(pt->runs[r]);
			v[2 * n + r] = run_p99_ns(pt->runs[r]);
		}
		summary_of(&pt->ops_s, v, n);
		summary_of(&pt->mb_s, v + n, n);
		summary_of(&pt->p99_ns, v + 2 * n, n);
	}
	free(v);
}

/*
 * How long a run of @cfg takes from its warmup to its stop: its --warmup
 * and --time, or, where it counts passes, the mean @mean_ns of the runs
 * done so far, setup and cleanup included (0: none yet, not known).
 */
static uint64_t planned_ns(const struct run_config *cfg, uint64_t mean_ns)
{
	if (cfg->loops || (cfg->warmup_kind == WARMUP_PASSES && cfg->warmup))
		return mean_ns;
	return cfg->time_ns +
	       (cfg->warmup_kind == WARMUP_TIME ? cfg->warmup : 0);
}

/*
 * Where run @i of @total stands, for its progress line: @order's runs
 * after it, each planned_ns(), UINT64_MAX when one of them is not known.
 */
static void run_place(struct run *run, const struct sweep *sw,
		      const unsigned int *order, unsigned int i,
		      unsigned int total, uint64_t mean_ns)
{
	const struct sweep_variant *v =
		&sw->variants[sw->points[order[i]].variant];

	struct run_place *pl = &run->place;

	pl->index = i;
	pl->of = total;
	pl->variant = sw->nvariants > 1 ? v->label : NULL;
	pl->planned_ns = planned_ns(v->cfg, mean_ns);
	pl->after_ns = 0;
	for (unsigned int j = i + 1; j < total; j++) {
		v = &sw->variants[sw->points[order[j]].variant];
		if (!planned_ns(v->cfg, mean_ns)) {
			pl->after_ns = UINT64_MAX;
			return;
		}
		pl->after_ns += planned_ns(v->cfg, mean_ns);
	}
}

int sweep_execute(struct sweep *sw, const struct run_config *cfg,
		  const struct sweep_variant *variants, unsigned int nvariants,
		  struct workdir *wd, const struct sweep_hooks *hooks)
{
	unsigned int total, *order;
	const struct run_hooks rh = {
		.ready = hooks->ready,
		.second = hooks->second,
		.ctx = hooks->ctx,
	};
	int status = VB_EXIT_OK;
	/* the complete runs' time, setup to cleanup: what --loops runs take */
	uint64_t measured_ns = 0, begun;
	unsigned int measured = 0;

	memset(sw, 0, sizeof(*sw));
	sw->cfg = cfg;
	sw->lf = variants[0].lf;
	sw->variants = variants;
	sw->nvariants = nvariants;
	sw->npoints = nvariants * cfg->nclients;
	total = sw->npoints * cfg->runs;
	sw->runs = xcalloc(total, sizeof(*sw->runs));
	sw->variant_of = xcalloc(total, sizeof(*sw->variant_of));
	sw->points = xcalloc(sw->npoints, sizeof(*sw->points));
	for (unsigned int p = 0; p < sw->npoints; p++) {
		sw->points[p].variant = p / cfg->nclients;
		sw->points[p].clients = cfg->clients[p % cfg->nclients];
		sw->points[p].runs = xcalloc(cfg->runs, sizeof(struct run *));
	}
	order = xcalloc(total, sizeof(*order));
	sweep_schedule(order, sw->npoints, cfg->runs, cfg->order, cfg->seed);
	for (unsigned int i = 0;; i++) {
		struct point *pt = i < total ? &sw->points[order[i]] : NULL;
		const struct sweep_variant *v;
		unsigned int entry;
		struct run *run;
		int ret, after;

		/* before the meeting, so that every rank hears of a failure */
		if (pt && status == VB_EXIT_OK)
			status = exec_hook(cfg->exec_before, i, pt, sw, wd,
					   NULL);

		/*
		 * At the end, or stopped: by a signal between two runs (or
		 * stdout closed at a report), a failure or an early end; in
		 * an MPI job, every rank at once, on any rank's word
		 */
		if (!peers_continue(cfg->layout, &status, i < total,
				    cfg->stop_wait_ns)) {
			if (i < total || status != VB_EXIT_OK)
				sw->stopped = true;
			break;
		}
		v = &variants[pt->variant];
		entry = order[i] % cfg->nclients;
		run = &sw->runs[i];
		run_init(run, v->cfg, v->lf, v->engine, pt->clients, i,
			 pt->nruns);
		run->hooks = &rh;
		run->perf = v->perf ? v->perf[entry] : NULL;
		run->perf_file = v->perf_file ? v->perf_file[entry] : NULL;
		run_place(run, sw, order, i, total,
			  measured ? measured_ns / measured : 0);
		sw->variant_of[i] = pt->variant;
		sw->nruns++;
		begun = clock_now_ns();
		ret = run_execute(run, wd);
		if (atomic_load(&run->state.end) == RUN_END_COMPLETE) {
			measured_ns += clock_now_ns() - begun;
			measured++;
		}
		run->hooks = NULL; /* rh is gone once the sweep returns */
		if (atomic_load(&run->state.end) != RUN_END_FAILED &&
		    hooks->run)
			hooks->run(run, nvariants > 1 ? v->label : NULL,
				   hooks->ctx);
		after = exec_hook(cfg->exec_after, i, pt, sw, wd,
				  run_end_name(atomic_load(&run->state.end)));
		/* a stopped run's partial figures stay out of the summaries */
		if (atomic_load(&run->state.end) == RUN_END_COMPLETE)
			pt->runs[pt->nruns++] = run;
		status = exit_status(run);
		if (ret && status == VB_EXIT_OK)
			status = VB_EXIT_RUNTIME;
		if (run->stuck) {
			sw->stuck = true;
			if (status == VB_EXIT_OK)
				status = VB_EXIT_RUNTIME;
		}
		/* the next meeting stops the sweep, on every rank */
		if (status == VB_EXIT_OK)
			status = after;
	}
	free(order);
	summarise(sw);
	if (hooks->done)
		hooks->done(sw, hooks->ctx);
	return status;
}

void sweep_release(struct sweep *sw)
{
	for (unsigned int i = 0; i < sw->nruns; i++)
		run_release(&sw->runs[i]);
	for (unsigned int p = 0; p < sw->npoints; p++)
		free(sw->points[p].runs);
	free(sw->points);
	/* a stuck client's run state lives in this array */
	if (!sw->stuck)
		free(sw->runs);
	free(sw->variant_of);
	memset(sw, 0, sizeof(*sw));
}
