/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The human report of each run (per-op table, totals, dbench's final
 * line) and the sweep table; its header is header.c's.
 */
#include <config.h>
#include "report/report.h"
#include "report/header.h"
#include "report/uring.h"
#include "report/walk.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/clock.h"
#include "base/units.h"
#include "base/escape.h"
#include "lang/loadfile.h"
#include "run/clientdir.h"
#include "run/runconfig.h"
#include "run/layout.h"
#include "run/run.h"
#include "run/signals.h"
#include "run/sweep.h"
#include "run/verdict.h"
#include "workdir/workdir.h"
#include "sys/task.h"

static void print_unexpected(const struct run *run)
{
	const struct result *r = &run->total;
	char buf[16];

	if (!r->unexpected && !r->skipped && !r->interrupted)
		return;
	printf("Unexpected results (op: outcome x count):\n");
	for (unsigned int s = 0; s < r->nslots; s++) {
		const char *name = op_table[run->state.lf->slot_op[s]].name;

		for (unsigned int e = 0; e < ERR_NR; e++) {
			const char *what;

			if (!r->err[s][e] || e == ERR_UNCACHED ||
			    e == ERR_INLINE)
				continue;
			if (e == 0)
				what = "success (an errno was expected)";
			else if (e == ERR_SKIPPED)
				what = "skipped (handle dead: its open failed)";
			else if (e == ERR_INTERRUPTED)
				what = "interrupted by the stop (EINTR), not an unexpected result";
			else if (e == ERR_OTHER)
				what = "errno >= 134";
			else
				what = op_errno_name((int)e, buf, sizeof(buf));
			printf("  %s: %s x %llu\n", name, what,
			       (unsigned long long)r->err[s][e]);
		}
	}
}

/*
 * What tripped --strict or --max-errors: the loadfile line, its op, the
 * errno by name, and the client, on a note of its own.
 */
static void print_trip(const struct run *run)
{
	const struct run_trip *t = &run->state.trip;
	int end = atomic_load(&run->state.end);
	char *file, name[32];

	if (!t->op || (end != RUN_END_STRICT && end != RUN_END_MAX_ERRORS))
		return;
	file = escape_shown(run->state.lf->name);
	if (t->err)
		printf("note: %s tripped at %s:%u: %s: unexpected result %s (%s), client %u\n",
		       end == RUN_END_STRICT ? "--strict" : "--max-errors",
		       file, t->op->line, op_table[t->op->id].name,
		       op_errno_name(t->err, name, sizeof(name)),
		       strerror(t->err), t->client);
	else
		printf("note: %s tripped at %s:%u: %s: unexpected result success, client %u\n",
		       end == RUN_END_STRICT ? "--strict" : "--max-errors",
		       file, t->op->line, op_table[t->op->id].name, t->client);
	free(file);
}

static const char *end_note(const struct run *run)
{
	bool warm = run->state.trip.op && run->state.trip.phase == PHASE_WARMUP;

	switch (atomic_load(&run->state.end)) {
	case RUN_END_STRICT:
		return warm ? "stopped by --strict in the warmup: nothing measured" :
			      "stopped by --strict at an unexpected result: partial results";
	case RUN_END_MAX_ERRORS:
		return warm ? "stopped by --max-errors in the warmup: nothing measured" :
			      "stopped by --max-errors: partial results";
	case RUN_END_SIGNAL:
		return "interrupted by a signal: partial results";
	case RUN_END_FAILED:
		return "failed";
	case RUN_END_STUCK:
		return "a client did not return from a system call after the stop: partial results";
	default:
		return NULL;
	}
}

static double per_sec(uint64_t v, uint64_t ns)
{
	return ns ? (double)v * 1e9 / (double)ns : 0;
}

/*
 * The op kinds of [run] that no measured call reached (all of them before
 * the window, or skipped on a dead handle), which the native table leaves
 * out: named on one line after it, with their skipped calls.
 */
static void print_unmeasured(const struct run *run)
{
	const struct result *r = &run->total;
	const char *sep = "Left out, no call measured: ";

	for (unsigned int s = 0; s < r->nslots; s++) {
		uint64_t skipped = r->err[s][ERR_SKIPPED];

		if (r->count[s])
			continue;
		printf("%s%s", sep, op_table[run->state.lf->slot_op[s]].name);
		if (skipped)
			printf(" (%llu skipped)", (unsigned long long)skipped);
		sep = ", ";
	}
	if (*sep == ',')
		printf("\n");
}

/*
 * The RCU-walk probe: of its lookups, how many completed from the dcache
 * without leaving RCU-walk mode (openat2 RESOLVE_CACHED succeeded or
 * found no such name), how many could not (EAGAIN), how many failed.
 */
