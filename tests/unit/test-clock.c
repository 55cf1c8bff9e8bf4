/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for base/clock.c, the TSC's calibration: the conversion's
 * fixed-point arithmetic on made-up pairs whose expected values were
 * worked out apart from the code (floor(dns * 2^32 / dticks), then
 * floor(delta * mult / 2^32), in exact integers), the pairs it refuses,
 * and, where sys/tsc.h finds the TSC usable, that a calibrated clock
 * reads what CLOCK_MONOTONIC reads, to within the checks' slack. Output
 * is TAP on stdout.
 */
#include <config.h>
#include "base/clock.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>

#include "sys/tsc.h"
#include "unit.h"

/*
 * 3 GHz: 10^9 ns over 3 * 10^9 ticks. mult = floor(2^32 / 3) =
 * 1431655765; the second pair's TSC is its ns exactly, and 3 * 10^9
 * ticks later is floor(3e9 * 1431655765 / 2^32) = 999999999 ns later
 * (the truncated mult loses 0.23 ns a second).
 */
START_TEST(test_three_ghz)
{
	struct clock_tsc cal;

	ck_assert_int_eq(clock_tsc_from_pairs(&cal, 1000, 5000,
					      3000000000u + 1000,
					      1000000000u + 5000),
			 0);
	ck_assert_uint_eq(cal.mult, 1431655765u);
	ck_assert_uint_eq(cal.tsc0, 3000001000u);
	ck_assert_uint_eq(cal.ns0, 1000005000u);
	ck_assert_uint_eq(cal.window_ns, 1000000000u);
	ck_assert_uint_eq(cal.window_ticks, 3000000000u);
	ck_assert_uint_eq(clock_tsc_ns(&cal, 3000001000u), 1000005000u);
	ck_assert_uint_eq(clock_tsc_ns(&cal, 6000001000u),
			  1000005000u + 999999999u);
	/* three ticks are 3 * 1431655765 = 2^32 - 1 after the shift's
	 * 2^32: still 0 ns; four are 1 */
	ck_assert_uint_eq(clock_tsc_ns(&cal, 3000001003u), 1000005000u);
	ck_assert_uint_eq(clock_tsc_ns(&cal, 3000001004u), 1000005000u + 1);
	ck_assert(clock_tsc_hz(&cal) == 3e9);
}
END_TEST

/*
 * A day at 2.5 GHz after a 20 ms calibration over 5 * 10^7 ticks: mult
 * = floor(0.4 * 2^32) = 1717986918, and 2.16 * 10^14 ticks times it is
 * about 3.7 * 10^23, past 64 bits: the 128-bit product gives
 * floor(2.16e14 * 1717986918 / 2^32) = 86399999979883 ns, 20 us short of
 * a day (the truncated mult's 2.3e-10).
 */
START_TEST(test_a_day)
{
	struct clock_tsc cal;
	uint64_t t0 = 123456789012345u, n0 = 987654321098765u;

	ck_assert_int_eq(clock_tsc_from_pairs(&cal, t0, n0, t0 + 50000000u,
					      n0 + 20000000u),
			 0);
	ck_assert_uint_eq(cal.mult, 1717986918u);
	ck_assert_uint_eq(
		clock_tsc_ns(&cal, t0 + 50000000u + 86400ull * 2500000000u),
		n0 + 20000000u + 86399999979883u);
	ck_assert(clock_tsc_hz(&cal) == 2.5e9);
}
END_TEST

/* Pairs that do not go forward, and a tick too long for 32.32. */
START_TEST(test_refused)
{
	struct clock_tsc cal = { .mult = 7 };

	ck_assert_int_eq(clock_tsc_from_pairs(&cal, 10, 10, 10, 20), -EINVAL);
	ck_assert_int_eq(clock_tsc_from_pairs(&cal, 10, 10, 9, 20), -EINVAL);
	ck_assert_int_eq(clock_tsc_from_pairs(&cal, 10, 10, 20, 10), -EINVAL);
	/* 2^32 ns a tick needs mult 2^64 */
	ck_assert_int_eq(clock_tsc_from_pairs(&cal, 0, 0, 1, 1ull << 32),
			 -EINVAL);
	/* a tick of 2^-33 ns is mult 0 */
	ck_assert_int_eq(clock_tsc_from_pairs(&cal, 0, 0, 1ull << 33, 1),
			 -EINVAL);
	/* nothing was written */
	ck_assert_uint_eq(cal.mult, 7);
	/* the slowest and fastest rates that fit */
	ck_assert_int_eq(clock_tsc_from_pairs(&cal, 0, 0, 1, (1ull << 32) - 1),
			 0);
	ck_assert_uint_eq(cal.mult, 0xffffffff00000000u);
	ck_assert_int_eq(clock_tsc_from_pairs(&cal, 0, 0, 1ull << 32, 1), 0);
	ck_assert_uint_eq(cal.mult, 1);
}
END_TEST

/*
 * The real calibration, where the TSC is usable: the clock then reads
 * the TSC, never goes back, and stays with CLOCK_MONOTONIC (read between
 * two of its reads, so only the drift's ppm and the reads' own time
 * separate them: a generous 1 ms).
 */
START_TEST(test_calibrated)
{
	char why[256];
	uint64_t a, m, b;

	if (tsc_usable(why, sizeof(why))) {
		printf("# skipped: %s\n", why);
		return;
	}
	ck_assert(!clock_state.tsc);
	ck_assert_int_eq(clock_use_tsc(5 * NSEC_PER_MSEC), 0);
	ck_assert(clock_state.tsc);
	ck_assert_uint_ge(clock_state.cal.window_ns, 5 * NSEC_PER_MSEC);
	for (int i = 0; i < 1000; i++) {
		a = clock_now_ns();
		m = clock_monotonic_ns();
		b = clock_now_ns();
		ck_assert_uint_le(a, b);
		ck_assert_uint_le(a, m + NSEC_PER_MSEC);
		ck_assert_uint_le(m, b + NSEC_PER_MSEC);
	}
	ck_assert(clock_tsc_drift_ppm() < 1000 &&
		  clock_tsc_drift_ppm() > -1000);
	clock_state.tsc = false;
}
END_TEST

static Suite *clock_suite(void)
{
	Suite *s = suite_create("clock");
	TCase *tc = tcase_create("tsc");

	tcase_add_test(tc, test_three_ghz);
	tcase_add_test(tc, test_a_day);
	tcase_add_test(tc, test_refused);
	tcase_add_test(tc, test_calibrated);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(clock_suite());
}
