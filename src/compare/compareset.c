/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vfsbench compare of files of several variants each: one comparison per
 * variant label (a suite's workload), so that a workload is set against
 * the same workload, at the same client counts, in the other files.
 */
#include <config.h>
#include "compare/compareset.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/escape.h"
#include "compare/resultlabel.h"

/*
 * Two files or more, no sides given with "--", every file of several
 * labelled variants, and one label in two files: else the variants of
 * the files have nothing to be paired by.
 */
static bool pairable(const struct compare_config *cc,
		     const struct resultfile *rf, unsigned int n)
{
	if (cc->group || cc->nfiles < 2)
		return false;
	for (unsigned int i = 0; i < n; i++)
		if (rf[i].nvariants < 2 || !rf[i].variant_label)
			return false;
	for (unsigned int i = 0; i < n; i++)
		for (unsigned int j = i + 1; j < n; j++)
			if (rf[i].file != rf[j].file &&
			    !strcmp(rf[i].variant_label, rf[j].variant_label))
				return true;
	return false;
}

/* "NAME: only in 'a.json', not compared" or "NAME: not in 'c.json'". */
static char *missing_line(const char *label, const bool *has,
			  const char *const *path, unsigned int nfiles,
			  unsigned int count)
{
	size_t len = strlen(label) + 64;
	char *line;

	for (unsigned int f = 0; f < nfiles; f++)
		len += strlen(path[f]) + 4;
	line = xcalloc(len, 1);
	strcpy(line, label);
	if (count == 1) {
		for (unsigned int f = 0; f < nfiles; f++)
			if (has[f]) {
				strcat(line, ": only in '");
				strcat(line, path[f]);
				strcat(line, "', not compared");
			}
		return line;
	}
	strcat(line, ": not in ");
	for (unsigned int f = 0, k = 0; f < nfiles; f++) {
		if (has[f])
			continue;
		strcat(line, k++ ? ", '" : "'");
		strcat(line, path[f]);
		strcat(line, "'");
	}
	return line;
}

/*
 * The entries of the label of @rf[@i] (the first of each file) moved
 * into @sub, taken[] set; @has[f]: file f has the label. Returns how many.
 */
static unsigned int gather(struct resultfile *rf, unsigned int n,
			   unsigned int i, bool *taken, bool *has,
			   unsigned int nfiles, struct resultfile *sub)
{
	unsigned int k = 0;

	memset(has, 0, nfiles * sizeof(*has));
	for (unsigned int j = i; j < n; j++) {
		if (taken[j] || has[rf[j].file] ||
		    strcmp(rf[j].variant_label, rf[i].variant_label))
			continue;
		has[rf[j].file] = true;
		taken[j] = true;
		sub[k++] = rf[j];
	}
	return k;
}

static int build_paired(struct compareset *set, const struct compare_config *cc,
			struct resultfile *rf, unsigned int n)
{
	unsigned int nf = cc->nfiles;
	bool *taken = xcalloc(n + 1, sizeof(*taken));
	bool *has = xcalloc(nf + 1, sizeof(*has));
	char **path = xcalloc(nf + 1, sizeof(*path));
	int ret = 0;

	for (unsigned int i = 0; i < n; i++)
		if (!path[rf[i].file])
			path[rf[i].file] = escape_shown(rf[i].path);
	set->paired = true;
	set->cmps = xcalloc(n + 1, sizeof(*set->cmps));
	set->labels = xcalloc(n + 1, sizeof(*set->labels));
	set->missing = xcalloc(n + 1, sizeof(*set->missing));
	for (unsigned int i = 0; i < n && !ret; i++) {
		struct resultfile *sub;
		unsigned int k;
		char *label;

		if (taken[i])
			continue;
		sub = xcalloc(nf + 1, sizeof(*sub));
		k = gather(rf, n, i, taken, has, nf, sub);
		label = resultlabel_sanitize(xstrdup(rf[i].variant_label));
		if (k < nf)
			set->missing[set->nmissing++] = missing_line(
				label, has, (const char *const *)path, nf, k);
		if (k < 2) {
			/* in one file only: nothing to set it against */
			resultfile_release(&sub[0]);
			free(sub);
			free(label);
			continue;
		}
		set->labels[set->ncmps] = label;
		ret = comparison_prepare(&set->cmps[set->ncmps++], cc, sub, k);
	}
	/* what a failure left unread */
	for (unsigned int i = 0; i < n; i++)
		if (!taken[i])
			resultfile_release(&rf[i]);
	free(rf);
	for (unsigned int f = 0; f < nf; f++)
		free(path[f]);
	free(path);
	free(has);
	free(taken);
	if (ret)
		return ret;
	/* every table's files are the same: their environments once */
	for (unsigned int c = 0, seen = 0; c < set->ncmps; c++) {
		if (!seen) {
			seen = set->cmps[c].nenvdiff;
			continue;
		}
		for (unsigned int l = 0; l < set->cmps[c].nenvdiff; l++)
			free(set->cmps[c].envdiff[l]);
		set->cmps[c].nenvdiff = 0;
	}
	comparison_mark(set->cmps, set->ncmps);
	return 0;
}

/* Boots of a vfsbench kernels run of several variants (-c twice...). */
static bool kernels_variants(const struct resultfile *rf, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		if (!rf[i].kernel_label || rf[i].nvariants < 2 ||
		    !rf[i].variant_label)
			return false;
	return n > 0;
}

/*
 * One comparison per variant of the kernels' boots: the kernels are its
 * sides, each entry one variant of its own in it, so that its label is
 * its kernel's.
 */
static int build_kernels(struct compareset *set,
			 const struct compare_config *cc, struct resultfile *rf,
			 unsigned int n)
{
	bool *taken = xcalloc(n + 1, sizeof(*taken));
	int ret = 0;

	set->paired = true;
	set->cmps = xcalloc(n + 1, sizeof(*set->cmps));
	set->labels = xcalloc(n + 1, sizeof(*set->labels));
	for (unsigned int i = 0; i < n && !ret; i++) {
		struct resultfile *sub;
		unsigned int k = 0;

		if (taken[i])
			continue;
		sub = xcalloc(n + 1, sizeof(*sub));
		set->labels[set->ncmps] =
			resultlabel_sanitize(xstrdup(rf[i].variant_label));
		for (unsigned int j = i; j < n; j++) {
			if (taken[j] ||
			    strcmp(rf[j].variant_label, rf[i].variant_label))
				continue;
			taken[j] = true;
			sub[k] = rf[j];
			sub[k].variant = 0;
			sub[k++].nvariants = 1;
		}
		ret = comparison_prepare(&set->cmps[set->ncmps++], cc, sub, k);
	}
	for (unsigned int i = 0; i < n; i++)
		if (!taken[i])
			resultfile_release(&rf[i]);
	free(rf);
	free(taken);
	if (!ret)
		comparison_mark(set->cmps, set->ncmps);
	return ret;
}

int compareset_build_from(struct compareset *set,
			  const struct compare_config *cc,
			  struct resultfile *rf, unsigned int n)
{
	memset(set, 0, sizeof(*set));
	if (kernels_variants(rf, n))
		return build_kernels(set, cc, rf, n);
	if (pairable(cc, rf, n))
		return build_paired(set, cc, rf, n);
	set->cmps = xcalloc(1, sizeof(*set->cmps));
	set->labels = xcalloc(1, sizeof(*set->labels));
	set->ncmps = 1;
	return comparison_build_from(&set->cmps[0], cc, rf, n);
}

int compareset_build(struct compareset *set, const struct compare_config *cc)
{
	struct resultfile *rf = NULL;
	unsigned int n = 0;
	int ret;

	memset(set, 0, sizeof(*set));
	ret = comparison_read(cc, &rf, &n);
	if (ret)
		return ret;
	return compareset_build_from(set, cc, rf, n);
}

void compareset_release(struct compareset *set)
{
	for (unsigned int c = 0; c < set->ncmps; c++) {
		comparison_release(&set->cmps[c]);
		free(set->labels[c]);
	}
	for (unsigned int m = 0; m < set->nmissing; m++)
		free(set->missing[m]);
	free(set->missing);
	free(set->labels);
	free(set->cmps);
	memset(set, 0, sizeof(*set));
}