static void print_probe(const struct run *run)
{
	const struct result *r = &run->total;

	for (unsigned int s = 0; s < r->nslots; s++) {
		uint64_t n = r->count[s], un = r->err[s][ERR_UNCACHED], bad = 0;

		if (run->state.lf->slot_op[s] != OP_PROBE || !n)
			continue;
		for (unsigned int e = 0; e < ERR_SKIPPED; e++)
			bad += r->err[s][e];
		printf("RCU-walk probe: %llu of %llu lookups completed in RCU-walk mode (%.2f%%), %llu left it (EAGAIN), %llu unexpected\n",
		       (unsigned long long)(n - un - bad),
		       (unsigned long long)n,
		       100.0 * (double)(n - un - bad) / (double)n,
		       (unsigned long long)un, (unsigned long long)bad);
	}
}

/*
 * --latency-sample: which latencies the tables show. Counts and rates are
 * of every op, the latency columns of the ops timed.
 */
static void print_sampled(const struct run *run)
{
	const struct result *r = &run->total;
	uint32_t every = run->state.cfg->latency_sample;
	uint64_t timed = 0;

	if (every <= 1)
		return;
	for (unsigned int s = 0; s < r->nslots; s++)
		timed += r->lat[s].count;
	printf("Latencies sampled: 1 op in %u of each kind per client timed (%llu of %llu ops); avg, percentiles and max are of those\n",
	       every, (unsigned long long)timed, (unsigned long long)r->ops);
}

/* An op's avg, p50, p99, p99.9 and max, the columns of its row, into @v. */
static void op_latencies(const struct hist *h, uint64_t v[5])
{
	v[0] = (uint64_t)hist_mean(h);
	v[1] = hist_percentile(h, 50);
	v[2] = hist_percentile(h, 99);
	v[3] = hist_percentile(h, 99.9);
	v[4] = h->count ? h->max : 0;
}

/*
 * The native per-op table: counts, rates and percentiles, of the op kinds
 * with a measured call; each latency column in one unit.
 */
static void print_native(const struct run *run, uint64_t el,
			 enum latency_unit run_units)
{
	const struct result *r = &run->total;
	struct unit_col col[5];
	uint64_t v[5];
	char b[5][32];

	/* each column in one unit: its values first */
	for (unsigned int k = 0; k < 5; k++)
		unit_col_init(&col[k]);
	for (unsigned int s = 0; s < r->nslots; s++) {
		if (!r->count[s])
			continue;
		op_latencies(&r->lat[s], v);
		for (unsigned int k = 0; k < 5; k++)
			unit_col_add(&col[k], v[k]);
	}
	for (unsigned int k = 0; k < 5; k++)
		unit_col_choose(&col[k], run_units);
	printf("%-16s %12s %12s %9s %9s %9s %9s %9s %10s\n", "Operation",
	       "Count", "ops/s", "avg", "p50", "p99", "p99.9", "max",
	       "unexpected");
	for (unsigned int s = 0; s < r->nslots; s++) {
		const struct hist *h = &r->lat[s];
		uint64_t unexpected = 0;

		if (!r->count[s])
			continue;
		for (unsigned int e = 0; e < ERR_SKIPPED; e++)
			unexpected += r->err[s][e];
		op_latencies(h, v);
		for (unsigned int k = 0; k < 5; k++)
			unit_col_format(&col[k], b[k], sizeof(b[k]), v[k]);
		printf("%-16s %12llu %12.2f %9s %9s %9s %9s %9s %10llu\n",
		       op_table[run->state.lf->slot_op[s]].name,
		       (unsigned long long)r->count[s],
		       per_sec(r->count[s], el), b[0], b[1], b[2], b[3], b[4],
		       (unsigned long long)unexpected);
	}
	print_unmeasured(run);
	print_probe(run);
	print_sampled(run);
}

/*
 * dbench's table, as dbench 4.0 prints it: rows in its order (the order
 * of enum op_id), zero counts hidden, latencies in ms. dbench has no row
 * for Sleep.
 */
static void print_dbench(const struct run *run)
{
	const struct result *r = &run->total;

	printf("\n Operation      Count    AvgLat    MaxLat\n");
	printf(" ----------------------------------------\n");
	for (unsigned int id = 0; id < OP_NR; id++) {
		for (unsigned int s = 0; s < r->nslots; s++) {
			const struct hist *h = &r->lat[s];

			if (run->state.lf->slot_op[s] != id || !r->count[s] ||
			    id == OP_DB_SLEEP)
				continue;
			printf(" %-12s %7llu %9.03f %9.03f\n",
			       op_table[id].name,
			       (unsigned long long)r->count[s],
			       hist_mean(h) / 1e6, (double)h->max / 1e6);
		}
	}
	printf("\n");
}

