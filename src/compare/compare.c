/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vfsbench compare: reads the result files, makes the sides (a variant
 * of a file, or of a group of files pooled), checks that they were
 * measured alike, and works out the table (struct comparison): each
 * side's metric per client count relative to A's baseline, the change
 * against A at the same count with its interval and the test. The
 * correction and the marks are marks.c's, the cells by boot bootunit.c's;
 * report/compare.c prints it.
 */
#include <config.h>
#include "compare/compare.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/msg.h"
#include "compare/bootunit.h"
#include "compare/resultfile.h"
#include "stats/shift.h"
#include "stats/welch.h"

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

/* --- sides ---------------------------------------------------------------- */

static void side_add(struct comparison_side *s, const struct resultfile *rf)
{
	s->parts = xrealloc(s->parts, (s->nparts + 1) * sizeof(*s->parts));
	s->parts[s->nparts++] = rf;
}

/* "A1+A2": the parts' labels, each once. */
static char *side_label(const struct comparison_side *s)
{
	size_t len = 1;
	char *label;

	for (unsigned int i = 0; i < s->nparts; i++)
		len += strlen(s->parts[i]->label) + 1;
	label = xcalloc(len, 1);
	for (unsigned int i = 0; i < s->nparts; i++) {
		bool seen = false;

		for (unsigned int j = 0; j < i; j++)
			seen = seen ||
			       !strcmp(s->parts[j]->label, s->parts[i]->label);
		if (seen)
			continue;
		if (*label)
			strcat(label, "+");
		strcat(label, s->parts[i]->label);
	}
	return label;
}

/*
 * The files of one group must have the same variants, so that variant v
 * of each can be pooled: @a and @b are their first entries (variant 0).
 */
static int check_group(const struct resultfile *a, const struct resultfile *b)
{
	bool same = a->nvariants == b->nvariants;

	for (unsigned int v = 0; same && a->nvariants > 1 && v < a->nvariants;
	     v++)
		same = !strcmp(a[v].variant_label, b[v].variant_label);
	if (same)
		return 0;
	return error(
		"'%s' and '%s' are on the same side but do not have the same variants: a side pools the same variant of each of its files",
		a->path, b->path);
}

/*
 * Sides: one per entry, or per (group, variant) with cc->group; the
 * boots of one kernel of a vfsbench kernels file are one side per
 * variant, within its file's group or of their own.
 */
static int make_sides(struct comparison *cmp)
{
	const struct compare_config *cc = cmp->cc;
	unsigned int *kg = xcalloc(cmp->nfiles + 1, sizeof(*kg));
	unsigned int *kk = xcalloc(cmp->nfiles + 1, sizeof(*kk));
	unsigned int *kv = xcalloc(cmp->nfiles + 1, sizeof(*kv));
	const struct resultfile **first =
		xcalloc(cc->ngroups + 1, sizeof(*first));
	int ret = 0;

	cmp->sides = xcalloc(cmp->nfiles + 1, sizeof(*cmp->sides));
	for (unsigned int e = 0; e < cmp->nfiles; e++) {
		const struct resultfile *rf = &cmp->files[e];
		unsigned int g = e, k = 0, v = 0, s;

		if (cc->group) {
			g = cc->group[rf->file];
			v = rf->variant;
			if (!first[g])
				first[g] = rf;
			else if (!v && !rf->boot && check_group(first[g], rf))
				ret = -1;
		} else if (rf->kernel_label) {
			/* past every entry's own number: the file's */
			g = cmp->nfiles + rf->file;
			v = rf->variant;
		}
		if (rf->kernel_label)
			k = rf->kernel + 1;
		for (s = 0; s < cmp->nsides &&
			    (kg[s] != g || kk[s] != k || kv[s] != v);
		     s++)
			;
		if (s == cmp->nsides) {
			kg[s] = g;
			kk[s] = k;
			kv[s] = v;
			cmp->nsides++;
		}
		side_add(&cmp->sides[s], rf);
	}
	for (unsigned int s = 0; s < cmp->nsides; s++) {
		cmp->sides[s].label = side_label(&cmp->sides[s]);
		cmp->sides[s].nboots = bootunit_count(&cmp->sides[s]);
		cmp->by_boot = cmp->by_boot || cmp->sides[s].nboots > 1;
	}
	free(first);
	free(kv);
	free(kk);
	free(kg);
	if (!ret && cmp->nsides < 2)
		ret = error(
			"nothing to compare: '%s' holds one variant%s; give two result files, or one of several variants (-c given twice, or --variant)",
			cmp->files[0].path,
			cmp->files[0].kernel_label ? " of one kernel" : "");
	return ret;
}

struct ordered {
	double v;
	unsigned int index, clients;
};

static int cmp_ordered(const void *a, const void *b)
{
	const struct ordered *x = a, *y = b;

	return (x->index > y->index) - (x->index < y->index);
}

