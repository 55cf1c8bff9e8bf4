/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for units.c: tables of valid and invalid durations, sizes and
 * integers (including the edges of uint64_t), and latency formatting at
 * every unit and rounding boundary. Output is TAP on stdout.
 */
#include <config.h>
#include "base/units.h"
#include "base/compiler.h"
#include "report/unitcol.h"
#include "unit.h"

#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

/* Written by a parser only on success, so failures must leave it alone. */
#define POISON UINT64_C(0xdeadbeefdeadbeef)

#define NS_PER_SEC UINT64_C(1000000000)

struct parse_case {
	const char *in;
	int ret;
	uint64_t want;
};

static const struct parse_case duration_cases[] = {
	{ "0", 0, 0 },
	{ "10", 0, 10 * NS_PER_SEC },
	{ "10s", 0, 10 * NS_PER_SEC },
	{ "1.5s", 0, 1500000000 },
	{ "1.5", 0, 1500000000 },
	{ "250ms", 0, 250000000 },
	{ "100us", 0, 100000 },
	{ "5ns", 0, 5 },
	{ "2m", 0, 120 * NS_PER_SEC },
	{ "1h", 0, 3600 * NS_PER_SEC },
	{ "007s", 0, 7 * NS_PER_SEC },
	{ "0.5ms", 0, 500000 },
	{ "2.5m", 0, 150 * NS_PER_SEC },
	{ "0.25h", 0, 900 * NS_PER_SEC },
	/* Decimal fractions are exact, not rounded through a double. */
	{ "0.1h", 0, 360 * NS_PER_SEC },
	{ "1.1s", 0, 1100000000 },
	{ "0.3s", 0, 300000000 },
	{ "0.000000001", 0, 1 },
	{ "1.000000000000000000000000s", 0, NS_PER_SEC },
	/* Below a nanosecond the value is truncated. */
	{ "1.5ns", 0, 1 },
	{ "0.0000000019s", 0, 1 },
	{ "0.9ns", 0, 0 },
	{ "1.000000000001h", 0, 3600 * NS_PER_SEC + 3 }, /* + 3.6 ns */
	{ "18446744073709551615ns", 0, UINT64_MAX },
	{ "18446744073.709551615s", 0, UINT64_MAX },
	{ "18446744073.7095516159s", 0, UINT64_MAX },
	{ "5124095h", 0, UINT64_C(5124095) * 3600 * NS_PER_SEC },
	{ "307445734m", 0, UINT64_C(307445734) * 60 * NS_PER_SEC },

	{ "", -EINVAL, 0 },
	{ "-1", -EINVAL, 0 },
	{ "+1", -EINVAL, 0 },
	{ "-0s", -EINVAL, 0 },
	{ " 1", -EINVAL, 0 },
	{ "\t1s", -EINVAL, 0 },
	{ "1 ", -EINVAL, 0 },
	{ "1s ", -EINVAL, 0 },
	{ "1 s", -EINVAL, 0 },
	{ "s", -EINVAL, 0 },
	{ "ms", -EINVAL, 0 },
	{ ".5s", -EINVAL, 0 },
	{ "1.s", -EINVAL, 0 },
	{ "1.", -EINVAL, 0 },
	{ "1..5s", -EINVAL, 0 },
	{ "1.5.5s", -EINVAL, 0 },
	{ "1,5s", -EINVAL, 0 },
	{ "1e3", -EINVAL, 0 },
	{ "0x10", -EINVAL, 0 },
	{ "inf", -EINVAL, 0 },
	{ "nan", -EINVAL, 0 },
	{ "1x", -EINVAL, 0 },
	{ "1S", -EINVAL, 0 },
	{ "1M", -EINVAL, 0 },
	{ "1MS", -EINVAL, 0 },
	{ "1sec", -EINVAL, 0 },
	{ "1ss", -EINVAL, 0 },
	{ "1msx", -EINVAL, 0 },
	{ "1us1", -EINVAL, 0 },
	{ "99999999999999999999999x", -EINVAL, 0 },

	{ "18446744073709551616ns", -ERANGE, 0 },
	{ "99999999999999999999999s", -ERANGE, 0 },
	{ "18446744074s", -ERANGE, 0 },
	{ "18446744074", -ERANGE, 0 },
	{ "18446744073.709551616s", -ERANGE, 0 },
	{ "5124096h", -ERANGE, 0 },
	{ "307445735m", -ERANGE, 0 },
};

