/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_STATS_HISTBATCH_H
#define VB_STATS_HISTBATCH_H

#include <stdint.h>

#include "stats/hist.h"

/*
 * struct hist_batch: latencies on their way into a set of histograms
 * (one per statistics slot), added HIST_BATCH at a time.
 *
 * Why not hist_add() after every op: the bucket it increments is at an
 * address computed from the latency just read from the clock, and on the
 * machines measured the loop then waits for that clock read before it
 * goes on; storing the latency at the next free entry here, an address
 * that does not depend on it, takes the null engine's harness from
 * 17.0 to 13.2 ns an op here (doc/performance.md, "The histogram's store").
 *
 * The number of entries in use is the caller's, so that it stays in a
 * register of the hot loop; hist_batch_add() returns the new one. Nothing
 * reads the histograms before the caller's last hist_batch_flush(), and
 * dropping the batch is setting its count to 0 (what a measurement that
 * starts does with the warmup's latencies).
 */
#define HIST_BATCH 64

struct hist_batch {
	uint64_t ns[HIST_BATCH];
	uint8_t slot[HIST_BATCH]; /* struct op's slot: an index into the set */
};

/* Add the first @n entries of @b into @set[slot]. */
void hist_batch_flush(const struct hist_batch *b, unsigned int n,
		      struct hist *set);

/*
 * Record @ns for @slot as entry @n of @b, flushing into @set when the
 * batch is full. Returns the number of entries in use after it.
 */
static inline unsigned int hist_batch_add(struct hist_batch *b, unsigned int n,
					  struct hist *set, uint8_t slot,
					  uint64_t ns)
{
	b->ns[n] = ns;
	b->slot[n] = slot;
	if (__builtin_expect(++n == HIST_BATCH, 0)) {
		hist_batch_flush(b, n, set);
		n = 0;
	}
	return n;
}

#endif /* VB_STATS_HISTBATCH_H */
