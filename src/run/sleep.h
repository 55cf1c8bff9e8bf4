/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_RUN_SLEEP_H
#define VB_RUN_SLEEP_H

#include <stdint.h>
#include <time.h>

#include "base/clock.h"

/* The longest pause: the caller looks again at least this often. */
#define SLEEP_MAX_NS NSEC_PER_SEC

/*
 * Sleep until @deadline (CLOCK_MONOTONIC ns), SLEEP_MAX_NS at the most:
 * the main thread's pause between two looks at the clients (run.c,
 * progressline.c). Its deadlines come from clock_now_ns(), the TSC where
 * it times the ops: a look a second later, at the latest, whatever a
 * deadline says, keeps one wrong reading from parking the main thread.
 */
static inline void sleep_until(uint64_t deadline)
{
	uint64_t limit = clock_monotonic_ns() + SLEEP_MAX_NS;
	struct timespec ts;

	if (deadline > limit)
		deadline = limit;
	ts.tv_sec = (time_t)(deadline / NSEC_PER_SEC);
	ts.tv_nsec = (long)(deadline % NSEC_PER_SEC);
	/* EINTR: a signal; the caller looks at the phase */
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

#endif /* VB_RUN_SLEEP_H */