static const struct parse_case size_cases[] = {
	{ "0", 0, 0 },
	{ "1", 0, 1 },
	{ "4096", 0, 4096 },
	{ "4k", 0, 4096 },
	{ "4K", 0, 4096 },
	{ "4kb", 0, 4096 },
	{ "4kB", 0, 4096 },
	{ "4KB", 0, 4096 },
	{ "1m", 0, UINT64_C(1) << 20 },
	{ "1M", 0, UINT64_C(1) << 20 },
	{ "1Mb", 0, UINT64_C(1) << 20 },
	{ "2g", 0, UINT64_C(2) << 30 },
	{ "2GB", 0, UINT64_C(2) << 30 },
	{ "1t", 0, UINT64_C(1) << 40 },
	{ "1TB", 0, UINT64_C(1) << 40 },
	{ "0k", 0, 0 },
	{ "0010k", 0, 10240 },
	{ "16777215t", 0, UINT64_C(16777215) << 40 },
	{ "18446744073709551615", 0, UINT64_MAX },

	{ "", -EINVAL, 0 },
	{ "b", -EINVAL, 0 },
	{ "k", -EINVAL, 0 },
	{ "4b", -EINVAL, 0 },
	{ "4B", -EINVAL, 0 },
	{ "-4k", -EINVAL, 0 },
	{ "+4k", -EINVAL, 0 },
	{ " 4k", -EINVAL, 0 },
	{ "4k ", -EINVAL, 0 },
	{ "4 k", -EINVAL, 0 },
	{ "4kk", -EINVAL, 0 },
	{ "4kbb", -EINVAL, 0 },
	{ "4bk", -EINVAL, 0 },
	{ "4ki", -EINVAL, 0 },
	{ "4kib", -EINVAL, 0 },
	{ "4p", -EINVAL, 0 },
	{ "1.5k", -EINVAL, 0 },
	{ "0x10", -EINVAL, 0 },
	{ "1e3", -EINVAL, 0 },

	{ "18446744073709551616", -ERANGE, 0 },
	{ "16777216t", -ERANGE, 0 },
	{ "17179869184g", -ERANGE, 0 },
	{ "18014398509481984k", -ERANGE, 0 },
};

struct uint_case {
	const char *in;
	uint64_t max;
	int ret;
	uint64_t want;
};

static const struct uint_case uint_cases[] = {
	{ "0", 0, 0, 0 },
	{ "0", 10, 0, 0 },
	{ "10", 10, 0, 10 },
	{ "007", 10, 0, 7 },
	{ "4294967296", UINT64_MAX, 0, UINT64_C(4294967296) },
	{ "18446744073709551615", UINT64_MAX, 0, UINT64_MAX },

	{ "11", 10, -ERANGE, 0 },
	{ "1", 0, -ERANGE, 0 },
	{ "18446744073709551616", UINT64_MAX, -ERANGE, 0 },
	{ "99999999999999999999999", UINT64_MAX, -ERANGE, 0 },

	{ "", 10, -EINVAL, 0 },
	{ "-1", 10, -EINVAL, 0 },
	{ "-0", 10, -EINVAL, 0 },
	{ "+1", 10, -EINVAL, 0 },
	{ " 1", 10, -EINVAL, 0 },
	{ "1 ", 10, -EINVAL, 0 },
	{ "1\n", 10, -EINVAL, 0 },
	{ "1k", UINT64_MAX, -EINVAL, 0 },
	{ "1.0", 10, -EINVAL, 0 },
	{ "0x1", 10, -EINVAL, 0 },
	{ "one", 10, -EINVAL, 0 },
	{ "99999999999999999999999x", UINT64_MAX, -EINVAL, 0 },
};

