/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_RUN_SLEEP_H
#define VB_RUN_SLEEP_H

#include <stdint.h>
#include <time.h>

#include "base/clock.h"

/*
 * Sleep until @deadline (CLOCK_MONOTONIC ns): the main thread's pause
 * between two looks at the clients (run.c, progressline.c).
 */
static inline void sleep_until(uint64_t deadline)
{
	struct timespec ts = {
		.tv_sec = (time_t)(deadline / NSEC_PER_SEC),
		.tv_nsec = (long)(deadline % NSEC_PER_SEC),
	};

	/* EINTR: a signal; the caller looks at the phase */
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

#endif /* VB_RUN_SLEEP_H */
