/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The seconds of a phase from counter readings: see ticker.h.
 */
#include <config.h>
#include "stats/ticker.h"

#include <math.h>

#include "base/clock.h"

void ticker_start(struct ticker *t, const struct tick_sample *at)
{
	t->start_ns = at->ns;
	t->done = 0;
	t->prev = *at;
	t->last = *at;
	t->mark = *at;
}

/* @a at @t0 and @b at @t1, linearly at @t (t0 < t < t1), in [a, b]. */
static uint64_t lerp(uint64_t a, uint64_t b, uint64_t t0, uint64_t t1,
		     uint64_t t)
{
	double v;

	if (b <= a)
		return b; /* counters do not go back; never below b */
	/* t < t1: v < b - a, so a + v stays at most b */
	v = (double)(b - a) * ((double)(t - t0) / (double)(t1 - t0));
	return a + (uint64_t)llround(v);
}

/* The counters at @ns, between the readings @a and @b around it. */
static void between(const struct tick_sample *a, const struct tick_sample *b,
		    uint64_t ns, struct tick_sample *out)
{
	if (ns <= a->ns) {
		out->ops = a->ops;
		out->bytes = a->bytes;
	} else if (ns >= b->ns) {
		out->ops = b->ops;
		out->bytes = b->bytes;
	} else {
		out->ops = lerp(a->ops, b->ops, a->ns, b->ns, ns);
		out->bytes = lerp(a->bytes, b->bytes, a->ns, b->ns, ns);
	}
}

void ticker_at(const struct ticker *t, const struct tick_sample *now,
	       uint64_t ns, struct tick_sample *out)
{
	out->ns = ns;
	if (ns >= t->last.ns)
		between(&t->last, now, ns, out);
	else
		between(&t->prev, &t->last, ns, out);
}

/* @now becomes the last reading (the same one twice keeps the one before). */
static void keep(struct ticker *t, const struct tick_sample *now)
{
	if (now->ns > t->last.ns) {
		t->prev = t->last;
		t->last = *now;
	}
}

/* The second (or part of one) from the mark to @end: the next line. */
static void yield(struct ticker *t, const struct tick_sample *now, uint64_t end,
		  struct tick_second *sec)
{
	struct tick_sample at;

	ticker_at(t, now, end, &at);
	sec->second = ++t->done;
	sec->ns = end - t->mark.ns;
	sec->ops = at.ops - t->mark.ops;
	sec->bytes = at.bytes - t->mark.bytes;
	t->mark = at;
}

/* Where the second after the last one yielded ends. */
static uint64_t next_end(const struct ticker *t)
{
	return t->start_ns + (uint64_t)(t->done + 1) * NSEC_PER_SEC;
}

bool ticker_next(struct ticker *t, const struct tick_sample *now,
		 struct tick_second *sec)
{
	if (next_end(t) > now->ns) {
		keep(t, now);
		return false;
	}
	yield(t, now, next_end(t), sec);
	return true;
}

bool ticker_finish(struct ticker *t, const struct tick_sample *now,
		   uint64_t end_ns, struct tick_second *sec)
{
	if (next_end(t) <= end_ns) {
		yield(t, now, next_end(t), sec);
		return true;
	}
	/* the readings stay: ticker_at() still answers for the phase */
	if (end_ns > t->mark.ns && end_ns - t->start_ns >= NSEC_PER_SEC) {
		yield(t, now, end_ns, sec);
		return true;
	}
	return false;
}
