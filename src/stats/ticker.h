/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_STATS_TICKER_H
#define VB_STATS_TICKER_H

#include <stdbool.h>
#include <stdint.h>

/*
 * struct ticker: the whole seconds of a phase, from readings of
 * cumulative counters taken whenever the reader gets to it. The progress
 * line (run/run.c) prints one line per second of the phase; the reader
 * may wake late, or skip a second altogether on a loaded machine, so the
 * counts at a second's end are interpolated linearly between the two
 * readings around it. Pure arithmetic on the values passed in: no clock,
 * no output, so that its labelling can be tested exactly and another
 * printer (dbench's per-second lines) can share it.
 *
 * Second N (from 1) of a phase that started at S covers [S + N - 1 s,
 * S + N s); its line is labelled N.
 */

/* One reading: the time it was taken and the counters then. */
struct tick_sample {
	uint64_t ns;
	uint64_t ops;
	uint64_t bytes;
};

/* One second of the phase, or the last, partial one. */
struct tick_second {
	unsigned int second; /* its label, from 1 */
	uint64_t ns; /* its length: 1 s, or less for the last one */
	uint64_t ops, bytes; /* done within it */
};

struct ticker {
	uint64_t start_ns; /* when the phase started */
	unsigned int done; /* seconds yielded so far */
	struct tick_sample prev, last; /* the latest two readings */
	struct tick_sample mark; /* the counters where second @done ended */
};

/* A phase starts at @at->ns with the counters of @at. */
void ticker_start(struct ticker *t, const struct tick_sample *at);

/*
 * With the reading @now (not older than the last one), the next whole
 * second that ended by @now->ns: true and *@sec filled, or false when
 * there is none left (then @now becomes the last reading). Call until it
 * returns false.
 */
bool ticker_next(struct ticker *t, const struct tick_sample *now,
		 struct tick_second *sec);

/*
 * The phase ended at @end_ns (at most @now->ns, and not before the reading
 * before the last: the reading that saw the end may be the last one
 * already): like ticker_next() up to @end_ns, then once more for
 * the partial second from the last whole one to @end_ns when there is
 * one and the phase lasted a second or more (a phase shorter than one
 * second gets no line at all). Call until it returns false.
 */
bool ticker_finish(struct ticker *t, const struct tick_sample *now,
		   uint64_t end_ns, struct tick_second *sec);

/*
 * The counters at @ns, interpolated between the two readings around it
 * among the last two and @now (those of @now past it, of the earlier
 * reading before both), for the start of the next phase.
 */
void ticker_at(const struct ticker *t, const struct tick_sample *now,
	       uint64_t ns, struct tick_sample *out);

#endif /* VB_STATS_TICKER_H */