static void check_parse(const char *what, const struct parse_case *c, int ret,
			uint64_t got)
{
	ck_assert_msg(ret == c->ret, "%s(\"%s\") returned %d, want %d", what,
		      c->in, ret, c->ret);
	if (c->ret == 0)
		ck_assert_msg(got == c->want, "%s(\"%s\") = %ju, want %ju",
			      what, c->in, (uintmax_t)got, (uintmax_t)c->want);
	else
		ck_assert_msg(got == POISON, "%s(\"%s\") failed but wrote %ju",
			      what, c->in, (uintmax_t)got);
}

START_TEST(test_duration)
{
	const struct parse_case *c = &duration_cases[_i];
	uint64_t got = POISON;
	int ret;

	ret = units_parse_duration(c->in, &got);
	check_parse("units_parse_duration", c, ret, got);
}
END_TEST

START_TEST(test_size)
{
	const struct parse_case *c = &size_cases[_i];
	uint64_t got = POISON;
	int ret;

	ret = units_parse_size(c->in, &got);
	check_parse("units_parse_size", c, ret, got);
}
END_TEST

START_TEST(test_uint)
{
	const struct uint_case *c = &uint_cases[_i];
	uint64_t got = POISON;
	int ret;

	ret = units_parse_uint(c->in, c->max, &got);
	ck_assert_msg(ret == c->ret,
		      "units_parse_uint(\"%s\", %ju) returned %d, want %d",
		      c->in, (uintmax_t)c->max, ret, c->ret);
	ck_assert_uint_eq(got, c->ret == 0 ? c->want : POISON);
}
END_TEST

struct format_case {
	uint64_t ns;
	const char *want;
};

static const struct format_case format_cases[] = {
	{ 0, "0ns" },
	{ 1, "1ns" },
	{ 850, "850ns" },
	{ 999, "999ns" },
	{ 1000, "1.00us" },
	{ 1234, "1.23us" },
	{ 1235, "1.24us" }, /* half rounds up */
	{ 1999, "2.00us" },
	{ 9994, "9.99us" },
	{ 9995, "10.0us" },
	{ 12345, "12.3us" },
	{ 99949, "99.9us" },
	{ 99950, "100us" },
	{ 123456, "123us" },
	{ 999499, "999us" },
	{ 999500, "1.00ms" }, /* not "1000us" */
	{ 1000000, "1.00ms" },
	{ 45600000, "45.6ms" },
	{ 45649999, "45.6ms" },
	{ 45650000, "45.7ms" },
	{ 999499999, "999ms" },
	{ 999500000, "1.00s" },
	{ 999999999, "1.00s" },
	{ 2000000000, "2.00s" },
	{ 12345678901, "12.3s" },
	{ 999499999999, "999s" },
	{ 999500000000, "1000s" }, /* seconds are the largest unit */
	{ 3600 * NS_PER_SEC, "3600s" },
	{ UINT64_MAX, "18446744074s" },
};

START_TEST(test_format)
{
	const struct format_case *c = &format_cases[_i];
	char buf[32];

	ck_assert_ptr_eq(units_format_ns(buf, sizeof(buf), c->ns), buf);
	ck_assert_msg(!strcmp(buf, c->want),
		      "units_format_ns(%ju) = \"%s\", want \"%s\"",
		      (uintmax_t)c->ns, buf, c->want);
}
END_TEST

/* A short buffer truncates like snprintf() and stays terminated. */
START_TEST(test_format_short_buffer)
{
	char buf[8];

	memset(buf, 'x', sizeof(buf));
	ck_assert_ptr_eq(units_format_ns(buf, 4, 1234), buf);
	ck_assert_str_eq(buf, "1.2");
	ck_assert_int_eq(buf[4], 'x');
	memset(buf, 'x', sizeof(buf));
	units_format_ns(buf, 1, 5);
	ck_assert_str_eq(buf, "");
	ck_assert_int_eq(buf[1], 'x');
}
END_TEST

/*
 * A column of the report in one unit (report/unitcol.c): the values, the
 * unit asked for, and each value as printed.
 */
