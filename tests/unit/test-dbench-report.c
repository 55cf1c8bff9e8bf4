/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for the dbench personality's per-second lines
 * (report/dbench.c): the exact text of a warmup, an execute and a
 * machine-readable line from given counts (MB/s averaged from the phase's
 * start, the second's longest op), the last partial second's rule, and
 * what the seconds leave for the Throughput line (the last execute MB/s,
 * the worst execute latency). stdout is captured through a temporary file.
 */
#include <config.h>
#include "report/report.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/run.h"
#include "run/state.h"
#include "unit.h"

static struct dbench_report dr2(void)
{
	return (struct dbench_report){ .procs = 2, .per_proc = 1 };
}

/* The text report_dbench_second() prints for @s. */
static char *second(struct dbench_report *dr, const struct run_second *s)
{
	struct capture o;

	capture_fd_start(&o, STDOUT_FILENO);
	report_dbench_second(dr, NULL, s);
	return capture_end(&o);
}

START_TEST(test_execute_line)
{
	struct dbench_report dr = dr2();
	struct run_second s = {
		.phase = PHASE_MEASURE,
		.second = 2,
		.phase_ns = 2000000000,
		.phase_bytes = 3000000, /* 3 MB in 2 s: 1.50 MB/s */
		.lines = 2001, /* over 2 clients: 1000 each */
		.max_ns = 12500000,
	};
	char *t = second(&dr, &s);

	ck_assert_str_eq(
		t,
		"   2      1000     1.50 MB/sec  execute   2 sec  latency 12.500 ms\n");
	free(t);
	ck_assert(dr.executed);
	ck_assert_double_eq_tol(dr.throughput, 1.5, 1e-12);
	ck_assert_double_eq_tol(dr.max_latency_ms, 12.5, 1e-12);
}
END_TEST

START_TEST(test_warmup_line)
{
	struct dbench_report dr = dr2();
	struct run_second s = {
		.phase = PHASE_WARMUP,
		.second = 1,
		.phase_ns = 1000000000,
		.phase_bytes = 123456789,
		.lines = 40,
		.max_ns = 999,
	};
	char *t = second(&dr, &s);

	ck_assert_str_eq(
		t,
		"   2        20   123.46 MB/sec  warmup   1 sec  latency 0.001 ms\n");
	free(t);
	/* the warmup counts for neither the Throughput nor its latency */
	ck_assert(!dr.executed);
	ck_assert_double_eq(dr.max_latency_ms, 0);
}
END_TEST

START_TEST(test_machine_readable)
{
	struct dbench_report dr = dr2();
	struct run_second s = {
		.phase = PHASE_MEASURE,
		.second = 3,
		.phase_ns = 3000000000,
		.phase_bytes = 4500000,
		.lines = 6,
		.max_ns = 2000000,
	};
	char *t;

	dr.machine_readable = true;
	t = second(&dr, &s);
	ck_assert_str_eq(t, "@R@2@3@1.50@3@2.000@\n");
	free(t);
	s.phase = PHASE_WARMUP;
	t = second(&dr, &s);
	ck_assert_str_eq(t, "@W@2@3@1.50@3@2.000@\n");
	free(t);
}
END_TEST

/*
 * A run's seconds: the MB/s of each line is the phase's bytes so far over
 * its time so far; the Throughput takes the last line's, the worst
 * latency is that of the execute lines; a last partial second that rounds
 * to the second before has no line but its latency still counts.
 */
START_TEST(test_sequence)
{
	static const struct {
		int phase;
		uint64_t ns, bytes, max_ns;
		bool last;
		const char *line; /* NULL: none */
	} seq[] = {
		{ PHASE_WARMUP, 1000000000, 5000000, 30000000, false,
		  "   2         0     5.00 MB/sec  warmup   1 sec  latency 30.000 ms\n" },
		{ PHASE_MEASURE, 1000000000, 2000000, 4000000, false,
		  "   2         0     2.00 MB/sec  execute   1 sec  latency 4.000 ms\n" },
		{ PHASE_MEASURE, 2000000000, 6000000, 9000000, false,
		  "   2         0     3.00 MB/sec  execute   2 sec  latency 9.000 ms\n" },
		{ PHASE_MEASURE, 3000000000, 6000000, 7000000, false,
		  "   2         0     2.00 MB/sec  execute   3 sec  latency 7.000 ms\n" },
		/* 3.0002 s: the overshoot of one op, no line */
		{ PHASE_MEASURE, 3000200000, 6001000, 11000000, true, NULL },
	};
	struct dbench_report dr = dr2();

	for (unsigned int i = 0; i < sizeof(seq) / sizeof(seq[0]); i++) {
		struct run_second s = {
			.phase = seq[i].phase,
			.phase_ns = seq[i].ns,
			.phase_bytes = seq[i].bytes,
			.max_ns = seq[i].max_ns,
			.last = seq[i].last,
		};
		char *t = second(&dr, &s);

		ck_assert_str_eq(t, seq[i].line ? seq[i].line : "");
		free(t);
	}
	ck_assert_double_eq_tol(dr.throughput, 2.0, 1e-12);
	ck_assert_double_eq_tol(dr.max_latency_ms, 11.0, 1e-12);

	/* a partial second that rounds up is a second of its own */
	{
		struct run_second s = { .phase = PHASE_MEASURE,
					.phase_ns = 3600000000,
					.phase_bytes = 7200000,
					.last = true };
		char *t = second(&dr, &s);

		ck_assert_str_eq(
			t,
			"   2         0     2.00 MB/sec  execute   4 sec  latency 0.000 ms\n");
		free(t);
	}
}
END_TEST

/*
 * A timed run, -t 3 --warmup 2: dbench's lines are warmup 1, execute 1
 * and 2; the alarm at each phase's end finds it over (no line, and the
 * execute phase's last second counts neither for the Throughput nor for
 * the latency).
 */
START_TEST(test_timed)
{
	static const struct {
		int phase;
		uint64_t ns, bytes, max_ns;
		bool printed;
	} seq[] = {
		{ PHASE_WARMUP, 1000000000, 1000000, 1000000, true },
		{ PHASE_WARMUP, 2000000000, 2000000, 1000000, false },
		{ PHASE_MEASURE, 1000000000, 3000000, 2000000, true },
		{ PHASE_MEASURE, 2000000000, 5000000, 3000000, true },
		{ PHASE_MEASURE, 3000000000, 9000000, 50000000, false },
	};
	struct dbench_report dr = dr2();

	dr.timed = true;
	dr.timelimit = 3;
	dr.warmup = 2;
	for (unsigned int i = 0; i < sizeof(seq) / sizeof(seq[0]); i++) {
		struct run_second s = {
			.phase = seq[i].phase,
			.phase_ns = seq[i].ns,
			.phase_bytes = seq[i].bytes,
			.max_ns = seq[i].max_ns,
			.last = i == 4,
		};
		char *t = second(&dr, &s);

		ck_assert_msg(!!*t == seq[i].printed, "second %u: \"%s\"", i,
			      t);
		free(t);
	}
	ck_assert_double_eq_tol(dr.throughput, 2.5, 1e-12);
	ck_assert_double_eq_tol(dr.max_latency_ms, 3.0, 1e-12);
	/* the cleanup lines take the phase's time */
	ck_assert_double_eq_tol(dr.execute_s, 3.0, 1e-12);
}
END_TEST

static Suite *report_suite(void)
{
	Suite *s = suite_create("dbench-report");
	TCase *tc = tcase_create("seconds");

	tcase_add_test(tc, test_execute_line);
	tcase_add_test(tc, test_warmup_line);
	tcase_add_test(tc, test_machine_readable);
	tcase_add_test(tc, test_sequence);
	tcase_add_test(tc, test_timed);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(report_suite());
}