/* The trend test of one file's runs in run order, strata by count. */
static void part_trend(const struct comparison *cmp,
		       const struct resultfile *rf, struct trend *t)
{
	unsigned int n = 0, k = 0, *strata;
	struct ordered *o;
	double *v;

	for (unsigned int p = 0; p < rf->npoints; p++)
		n += rf->points[p].nruns;
	o = xcalloc(n + 1, sizeof(*o));
	for (unsigned int p = 0; p < rf->npoints; p++) {
		const struct resultfile_point *pt = &rf->points[p];
		const double *x = resultfile_values(pt, cmp->cc->metric);

		for (unsigned int r = 0; r < pt->nruns; r++) {
			o[k].v = x[r];
			o[k].index = pt->index[r];
			o[k++].clients = pt->clients;
		}
	}
	qsort(o, n, sizeof(*o), cmp_ordered);
	v = xcalloc(n + 1, sizeof(*v));
	strata = xcalloc(n + 1, sizeof(*strata));
	for (unsigned int i = 0; i < n; i++) {
		v[i] = o[i].v;
		strata[i] = o[i].clients;
	}
	trend_test(v, strata, n, t);
	free(strata);
	free(v);
	free(o);
}

static void side_trend(struct comparison *cmp, struct comparison_side *s)
{
	s->trend.p = 1;
	s->drift_bound = 1;
	for (unsigned int i = 0; i < s->nparts; i++) {
		struct trend t;

		for (unsigned int p = 0; p < s->parts[i]->npoints; p++)
			s->nruns += s->parts[i]->points[p].nruns;
		part_trend(cmp, s->parts[i], &t);
		if (!s->trend_part || t.p < s->trend.p) {
			s->trend = t;
			s->trend_part = s->parts[i];
		}
		if (t.p < comparison_alpha(cmp) && 1 + t.span > s->drift_bound)
			s->drift_bound = 1 + t.span;
	}
	s->drift = s->trend.p < comparison_alpha(cmp);
}

/* --- cells ---------------------------------------------------------------- */

/* The union of the sides' measured client counts, ascending. */
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

/* The side's runs at the cell's count, pooled over its parts. */
static void pool(struct comparison *cmp, unsigned int row, unsigned int f)
{
	struct comparison_cell *c = &cmp->cells[row * cmp->nsides + f];
	const struct comparison_side *s = &cmp->sides[f];
	size_t n = 0;

	c->v = NULL;
	c->bound = 1;
	for (unsigned int i = 0; i < s->nparts; i++) {
		const struct resultfile_point *pt =
			measured(s->parts[i], cmp->clients[row]);
		const double *x;

		if (!pt)
			continue;
		x = resultfile_values(pt, cmp->cc->metric);
		c->v = xrealloc(c->v, (n + pt->nruns) * sizeof(*c->v));
		memcpy(c->v + n, x, pt->nruns * sizeof(*c->v));
		n += pt->nruns;
		for (unsigned int r = 0; r < pt->nruns; r++) {
			c->starved += pt->starved[r];
			c->idle += pt->idle[r] > 0;
			c->unasked += pt->unasked[r];
			if (pt->bound[r] > c->bound)
				c->bound = pt->bound[r];
		}
	}
	summary_of(&c->s, c->v, n);
	c->nruns = (unsigned int)n;
	c->nboots = n ? 1 : 0;
	c->between_cv = NAN;
	c->within_cv = c->s.n > 1 ? c->s.cv : NAN;
	if (cmp->by_boot && n)
		bootunit_pool(c, s, cmp->clients[row], cmp->cc->metric,
			      cmp->test == TEST_WELCH);
	c->state = n ? CELL_BASE : CELL_MISSING;
	c->centre = cmp->test == TEST_WELCH ? c->s.mean : c->s.median;
}

/* A's baseline: 1 client, else A's smallest count; -1 when A has none. */
static int find_baseline(struct comparison *cmp)
{
	for (unsigned int r = 0; r < cmp->nclients; r++) {
		const struct comparison_cell *c = comparison_cell(cmp, r, 0);

		if (c->state == CELL_MISSING)
			continue;
		cmp->baseline_clients = cmp->clients[r];
		cmp->baseline = c->centre;
		return 0;
	}
	return -1;
}

/*
 * The change of the medians against @ref (so that it agrees with the
 * relative values beside it), the Hodges-Lehmann interval of the shift,
 * and the rank test.
 */
static void test_mwu(struct comparison *cmp, const struct comparison_cell *ref,
		     struct comparison_cell *c)
{
	struct shift sh;
	struct mwu u;

