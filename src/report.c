/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The human report: settings, per-op table, totals, dbench's final line
 * and the sweep table. Only this file writes results to stdout.
 */
#include <config.h>
#include "report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loadfile.h"
#include "options.h"
#include "run.h"
#include "sweep.h"
#include "timeutil.h"
#include "units.h"
#include "util.h"
#include "workdir.h"

static const char *const cwd_names[] = { "private", "shared" };
static const char *const fs_names[] = { "private", "shared" };
static const char *const fdt_names[] = { "shared", "private" };

void report_header(const struct config *cfg, const struct loadfile *lf,
		   const struct workdir *wd)
{
	char t[32], w[32];

	printf("vfsbench %s  loadfile %s: %u ops, %u in [setup]\n",
	       PACKAGE_VERSION, lf->name, loadfile_run_nops(lf), lf->nsetup);
	printf("engine %s  cwd %s  fs_struct %s  fd table %s  depth %u\n",
	       cfg->engine, cwd_names[cfg->cwd], fs_names[cfg->fs],
	       fdt_names[cfg->fdt], cfg->depth);
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
	printf("directory %s\n", wd->path);
}

static void print_unexpected(const struct run *run)
{
	const struct result *r = &run->total;
	char buf[16];

	if (!r->unexpected && !r->skipped)
		return;
	printf("Unexpected results (op: outcome x count):\n");
	for (unsigned int s = 0; s < r->nslots; s++) {
		const char *name = op_table[run->lf->slot_op[s]].name;

		for (unsigned int e = 0; e < ERR_NR; e++) {
			const char *what;

			if (!r->err[s][e])
				continue;
			if (e == 0)
				what = "success (an errno was expected)";
			else if (e == ERR_SKIPPED)
				what = "skipped (handle dead: its open failed)";
			else if (e == ERR_OTHER)
				what = "errno >= 134";
			else
				what = op_errno_name((int)e, buf, sizeof(buf));
			printf("  %s: %s x %llu\n", name, what,
			       (unsigned long long)r->err[s][e]);
		}
	}
}

static const char *end_note(const struct run *run)
{
	switch (atomic_load(&run->end)) {
	case RUN_END_STRICT:
		return "stopped by --strict at an unexpected result: partial results";
	case RUN_END_MAX_ERRORS:
		return "stopped by --max-errors: partial results";
	case RUN_END_SIGNAL:
		return "interrupted by a signal: partial results";
	case RUN_END_FAILED:
		return "failed";
	default:
		return NULL;
	}
}

static double per_sec(uint64_t v, uint64_t ns)
{
	return ns ? (double)v * 1e9 / (double)ns : 0;
}

/* The native per-op table: counts, rates and percentiles. */
static void print_native(const struct run *run, uint64_t el)
{
	const struct result *r = &run->total;
	char b[5][16];

	printf("%-16s %12s %12s %9s %9s %9s %9s %9s %10s\n", "Operation",
	       "Count", "ops/s", "avg", "p50", "p99", "p99.9", "max",
	       "unexpected");
	for (unsigned int s = 0; s < r->nslots; s++) {
		const struct hist *h = &r->lat[s];
		uint64_t unexpected = 0;

		for (unsigned int e = 0; e < ERR_SKIPPED; e++)
			unexpected += r->err[s][e];
		printf("%-16s %12llu %12.2f %9s %9s %9s %9s %9s %10llu\n",
		       op_table[run->lf->slot_op[s]].name,
		       (unsigned long long)h->count, per_sec(h->count, el),
		       units_format_ns(b[0], 16, (uint64_t)hist_mean(h)),
		       units_format_ns(b[1], 16, hist_percentile(h, 50)),
		       units_format_ns(b[2], 16, hist_percentile(h, 99)),
		       units_format_ns(b[3], 16, hist_percentile(h, 99.9)),
		       units_format_ns(b[4], 16, h->count ? h->max : 0),
		       (unsigned long long)unexpected);
	}
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

			if (run->lf->slot_op[s] != id || !h->count ||
			    id == OP_DB_SLEEP)
				continue;
			printf(" %-12s %7llu %9.03f %9.03f\n",
			       op_table[id].name, (unsigned long long)h->count,
			       hist_mean(h) / 1e6, (double)h->max / 1e6);
		}
	}
	printf("\n");
}

void report_run(const struct run *run)
{
	const struct config *cfg = run->cfg;
	const struct result *r = &run->total;
	uint64_t el = result_elapsed(r);
	const char *note = end_note(run);
	enum report_format format = cfg->format;
	char b[16];

	if (format == FORMAT_AUTO)
		format = run->lf->dialect == DIALECT_DBENCH ? FORMAT_BOTH :
							      FORMAT_NATIVE;
	printf("\n%u client%s: %llu ops in %.3f s\n", run->nclients,
	       run->nclients == 1 ? "" : "s", (unsigned long long)r->ops,
	       (double)el / 1e9);
	if (note)
		printf("note: %s\n", note);
	if (format != FORMAT_DBENCH)
		print_native(run, el);
	print_unexpected(run);
	printf("Total: %.2f ops/s  %.2f MB/s  %.2f passes/s  (%llu passes, %llu bytes, setup and release %s)\n",
	       per_sec(r->ops, el), per_sec(r->bytes, el) / 1e6,
	       per_sec(r->passes, el), (unsigned long long)r->passes,
	       (unsigned long long)r->bytes,
	       units_format_ns(b, sizeof(b), run->start_ns));
	if (format != FORMAT_NATIVE)
		print_dbench(run);
	/* dbench's line, spacing included: parsers split on single spaces */
	printf("Throughput %g MB/sec  %u clients  %u procs  max_latency=%.03f ms\n",
	       per_sec(r->bytes, el) / 1e6, run->nclients, run->nclients,
	       (double)result_max_latency(r) / 1e6);
	fflush(stdout);
}

void report_sweep(const struct sweep *sw)
{
	struct sweep_row *rows = xcalloc(sw->nruns + 1, sizeof(*rows));
	unsigned int n = 0, base;

	for (unsigned int i = 0; i < sw->nruns; i++) {
		const struct run *run = &sw->runs[i];
		uint64_t el = result_elapsed(&run->total);

		if (atomic_load(&run->end) == RUN_END_FAILED)
			continue;
		rows[n].clients = run->nclients;
		rows[n].ops_s = per_sec(run->total.ops, el);
		rows[n].mb_s = per_sec(run->total.bytes, el) / 1e6;
		n++;
	}
	if (n < 2)
		goto out;
	base = sweep_rows_compute(rows, n, sw->cfg->metric);
	printf("\nSweep: relative to %u client%s, by %s\n", rows[base].clients,
	       rows[base].clients == 1 ? "" : "s",
	       sw->cfg->metric == METRIC_MBPS ? "MB/s" : "ops/s");
	printf("%7s %14s %10s %9s %11s\n", "Clients", "ops/s", "MB/s",
	       "relative", "efficiency");
	for (unsigned int i = 0; i < n; i++)
		printf("%7u %14.2f %10.2f %9.2f %11.2f\n", rows[i].clients,
		       rows[i].ops_s, rows[i].mb_s, rows[i].relative,
		       rows[i].efficiency);
	fflush(stdout);
out:
	free(rows);
}