/*
 * A complete run that was not the run asked for: why, one line each, and
 * the mark that compare gives it.
 */
static void print_verdict(const struct run *run, const struct run_verdict *v)
{
	char b[3][16];

	if (!v->incomplete || atomic_load(&run->state.end) != RUN_END_COMPLETE)
		return;
	if (v->incomplete & INCOMPLETE_OVERRAN)
		printf("warning: incomplete: the window overran -t %s by %s (the margin is %s)\n",
		       units_format_ns(b[0], 16, v->asked_ns),
		       units_format_ns(b[1], 16, v->overrun_ns),
		       units_format_ns(b[2], 16, v->margin_ns));
	if (v->incomplete & INCOMPLETE_RANK_LATE)
		printf("warning: incomplete: rank %d %s %s late (the margin is %s)\n",
		       v->late_rank,
		       v->late_start ? "opened its gate" : "ended its window",
		       units_format_ns(b[0], 16, v->late_ns),
		       units_format_ns(b[1], 16, v->margin_ns));
	printf("warning: incomplete: not the run asked for (");
	for (unsigned int bit = 1, first = 1; bit <= INCOMPLETE_UNMEASURED;
	     bit <<= 1) {
		if (!(v->incomplete & bit))
			continue;
		printf("%s%s", first ? "" : ", ", run_verdict_name(bit));
		first = 0;
	}
	printf("): compare treats it as a starved run\n");
}

/* CPU use of the clients, a starvation flag, and time per pass. */
static void print_usage(const struct run *run)
{
	const struct result *r = &run->total;
	struct run_verdict v;
	double share, wait, min = 0, max = 0, sum = 0;
	unsigned int n = 0, idle;
	char b[3][16];

	run_verdict(run, &v);
	share = v.cpu_share;
	wait = v.wait_share;

	printf("CPU: user %.2f s  sys %.2f s", r->usage.user_s, r->usage.sys_s);
	/* io-wq runs the lanes' punted ops: the clients' time too */
	if (r->usage.iowq_known)
		printf("  io-wq %.2f s", (double)r->usage.iowq_ns / 1e9);
	printf("  (%.0f%% of what the clients could use)", share * 100);
	if (wait >= 0)
		printf("  run-queue wait %.0f%%", wait * 100);
	printf("  switches %llu voluntary, %llu involuntary\n",
	       (unsigned long long)r->usage.voluntary,
	       (unsigned long long)r->usage.involuntary);
	if (v.starved && v.unmeasured && run->nclients > run->cpus)
		printf("warning: starved: %u of %u clients never ran in the window (%.4g CPUs), and the clients waited for a CPU %.0f%% of the time\n",
		       v.unmeasured, run->nclients, run->cpus, wait * 100);
	else if (v.starved)
		printf("warning: starved: the clients used %.0f%% of the CPU time they could have had and waited for a CPU %.0f%% of the time\n",
		       share * 100, wait * 100);
	for (unsigned int i = 0; i < run->nclients; i++) {
		char what[256];

		if (!run->samples[i].stuck)
			continue;
		printf("warning: client %u did not return from a system call after the stop (thread %d: %s); its figures are missing\n",
		       i, run->samples[i].tid,
		       task_describe(run->samples[i].tid, what, sizeof(what)));
	}
	report_noise(run);
	/* the totals are those of the clients that ran: say so */
	idle = run_idle_clients(run);
	if (run->ready < run->nclients)
		printf("note: stopped during the setup: %u of %u clients were set up, none measured\n",
		       run->ready, run->nclients);
	else if (idle == run->nclients)
		printf("warning: no client measured an op\n");
	else if (idle)
		printf("warning: %u of %u clients measured no op: the figures are those of the other %u\n",
		       idle, run->nclients, run->nclients - idle);
	print_verdict(run, &v);
	for (unsigned int i = 0; i < run->nclients; i++) {
		const struct client_sample *cs = &run->samples[i];
		double per;

		if (!cs->passes)
			continue;
		per = (double)cs->elapsed_ns / (double)cs->passes;
		if (!n || per < min)
			min = per;
		if (!n || per > max)
			max = per;
		sum += per;
		n++;
	}
	if (n)
		printf("Time per pass per client: min %s  mean %s  max %s\n",
		       units_format_ns(b[0], 16, (uint64_t)min),
		       units_format_ns(b[1], 16, (uint64_t)(sum / n)),
		       units_format_ns(b[2], 16, (uint64_t)max));
}

/*
 * An MPI job's run: the start skew, the rank that stopped it, and each
 * host's share (its ranks merged, as rank 0 merged them all).
 */
