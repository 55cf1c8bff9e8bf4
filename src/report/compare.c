/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The table of vfsbench compare on stdout: what struct comparison holds,
 * laid out to be pasted into a mailing-list post as it is.
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
#include "base/units.h"
#include "compare/compare.h"
#include "compare/resultfile.h"

/*
 * The layout, for old.json and new.json measured alike:
 *
 * Metric: ops/s, mean of runs, relative to old at 1 client (= 305333.33 ops/s)
 * Cells: relative value, change vs old at the same count, mark, (runs)
 * Clients  old       new
 *       1  1.00 (3)  1.02  +2.0% ~               (3)
 *       2  1.85 (3)  1.91  +3.2% ~               (3)
 *       4  3.09 (2)  3.49 +12.9% too few samples (3)
 *       8     -      7.01                        (3)
 * Marks (Welch's t-test, two-sided): * significant at 95%, ~ not significant
 * too few samples: under 3 runs on a side, no test
 * Note: no change or test where old has no result
 *
 * Before the table, one "# WARNING: NOT LIKE FOR LIKE: ..." line per file
 * that was not measured like A. After the legend, "Note: ..." lines:
 * runs left out, sweeps that stopped early, a baseline of 0, counts where
 * A has no result. A's column holds the relative value and its number of
 * runs; every other column holds the relative value, the change in
 * percent against A at the same count, the mark and the number of runs.
 * Each part is aligned within its column, a column is as wide as its
 * widest cell or label, columns are two spaces apart, and lines carry no
 * trailing blanks. The widest cell, with "too few samples", is about 35
 * characters: three files with short labels fit in 100 columns. "-": the
 * file has no result at that count; "n/a": a division by a mean of 0. For p99
 * the relative value is the latency relative to A's, lower is better, and the
 * first line says so.
 */

#define FIELD 32

/* The parts of one cell, as text. */
struct cell_text {
	char rel[FIELD];
	char change[FIELD];
	const char *mark;
	char runs[FIELD];
};

/* One file's column: the widths of the parts and of the whole. */
struct column {
	int rel, change, mark, runs;
	int width;
};

static const char *const metric_names[] = {
	[CMP_OPS] = "ops/s",
	[CMP_MBPS] = "MB/s",
	[CMP_P99] = "p99 latency",
};

static void cell_text(const struct comparison_cell *c, struct cell_text *t)
{
	memset(t, 0, sizeof(*t));
	t->mark = "";
	if (c->state == CELL_MISSING) {
		snprintf(t->rel, FIELD, "-");
		return;
	}
	if (isnan(c->relative))
		snprintf(t->rel, FIELD, "n/a");
	else
		snprintf(t->rel, FIELD, "%.2f", c->relative);
	snprintf(t->runs, FIELD, "(%zu)", c->s.n);
	if (c->state != CELL_FEW && c->state != CELL_TESTED)
		return;
	if (isnan(c->change))
		snprintf(t->change, FIELD, "n/a");
	else
		snprintf(t->change, FIELD, "%+.1f%%", c->change);
	if (c->state == CELL_FEW)
		t->mark = "too few samples";
	else
		t->mark = c->w.significant ? "*" : "~";
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
		cell_text(comparison_cell(cmp, r, f), &t);
		col->rel = max_int(col->rel, (int)strlen(t.rel));
		col->change = max_int(col->change, (int)strlen(t.change));
		col->mark = max_int(col->mark, (int)strlen(t.mark));
		col->runs = max_int(col->runs, (int)strlen(t.runs));
	}
	col->width = col->rel + (col->change ? 1 + col->change : 0) +
		     (col->mark ? 1 + col->mark : 0) +
		     (col->runs ? 1 + col->runs : 0);
	col->width = max_int(col->width, (int)strlen(cmp->files[f].label));
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
	char cell[4 * FIELD + 8];

	snprintf(line, len, "%7u", cmp->clients[r]);
	for (unsigned int f = 0; f < cmp->nfiles; f++) {
		const struct column *col = &cols[f];

		cell_text(comparison_cell(cmp, r, f), &t);
		snprintf(cell, sizeof(cell), "%*s", col->rel, t.rel);
		if (col->change)
			line_add(cell, sizeof(cell), " %*s", col->change,
				 t.change);
		if (col->mark)
			line_add(cell, sizeof(cell), " %-*s", col->mark,
				 t.mark);
		if (col->runs)
			line_add(cell, sizeof(cell), " %s", t.runs);
		line_add(line, len, "  %-*s", col->width, cell);
	}
	put_line(line);
}

