/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The labels of result files in tables and keys: a file's basename or
 * its variant's label, control characters made harmless, and made unique
 * among the files read together (resultfile_labels()).
 */
#include <config.h>
#include "compare/resultlabel.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/escape.h"
#include "base/label.h"
#include "compare/resultfile.h"

/*
 * A label escaped as every label is shown (base/escape.h): control bytes
 * and bytes that are not UTF-8 as \xNN, so that it stays one line of a
 * table and nothing raw reaches the terminal. Takes @label, returns a new
 * string.
 */
char *resultlabel_sanitize(char *label)
{
	char *shown = escape_shown(label);

	free(label);
	return shown;
}

/* The basename of @path without ".json". */
char *resultlabel_base(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t n;
	char *label;

	base = base ? base + 1 : path;
	n = strlen(base);
	if (n > 5 && !strcmp(base + n - 5, ".json"))
		n -= 5;
	label = xmalloc(n + 1);
	memcpy(label, base, n);
	label[n] = '\0';
	return resultlabel_sanitize(label);
}

/*
 * The label of @rf at @level: 0, the variant's label (of a file of
 * several) or the basename; 1, "BASENAME:VARIANT"; 2, the same with the
 * path, less ".json", for the basename.
 */
static char *label_at(const struct resultfile *rf, int level)
{
	char *file =
		level >= 2 ? xstrdup(rf->path) : resultlabel_base(rf->path);
	size_t len = strlen(file);
	char *label;

	/* a kernel's boot: its kernel's label ("base", "kernels:base") */
	if (rf->kernel_label) {
		const char *k = rf->kernel_label, *v = rf->variant_label;
		bool var = v && rf->nvariants > 1;

		if (level >= 2 && len > 5 && !strcmp(file + len - 5, ".json"))
			file[len - 5] = '\0';
		len = strlen(file) + strlen(k) + (var ? strlen(v) : 0) + 3;
		label = xmalloc(len);
		snprintf(label, len, "%s%s%s%s%s", level ? file : "",
			 level ? ":" : "", k, var ? ":" : "", var ? v : "");
		free(file);
		return resultlabel_sanitize(label);
	}

	if (level >= 2 && len > 5 && !strcmp(file + len - 5, ".json"))
		file[len - 5] = '\0';
	if (!rf->variant_label || rf->nvariants < 2)
		return resultlabel_sanitize(file);
	if (!level) {
		free(file);
		return resultlabel_sanitize(xstrdup(rf->variant_label));
	}
	len = strlen(file) + strlen(rf->variant_label) + 2;
	label = xmalloc(len);
	snprintf(label, len, "%s:%s", file, rf->variant_label);
	free(file);
	return resultlabel_sanitize(label);
}

/* The boots of one kernel and variant of one file: one side, one label. */
static bool same_side(const struct resultfile *a, const struct resultfile *b)
{
	return a->kernel_label && b->kernel_label && a->file == b->file &&
	       a->kernel == b->kernel && a->variant == b->variant;
}

void resultfile_labels(struct resultfile *rf, unsigned int n)
{
	int *level = xcalloc(n + 1, sizeof(*level));
	bool again = true;
	unsigned int nl = 0;
	char **labels;

	for (unsigned int i = 0; i < n; i++) {
		free(rf[i].label);
		rf[i].label = label_at(&rf[i], 0);
	}
	/* raise the level of every label that clashes, until none does */
	while (again) {
		bool *clash = xcalloc(n + 1, sizeof(*clash));

		again = false;
		for (unsigned int i = 0; i < n; i++)
			for (unsigned int j = i + 1; j < n; j++)
				if (!strcmp(rf[i].label, rf[j].label) &&
				    !same_side(&rf[i], &rf[j]))
					clash[i] = clash[j] = true;
		for (unsigned int i = 0; i < n; i++) {
			if (!clash[i] || level[i] >= 2)
				continue;
			level[i]++;
			free(rf[i].label);
			rf[i].label = label_at(&rf[i], level[i]);
			again = true;
		}
		free(clash);
	}
	/*
	 * the same file twice: number the later ones by their position;
	 * a kernel's later boots are not repeats
	 */
	labels = xcalloc(n + 1, sizeof(*labels));
	for (unsigned int i = 0; i < n; i++) {
		unsigned int j;

		for (j = 0; j < i && !same_side(&rf[j], &rf[i]); j++)
			;
		if (j == i)
			labels[nl++] = rf[i].label;
	}
	label_number_repeats(labels, nl);
	for (unsigned int i = 0, k = 0; i < n; i++) {
		unsigned int j;

		for (j = 0; j < i && !same_side(&rf[j], &rf[i]); j++)
			;
		if (j == i) {
			rf[i].label = labels[k++];
		} else {
			free(rf[i].label);
			rf[i].label = xstrdup(rf[j].label);
		}
	}
	free(labels);
	free(level);
}
