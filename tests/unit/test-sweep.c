/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for the sweep arithmetic: sweep_rows_compute() on fabricated
 * rows (choice of the baseline, relative and efficiency worked out by
 * hand, by ops/s and by MB/s, a zero baseline) and options_parse_clients()
 * for single counts, doubling ranges and bad arguments. Output is TAP on
 * stdout.
 */
#include <config.h>
#include "run/sweep.h"
#include "cli/options.h"

#include <check.h>
#include <errno.h>
#include <math.h>
#include <string.h>

#include "base/compiler.h"
#include "unit.h"

#define MAX_ROWS 8
#define TOL	 1e-12

/*
 * One table: the input columns, the metric, and the baseline index,
 * relative and efficiency values computed by hand.
 */
struct rows_case {
	const char *what;
	unsigned int n;
	enum metric metric;
	unsigned int clients[MAX_ROWS];
	double ops_s[MAX_ROWS];
	double mb_s[MAX_ROWS];
	unsigned int base;
	double relative[MAX_ROWS];
	double efficiency[MAX_ROWS];
	double cpus[MAX_ROWS]; /* the CPUs of each row; 0: as many as clients */
};

static const struct rows_case rows_cases[] = {
	{ "1 2 4 by ops/s",
	  3,
	  METRIC_OPS,
	  { 1, 2, 4 },
	  { 100, 180, 300 },
	  { 0, 0, 0 },
	  0,
	  { 1.00, 1.80, 3.00 },
	  { 1.00, 0.90, 0.75 },
	  { 0 } },
	/* the same rows in another order: the baseline is where 1 is */
	{ "4 1 2 by ops/s",
	  3,
	  METRIC_OPS,
	  { 4, 1, 2 },
	  { 300, 100, 180 },
	  { 0, 0, 0 },
	  1,
	  { 3.00, 1.00, 1.80 },
	  { 0.75, 1.00, 0.90 },
	  { 0 } },
	{ "2 4 1 by ops/s",
	  3,
	  METRIC_OPS,
	  { 2, 4, 1 },
	  { 180, 300, 100 },
	  { 0, 0, 0 },
	  2,
	  { 1.80, 3.00, 1.00 },
	  { 0.90, 0.75, 1.00 },
	  { 0 } },
	/* 1 after a smaller-looking count is still the baseline */
	{ "8 2 1 16 by ops/s",
	  4,
	  METRIC_OPS,
	  { 8, 2, 1, 16 },
	  { 400, 150, 100, 480 },
	  { 0, 0, 0, 0 },
	  2,
	  { 4.00, 1.50, 1.00, 4.80 },
	  { 0.50, 0.75, 1.00, 0.30 },
	  { 0 } },
	/* no 1: the smallest count is the baseline, scale = clients / 2 */
	{ "8 2 4 by ops/s",
	  3,
	  METRIC_OPS,
	  { 8, 2, 4 },
	  { 400, 100, 150 },
	  { 0, 0, 0 },
	  1,
	  { 4.00, 1.00, 1.50 },
	  { 1.00, 1.00, 0.75 },
	  { 0 } },
	{ "3 6 12 by ops/s",
	  3,
	  METRIC_OPS,
	  { 3, 6, 12 },
	  { 90, 162, 216 },
	  { 0, 0, 0 },
	  0,
	  { 1.00, 1.80, 2.40 },
	  { 1.00, 0.90, 0.60 },
	  { 0 } },
	{ "16 32 4 64 by ops/s",
	  4,
	  METRIC_OPS,
	  { 16, 32, 4, 64 },
	  { 800, 1000, 250, 1200 },
	  { 0, 0, 0, 0 },
	  2,
	  { 3.20, 4.00, 1.00, 4.80 },
	  { 0.80, 0.50, 1.00, 0.30 },
	  { 0 } },
	/* MB/s: ops/s must not matter */
	{ "1 2 4 by MB/s",
	  3,
	  METRIC_MBPS,
	  { 1, 2, 4 },
	  { 100, 180, 300 },
	  { 50, 80, 120 },
	  0,
	  { 1.00, 1.60, 2.40 },
	  { 1.00, 0.80, 0.60 },
	  { 0 } },
	{ "2 4 8 by MB/s",
	  3,
	  METRIC_MBPS,
	  { 2, 4, 8 },
	  { 1, 1, 1 },
	  { 10, 25, 30 },
	  0,
	  { 1.00, 2.50, 3.00 },
	  { 1.00, 1.25, 0.75 },
	  { 0 } },
	/* by ops/s, MB/s must not matter */
	{ "1 2 by ops/s, MB/s ignored",
	  2,
	  METRIC_OPS,
	  { 1, 2 },
	  { 100, 150 },
	  { 7, 1000 },
	  0,
	  { 1.00, 1.50 },
	  { 1.00, 0.75 },
	  { 0 } },
	/* more clients than CPUs: the CPUs they can use are the scale */
	{ "1 2 4 8 on 4 CPUs",
	  4,
	  METRIC_OPS,
	  { 1, 2, 4, 8 },
	  { 100, 200, 400, 400 },
	  { 0, 0, 0, 0 },
	  0,
	  { 1.00, 2.00, 4.00, 4.00 },
	  { 1.00, 1.00, 1.00, 1.00 },
	  { 4, 4, 4, 4 } },
	{ "1 2 4 under taskset -c 0,1",
	  3,
	  METRIC_OPS,
	  { 1, 2, 4 },
	  { 100, 190, 200 },
	  { 0, 0, 0 },
	  0,
	  { 1.00, 1.90, 2.00 },
	  { 1.00, 0.95, 1.00 },
	  { 2, 2, 2 } },
	/* a cgroup quota of 1.5 CPUs */
	{ "1 2 with a quota of 1.5",
	  2,
	  METRIC_OPS,
	  { 1, 2 },
	  { 100, 140 },
	  { 0, 0 },
	  0,
	  { 1.00, 1.40 },
	  { 1.00, 1.40 / 1.5 },
	  { 1.5, 1.5 } },
	/* pinned to 1 CPU each: the baseline's 2 clients share one */
	{ "2 4 pinned on 1 and 2 CPUs",
	  2,
	  METRIC_OPS,
	  { 2, 4 },
	  { 100, 180 },
	  { 0, 0 },
	  0,
	  { 1.00, 1.80 },
	  { 1.00, 0.90 },
	  { 1, 2 } },
	/* a zero baseline gives relative 0 (and so efficiency 0) */
	{ "zero ops/s baseline",
	  3,
	  METRIC_OPS,
	  { 1, 2, 4 },
	  { 0, 100, 200 },
	  { 5, 5, 5 },
	  0,
	  { 0, 0, 0 },
	  { 0, 0, 0 },
	  { 0 } },
	{ "zero MB/s baseline",
	  2,
	  METRIC_MBPS,
	  { 2, 4 },
	  { 100, 200 },
	  { 0, 80 },
	  0,
	  { 0, 0 },
	  { 0, 0 },
	  { 0 } },
	/* a zero elsewhere is just a zero */
	{ "zero ops/s at 4",
	  3,
	  METRIC_OPS,
	  { 1, 2, 4 },
	  { 100, 200, 0 },
	  { 0, 0, 0 },
	  0,
	  { 1.00, 2.00, 0 },
	  { 1.00, 1.00, 0 },
	  { 0 } },
	{ "single row",
	  1,
	  METRIC_OPS,
	  { 8 },
	  { 123.5 },
	  { 0 },
	  0,
	  { 1.00 },
	  { 1.00 },
	  { 0 } },
	/* a repeated smallest count: the first one */
	{ "2 2 4 by ops/s",
	  3,
	  METRIC_OPS,
	  { 2, 2, 4 },
	  { 100, 120, 300 },
	  { 0, 0, 0 },
	  0,
	  { 1.00, 1.20, 3.00 },
	  { 1.00, 1.20, 1.50 },
	  { 0 } },
};

