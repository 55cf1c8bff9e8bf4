/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_REPORT_KNEE_H
#define VB_REPORT_KNEE_H

#include <jansson.h>
#include <stdbool.h>

struct report_config;
struct report_profile;
struct sweep;

#define KNEE_SYMBOLS 3

/*
 * A profiled variant's knee (--knee): the first client count whose
 * efficiency, on the median of its runs, is below the threshold, and
 * the symbols whose self share grew most from the baseline count to it.
 * No symbol is blamed where the runs of either count were starved: a
 * starved count's profile shows the scheduler's wait, not the code's.
 */
struct knee {
	bool shown; /* two counts or more had runs: a verdict */
	double threshold;
	bool found;
	unsigned int clients; /* the knee's count, or the last when none */
	double efficiency;
	unsigned int from; /* the baseline's count */
	/* runs of the knee's or the baseline's count were starved */
	bool starved;
	bool profiled; /* both counts have a profile */
	unsigned int nsym;
	const char *sym[KNEE_SYMBOLS]; /* the profiles' own strings */
	double grew[KNEE_SYMBOLS]; /* their self share's growth, 0.026 */
};

/* The knee of variant @v, from the profiles @p[0..@n) of the sweep. */
void knee_find(struct knee *k, const struct report_config *rc,
	       const struct sweep *sw, unsigned int v,
	       const struct report_profile *p, unsigned int n);

/* "Knee (--knee 0.80): ..." on stdout, when k->shown. */
void knee_print(const struct knee *k);

/* The JSON "knee" of variant @v (doc/json-schema.md); null when !shown. */
json_t *knee_json(const struct knee *k, unsigned int v);

#endif /* VB_REPORT_KNEE_H */