	mwu_test(ref->v, ref->s.n, c->v, c->s.n, &u);
	shift_estimate(ref->v, ref->s.n, c->v, c->s.n, cmp->cc->confidence,
		       &sh);
	c->change = ref->centre > 0 ? c->centre / ref->centre - 1 : NAN;
	c->lo = sh.lo;
	c->hi = sh.hi;
	c->bounded = sh.bounded;
	c->p = u.p;
	cmp->all_exact = cmp->all_exact && u.exact;
	c->state = u.p_min >= comparison_alpha(cmp) ? CELL_FEW : CELL_TESTED;
}

/* The change of the means against @ref, and Welch's t-test. */
static void test_welch(struct comparison *cmp,
		       const struct comparison_cell *ref,
		       struct comparison_cell *c)
{
	double m = ref->s.mean;
	struct welch w;

	c->change = m > 0 ? (c->s.mean - m) / m : NAN;
	if (c->s.n < COMPARE_MIN_RUNS || ref->s.n < COMPARE_MIN_RUNS) {
		c->state = CELL_FEW;
		return;
	}
	welch_test(&ref->s, &c->s, cmp->cc->confidence, &w);
	c->p = w.p;
	c->bounded = m > 0;
	c->lo = m > 0 ? w.lo / m : NAN;
	c->hi = m > 0 ? w.hi / m : NAN;
	c->state = CELL_TESTED;
}

/* Cell (@row, @f) against A's cell of the same row, already pooled. */
static void fill_cell(struct comparison *cmp, unsigned int row, unsigned int f)
{
	struct comparison_cell *c = &cmp->cells[row * cmp->nsides + f];
	const struct comparison_cell *ref = comparison_cell(cmp, row, 0);

	if (c->state == CELL_MISSING)
		return;
	c->relative = cmp->baseline > 0 ? c->centre / cmp->baseline : NAN;
	c->change = c->lo = c->hi = NAN;
	if (!f)
		return;
	if (ref->state == CELL_MISSING) {
		c->state = CELL_NO_REF;
		return;
	}
	if (cmp->test == TEST_WELCH)
		test_welch(cmp, ref, c);
	else
		test_mwu(cmp, ref, c);
}

/*
 * What @b is to be measured like: the entry of A's first file with b's
 * variant (variants differ on purpose, each file's alike), else A.
 */
static const struct resultfile *like_of(const struct comparison *cmp,
					const struct resultfile *b)
{
	const struct resultfile *a = cmp->sides[0].parts[0];

	for (unsigned int i = 0; i < cmp->nfiles; i++)
		if (cmp->files[i].file == a->file &&
		    cmp->files[i].variant == b->variant &&
		    cmp->files[i].nvariants == b->nvariants)
			return &cmp->files[i];
	return a;
}

/* notlike[]: each side's differences from A, warned about on stderr. */
static void check_alike(struct comparison *cmp)
{
	char buf[1024];

	cmp->notlike = xcalloc(cmp->nsides, sizeof(*cmp->notlike));
	for (unsigned int f = 0; f < cmp->nsides; f++) {
		const struct comparison_side *s = &cmp->sides[f];

		for (unsigned int i = 0; i < s->nparts; i++) {
			const struct resultfile *b = s->parts[i];
			const struct resultfile *a = like_of(cmp, b);

			/* variants of one file differ on purpose */
			if (b->file == a->file ||
			    !resultfile_differences(a, b, buf, sizeof(buf)))
				continue;
			warning("NOT LIKE FOR LIKE: '%s' and '%s' differ in: %s",
				a->path, b->path, buf);
			if (f && !cmp->notlike[f])
				cmp->notlike[f] = xstrdup(buf);
		}
	}
}

/* The lines of @b's environment against @a's, under "'B' against 'A':". */
static void env_lines(struct comparison *cmp, const struct resultfile *a,
		      const struct resultfile *b, const char *bname,
		      const char *aname)
{
	char **lines, head[1024];
	unsigned int n;

	if (!env_fields_diff(&a->env, &b->env, &lines, &n))
		return;
	snprintf(head, sizeof(head), "'%s' against '%s':", bname, aname);
	cmp->envdiff = xrealloc(cmp->envdiff,
				(cmp->nenvdiff + n + 1) * sizeof(char *));
	cmp->envdiff[cmp->nenvdiff++] = xstrdup(head);
	for (unsigned int k = 0; k < n; k++) {
		size_t len = strlen(lines[k]) + 3;
		char *l = xmalloc(len);

		snprintf(l, len, "  %s", lines[k]);
		cmp->envdiff[cmp->nenvdiff++] = l;
		free(lines[k]);
	}
	free(lines);
}

/*
 * envdiff[]: every other file's environment against A's first file; in
 * a vfsbench kernels file, each kernel's first boot against A's, by
 * label (their kernels differ on purpose: the release, the command line
 * and what it changed are what is compared).
 */
