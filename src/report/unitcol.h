/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_REPORT_UNITCOL_H
#define VB_REPORT_UNITCOL_H

#include <stddef.h>
#include <stdint.h>

/* --units: the unit of every latency column, or one chosen per column. */
enum latency_unit {
	LATENCY_UNIT_AUTO,
	LATENCY_UNIT_NS,
	LATENCY_UNIT_US,
	LATENCY_UNIT_MS,
};

/*
 * struct unit_col: one latency column of a text table, printed in one
 * unit so that it scans by eye and by awk. Its values are added first
 * (unit_col_add()), then each is formatted in the unit that
 * unit_col_choose() picked: that of --units, else the one in which the
 * smallest non-zero value has 3 significant digits before the point or
 * after, unless the largest would then need more than 6 digits before it.
 * Every value of the column has the same number of decimals.
 */
struct unit_col {
	uint64_t min, max; /* the smallest non-zero value and the largest */
	double per; /* ns per unit */
	const char *name; /* "ns", "us", "ms" */
	int decimals;
};

void unit_col_init(struct unit_col *c);
void unit_col_add(struct unit_col *c, uint64_t ns);
void unit_col_choose(struct unit_col *c, enum latency_unit unit);
/* @ns in the column's unit, with its suffix ("4100.0us"); returns @buf. */
char *unit_col_format(const struct unit_col *c, char *buf, size_t len,
		      uint64_t ns);

/* "ns", "us" or "ms" into *@unit; 0 or -EINVAL. */
int unit_col_parse(const char *s, enum latency_unit *unit);

#endif /* VB_REPORT_UNITCOL_H */
