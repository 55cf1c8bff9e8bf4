/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The TSC clock's calibration against CLOCK_MONOTONIC. Whether the TSC
 * may be used at all (invariant, the kernel's clocksource) is sys/tsc.c's
 * question; this file only measures its rate and converts.
 */
#include <config.h>
#include "base/clock.h"

#include <errno.h>
#include <math.h>

struct clock_state clock_state;

int clock_tsc_from_pairs(struct clock_tsc *cal, uint64_t tsc0, uint64_t ns0,
			 uint64_t tsc1, uint64_t ns1)
{
	unsigned __int128 mult;

	if (tsc1 <= tsc0 || ns1 <= ns0)
		return -EINVAL;
	mult = ((unsigned __int128)(ns1 - ns0) << CLOCK_TSC_SHIFT) /
	       (tsc1 - tsc0);
	/* clock_tsc_ns() multiplies it as signed */
	if (mult == 0 || mult >> 63)
		return -EINVAL;
	cal->tsc0 = tsc1;
	cal->ns0 = ns1;
	cal->mult = (uint64_t)mult;
	cal->window_ns = ns1 - ns0;
	cal->window_ticks = tsc1 - tsc0;
	return 0;
}

double clock_tsc_hz(const struct clock_tsc *cal)
{
	if (!cal->window_ns)
		return 0.0;
	return (double)cal->window_ticks * 1e9 / (double)cal->window_ns;
}

/*
 * One (TSC, ns) pair: of a few tries, the one whose two TSC reads around
 * the clock read are closest (the least chance of an interrupt between
 * them), its TSC taken halfway between them.
 */
static void read_pair(uint64_t *tsc, uint64_t *ns)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 8; i++) {
		uint64_t a = clock_tsc_read();
		uint64_t n = clock_monotonic_ns();
		uint64_t b = clock_tsc_read();

		if (i == 0 || (b >= a && b - a < best)) {
			best = b - a;
			*tsc = a + (b - a) / 2;
			*ns = n;
		}
	}
}

int clock_use_tsc(uint64_t window_ns)
{
	struct clock_tsc cal;
	struct timespec ts = { .tv_sec = (time_t)(window_ns / NSEC_PER_SEC),
			       .tv_nsec = (long)(window_ns % NSEC_PER_SEC) };
	uint64_t t0 = 0, n0 = 0, t1 = 0, n1 = 0;
	int ret;

	if (!CLOCK_HAVE_TSC)
		return -EINVAL;
	read_pair(&t0, &n0);
	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR)
		;
	read_pair(&t1, &n1);
	ret = clock_tsc_from_pairs(&cal, t0, n0, t1, n1);
	if (ret)
		return ret;
	clock_state.cal = cal;
	clock_state.tsc = true;
	return 0;
}

double clock_tsc_drift_ppm(void)
{
	uint64_t t = 0, n = 0, since;

	if (!clock_state.tsc)
		return 0.0;
	read_pair(&t, &n);
	since = n - clock_state.cal.ns0;
	if (!since)
		return 0.0;
	return ((double)clock_tsc_ns(&clock_state.cal, t) - (double)n) * 1e6 /
	       (double)since;
}

int clock_tsc_judge(struct clock_check *chk)
{
	double off = fabs((double)chk->offset_ns);

	chk->ppm = chk->since_ns ? (double)chk->offset_ns * 1e6 /
					   (double)chk->since_ns :
				   0.0;
	if (off > (double)CLOCK_TSC_SLACK_NS +
			  (double)chk->since_ns * CLOCK_TSC_TOLERANCE_PPM / 1e6)
		return -ERANGE;
	return 0;
}

int clock_tsc_check(struct clock_check *chk)
{
	uint64_t t = 0, n = 0;

	*chk = (struct clock_check){ 0 };
	if (!clock_state.tsc)
		return 0;
	read_pair(&t, &n);
	chk->since_ns = n - clock_state.cal.ns0;
	chk->offset_ns = (int64_t)(clock_tsc_ns(&clock_state.cal, t) - n);
	return clock_tsc_judge(chk);
}

void clock_tsc_skew(double ppm)
{
	clock_state.cal.mult =
		(uint64_t)((double)clock_state.cal.mult * (1.0 + ppm / 1e6));
}