static void check_env(struct comparison *cmp)
{
	const struct resultfile *a = cmp->sides[0].parts[0];

	for (unsigned int i = 0; i < cmp->nfiles; i++) {
		const struct resultfile *b = &cmp->files[i];

		/* one entry per file: its first variant */
		if (b->file == a->file || b->variant || b->kernel_label)
			continue;
		env_lines(cmp, a, b, b->path, a->path);
	}
	for (unsigned int f = 1; f < cmp->nsides; f++) {
		const struct resultfile *b = cmp->sides[f].parts[0];

		if (!b->kernel_label || b->variant ||
		    (a->kernel_label && b->file == a->file &&
		     b->kernel == a->kernel))
			continue;
		env_lines(cmp, a, b, cmp->sides[f].label, cmp->sides[0].label);
	}
}

void comparison_release(struct comparison *cmp)
{
	for (unsigned int i = 0; i < cmp->nenvdiff; i++)
		free(cmp->envdiff[i]);
	free(cmp->envdiff);
	if (cmp->notlike)
		for (unsigned int f = 0; f < cmp->nsides; f++)
			free(cmp->notlike[f]);
	free(cmp->notlike);
	for (unsigned int i = 0; cmp->cells && i < cmp->nclients * cmp->nsides;
	     i++)
		free(cmp->cells[i].v);
	free(cmp->cells);
	free(cmp->clients);
	for (unsigned int s = 0; cmp->sides && s < cmp->nsides; s++) {
		free(cmp->sides[s].label);
		free(cmp->sides[s].parts);
	}
	free(cmp->sides);
	resultfile_release_all(cmp->files, cmp->nfiles);
	memset(cmp, 0, sizeof(*cmp));
}

int comparison_prepare(struct comparison *cmp, const struct compare_config *cc,
		       struct resultfile *rf, unsigned int n)
{
	memset(cmp, 0, sizeof(*cmp));
	cmp->cc = cc;
	cmp->files = rf;
	cmp->nfiles = n;
	cmp->all_exact = true;
	cmp->resolution = comparison_resolution(cmp) > cc->threshold;
	resultfile_labels(cmp->files, cmp->nfiles);
	if (make_sides(cmp))
		return -1;
	/* by boot, Welch's: a rank test cannot reach 95% under 4 boots */
	cmp->test = cc->test_given || !cmp->by_boot ? cc->test : TEST_WELCH;
	collect_clients(cmp);
	cmp->cells = xcalloc((size_t)cmp->nclients * cmp->nsides + 1,
			     sizeof(*cmp->cells));
	for (unsigned int r = 0; r < cmp->nclients; r++)
		for (unsigned int f = 0; f < cmp->nsides; f++)
			pool(cmp, r, f);
	if (find_baseline(cmp))
		return error(
			"'%s': no run completed: nothing to compare against",
			cmp->sides[0].parts[0]->path);
	for (unsigned int f = 0; f < cmp->nsides; f++)
		side_trend(cmp, &cmp->sides[f]);
	for (unsigned int r = 0; r < cmp->nclients; r++)
		for (unsigned int f = 0; f < cmp->nsides; f++)
			fill_cell(cmp, r, f);
	check_alike(cmp);
	check_env(cmp);
	return 0;
}

int comparison_build_from(struct comparison *cmp,
			  const struct compare_config *cc,
			  struct resultfile *rf, unsigned int n)
{
	if (comparison_prepare(cmp, cc, rf, n))
		return -1;
	comparison_mark(cmp, 1);
	return 0;
}

int comparison_read(const struct compare_config *cc, struct resultfile **out,
		    unsigned int *nout)
{
	struct resultfile *rf = NULL;
	unsigned int n = 0;
	int ret = 0;

	for (unsigned int f = 0; f < cc->nfiles; f++) {
		unsigned int before = n;
		int err = resultfile_read(cc->files[f], f, false, &rf, &n);

		/* a signal: stop here */
		if (err == -EINTR) {
			ret = err;
			break;
		}
		if (err)
			ret = -1;
		else if (rf[before].kind != RESULTFILE_SWEEP)
			ret = error(
				"'%s': an fdscale result (vfsbench-fdscale): compare takes results of runs and sweeps (vfsbench --json)",
				rf[before].path);
	}
	if (ret) {
		resultfile_release_all(rf, n);
		return ret;
	}
	*out = rf;
	*nout = n;
	return 0;
}

/*
 * Read every file, so that all bad ones are reported at once; then the
 * comparison of what was read.
 */
int comparison_build(struct comparison *cmp, const struct compare_config *cc)
{
	struct resultfile *rf = NULL;
	unsigned int n = 0;
	int ret = comparison_read(cc, &rf, &n);

	if (ret) {
		memset(cmp, 0, sizeof(*cmp));
		return ret;
	}
	return comparison_build_from(cmp, cc, rf, n);
}
