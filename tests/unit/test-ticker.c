/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for stats/ticker.c, the seconds of the progress lines: each
 * line's label is the whole second it covers, every second of a phase
 * gets one, a second no reading bounds is filled from the readings around
 * it, the last partial second of a phase lasting a second or more gets a
 * line and a shorter phase none, and the seconds' counts add up to the
 * counters' growth over the phase. Readings are made up (no clock, no
 * sleep), with counts that grow at a constant rate, so every expected
 * value is exact. Output is TAP on stdout.
 */
#include <config.h>
#include "stats/ticker.h"

#include <check.h>
#include <stdio.h>

#include "base/clock.h"
#include "base/compiler.h"
#include "unit.h"

#define S  NSEC_PER_SEC
#define MS NSEC_PER_MSEC

/* An arbitrary phase start, far from 0 like CLOCK_MONOTONIC's. */
#define T0 (12345 * S + 678 * MS)

/*
 * A reading @at ns into the phase of counters growing at @rate ops/s
 * and 10 bytes an op from @ops0 ops.
 */
static struct tick_sample reading(uint64_t at, uint64_t rate, uint64_t ops0)
{
	uint64_t ops = ops0 + rate * at / S;

	return (struct tick_sample){ T0 + at, ops, ops * 10 };
}

/* What the lines of a phase said: labels, lengths and counts. */
struct lines {
	unsigned int n;
	unsigned int label[64];
	uint64_t ns[64], ops[64], bytes[64];
};

static void take(struct lines *l, const struct tick_second *sec)
{
	ck_assert_uint_lt(l->n, ARRAY_SIZE(l->label));
	l->label[l->n] = sec->second;
	l->ns[l->n] = sec->ns;
	l->ops[l->n] = sec->ops;
	l->bytes[l->n] = sec->bytes;
	l->n++;
}

/* Feed one reading: the lines it completes. */
static void feed(struct ticker *t, struct lines *l, struct tick_sample r)
{
	struct tick_second sec;

	while (ticker_next(t, &r, &sec))
		take(l, &sec);
}

static void finish(struct ticker *t, struct lines *l, struct tick_sample r,
		   uint64_t end)
{
	struct tick_second sec;

	while (ticker_finish(t, &r, T0 + end, &sec))
		take(l, &sec);
}

/* Lines 1..n, each one second of @ops ops and ten times as many bytes. */
static void expect_whole(const struct lines *l, unsigned int from,
			 unsigned int n, uint64_t ops)
{
	char ctx[32];

	for (unsigned int i = from; i < from + n; i++) {
		snprintf(ctx, sizeof(ctx), "line %u", i);
		EXPECT_UINT(ctx, l->label[i], i + 1);
		EXPECT_UINT(ctx, l->ns[i], S);
		EXPECT_UINT(ctx, l->ops[i], ops);
		EXPECT_UINT(ctx, l->bytes[i], ops * 10);
	}
}

/* Readings every 100 ms: one line a second, labelled 1 to 10. */
START_TEST(test_on_time)
{
	struct tick_sample r0 = reading(0, 1000, 0);
	struct lines l = { 0 };
	struct ticker t;

	ticker_start(&t, &r0);
	for (uint64_t at = 100 * MS; at <= 10 * S; at += 100 * MS) {
		feed(&t, &l, reading(at, 1000, 0));
		/* a line as soon as its second has ended, not before */
		EXPECT_UINT("lines so far", l.n, at / S);
	}
	finish(&t, &l, reading(10 * S, 1000, 0), 10 * S);
	EXPECT_UINT("lines", l.n, 10);
	expect_whole(&l, 0, 10, 1000);
}
END_TEST

/*
 * The report of the issue: a 2 s warmup then 10 s measured. The warmup's
 * seconds are warmup 1 and 2 (not "execute 0"), the measurement's are 1
 * to 10 with the last one there, counted from the switch.
 */