struct col_case {
	uint64_t ns[4];
	unsigned int n;
	enum latency_unit unit;
	const char *want[4];
};

static const struct col_case col_cases[] = {
	/* the op table's avg beside an op 100 times slower: one unit */
	{ { 40400, 4100000 }, 2, LATENCY_UNIT_AUTO, { "40.4us", "4100.0us" } },
	{ { 40400, 4100000 }, 2, LATENCY_UNIT_MS, { "0.0404ms", "4.1000ms" } },
	{ { 40400, 4100000 }, 2, LATENCY_UNIT_NS, { "40400ns", "4100000ns" } },
	/* under 1 us: ns; 0 stays out of the choice */
	{ { 0, 850, 1234 },
	  3,
	  LATENCY_UNIT_AUTO,
	  { "0ns", "850ns", "1234ns" } },
	/* 3 significant digits of the smallest: 1.36 and 10781.86 */
	{ { 1360, 10781860 },
	  2,
	  LATENCY_UNIT_AUTO,
	  { "1.36us", "10781.86us" } },
	/* a largest of 7 digits before the point goes up a unit */
	{ { 850, 5000000000 },
	  2,
	  LATENCY_UNIT_AUTO,
	  { "0.000850ms", "5000.000000ms" } },
	{ { 2500000, 3000000 }, 2, LATENCY_UNIT_AUTO, { "2.50ms", "3.00ms" } },
	/* an empty column */
	{ { 0 }, 1, LATENCY_UNIT_AUTO, { "0ns" } },
};

START_TEST(test_unit_col)
{
	const struct col_case *c = &col_cases[_i];
	struct unit_col col;
	char buf[32];

	unit_col_init(&col);
	for (unsigned int i = 0; i < c->n; i++)
		unit_col_add(&col, c->ns[i]);
	unit_col_choose(&col, c->unit);
	for (unsigned int i = 0; i < c->n; i++) {
		unit_col_format(&col, buf, sizeof(buf), c->ns[i]);
		ck_assert_msg(!strcmp(buf, c->want[i]),
			      "case %d, value %u: \"%s\", want \"%s\"", _i, i,
			      buf, c->want[i]);
	}
}
END_TEST

START_TEST(test_unit_col_parse)
{
	enum latency_unit u = LATENCY_UNIT_AUTO;

	ck_assert_int_eq(unit_col_parse("us", &u), 0);
	ck_assert_int_eq(u, LATENCY_UNIT_US);
	ck_assert_int_eq(unit_col_parse("ms", &u), 0);
	ck_assert_int_eq(u, LATENCY_UNIT_MS);
	ck_assert_int_eq(unit_col_parse("ns", &u), 0);
	ck_assert_int_eq(u, LATENCY_UNIT_NS);
	ck_assert_int_eq(unit_col_parse("s", &u), -EINVAL);
	ck_assert_int_eq(unit_col_parse("US", &u), -EINVAL);
	ck_assert_int_eq(unit_col_parse("", &u), -EINVAL);
	ck_assert_int_eq(u, LATENCY_UNIT_NS);
}
END_TEST

static Suite *units_suite(void)
{
	Suite *s = suite_create("units");
	TCase *tc;

	tc = tcase_create("parse");
	tcase_add_loop_test(tc, test_duration, 0,
			    (int)ARRAY_SIZE(duration_cases));
	tcase_add_loop_test(tc, test_size, 0, (int)ARRAY_SIZE(size_cases));
	tcase_add_loop_test(tc, test_uint, 0, (int)ARRAY_SIZE(uint_cases));
	suite_add_tcase(s, tc);

	tc = tcase_create("format");
	tcase_add_loop_test(tc, test_format, 0, (int)ARRAY_SIZE(format_cases));
	tcase_add_test(tc, test_format_short_buffer);
	suite_add_tcase(s, tc);

	tc = tcase_create("column");
	tcase_add_loop_test(tc, test_unit_col, 0, (int)ARRAY_SIZE(col_cases));
	tcase_add_test(tc, test_unit_col_parse);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(units_suite());
}