START_TEST(test_rows)
{
	const struct rows_case *c = &rows_cases[_i];
	struct sweep_row rows[MAX_ROWS];
	unsigned int i, base;

	memset(rows, 0, sizeof(rows));
	for (i = 0; i < c->n; i++) {
		rows[i].clients = c->clients[i];
		rows[i].ops_s = c->ops_s[i];
		rows[i].mb_s = c->mb_s[i];
		rows[i].cpus = c->cpus[i];
		rows[i].relative = -1;
		rows[i].efficiency = -1;
	}
	base = sweep_rows_compute(rows, c->n, c->metric);
	ck_assert_msg(base == c->base, "%s: baseline row %u, want %u", c->what,
		      base, c->base);
	for (i = 0; i < c->n; i++) {
		/* the inputs are left alone */
		ck_assert_msg(rows[i].clients == c->clients[i] &&
				      rows[i].ops_s == c->ops_s[i] &&
				      rows[i].mb_s == c->mb_s[i],
			      "%s: row %u input changed", c->what, i);
		ck_assert_msg(
			fabs(rows[i].relative - c->relative[i]) < TOL,
			"%s: row %u (%u clients): relative %.17g, want %g",
			c->what, i, c->clients[i], rows[i].relative,
			c->relative[i]);
		ck_assert_msg(
			fabs(rows[i].efficiency - c->efficiency[i]) < TOL,
			"%s: row %u (%u clients): efficiency %.17g, want %g",
			c->what, i, c->clients[i], rows[i].efficiency,
			c->efficiency[i]);
	}
	/* rows past n are not touched */
	for (i = c->n; i < MAX_ROWS; i++)
		ck_assert_msg(rows[i].relative == 0 && rows[i].efficiency == 0,
			      "%s: row %u past n written", c->what, i);
}
END_TEST

