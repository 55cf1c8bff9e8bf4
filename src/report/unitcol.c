/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A latency column of the text report in one unit: 4100.0us beside
 * 40.4us, not 4.10ms beside 40.4us, so that a column is read at a glance
 * and sorted or summed by awk without parsing each cell's unit.
 */
#include <config.h>
#include "report/unitcol.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const struct {
	const char *name;
	double per;
} units[] = {
	[LATENCY_UNIT_NS] = { "ns", 1 },
	[LATENCY_UNIT_US] = { "us", 1e3 },
	[LATENCY_UNIT_MS] = { "ms", 1e6 },
};

/* The most digits before the point of a column's largest value. */
#define MAX_INT_DIGITS 6
/* The most decimals, for a forced unit far above the values (--units ms) */
#define MAX_DECIMALS 6

void unit_col_init(struct unit_col *c)
{
	*c = (struct unit_col){ .min = UINT64_MAX };
}

void unit_col_add(struct unit_col *c, uint64_t ns)
{
	if (ns && ns < c->min)
		c->min = ns;
	if (ns > c->max)
		c->max = ns;
}

void unit_col_choose(struct unit_col *c, enum latency_unit unit)
{
	double v;

	if (unit == LATENCY_UNIT_AUTO) {
		unit = c->min == UINT64_MAX ? LATENCY_UNIT_NS :
		       c->min >= 1000000    ? LATENCY_UNIT_MS :
		       c->min >= 1000	    ? LATENCY_UNIT_US :
					      LATENCY_UNIT_NS;
		while (unit < LATENCY_UNIT_MS &&
		       (double)c->max / units[unit].per >=
			       pow(10, MAX_INT_DIGITS))
			unit++;
	}
	c->name = units[unit].name;
	c->per = units[unit].per;
	c->decimals = 0;
	if (c->min == UINT64_MAX || unit == LATENCY_UNIT_NS)
		return;
	/* 3 significant digits of the smallest value */
	v = (double)c->min / c->per;
	c->decimals = 2 - (int)floor(log10(v));
	if (c->decimals < 0)
		c->decimals = 0;
	if (c->decimals > MAX_DECIMALS)
		c->decimals = MAX_DECIMALS;
}

char *unit_col_format(const struct unit_col *c, char *buf, size_t len,
		      uint64_t ns)
{
	snprintf(buf, len, "%.*f%s", c->decimals, (double)ns / c->per, c->name);
	return buf;
}

int unit_col_parse(const char *s, enum latency_unit *unit)
{
	for (unsigned int u = LATENCY_UNIT_NS; u <= LATENCY_UNIT_MS; u++) {
		if (!strcmp(s, units[u].name)) {
			*unit = (enum latency_unit)u;
			return 0;
		}
	}
	return -EINVAL;
}
