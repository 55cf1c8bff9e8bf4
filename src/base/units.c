/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Numbers with units: parsing durations, sizes and plain integers from
 * option and loadfile strings, and formatting latencies for reports. Pure
 * code: errors are returned, nothing is printed. Parsing never depends on
 * the locale: digits are '0'-'9' and the decimal point is '.'.
 */
#include <config.h>
#include "base/units.h"
#include "base/compiler.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

struct unit {
	const char *suffix;
	uint64_t mult;
};

/* A suffix must match all of the rest of the string. */
static const struct unit duration_units[] = {
	{ "", 1000000000ull }, /* plain number: seconds */
	{ "ns", 1ull },
	{ "us", 1000ull },
	{ "ms", 1000000ull },
	{ "s", 1000000000ull },
	{ "m", 60ull * 1000000000ull },
	{ "h", 3600ull * 1000000000ull },
};

/*
 * Binary multiples, matched case-insensitively. A "b" may follow a
 * multiple, but bare "b" is not a unit: "4b" is more likely a typo than
 * four bytes.
 */
static const struct unit size_units[] = {
	{ "", 1ull }, /* bytes */
	{ "k", 1ull << 10 }, /* KiB */
	{ "kb", 1ull << 10 }, /* KiB */
	{ "m", 1ull << 20 }, /* MiB */
	{ "mb", 1ull << 20 }, /* MiB */
	{ "g", 1ull << 30 }, /* GiB */
	{ "gb", 1ull << 30 }, /* GiB */
	{ "t", 1ull << 40 }, /* TiB */
	{ "tb", 1ull << 40 }, /* TiB */
};

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* ASCII-only tolower(): the locale must not change what a suffix means. */
static char ascii_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static int suffix_eq(const char *s, const char *suffix, int ignore_case)
{
	for (; *s && *suffix; s++, suffix++) {
		if ((ignore_case ? ascii_lower(*s) : *s) != *suffix)
			return 0;
	}
	return *s == *suffix;
}

/*
 * Parse the leading decimal digits of @s into @val and point @end past
 * them. @s must start with a digit: strtoull() would also take leading
 * whitespace and a sign. Returns 0, -EINVAL (no digit) or -ERANGE.
 */
static int parse_digits(const char *s, uint64_t *val, const char **end)
{
	unsigned long long v;
	char *e;

	if (!is_digit(*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &e, 10);
	*end = e;
	if (errno == ERANGE)
		return -ERANGE;
	*val = v;
	return 0;
}

/*
 * The multiplier for suffix @s, which is all of the rest of the string.
 * Table suffixes are lowercase.
 */
static int lookup_unit(const struct unit *units, size_t nr, const char *s,
		       int ignore_case, uint64_t *mult)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		if (suffix_eq(s, units[i].suffix, ignore_case)) {
			*mult = units[i].mult;
			return 0;
		}
	}
	return -EINVAL;
}

/*
 * floor(0.d1d2...dn * mult) for the fraction digits [frac, frac + n),
 * exactly, by Horner's rule from the last digit:
 * q = floor((d * mult + q) / 10). Flooring at every step gives the same
 * result as flooring once, because d * mult is an integer; q stays below
 * mult, so nothing overflows for any mult up to UINT64_MAX / 10.
 */
static uint64_t fraction_of(const char *frac, size_t n, uint64_t mult)
{
	uint64_t q = 0;

	while (n--)
		q = ((uint64_t)(frac[n] - '0') * mult + q) / 10;
	return q;
}

int units_parse_duration(const char *s, uint64_t *ns)
{
	const char *p, *frac = NULL;
	size_t nfrac = 0;
	uint64_t whole, mult, part;
	int ret, range;

	range = parse_digits(s, &whole, &p);
	if (range == -EINVAL)
		return -EINVAL;
	if (*p == '.') {
		frac = ++p;
		while (is_digit(*p))
			p++;
		nfrac = (size_t)(p - frac);
		if (!nfrac)
			return -EINVAL;
	}
	ret = lookup_unit(duration_units, ARRAY_SIZE(duration_units), p, 0,
			  &mult);
	if (ret)
		return ret;
	if (range)
		return range;

	part = frac ? fraction_of(frac, nfrac, mult) : 0;
	if (whole > (UINT64_MAX - part) / mult)
		return -ERANGE;
	*ns = whole * mult + part;
	return 0;
}

int units_parse_size(const char *s, uint64_t *bytes)
{
	const char *p;
	uint64_t val, mult;
	int ret, range;

	range = parse_digits(s, &val, &p);
	if (range == -EINVAL)
		return -EINVAL;
	ret = lookup_unit(size_units, ARRAY_SIZE(size_units), p, 1, &mult);
	if (ret)
		return ret;
	if (range)
		return range;
	if (val > UINT64_MAX / mult)
		return -ERANGE;
	*bytes = val * mult;
	return 0;
}

int units_parse_uint(const char *s, uint64_t max, uint64_t *val)
{
	const char *p;
	uint64_t v;
	int range;

	range = parse_digits(s, &v, &p);
	if (range == -EINVAL || *p)
		return -EINVAL;
	if (range || v > max)
		return -ERANGE;
	*val = v;
	return 0;
}

/* n / d rounded half up, without overflow. */
static uint64_t div_round(uint64_t n, uint64_t d)
{
	return n / d + (n % d >= d - d / 2);
}

/*
 * Three significant digits: "d.dd", "dd.d" or "ddd" in the first unit
 * where the rounded value stays below 1000, so 999.5 us is "1.00ms", not
 * "1000us". Seconds are the last unit: long runs print "3600s".
 */
char *units_format_ns(char *buf, size_t len, uint64_t ns)
{
	static const struct unit fmt_units[] = {
		{ "us", 1000ull },
		{ "ms", 1000000ull },
		{ "s", 1000000000ull },
	};
	uint64_t d, v;
	size_t i;

	if (ns < 1000) {
		snprintf(buf, len, "%" PRIu64 "ns", ns);
		return buf;
	}
	for (i = 0; i < ARRAY_SIZE(fmt_units); i++) {
		d = fmt_units[i].mult;
		v = div_round(ns, d / 100);
		if (v < 1000) {
			snprintf(buf, len, "%" PRIu64 ".%02" PRIu64 "%s",
				 v / 100, v % 100, fmt_units[i].suffix);
			return buf;
		}
		v = div_round(ns, d / 10);
		if (v < 1000) {
			snprintf(buf, len, "%" PRIu64 ".%" PRIu64 "%s", v / 10,
				 v % 10, fmt_units[i].suffix);
			return buf;
		}
		v = div_round(ns, d);
		if (v < 1000 || i == ARRAY_SIZE(fmt_units) - 1) {
			snprintf(buf, len, "%" PRIu64 "%s", v,
				 fmt_units[i].suffix);
			return buf;
		}
	}
	return buf; /* not reached */
}
