/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vfsbench compare: reads the result files, checks that they were
 * measured alike, and works out the table (struct comparison): each
 * file's metric per client count relative to A's baseline, the change
 * against A at the same count and Welch's t-test. report/compare.c
 * prints it.
 */
#include <config.h>
#include "compare/compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/exit.h"
#include "base/msg.h"
#include "compare/resultfile.h"

/* Sort unsigned ints ascending. */
static int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return (x > y) - (x < y);
}

/* A point with at least one complete run, or NULL. */
static const struct resultfile_point *measured(const struct resultfile *rf,
					       unsigned int clients)
{
	const struct resultfile_point *pt = resultfile_point(rf, clients);

	return pt && pt->nruns ? pt : NULL;
}

/* The union of the files' measured client counts, ascending. */
static void collect_clients(struct comparison *cmp)
{
	unsigned int n = 0, max = 0;

	for (unsigned int f = 0; f < cmp->nfiles; f++)
		max += cmp->files[f].npoints;
	cmp->clients = xcalloc(max + 1, sizeof(*cmp->clients));
	for (unsigned int f = 0; f < cmp->nfiles; f++)
		for (unsigned int p = 0; p < cmp->files[f].npoints; p++)
			if (cmp->files[f].points[p].nruns)
				cmp->clients[n++] =
					cmp->files[f].points[p].clients;
	qsort(cmp->clients, n, sizeof(*cmp->clients), cmp_uint);
	cmp->nclients = 0;
	for (unsigned int i = 0; i < n; i++)
		if (!cmp->nclients ||
		    cmp->clients[cmp->nclients - 1] != cmp->clients[i])
			cmp->clients[cmp->nclients++] = cmp->clients[i];
}

/*
 * A's baseline: 1 client, else A's smallest measured count. Returns -1
 * when A has no complete run at all.
 */
static int find_baseline(struct comparison *cmp)
{
	const struct resultfile *a = &cmp->files[0];
	const struct resultfile_point *pt = NULL;
	struct summary s;

	for (unsigned int i = 0; i < cmp->nclients && !pt; i++)
		pt = measured(a, cmp->clients[i]);
	if (!pt)
		return -1;
	summary_of(&s, resultfile_values(pt, cmp->metric), pt->nruns);
	cmp->baseline_clients = pt->clients;
	cmp->baseline = s.mean;
	return 0;
}

/* Cell (@row, @f) against A's cell of the same row, already filled. */
static void fill_cell(struct comparison *cmp, unsigned int row, unsigned int f)
{
	struct comparison_cell *c = &cmp->cells[row * cmp->nfiles + f];
	const struct comparison_cell *ref = comparison_cell(cmp, row, 0);
	const struct resultfile_point *pt;

	pt = measured(&cmp->files[f], cmp->clients[row]);
	if (!pt) {
		c->state = CELL_MISSING;
		return;
	}
	summary_of(&c->s, resultfile_values(pt, cmp->metric), pt->nruns);
	c->relative = cmp->baseline > 0 ? c->s.mean / cmp->baseline : NAN;
	if (!f) {
		c->state = CELL_BASE;
		return;
	}
	if (ref->state == CELL_MISSING) {
		c->state = CELL_NO_REF;
		return;
	}
	c->change = ref->s.mean > 0 ?
			    (c->s.mean - ref->s.mean) / ref->s.mean * 100 :
			    NAN;
	if (c->s.n < COMPARE_MIN_RUNS || ref->s.n < COMPARE_MIN_RUNS) {
		c->state = CELL_FEW;
		return;
	}
	welch_test(&ref->s, &c->s, cmp->confidence, &c->w);
	c->state = CELL_TESTED;
}

/* notlike[]: each file's differences from A, warned about on stderr. */
static void check_alike(struct comparison *cmp)
{
	const struct resultfile *a = &cmp->files[0];
	char buf[1024];

	cmp->notlike = xcalloc(cmp->nfiles, sizeof(*cmp->notlike));
	for (unsigned int f = 1; f < cmp->nfiles; f++) {
		const struct resultfile *b = &cmp->files[f];

		if (!resultfile_differences(a, b, buf, sizeof(buf)))
			continue;
		warning("NOT LIKE FOR LIKE: '%s' and '%s' differ in: %s",
			a->path, b->path, buf);
		cmp->notlike[f] = xstrdup(buf);
	}
}

void comparison_release(struct comparison *cmp)
{
	if (cmp->notlike)
		for (unsigned int f = 0; f < cmp->nfiles; f++)
			free(cmp->notlike[f]);
	free(cmp->notlike);
	free(cmp->cells);
	free(cmp->clients);
	for (unsigned int f = 0; cmp->files && f < cmp->nfiles; f++)
		resultfile_release(&cmp->files[f]);
	free(cmp->files);
	memset(cmp, 0, sizeof(*cmp));
}

/*
 * Read every file, so that all bad ones are reported at once. A file that
 * failed is left zeroed, which comparison_release() takes.
 */
static int read_files(struct comparison *cmp, const struct compare_config *cc)
{
	struct resultfile *rf = cmp->files;
	int ret = 0;

	for (unsigned int f = 0; f < cc->nfiles; f++) {
		if (resultfile_read(&rf[f], cc->files[f])) {
			ret = -1;
		} else if (rf[f].kind != RESULTFILE_SWEEP) {
			ret = error(
				"'%s': an fdscale result (vfsbench-fdscale): compare takes results of runs and sweeps (vfsbench --json)",
				rf[f].path);
		}
	}
	return ret;
}

int comparison_build(struct comparison *cmp, const struct compare_config *cc)
{
	memset(cmp, 0, sizeof(*cmp));
	cmp->metric = cc->metric;
	cmp->confidence = cc->confidence;
	cmp->nfiles = cc->nfiles;
	cmp->files = xcalloc(cc->nfiles, sizeof(*cmp->files));
	if (read_files(cmp, cc))
		return -1;
	resultfile_labels(cmp->files, cmp->nfiles);
	collect_clients(cmp);
	if (find_baseline(cmp))
		return error(
			"'%s': no run completed: nothing to compare against",
			cmp->files[0].path);
	cmp->cells = xcalloc((size_t)cmp->nclients * cmp->nfiles,
			     sizeof(*cmp->cells));
	for (unsigned int r = 0; r < cmp->nclients; r++)
		for (unsigned int f = 0; f < cmp->nfiles; f++)
			fill_cell(cmp, r, f);
	check_alike(cmp);
	return 0;
}
