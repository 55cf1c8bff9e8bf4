/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_BASE_UNITS_H
#define VB_BASE_UNITS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Numbers with units, for options and loadfile arguments. All parsers take
 * the whole string, reject trailing junk, signs and overflow, and return
 * 0 or -EINVAL / -ERANGE; they print nothing.
 */

/*
 * Duration: "10" (seconds), "10s", "250ms", "100us", "5ns", "2m", "1h",
 * fractions allowed ("1.5s", not ".5s" or "1."). Suffixes are lowercase.
 * Result in nanoseconds, exact: a fraction of a nanosecond is dropped.
 */
int units_parse_duration(const char *s, uint64_t *ns);

/*
 * Size: "4096", "4k", "1M", "2g", "1t" (binary multiples: k = 1024), whole
 * numbers only, result in bytes. The suffix may be upper or lower case and
 * be followed by "b" ("4kB"); "b" alone ("4b") is not accepted.
 */
int units_parse_size(const char *s, uint64_t *bytes);

/* Unsigned decimal integer within [0, max]. */
int units_parse_uint(const char *s, uint64_t max, uint64_t *val);

/*
 * Format a latency in ns with 3 significant digits, rounded half up, and a
 * unit: "850ns", "1.23us", "45.6ms", "2.00s". Seconds are the largest unit
 * ("3600s"). Truncates like snprintf() if @len is short. Returns @buf.
 */
char *units_format_ns(char *buf, size_t len, uint64_t ns);

#endif /* VB_BASE_UNITS_H */