/* The baseline row always has relative 1 and efficiency 1 (nonzero). */
START_TEST(test_rows_baseline_is_one)
{
	struct sweep_row rows[6];
	unsigned int clients[] = { 64, 8, 32, 2, 16, 4 };
	unsigned int i, base;

	memset(rows, 0, sizeof(rows));
	for (i = 0; i < ARRAY_SIZE(clients); i++) {
		rows[i].clients = clients[i];
		rows[i].ops_s = 1000.0 / (i + 1);
		rows[i].mb_s = 3.0 * (i + 1);
	}
	base = sweep_rows_compute(rows, ARRAY_SIZE(rows), METRIC_OPS);
	ck_assert_uint_eq(base, 3);
	ck_assert_double_eq_tol(rows[base].relative, 1.0, TOL);
	ck_assert_double_eq_tol(rows[base].efficiency, 1.0, TOL);
	/* 64 clients: (1000 / 1) / (1000 / 4) = 4, over 64 / 2 = 32 */
	ck_assert_double_eq_tol(rows[0].relative, 4.0, TOL);
	ck_assert_double_eq_tol(rows[0].efficiency, 0.125, TOL);

	base = sweep_rows_compute(rows, ARRAY_SIZE(rows), METRIC_MBPS);
	ck_assert_uint_eq(base, 3);
	ck_assert_double_eq_tol(rows[base].relative, 1.0, TOL);
	/* 64 clients: 3 / 12 = 0.25, over 32 */
	ck_assert_double_eq_tol(rows[0].relative, 0.25, TOL);
	ck_assert_double_eq_tol(rows[0].efficiency, 0.25 / 32, TOL);
}
END_TEST

/* options_parse_clients(): accepted arguments and the list they give. */
struct clients_case {
	const char *arg;
	unsigned int n;
	unsigned int want[20];
};

static const struct clients_case clients_cases[] = {
	{ "8", 1, { 8 } },
	{ "1", 1, { 1 } },
	{ "1-64", 7, { 1, 2, 4, 8, 16, 32, 64 } },
	{ "1-6", 4, { 1, 2, 4, 6 } },
	{ "3-3", 1, { 3 } },
	{ "1-1", 1, { 1 } },
	{ "2-3", 2, { 2, 3 } },
	{ "3-10", 3, { 3, 6, 10 } },
	{ "3-12", 3, { 3, 6, 12 } },
	{ "5-6", 2, { 5, 6 } },
	{ "08", 1, { 8 } },
	{ "100000", 1, { 100000 } },
	{ "1-100000",
	  18,
	  { 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192,
	    16384, 32768, 65536, 100000 } },
	{ "65536-100000", 2, { 65536, 100000 } },
};

