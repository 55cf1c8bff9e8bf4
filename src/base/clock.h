/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_BASE_CLOCK_H
#define VB_BASE_CLOCK_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#	include <x86intrin.h>
#	define CLOCK_HAVE_TSC 1
#else
#	define CLOCK_HAVE_TSC 0
#endif

/*
 * The clock of every measurement, in ns on CLOCK_MONOTONIC's scale: either
 * CLOCK_MONOTONIC itself through the vDSO (about 20 ns a read on these
 * machines), or the TSC read directly (about 10 ns) and converted with a
 * calibration against CLOCK_MONOTONIC. The client loop reads it once per
 * op boundary (the end of one op is the start of the next), see client.c.
 *
 * Which one is the process's one global setting: main() chooses it
 * (--clock, clock_use_tsc()) before any thread starts, and it is
 * read-only afterwards, so every thread converts alike and a deadline
 * taken by one thread compares with a time read by another.
 */

/*
 * struct clock_tsc: ns = ns0 + ((tsc - tsc0) * mult) >> CLOCK_TSC_SHIFT,
 * mult being the ns per tick in 32.32 fixed point (at 3 GHz, about
 * 1.43e9: a step of 7e-10, far below the calibration's error). The
 * product is taken in 128 bits, so it does not overflow for any delta
 * whose result fits in 64 bits.
 */
#define CLOCK_TSC_SHIFT 32

struct clock_tsc {
	uint64_t tsc0; /* the TSC at the calibration's end */
	uint64_t ns0; /* CLOCK_MONOTONIC at the same instant */
	uint64_t mult;
	/* what the calibration measured, for the record (JSON) */
	uint64_t window_ns; /* CLOCK_MONOTONIC time between its two pairs */
	uint64_t window_ticks; /* TSC ticks between them */
};

struct clock_state {
	bool tsc; /* false: CLOCK_MONOTONIC */
	struct clock_tsc cal;
};

extern struct clock_state clock_state;

static inline uint64_t clock_monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#if CLOCK_HAVE_TSC
/*
 * A plain rdtsc, not rdtscp or lfence; rdtsc: it may run a few cycles
 * before the instructions ahead of it have finished, but the end of one
 * op is the start of the next, so what one op's latency loses the next
 * one's gains and the run's time is exact; the ordered forms cost more
 * on every op (doc/performance.md, "The clock").
 */
static inline uint64_t clock_tsc_read(void)
{
	return __rdtsc();
}
#else
static inline uint64_t clock_tsc_read(void)
{
	return 0;
}
#endif

/*
 * The TSC reading @tsc in ns on @cal's scale. A reading before tsc0 (a
 * CPU whose TSC lags the one calibrated on, read soon after) is before
 * ns0, not 2^64 ticks after it: the difference is signed, and so is the
 * product (imul, as cheap as mul; mult < 2^63 by clock_tsc_from_pairs()).
 * Unsigned, such a reading was some 8.8e18 ns, and the main thread slept
 * until then (t8002's run of --loops hung in CI).
 */
static inline uint64_t clock_tsc_ns(const struct clock_tsc *cal, uint64_t tsc)
{
	__int128 d = (__int128)(int64_t)(tsc - cal->tsc0) * (int64_t)cal->mult;

	return cal->ns0 + (uint64_t)(int64_t)(d >> CLOCK_TSC_SHIFT);
}

static inline uint64_t clock_now_ns(void)
{
	if (clock_state.tsc)
		return clock_tsc_ns(&clock_state.cal, clock_tsc_read());
	return clock_monotonic_ns();
}

/*
 * The calibration's arithmetic: from two (TSC, CLOCK_MONOTONIC) pairs, the
 * second later than the first, fill @cal so that it converts the second
 * pair's TSC to its ns exactly and ticks at (ns1 - ns0) / (tsc1 - tsc0).
 * Returns 0, or -EINVAL when the pairs do not go forward on both clocks
 * or the rate does not fit signed 32.32 (a tick of 2^31 ns or longer).
 */
int clock_tsc_from_pairs(struct clock_tsc *cal, uint64_t tsc0, uint64_t ns0,
			 uint64_t tsc1, uint64_t ns1);

/* The TSC's rate that @cal measured, in ticks per second. */
double clock_tsc_hz(const struct clock_tsc *cal);

/*
 * Calibrate against CLOCK_MONOTONIC over about @window_ns (a sleep between
 * two pairs, each the tightest of a few TSC reads around a clock read)
 * and switch clock_now_ns() to the TSC. Only for a TSC that the caller
 * knows to be invariant and the kernel's clocksource (sys/tsc.h). Before
 * any thread starts. Returns 0 or -EINVAL (no TSC, or it did not move).
 */
int clock_use_tsc(uint64_t window_ns);

/*
 * How far the TSC's time has drifted from CLOCK_MONOTONIC since the
 * calibration, in parts per million of the time since (0 on
 * CLOCK_MONOTONIC): a check, for the record, of the rate measured.
 */
double clock_tsc_drift_ppm(void);

/*
 * The cross-check of the TSC against CLOCK_MONOTONIC at the end of every
 * run: the two may disagree, since the calibration, by at most
 * CLOCK_TSC_TOLERANCE_PPM of the time since plus CLOCK_TSC_SLACK_NS (the
 * pairs' own reading error, for short runs). 1000 ppm is twice the most
 * that NTP may slew CLOCK_MONOTONIC (500 ppm), so an honest TSC never
 * trips it, and an interval the TSC timed is then off by at most 0.1%.
 */
#define CLOCK_TSC_TOLERANCE_PPM 1000
#define CLOCK_TSC_SLACK_NS	100000

struct clock_check {
	int64_t offset_ns; /* TSC's time minus CLOCK_MONOTONIC's */
	uint64_t since_ns; /* CLOCK_MONOTONIC time since the calibration */
	double ppm; /* offset_ns in parts per million of since_ns */
};

/*
 * The verdict on @chk (offset_ns and since_ns filled; fills ppm): 0, or
 * -ERANGE when the offset is beyond the tolerance above.
 */
int clock_tsc_judge(struct clock_check *chk);

/*
 * The cross-check now: one (TSC, CLOCK_MONOTONIC) pair against the
 * calibration, into @chk, and clock_tsc_judge()'s verdict. 0 on
 * CLOCK_MONOTONIC (@chk zeroed).
 */
int clock_tsc_check(struct clock_check *chk);

/*
 * For tests of the cross-check only: make the calibrated rate wrong by
 * @ppm parts per million (the TSC's time then runs that much fast), as a
 * TSC that changed its rate after the calibration would. Before any
 * thread starts.
 */
void clock_tsc_skew(double ppm);

#define NSEC_PER_SEC  1000000000ull
#define NSEC_PER_MSEC 1000000ull

#endif /* VB_BASE_CLOCK_H */
