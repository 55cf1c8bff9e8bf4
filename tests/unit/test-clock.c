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
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

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
 * A reading before tsc0: a CPU whose TSC lags the one calibrated on, read
 * soon after the calibration. At 3 GHz, 3000 ticks before are 1000 ns
 * before ns0 (-3000 * 1431655765 / 2^32 = -999.99999977, floored), and
 * 3 * 10^9 before are a second before. Unsigned, they were 2^64 ticks
 * ahead: about 8.8e18 ns, and the main thread slept until then.
 */
START_TEST(test_behind)
{
	struct clock_tsc cal;

	ck_assert_int_eq(clock_tsc_from_pairs(&cal, 1000, 5000,
					      3000000000u + 1000,
					      1000000000u + 5000),
			 0);
	ck_assert_uint_eq(clock_tsc_ns(&cal, 3000001000u - 3000),
			  1000005000u - 1000);
	ck_assert_uint_eq(clock_tsc_ns(&cal, 1000), 5000);
	ck_assert_uint_eq(clock_tsc_ns(&cal, 3000001000u - 1), 1000005000u - 1);
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
	/* 2^31 ns a tick needs mult 2^63, past the signed product's */
	ck_assert_int_eq(clock_tsc_from_pairs(&cal, 0, 0, 1, 1ull << 31),
			 -EINVAL);
	/* a tick of 2^-33 ns is mult 0 */
	ck_assert_int_eq(clock_tsc_from_pairs(&cal, 0, 0, 1ull << 33, 1),
			 -EINVAL);
	/* nothing was written */
	ck_assert_uint_eq(cal.mult, 7);
	/* the slowest and fastest rates that fit */
	ck_assert_int_eq(clock_tsc_from_pairs(&cal, 0, 0, 1, (1ull << 31) - 1),
			 0);
	ck_assert_uint_eq(cal.mult, 0x7fffffff00000000u);
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

/*
 * The TSC's choice (sys/tsc.c): under tsc, and under kvm-clock only with
 * all three flags, as whole words; never without the CPUID bit. The
 * reasons are the exact phrases the JSON and --clock tsc's error carry.
 */
START_TEST(test_judge)
{
	static const char all[] =
		" fpu tsc constant_tsc nonstop_tsc tsc_known_freq tsc_reliable hypervisor\n";
	char why[256];

	ck_assert_int_eq(tsc_judge(true, "tsc", "", why, sizeof(why)), 0);
	ck_assert_int_eq(tsc_judge(true, "kvm-clock", all, why, sizeof(why)),
			 0);
	ck_assert_int_eq(tsc_judge(false, "tsc", all, why, sizeof(why)),
			 -ENOTSUP);
	ck_assert_str_eq(
		why,
		"the CPU's TSC is not invariant (CPUID 0x80000007 EDX bit 8 is clear)");
	ck_assert_int_eq(tsc_judge(true, "hpet", all, why, sizeof(why)),
			 -ENOTSUP);
	ck_assert_str_eq(
		why,
		"the kernel's clocksource is hpet, not tsc or kvm-clock (" TSC_CLOCKSOURCE_FILE
		")");
	ck_assert_int_eq(tsc_judge(true, "", all, why, sizeof(why)), -ENOTSUP);
	ck_assert_str_eq(
		why,
		"the kernel's clocksource is unknown, not tsc or kvm-clock (" TSC_CLOCKSOURCE_FILE
		")");
	ck_assert_int_eq(tsc_judge(true, "kvm-clock",
				   " constant_tsc nonstop_tsc tsc_known_freq",
				   why, sizeof(why)),
			 -ENOTSUP);
	ck_assert_str_eq(
		why,
		"the kernel's clocksource is kvm-clock and the CPU does not flag its TSC tsc_reliable (/proc/cpuinfo)");
	/* a word that only starts or ends like a flag is not the flag */
	ck_assert_int_eq(tsc_judge(true, "kvm-clock",
				   "xconstant_tsc nonstop_tsc tsc_reliable",
				   why, sizeof(why)),
			 -ENOTSUP);
	ck_assert_str_eq(
		why,
		"the kernel's clocksource is kvm-clock and the CPU does not flag its TSC constant_tsc (/proc/cpuinfo)");
	ck_assert_int_eq(tsc_judge(true, "kvm-clock",
				   "constant_tsc nonstop_tscx tsc_reliable",
				   why, sizeof(why)),
			 -ENOTSUP);
	ck_assert_int_eq(tsc_judge(true, "kvm-clock", NULL, why, sizeof(why)),
			 -ENOTSUP);
}
END_TEST

/* write_file PATH TEXT */
static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

/* The files tsc_usable() reads, made up: /proc/cpuinfo's first "flags". */
START_TEST(test_usable_at)
{
	char dir[] = "/tmp/test-clock.XXXXXX", cs[64], ci[64], why[256];

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(cs, sizeof(cs), "%s/clocksource", dir);
	snprintf(ci, sizeof(ci), "%s/cpuinfo", dir);
	write_file(cs, "kvm-clock\n");
	write_file(
		ci,
		"processor\t: 0\nflags\t\t: fpu constant_tsc nonstop_tsc tsc_reliable\n"
		"processor\t: 1\nflags\t\t: fpu\n");
	ck_assert_int_eq(tsc_usable_at(true, cs, ci, why, sizeof(why)),
			 CLOCK_HAVE_TSC ? 0 : -ENOTSUP);
	/* "flags" must be the field's whole name */
	write_file(
		ci,
		"flagsx\t: constant_tsc nonstop_tsc tsc_reliable\nflags\t: constant_tsc nonstop_tsc\n");
	ck_assert_int_eq(tsc_usable_at(true, cs, ci, why, sizeof(why)),
			 -ENOTSUP);
	if (CLOCK_HAVE_TSC)
		ck_assert_str_eq(
			why,
			"the kernel's clocksource is kvm-clock and the CPU does not flag its TSC tsc_reliable (/proc/cpuinfo)");
	/* no cpuinfo: no flags */
	ck_assert_int_eq(unlink(ci), 0);
	ck_assert_int_eq(tsc_usable_at(true, cs, ci, why, sizeof(why)),
			 -ENOTSUP);
	/* under tsc, the flags are not read */
	write_file(cs, "tsc\n");
	ck_assert_int_eq(tsc_usable_at(true, cs, ci, why, sizeof(why)),
			 CLOCK_HAVE_TSC ? 0 : -ENOTSUP);
	ck_assert_int_eq(unlink(cs), 0);
	ck_assert_int_eq(tsc_usable_at(true, cs, ci, why, sizeof(why)),
			 -ENOTSUP);
	if (CLOCK_HAVE_TSC) {
		char expect[256];

		snprintf(expect, sizeof(expect),
			 "cannot read %s: No such file or directory", cs);
		ck_assert_str_eq(why, expect);
	}
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/*
 * The end-of-run verdict: 1000 ppm of the time since the calibration
 * plus 100 us, either way; exactly at the bound is within it.
 */
START_TEST(test_check_bound)
{
	struct clock_check c = { .offset_ns = 100000 + 1000,
				 .since_ns = 1000000 };

	/* 1 ms since: 100 us + 1 us allowed */
	ck_assert_int_eq(clock_tsc_judge(&c), 0);
	ck_assert(c.ppm == 101000.0);
	c.offset_ns = -(100000 + 1000);
	ck_assert_int_eq(clock_tsc_judge(&c), 0);
	c.offset_ns = 100000 + 1001;
	ck_assert_int_eq(clock_tsc_judge(&c), -ERANGE);
	c.offset_ns = -(100000 + 1001);
	ck_assert_int_eq(clock_tsc_judge(&c), -ERANGE);
	/* 10 s since: 10.1 ms allowed */
	c.since_ns = 10 * NSEC_PER_SEC;
	c.offset_ns = 10100000;
	ck_assert_int_eq(clock_tsc_judge(&c), 0);
	ck_assert(c.ppm == 1010.0);
	c.offset_ns = 10100001;
	ck_assert_int_eq(clock_tsc_judge(&c), -ERANGE);
	/* nothing since: the slack alone */
	c.since_ns = 0;
	c.offset_ns = 100000;
	ck_assert_int_eq(clock_tsc_judge(&c), 0);
	ck_assert(c.ppm == 0.0);
	c.offset_ns = 100001;
	ck_assert_int_eq(clock_tsc_judge(&c), -ERANGE);
}
END_TEST

/*
 * A calibrated TSC made 1% fast (clock_tsc_skew()) fails the check once
 * enough time has passed; unskewed, it passes. Where the TSC is usable.
 */
START_TEST(test_check_skewed)
{
	struct clock_check c;
	struct timespec ts = { 0, 50 * 1000000 };
	char why[256];

	if (tsc_usable(why, sizeof(why))) {
		printf("# skipped: %s\n", why);
		return;
	}
	ck_assert_int_eq(clock_tsc_check(&c), 0);
	ck_assert_int_eq(c.since_ns, 0);
	ck_assert_int_eq(clock_use_tsc(5 * NSEC_PER_MSEC), 0);
	nanosleep(&ts, NULL);
	ck_assert_int_eq(clock_tsc_check(&c), 0);
	ck_assert_uint_ge(c.since_ns, 50 * NSEC_PER_MSEC);
	clock_tsc_skew(10000);
	nanosleep(&ts, NULL);
	/* at least 100 ms at 1%: 1 ms off, beyond 100 us + 100 ppm */
	ck_assert_int_eq(clock_tsc_check(&c), -ERANGE);
	ck_assert(c.ppm > 9000 && c.ppm < 11000);
	ck_assert_int_gt(c.offset_ns, 0);
	clock_state.tsc = false;
}
END_TEST

static Suite *clock_suite(void)
{
	Suite *s = suite_create("clock");
	TCase *tc = tcase_create("tsc");

	tcase_add_test(tc, test_three_ghz);
	tcase_add_test(tc, test_behind);
	tcase_add_test(tc, test_a_day);
	tcase_add_test(tc, test_refused);
	tcase_add_test(tc, test_calibrated);
	tcase_add_test(tc, test_judge);
	tcase_add_test(tc, test_usable_at);
	tcase_add_test(tc, test_check_bound);
	tcase_add_test(tc, test_check_skewed);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(clock_suite());
}
