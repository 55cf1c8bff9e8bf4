/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vfsbench compare's output: report_compare()'s table, once, or once per
 * workload when the files' variants were paired by label.
 */
#include <config.h>
#include "report/report.h"

#include <stdio.h>

#include "compare/compareset.h"

void report_compareset(const struct compareset *set)
{
	if (!set->paired) {
		report_compare(&set->cmps[0]);
		return;
	}
	printf("Workloads paired by name across the files: %u compared\n",
	       set->ncmps);
	for (unsigned int c = 0; c < set->ncmps; c++) {
		printf("\nWorkload %s\n", set->labels[c]);
		report_compare(&set->cmps[c]);
	}
	if (set->nmissing)
		putchar('\n');
	for (unsigned int m = 0; m < set->nmissing; m++)
		printf("Workload %s\n", set->missing[m]);
	fflush(stdout);
}