START_TEST(test_warmup_then_measure)
{
	struct tick_sample r = reading(0, 500, 0), at;
	struct lines w = { 0 }, m = { 0 };
	struct ticker t;

	ticker_start(&t, &r);
	/* the main thread wakes 30 ms after each second, and at the switch */
	for (uint64_t s = 1; s <= 2; s++)
		feed(&t, &w, reading(s * S + 30 * MS, 500, 0));
	r = reading(2 * S + 40 * MS, 500, 0);
	finish(&t, &w, r, 2 * S);
	EXPECT_UINT("warmup lines", w.n, 2);
	expect_whole(&w, 0, 2, 500);
	/* the measurement starts at the switch, from the counters there */
	ticker_at(&t, &r, T0 + 2 * S, &at);
	EXPECT_UINT("ops at the switch", at.ops, 1000);
	EXPECT_UINT("time of the switch", at.ns, T0 + 2 * S);
	ticker_start(&t, &at);
	feed(&t, &m, r);
	for (uint64_t s = 3; s <= 12; s++)
		feed(&t, &m, reading(s * S + 30 * MS, 500, 0));
	finish(&t, &m, reading(12 * S + 30 * MS, 500, 0), 12 * S);
	EXPECT_UINT("measured lines", m.n, 10);
	expect_whole(&m, 0, 10, 500);
}
END_TEST

/*
 * Under load the reader misses seconds: a reading at 1.0 s, the next at
 * 3.5 s. Seconds 2 and 3 get their lines at 3.5 s, filled from the two
 * readings (1000 ops a second each), and no second is dropped.
 */
START_TEST(test_skipped_ticks)
{
	struct tick_sample r0 = reading(0, 1000, 0);
	struct lines l = { 0 };
	struct ticker t;

	ticker_start(&t, &r0);
	feed(&t, &l, reading(1 * S, 1000, 0));
	EXPECT_UINT("after 1 s", l.n, 1);
	feed(&t, &l, reading(3 * S + 500 * MS, 1000, 0));
	EXPECT_UINT("after 3.5 s", l.n, 3);
	feed(&t, &l, reading(4 * S, 1000, 0));
	finish(&t, &l, reading(4 * S, 1000, 0), 4 * S);
	EXPECT_UINT("lines", l.n, 4);
	expect_whole(&l, 0, 4, 1000);
}
END_TEST

/*
 * The split follows the readings, not the labels: 900 ops by 0.9 s, 2100
 * by 2.1 s (1000 a second in between) give 1000 to second 1 and 1000 to
 * second 2; a burst before 0.9 s stays in second 1.
 */
START_TEST(test_interpolation)
{
	struct tick_sample r0 = { T0, 0, 0 };
	struct tick_sample a = { T0 + 900 * MS, 900, 9000 };
	struct tick_sample b = { T0 + 2100 * MS, 2100, 21000 };
	struct tick_sample c = { T0 + 2 * S + 700 * MS, 2700, 27000 };
	struct tick_sample burst = { T0 + 100 * MS, 5000, 1 };
	struct lines l = { 0 };
	struct ticker t;

	ticker_start(&t, &r0);
	feed(&t, &l, a);
	EXPECT_UINT("at 0.9 s", l.n, 0);
	feed(&t, &l, b);
	feed(&t, &l, c);
	EXPECT_UINT("lines", l.n, 2);
	expect_whole(&l, 0, 2, 1000);

	memset(&l, 0, sizeof(l));
	ticker_start(&t, &r0);
	feed(&t, &l, burst);
	feed(&t, &l, (struct tick_sample){ T0 + 1100 * MS, 5000, 1 });
	EXPECT_UINT("burst lines", l.n, 1);
	EXPECT_UINT("burst ops", l.ops[0], 5000);
	EXPECT_UINT("burst bytes", l.bytes[0], 1);
}
END_TEST

/*
 * A phase of 3.5 s (a --loops run, a stop) ends with a line for its
 * fourth, half second, over its real length; one of 0.8 s has none.
 */