static void print_hosts(const struct report_config *rc, const struct run *run)
{
	const struct layout *l = rc->layout;
	const struct peers *p = &run->peers;
	char b[3][16], ranks[64];
	struct hist *all;

	if (!l || l->nranks < 2 || !p->ranks)
		return;
	printf("Start skew between ranks: %s (clock offsets known within %s)\n",
	       units_format_ns(b[0], 16, p->skew_ns),
	       units_format_ns(b[1], 16, p->sync_err_ns));
	if (p->stopped_by >= 0 &&
	    atomic_load(&run->state.end) != RUN_END_COMPLETE)
		printf("note: the stop came from rank %d (host %s)\n",
		       p->stopped_by, l->hosts[l->host_of[p->stopped_by]]);
	all = xmalloc(sizeof(*all));
	printf("%-20s %-10s %7s %14s %9s %10s\n", "Host", "ranks", "clients",
	       "ops/s", "p99", "unexpected");
	for (unsigned int h = 0; h < l->nhosts; h++) {
		struct result hr;
		unsigned int clients = 0;

		if (result_init(&hr, run->total.nslots))
			break;
		for (unsigned int i = l->first[h]; i < l->first[h + 1]; i++) {
			const struct rank_share *sh = &p->ranks[l->by_host[i]];

			result_merge(&hr, &sh->res);
			clients += sh->clients;
		}
		result_all_ops(&hr, all);
		report_rank_list(l, h, ranks, sizeof(ranks));
		printf("%-20s %-10s %7u %14.2f %9s %10llu\n", l->hosts[h],
		       ranks, clients, per_sec(hr.ops, result_elapsed(&hr)),
		       units_format_ns(b[2], 16, hist_percentile(all, 99)),
		       (unsigned long long)hr.unexpected);
		result_release(&hr);
	}
	free(all);
}

/* " (2 threads of 4 lanes)" after a run's clients, lanes being clients. */
static const char *lanes_note(const struct run *run, char *buf, size_t len)
{
	unsigned int lanes = run_config_lanes(run->state.cfg);

	if (lanes < 2)
		return "";
	snprintf(buf, len, " (%u thread%s of %u lanes)", run->nclients,
		 run->nclients == 1 ? "" : "s", lanes);
	return buf;
}

void report_run(const struct report_config *rc, const struct run *run,
		const char *variant)
{
	const struct result *r = &run->total;
	uint64_t el = result_elapsed(r);
	const char *note = end_note(run);
	enum report_format format = rc->format;
	char b[48];

	if (format == FORMAT_AUTO)
		format = run->state.lf->dialect == DIALECT_DBENCH ?
				 FORMAT_BOTH :
				 FORMAT_NATIVE;
	/* tripped before the window opened: no figure would be a result */
	if (run->state.trip.op && run->state.trip.phase == PHASE_WARMUP) {
		printf("\n%s%s%u client%s%s: stopped in the warmup, nothing measured\nnote: %s\n",
		       variant ? variant : "", variant ? ", " : "",
		       run_clients(run), run_clients(run) == 1 ? "" : "s",
		       lanes_note(run, b, sizeof(b)), note);
		print_trip(run);
		fflush(stdout);
		return;
	}
	printf("\n%s%s%u client%s%s: %llu ops in %.3f s\n",
	       variant ? variant : "", variant ? ", " : "", run_clients(run),
	       run_clients(run) == 1 ? "" : "s", lanes_note(run, b, sizeof(b)),
	       (unsigned long long)r->ops, (double)el / 1e9);
	if (note)
		printf("note: %s\n", note);
	print_trip(run);
	if (format != FORMAT_DBENCH)
		print_native(run, el, rc->units);
	if (rc->npercentiles) {
		report_conntimes(rc, run);
		report_percentiles(rc, run);
	}
	print_unexpected(run);
	report_uring_text(run);
	printf("Total: %.2f ops/s  %.2f MB/s  %.2f passes/s  (%llu passes, %llu bytes, setup and release %s)\n",
	       per_sec(r->ops, el), per_sec(r->bytes, el) / 1e6,
	       per_sec(r->passes, el), (unsigned long long)r->passes,
	       (unsigned long long)r->bytes,
	       units_format_ns(b, sizeof(b), run->start_ns));
	print_usage(run);
	print_hosts(rc, run);
	if (format != FORMAT_NATIVE)
		print_dbench(run);
	/* dbench's line, spacing included: parsers split on single spaces */
	if (!rc->no_dbench_line)
		printf("Throughput %g MB/sec  %u clients  %u procs  max_latency=%.03f ms\n",
		       per_sec(r->bytes, el) / 1e6, run_clients(run),
		       run->nclients, (double)result_max_latency(r) / 1e6);
	fflush(stdout);
}