static void print_header(const struct comparison *cmp)
{
	const char *a = cmp->files[0].label;
	unsigned int bc = cmp->baseline_clients;
	char value[32];

	for (unsigned int f = 1; f < cmp->nfiles; f++)
		if (cmp->notlike[f])
			printf("# WARNING: NOT LIKE FOR LIKE: %s and %s differ in: %s\n",
			       a, cmp->files[f].label, cmp->notlike[f]);
	if (cmp->metric == CMP_P99)
		units_format_ns(value, sizeof(value),
				(uint64_t)llround(cmp->baseline));
	else
		snprintf(value, sizeof(value), "%.2f %s", cmp->baseline,
			 metric_names[cmp->metric]);
	printf("Metric: %s%s, mean of runs, relative to %s at %u client%s (= %s",
	       metric_names[cmp->metric],
	       cmp->metric == CMP_P99 ? " (lower is better)" : "", a, bc,
	       bc == 1 ? "" : "s", value);
	if (bc != 1)
		printf("; %s has no 1-client result", a);
	printf(")\nCells: relative value, change vs %s at the same count, mark, (runs)\n",
	       a);
}

static void print_notes(const struct comparison *cmp)
{
	const char *a = cmp->files[0].label;
	bool no_ref = false, few = false;

	for (unsigned int r = 0; r < cmp->nclients; r++) {
		for (unsigned int f = 1; f < cmp->nfiles; f++) {
			enum cell_state st = comparison_cell(cmp, r, f)->state;

			no_ref = no_ref || st == CELL_NO_REF;
			few = few || st == CELL_FEW;
		}
	}
	printf("Marks (Welch's t-test, two-sided): * significant at %g%%, ~ not significant\n",
	       cmp->confidence * 100);
	if (few)
		printf("too few samples: under %d runs on a side, no test\n",
		       COMPARE_MIN_RUNS);
	if (!(cmp->baseline > 0))
		printf("Note: %s's baseline is 0: no relative values (n/a)\n",
		       a);
	if (no_ref)
		printf("Note: no change or test where %s has no result\n", a);
	for (unsigned int f = 0; f < cmp->nfiles; f++) {
		const struct resultfile *rf = &cmp->files[f];

		if (!rf->complete)
			printf("Note: %s: the sweep stopped early\n",
			       rf->label);
		if (rf->incomplete)
			printf("Note: %s: %u run%s left out: ended early (--strict, --max-errors or a signal)\n",
			       rf->label, rf->incomplete,
			       rf->incomplete == 1 ? "" : "s");
	}
}

void report_compare(const struct comparison *cmp)
{
	struct column *cols = xcalloc(cmp->nfiles, sizeof(*cols));
	size_t len = 16;
	char *line;

	for (unsigned int f = 0; f < cmp->nfiles; f++) {
		measure_column(cmp, f, &cols[f]);
		len += (size_t)cols[f].width + 2;
	}
	line = xmalloc(len);
	print_header(cmp);
	snprintf(line, len, "%7s", "Clients");
	for (unsigned int f = 0; f < cmp->nfiles; f++)
		line_add(line, len, "  %-*s", cols[f].width,
			 cmp->files[f].label);
	put_line(line);
	for (unsigned int r = 0; r < cmp->nclients; r++)
		print_row(cmp, r, cols, line, len);
	print_notes(cmp);
	fflush(stdout);
	free(line);
	free(cols);
}