START_TEST(test_partial_last_second)
{
	struct tick_sample r0 = reading(0, 2000, 0);
	struct lines l = { 0 };
	struct ticker t;

	ticker_start(&t, &r0);
	for (uint64_t at = 250 * MS; at <= 3 * S + 500 * MS; at += 250 * MS)
		feed(&t, &l, reading(at, 2000, 0));
	finish(&t, &l, reading(3 * S + 600 * MS, 2000, 0), 3 * S + 500 * MS);
	EXPECT_UINT("lines", l.n, 4);
	expect_whole(&l, 0, 3, 2000);
	EXPECT_UINT("last label", l.label[3], 4);
	EXPECT_UINT("last length", l.ns[3], 500 * MS);
	EXPECT_UINT("last ops", l.ops[3], 1000);

	memset(&l, 0, sizeof(l));
	ticker_start(&t, &r0);
	feed(&t, &l, reading(500 * MS, 2000, 0));
	finish(&t, &l, reading(900 * MS, 2000, 0), 800 * MS);
	EXPECT_UINT("a phase under a second", l.n, 0);
}
END_TEST

/*
 * Whatever the readings, the lines cover the phase without gap or
 * overlap: their lengths add up to it and their counts to the counters'
 * growth over it, from a start whose counters are not 0.
 */
START_TEST(test_conservation)
{
	static const uint64_t gaps_ms[] = { 7,	  1000, 13,   2999, 400,
					    1,	  1,	5000, 250,  999,
					    1001, 333,	4,    1777, 90 };
	struct tick_sample r = { T0, 777, 7770 }, start = r;
	uint64_t at = 0, ops = 0, ns = 0, bytes = 0;
	struct lines l = { 0 };
	struct ticker t;

	ticker_start(&t, &r);
	for (unsigned int i = 0; i < ARRAY_SIZE(gaps_ms); i++) {
		at += gaps_ms[i] * MS;
		/* a rate that changes at every reading */
		r = (struct tick_sample){ T0 + at, r.ops + gaps_ms[i] * (i + 3),
					  r.bytes + gaps_ms[i] * 7 };
		feed(&t, &l, r);
	}
	finish(&t, &l, r, at);
	for (unsigned int i = 0; i < l.n; i++) {
		EXPECT_UINT("label", l.label[i], i + 1);
		ns += l.ns[i];
		ops += l.ops[i];
		bytes += l.bytes[i];
	}
	EXPECT_UINT("lines", l.n, (at + S - 1) / S);
	EXPECT_UINT("length", ns, at);
	EXPECT_UINT("ops", ops, r.ops - start.ops);
	EXPECT_UINT("bytes", bytes, r.bytes - start.bytes);
}
END_TEST

/* Counters that stand still give seconds of 0, still one a second. */
START_TEST(test_idle)
{
	struct tick_sample r0 = { T0, 42, 420 };
	struct lines l = { 0 };
	struct ticker t;

	ticker_start(&t, &r0);
	feed(&t, &l, (struct tick_sample){ T0 + 3 * S + 1, 42, 420 });
	finish(&t, &l, (struct tick_sample){ T0 + 3 * S + 1, 42, 420 }, 3 * S);
	EXPECT_UINT("lines", l.n, 3);
	expect_whole(&l, 0, 3, 0);
}
END_TEST

static Suite *ticker_suite(void)
{
	Suite *s = suite_create("ticker");
	TCase *tc = tcase_create("seconds");

	tcase_add_test(tc, test_on_time);
	tcase_add_test(tc, test_warmup_then_measure);
	tcase_add_test(tc, test_skipped_ticks);
	tcase_add_test(tc, test_interpolation);
	tcase_add_test(tc, test_partial_last_second);
	tcase_add_test(tc, test_conservation);
	tcase_add_test(tc, test_idle);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(ticker_suite());
}