START_TEST(test_clients)
{
	const struct clients_case *c = &clients_cases[_i];
	struct config cfg;
	unsigned int i;
	int ret;

	memset(&cfg, 0, sizeof(cfg));
	ret = options_parse_clients(&cfg, c->arg);
	ck_assert_msg(ret == 0, "\"%s\": returned %d", c->arg, ret);
	ck_assert_msg(cfg.run.nclients == c->n, "\"%s\": %u counts, want %u",
		      c->arg, cfg.run.nclients, c->n);
	for (i = 0; i < c->n; i++)
		ck_assert_msg(cfg.run.clients[i] == c->want[i],
			      "\"%s\": count %u is %u, want %u", c->arg, i,
			      cfg.run.clients[i], c->want[i]);
	config_release(&cfg);
}
END_TEST

/* Each argument appends to what is there. */
START_TEST(test_clients_append)
{
	static const unsigned int want[] = { 1, 2, 8, 3, 6, 4, 8 };
	struct config cfg;
	unsigned int i;

	memset(&cfg, 0, sizeof(cfg));
	ck_assert_int_eq(options_parse_clients(&cfg, "1-2"), 0);
	ck_assert_int_eq(options_parse_clients(&cfg, "8"), 0);
	ck_assert_int_eq(options_parse_clients(&cfg, "3-6"), 0);
	ck_assert_int_eq(options_parse_clients(&cfg, "4-8"), 0);
	ck_assert_uint_eq(cfg.run.nclients, ARRAY_SIZE(want));
	for (i = 0; i < ARRAY_SIZE(want); i++)
		ck_assert_msg(cfg.run.clients[i] == want[i],
			      "count %u is %u, want %u", i, cfg.run.clients[i],
			      want[i]);
	config_release(&cfg);
	ck_assert_ptr_null(cfg.run.clients);
	ck_assert_uint_eq(cfg.run.nclients, 0);
}
END_TEST

/* Rejected arguments: an error, and the list is left as it was. */
static const char *const bad_clients[] = {
	"0",	    "5-2",
	"x",	    "-4",
	"1-",	    "100001",
	"",	    "8x",
	"+8",	    " 8",
	"8 ",	    "0-4",
	"1-0",	    "-",
	"1-2-4",    "1--4",
	"4-",	    "1-x",
	"2-1",	    "1e3",
	"1-100001", "99999999999999999999999",
};

START_TEST(test_clients_bad)
{
	const char *arg = bad_clients[_i];
	struct config cfg;
	unsigned int *before;
	int ret;

	memset(&cfg, 0, sizeof(cfg));
	ck_assert_int_eq(options_parse_clients(&cfg, "2"), 0);
	before = cfg.run.clients;
	ret = options_parse_clients(&cfg, arg);
	ck_assert_msg(ret == -EINVAL || ret == -ERANGE,
		      "\"%s\": returned %d, want -EINVAL or -ERANGE", arg, ret);
	ck_assert_msg(cfg.run.nclients == 1 && cfg.run.clients == before &&
			      cfg.run.clients[0] == 2,
		      "\"%s\": the list changed (%u counts)", arg,
		      cfg.run.nclients);
	config_release(&cfg);
}
END_TEST

static Suite *sweep_suite(void)
{
	Suite *s = suite_create("sweep");
	TCase *tc;

	tc = tcase_create("rows");
	tcase_add_loop_test(tc, test_rows, 0, (int)ARRAY_SIZE(rows_cases));
	tcase_add_test(tc, test_rows_baseline_is_one);
	suite_add_tcase(s, tc);

	tc = tcase_create("clients");
	tcase_add_loop_test(tc, test_clients, 0,
			    (int)ARRAY_SIZE(clients_cases));
	tcase_add_test(tc, test_clients_append);
	tcase_add_loop_test(tc, test_clients_bad, 0,
			    (int)ARRAY_SIZE(bad_clients));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(sweep_suite());
}
