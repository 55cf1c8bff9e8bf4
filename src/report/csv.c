/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Flat result files: CSV for spreadsheets and plots, and one value per
 * line per client count for ministat(1).
 */
#include <config.h>
#include "report/report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"
#include "lang/loadfile.h"
#include "workdir/outfile.h"
#include "run/run.h"
#include "run/sweep.h"

/*
 * @s as an RFC 4180 field: quoted, each '"' doubled. A label comes from a
 * loadfile's name, which may hold a quote, a comma or a newline.
 */
static void csv_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_row(FILE *f, const struct run *run, const char *op,
		    uint64_t count, const struct hist *h, uint64_t unexpected,
		    const char *variant)
{
	uint64_t el = result_elapsed(&run->total);

	fprintf(f,
		"%u,%u,%u,%s,%s,%llu,%.3f,%.1f,%llu,%llu,%llu,%llu,%llu,%llu,%.3f,%.6f,%llu,",
		run->index, run->nclients, run->repeat,
		run_end_name(atomic_load(&run->state.end)), op,
		(unsigned long long)count,
		el ? (double)count * 1e9 / (double)el : 0, hist_mean(h),
		(unsigned long long)hist_percentile(h, 50),
		(unsigned long long)hist_percentile(h, 90),
		(unsigned long long)hist_percentile(h, 99),
		(unsigned long long)hist_percentile(h, 99.9),
		(unsigned long long)h->max, (unsigned long long)unexpected,
		run_ops_per_sec(run), run_mb_per_sec(run),
		(unsigned long long)el);
	csv_string(f, variant);
	fputc('\n', f);
}

int report_csv(const struct sweep *sw, const char *path)
{
	struct hist *all = xmalloc(sizeof(*all));
	struct outfile o;
	FILE *f = outfile_open(&o, path);

	if (!f) {
		free(all);
		return -1;
	}
	fputs("run,clients,repeat,end,op,count,op_per_sec,mean_ns,p50_ns,p90_ns,p99_ns,p999_ns,max_ns,unexpected,run_ops_per_sec,run_mb_per_sec,elapsed_ns,variant\n",
	      f);
	for (unsigned int i = 0; i < sw->nruns; i++) {
		const struct run *run = &sw->runs[i];
		const struct result *r = &run->total;
		const char *v = sw->variants[sw->variant_of[i]].label;

		if (atomic_load(&run->state.end) == RUN_END_FAILED)
			continue;
		for (unsigned int s = 0; s < r->nslots; s++) {
			uint64_t unexpected = 0;

			for (unsigned int e = 0; e < ERR_SKIPPED; e++)
				unexpected += r->err[s][e];
			csv_row(f, run,
				op_table[run->state.lf->slot_op[s]].name,
				r->count[s], &r->lat[s], unexpected, v);
		}
		result_all_ops(r, all);
		csv_row(f, run, "all", r->ops, all, r->unexpected, v);
	}
	free(all);
	return outfile_commit(&o);
}

/* @label with '/' and control characters as '_', for a file name. */
static const char *file_part(const char *label, char *buf, size_t len)
{
	size_t i;

	for (i = 0; label[i] && i + 1 < len; i++)
		buf[i] = label[i] == '/' || (unsigned char)label[i] < 0x20 ?
				 '_' :
				 label[i];
	buf[i] = '\0';
	return buf;
}

void report_ministat_path(char *buf, size_t len, const char *prefix,
			  const char *label, unsigned int clients)
{
	char name[256];

	if (label)
		snprintf(buf, len, "%s-%s-%u.txt", prefix,
			 file_part(label, name, sizeof(name)), clients);
	else
		snprintf(buf, len, "%s-%u.txt", prefix, clients);
}

int report_ministat(const struct report_config *rc, const struct sweep *sw,
		    const char *prefix)
{
	char path[4096];

	for (unsigned int p = 0; p < sw->npoints; p++) {
		const struct point *pt = &sw->points[p];
		struct outfile o;
		FILE *f;

		if (!pt->nruns)
			continue;
		report_ministat_path(path, sizeof(path), prefix,
				     sw->nvariants > 1 ?
					     sw->variants[pt->variant].label :
					     NULL,
				     pt->clients);
		f = outfile_open(&o, path);
		if (!f)
			return -1;
		for (unsigned int r = 0; r < pt->nruns; r++)
			fprintf(f, "%.6f\n",
				rc->metric == METRIC_MBPS ?
					run_mb_per_sec(pt->runs[r]) :
					run_ops_per_sec(pt->runs[r]));
		if (outfile_commit(&o))
			return -1;
	}
	return 0;
}
