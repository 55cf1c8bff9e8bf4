/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The table of vfsbench compare (and of a run's variants) on stdout: what
 * struct comparison holds, laid out to be pasted into a mailing-list post
 * as it is.
 */
#include <config.h>
#include "report/report.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/compiler.h"
#include "base/escape.h"
#include "base/units.h"
#include "compare/compare.h"
#include "compare/resultfile.h"

/*
 * The layout, for old.json and new.json measured alike:
 *
 * Metric: ops/s, median of runs, relative to old at 1 client (= 305333.33
 * ops/s) Cells: relative value, spread or change vs old at the same count [95%
 * interval], mark, (runs) Clients  old             new 1  1.00 +/-0.8%
 * (5)  1.02  +2.0% [-0.9,+4.1] ~ (5) 2  1.85 +/-1.1% (5)  1.91  +3.2%
 * [+2.1,+4.4] * (5) 4  3.09 +/-0.4% (3)  3.49 +12.9%             too few
 * samples (3) 8     -              7.01                    (5) Marks:
 * Mann-Whitney U test (exact), two-sided; Benjamini-Hochberg over 3 ... (the
 * legend, as print_legend() writes it)
 *
 * Before the table, one "# WARNING: NOT LIKE FOR LIKE: ..." line per side
 * that was not measured like A. After it the legend (the test, the
 * correction, the interval, what is never marked), the reasons of every
 * '?', and "Note: ..." lines: how many files and runs pooled sides have,
 * drift in a run's variants, runs left out, sweeps that stopped early, a
 * baseline of 0, counts where A has no result. A's column holds the
 * relative value, the runs' coefficient of variation and their number;
 * every other column the relative value, the change against A at the
 * same count, its interval, the mark (with --pvalue the p-value) and the
 * number of runs. Each part is aligned within its column, a column is as
 * wide as its widest cell or label, columns are two spaces apart, and
 * lines carry no trailing blanks. "-": the side has no result at that
 * count; "n/a": a division by 0, or no interval at this level. For p99
 * the relative value is the latency relative to A's, lower is better, and
 * the first line says so.
 */

#define FIELD 48

/* The parts of a cell, in their order; the first three right-aligned. */
enum part {
	PART_REL,
	PART_SPREAD,
	PART_CHANGE,
	PART_INTERVAL,
	PART_MARK,
	PART_P,
	PART_RUNS, /* "(5)", "(5)!" where runs were starved */
	PART_NR,
};

/* The parts of one cell, as text. */
struct cell_text {
	char part[PART_NR][FIELD];
};

/* One side's column: the widths of the parts and of the whole. */
struct column {
	int part[PART_NR];
	int width;
};

static const char *const metric_names[] = {
	[CMP_OPS] = "ops/s",
	[CMP_MBPS] = "MB/s",
	[CMP_P99] = "p99 latency",
};

static const char *const mark_names[] = {
	[MARK_NONE] = "",
	[MARK_SIGNIFICANT] = "*",
	[MARK_NOT] = "~",
	[MARK_SUSPECT] = "?",
};

static void pct(char *buf, double v)
{
	if (isnan(v))
		snprintf(buf, FIELD, "n/a");
	else
		snprintf(buf, FIELD, "%+.1f%%", v * 100);
}

static void cell_text(const struct comparison *cmp,
		      const struct comparison_cell *c, bool base,
		      struct cell_text *t)
{
	char(*p)[FIELD] = t->part;

	memset(t, 0, sizeof(*t));
	if (c->state == CELL_MISSING) {
		snprintf(p[PART_REL], FIELD, "-");
		return;
	}
	if (isnan(c->relative))
		snprintf(p[PART_REL], FIELD, "n/a");
	else
		snprintf(p[PART_REL], FIELD, "%.2f", c->relative);
	if (cmp->by_boot)
		snprintf(p[PART_RUNS], FIELD, "(%u/%u)%s", c->nboots, c->nruns,
			 c->starved ? "!" : "");
	else
		snprintf(p[PART_RUNS], FIELD, "(%zu)%s", c->s.n,
			 c->starved ? "!" : "");
	if (base) {
		snprintf(p[PART_SPREAD], FIELD, "+/-%.1f%%", c->s.cv * 100);
		return;
	}
	if (c->state != CELL_FEW && c->state != CELL_TESTED)
		return;
	pct(p[PART_CHANGE], c->change);
	if (c->bounded && !isnan(c->lo))
		snprintf(p[PART_INTERVAL], FIELD, "[%+.1f,%+.1f]", c->lo * 100,
			 c->hi * 100);
	else if (c->state == CELL_TESTED)
		snprintf(p[PART_INTERVAL], FIELD, "[n/a]");
	if (c->state == CELL_FEW) {
		snprintf(p[PART_MARK], FIELD, "too few %s",
			 cmp->by_boot ? "boots" : "samples");
		return;
	}
	snprintf(p[PART_MARK], FIELD, "%s", mark_names[c->mark]);
	if (cmp->cc->pvalues)
		snprintf(p[PART_P], FIELD, "p=%.2g", c->p);
}

static int max_int(int a, int b)
{
	return a > b ? a : b;
}

static void measure_column(const struct comparison *cmp, unsigned int f,
			   struct column *col)
{
	struct cell_text t;

	memset(col, 0, sizeof(*col));
	for (unsigned int r = 0; r < cmp->nclients; r++) {
		cell_text(cmp, comparison_cell(cmp, r, f), !f, &t);
		for (unsigned int i = 0; i < PART_NR; i++)
			col->part[i] =
				max_int(col->part[i], (int)strlen(t.part[i]));
	}
	col->width = col->part[PART_REL];
	for (unsigned int i = 1; i < PART_NR; i++)
		if (col->part[i])
			col->width += 1 + col->part[i];
	col->width = max_int(col->width, (int)strlen(cmp->sides[f].label));
}

/* Print @line without its trailing blanks, and a newline. */
static void put_line(char *line)
{
	size_t n = strlen(line);

	while (n && line[n - 1] == ' ')
		line[--n] = '\0';
	puts(line);
}

/* Append to @line (of @len bytes) like snprintf, truncating. */
static void line_add(char *line, size_t len, const char *fmt, ...) PRINTF(3, 4);

static void line_add(char *line, size_t len, const char *fmt, ...)
{
	size_t used = strlen(line);
	va_list ap;

	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(line + used, len - used, fmt, ap);
	va_end(ap);
}

static void print_row(const struct comparison *cmp, unsigned int r,
		      const struct column *cols, char *line, size_t len)
{
	struct cell_text t;
	char cell[PART_NR * FIELD + 16];

	snprintf(line, len, "%7u", cmp->clients[r]);
	for (unsigned int f = 0; f < cmp->nsides; f++) {
		const struct column *col = &cols[f];

		cell_text(cmp, comparison_cell(cmp, r, f), !f, &t);
		cell[0] = '\0';
		for (unsigned int i = 0; i < PART_NR; i++) {
			if (i && !col->part[i])
				continue;
			if (i <= PART_CHANGE)
				line_add(cell, sizeof(cell), "%s%*s",
					 i ? " " : "", col->part[i], t.part[i]);
			else
				line_add(cell, sizeof(cell), " %-*s",
					 col->part[i], t.part[i]);
		}
		line_add(line, len, "  %-*s", col->width, cell);
	}
	put_line(line);
}

static void print_header(const struct comparison *cmp)
{
	const char *a = cmp->sides[0].label;
	unsigned int bc = cmp->baseline_clients;
	enum compare_metric m = cmp->cc->metric;
	char value[32];

	for (unsigned int f = 1; f < cmp->nsides; f++)
		if (cmp->notlike[f])
			printf("# WARNING: NOT LIKE FOR LIKE: %s and %s differ in: %s\n",
			       a, cmp->sides[f].label, cmp->notlike[f]);
	if (m == CMP_P99)
		units_format_ns(value, sizeof(value),
				(uint64_t)llround(cmp->baseline));
	else
		snprintf(value, sizeof(value), "%.2f %s", cmp->baseline,
			 metric_names[m]);
	if (cmp->by_boot)
		printf("Metric: %s%s, %s over boots of each boot's %s of runs, relative to %s at %u client%s (= %s",
		       metric_names[m],
		       m == CMP_P99 ? " (lower is better)" : "",
		       cmp->test == TEST_WELCH ? "mean" : "median",
		       cmp->test == TEST_WELCH ? "mean" : "median", a, bc,
		       bc == 1 ? "" : "s", value);
	else
		printf("Metric: %s%s, %s of runs, relative to %s at %u client%s (= %s",
		       metric_names[m],
		       m == CMP_P99 ? " (lower is better)" : "",
		       cmp->test == TEST_WELCH ? "mean" : "median", a, bc,
		       bc == 1 ? "" : "s", value);
	if (bc != 1)
		printf("; %s has no 1-client result", a);
	printf(")\nCells: relative value, spread or change vs %s at the same count [%g%% interval], mark, %s\n",
	       a, cmp->cc->confidence * 100,
	       cmp->by_boot ? "(boots/runs): each boot one sample" : "(runs)");
}

static const char *correction_name(enum padjust_method m)
{
	switch (m) {
	case PADJUST_BH:
		return "Benjamini-Hochberg";
	case PADJUST_HOLM:
		return "Holm";
	case PADJUST_NONE:
		break;
	}
	return "no";
}

static void print_legend(const struct comparison *cmp)
{
	const struct compare_config *cc = cmp->cc;
	double level = (1 - cc->confidence) * 100;
	const char *spread = cmp->by_boot ? "the boots'" : "the runs'";

	if (cmp->test == TEST_WELCH)
		printf("Marks: Welch's t-test, two-sided");
	else
		printf("Marks: Mann-Whitney U test (%s), two-sided",
		       cmp->all_exact ? "exact" : "normal approximation");
	if (!cmp->ntests)
		printf("; no row tested");
	else if (cc->correction == PADJUST_BH)
		printf("; Benjamini-Hochberg over %u test%s (false discovery rate %g%%)",
		       cmp->ntests, cmp->ntests == 1 ? "" : "s", level);
	else if (cc->correction == PADJUST_HOLM)
		printf("; Holm over %u test%s (family-wise error %g%%)",
		       cmp->ntests, cmp->ntests == 1 ? "" : "s", level);
	else
		printf("; no correction (each row at %g%%)", level);
	printf(": * significant, ~ not significant, ? suspect (below)\n");
	if (cmp->test == TEST_WELCH)
		printf("Interval: the difference of the means, Welch's t; +/-: %s coefficient of variation\n",
		       spread);
	else
		printf("Interval: Hodges-Lehmann, distribution-free; +/-: %s coefficient of variation\n",
		       spread);
	if (cc->pvalues)
		printf("p: the test's p-value, before the %s correction\n",
		       correction_name(cc->correction));
	printf("Never marked: a change under %g%% (--threshold)",
	       cc->threshold * 100);
	if (cmp->resolution)
		printf(", or under %.1f%% for p99 (the resolution of the latency histograms)",
		       comparison_resolution(cmp) * 100);
	printf("\n");
}

/* "2 of 5 runs of B" and "1 of 5 of A", as they apply. */
static void print_counts(const char *what, unsigned int na, size_t ta,
			 const char *a, unsigned int nb, size_t tb,
			 const char *b)
{
	printf("%s: ", what);
	if (nb)
		printf("%u of %zu runs of %s", nb, tb, b);
	if (na && nb)
		printf(", ");
	if (na)
		printf("%u of %zu runs of %s", na, ta, a);
}

/* The flagged runs behind @bits of a cell, "; " between kinds. */
static void print_flags(const struct comparison_cell *ref,
			const struct comparison_cell *c, const char *a,
			const char *b, unsigned int bits)
{
	const char *sep = "";

	if (bits & SUSPECT_STARVED) {
		print_counts("starved", ref->starved, ref->nruns, a, c->starved,
			     c->nruns, b);
		sep = "; ";
	}
	if (bits & SUSPECT_IDLE) {
		printf("%s", sep);
		print_counts("with idle clients", ref->idle, ref->nruns, a,
			     c->idle, c->nruns, b);
		sep = "; ";
	}
	if (bits & SUSPECT_INCOMPLETE) {
		printf("%s", sep);
		print_counts("incomplete", ref->unasked, ref->nruns, a,
			     c->unasked, c->nruns, b);
	}
}

#define FLAG_BITS (SUSPECT_STARVED | SUSPECT_IDLE | SUSPECT_INCOMPLETE)

/* A '*' kept despite flagged runs: what they could account for. */
static void print_beyond(const struct comparison *cmp)
{
	const struct comparison_side *a = &cmp->sides[0];

	for (unsigned int f = 1; f < cmp->nsides; f++) {
		const struct comparison_side *s = &cmp->sides[f];

		for (unsigned int r = 0; r < cmp->nclients; r++) {
			const struct comparison_cell *c =
				comparison_cell(cmp, r, f);
			const struct comparison_cell *ref =
				comparison_cell(cmp, r, 0);

			if (!c->beyond)
				continue;
			if (c->suspect & FLAG_BITS) {
				printf("* %s at %u client%s: ", s->label,
				       cmp->clients[r],
				       cmp->clients[r] == 1 ? "" : "s");
				print_flags(ref, c, a->label, s->label,
					    c->suspect & FLAG_BITS);
				printf(": they could account for a factor of %.3g at most (%s %.3g, %s %.3g), the change is beyond it: the mark stands\n",
				       ref->bound > c->bound ? ref->bound :
							       c->bound,
				       a->label, ref->bound, s->label,
				       c->bound);
			}
			if (c->suspect & SUSPECT_DRIFT)
				printf("* %s at %u client%s: drift: it could account for a factor of %.3g at most (%s %.3g, %s %.3g), the change is beyond it: the mark stands\n",
				       s->label, cmp->clients[r],
				       cmp->clients[r] == 1 ? "" : "s",
				       a->drift_bound * s->drift_bound,
				       a->label, a->drift_bound, s->label,
				       s->drift_bound);
		}
	}
}

/* The legend of '!': each side's starved runs, of its runs in the table. */
static void print_starved(const struct comparison *cmp)
{
	const char *sep = "! starved: ";

	for (unsigned int f = 0; f < cmp->nsides; f++) {
		unsigned int k = 0;
		size_t n = 0;

		for (unsigned int r = 0; r < cmp->nclients; r++) {
			const struct comparison_cell *c =
				comparison_cell(cmp, r, f);

			if (c->state == CELL_MISSING)
				continue;
			k += c->starved;
			n += c->nruns;
		}
		if (!k)
			continue;
		printf("%s%u of %zu runs of %s", sep, k, n,
		       cmp->sides[f].label);
		sep = ", ";
	}
	if (*sep == ',')
		printf(": %s\n", REPORT_STARVED_WHY);
}

static void print_suspects(const struct comparison *cmp)
{
	const struct comparison_side *a = &cmp->sides[0];

	for (unsigned int f = 1; f < cmp->nsides; f++) {
		const struct comparison_side *s = &cmp->sides[f];
		bool drift = false, one_boot = false;

		for (unsigned int r = 0; r < cmp->nclients; r++) {
			const struct comparison_cell *c =
				comparison_cell(cmp, r, f);
			const struct comparison_cell *ref =
				comparison_cell(cmp, r, 0);

			if (c->mark != MARK_SUSPECT)
				continue;
			drift = drift || (c->suspect & SUSPECT_DRIFT);
			one_boot = one_boot || (c->suspect & SUSPECT_ONE_BOOT);
			if (!(c->suspect & FLAG_BITS))
				continue;
			printf("? %s at %u client%s: ", s->label,
			       cmp->clients[r],
			       cmp->clients[r] == 1 ? "" : "s");
			print_flags(ref, c, a->label, s->label,
				    c->suspect & FLAG_BITS);
			printf("\n");
		}
		if (one_boot)
			printf("? %s: %s and %s ran in one boot each, not the same: a boot's layout alone moves results by several percent, so the change cannot be told from the boot; give several boots a side (vfsbench kernels, or A1.json A2.json -- B1.json B2.json)\n",
			       s->label, a->label, s->label);
		if (!drift)
			continue;
		for (unsigned int k = 0; k < 2; k++) {
			const struct comparison_side *d = k ? s : a;

			char *path;

			if (!d->drift)
				continue;
			path = escape_shown(d->trend_part->path);
			printf("? %s: drift: the runs of %s ('%s') trend over their order (Mann-Kendall, p = %.2g), and %s and %s did not run interleaved\n",
			       s->label, d->label, path, d->trend.p, a->label,
			       s->label);
			free(path);
		}
	}
}

/* Flagged runs on interleaved sides that fell on both alike. */
static void print_alike(const struct comparison *cmp)
{
	const struct comparison_side *a = &cmp->sides[0];

	for (unsigned int f = 1; f < cmp->nsides; f++) {
		const struct comparison_side *s = &cmp->sides[f];

		for (unsigned int r = 0; r < cmp->nclients; r++) {
			const struct comparison_cell *c =
				comparison_cell(cmp, r, f);
			const struct comparison_cell *ref =
				comparison_cell(cmp, r, 0);

			if (!c->alike)
				continue;
			printf("Note: %s at %u client%s: ", s->label,
			       cmp->clients[r],
			       cmp->clients[r] == 1 ? "" : "s");
			print_flags(ref, c, a->label, s->label, c->alike);
			printf(": run interleaved and no more on one side than chance allows (Fisher), the mark stands\n");
		}
	}
}

static void print_notes(const struct comparison *cmp)
{
	const char *a = cmp->sides[0].label;
	bool no_ref = false, few = false;

	for (unsigned int r = 0; r < cmp->nclients; r++) {
		for (unsigned int f = 1; f < cmp->nsides; f++) {
			enum cell_state st = comparison_cell(cmp, r, f)->state;

			no_ref = no_ref || st == CELL_NO_REF;
			few = few || st == CELL_FEW;
		}
	}
	if (few && cmp->test == TEST_WELCH)
		printf("too few %s: under %d %s on a side, no test\n",
		       cmp->by_boot ? "boots" : "samples", COMPARE_MIN_RUNS,
		       cmp->by_boot ? "boots" : "runs");
	else if (few)
		printf("too few %s: with so few %s the test cannot reach %g%% (it needs 4 %s a side, or 3 and 5)\n",
		       cmp->by_boot ? "boots" : "samples",
		       cmp->by_boot ? "boots" : "runs",
		       cmp->cc->confidence * 100,
		       cmp->by_boot ? "boots" : "runs");
	for (unsigned int f = 0; f < cmp->nsides; f++) {
		const struct comparison_side *s = &cmp->sides[f];

		if (cmp->by_boot)
			printf("Note: %s: %u boot%s, %u runs\n", s->label,
			       s->nboots, s->nboots == 1 ? "" : "s", s->nruns);
		else if (s->nparts > 1)
			printf("Note: %s: %u files, %u runs pooled\n", s->label,
			       s->nparts, s->nruns);
		if (s->drift)
			printf("Note: %s: the runs trend over their order (Mann-Kendall, p = %.2g)\n",
			       s->label, s->trend.p);
	}
	if (!(cmp->baseline > 0))
		printf("Note: %s's baseline is 0: no relative values (n/a)\n",
		       a);
	if (no_ref)
		printf("Note: no change or test where %s has no result\n", a);
	for (unsigned int i = 0; i < cmp->nfiles; i++) {
		const struct resultfile *rf = &cmp->files[i];

		if (!rf->complete && !rf->variant) {
			char *path = escape_shown(rf->path);

			printf("Note: %s: the sweep stopped early\n",
			       rf->nvariants > 1 ? path : rf->label);
			free(path);
		}
		if (rf->incomplete)
			printf("Note: %s: %u run%s left out: ended early (--strict, --max-errors or a signal)\n",
			       rf->label, rf->incomplete,
			       rf->incomplete == 1 ? "" : "s");
	}
}

void report_compare(const struct comparison *cmp)
{
	struct column *cols = xcalloc(cmp->nsides, sizeof(*cols));
	size_t len = 16;
	char *line;

	for (unsigned int f = 0; f < cmp->nsides; f++) {
		measure_column(cmp, f, &cols[f]);
		len += (size_t)cols[f].width + 2;
	}
	line = xmalloc(len);
	print_header(cmp);
	snprintf(line, len, "%7s", "Clients");
	for (unsigned int f = 0; f < cmp->nsides; f++)
		line_add(line, len, "  %-*s", cols[f].width,
			 cmp->sides[f].label);
	put_line(line);
	for (unsigned int r = 0; r < cmp->nclients; r++)
		print_row(cmp, r, cols, line, len);
	print_legend(cmp);
	print_starved(cmp);
	if (cmp->by_boot)
		report_boot_spread(cmp);
	print_suspects(cmp);
	print_beyond(cmp);
	print_alike(cmp);
	print_notes(cmp);
	if (cmp->nenvdiff)
		printf("Environment differs:\n");
	for (unsigned int i = 0; i < cmp->nenvdiff; i++)
		put_line(cmp->envdiff[i]);
	fflush(stdout);
	free(line);
	free(cols);
}
