/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_BASE_CLOCK_H
#define VB_BASE_CLOCK_H

#include <stdint.h>
#include <time.h>

/*
 * The clock of every measurement: CLOCK_MONOTONIC through the vDSO, about
 * 20 ns a read on these machines. The client loop reads it once per op
 * boundary (the end of one op is the start of the next), see client.c.
 */
static inline uint64_t clock_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#define NSEC_PER_SEC  1000000000ull
#define NSEC_PER_MSEC 1000000ull

#endif /* VB_BASE_CLOCK_H */
