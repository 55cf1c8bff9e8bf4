/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for sweep_schedule(): the exact execution orders of
 * --order sequential and interleaved, and --order random as a seeded
 * permutation of the sequential order (each point exactly --runs times,
 * the same seed giving the same order, other seeds other orders, and the
 * order a recorded seed stands for kept stable). Output is TAP on stdout.
 */
#include <config.h>
#include "run/sweep.h"

#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/compiler.h"
#include "unit.h"

#define MAX_ORDER 1024
#define SENTINEL  0xdeadbeefu

/* An order as text, "0 0 1 1 2 2", for messages. */
static const char *order_str(const unsigned int *o, unsigned int n)
{
	static char buf[4096];
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < n && used + 16 < sizeof(buf); i++)
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%u",
					 i ? " " : "", o[i]);
	return buf;
}

/* Fill order[0..n) and check that sweep_schedule() writes no further. */
static void schedule(unsigned int *order, unsigned int npoints,
		     unsigned int runs, enum run_order how, uint64_t seed)
{
	unsigned int n = npoints * runs;

	for (unsigned int i = 0; i < MAX_ORDER; i++)
		order[i] = SENTINEL;
	sweep_schedule(order, npoints, runs, how, seed);
	for (unsigned int i = n; i < MAX_ORDER; i++)
		ck_assert_msg(order[i] == SENTINEL,
			      "%u points x %u runs: order[%u] written", npoints,
			      runs, i);
}

struct order_case {
	unsigned int npoints, runs;
	enum run_order how;
	unsigned int want[16];
};

static const struct order_case order_cases[] = {
	/* 3 points x 2 runs: the brief's 1,1,2,2,... and 1,2,...,1,2 */
	{ 3, 2, ORDER_SEQUENTIAL, { 0, 0, 1, 1, 2, 2 } },
	{ 3, 2, ORDER_INTERLEAVED, { 0, 1, 2, 0, 1, 2 } },
	/* 2 points x 3 runs: 1 1 1 2 2 2 and 1 2 1 2 1 2 */
	{ 2, 3, ORDER_SEQUENTIAL, { 0, 0, 0, 1, 1, 1 } },
	{ 2, 3, ORDER_INTERLEAVED, { 0, 1, 0, 1, 0, 1 } },
	{ 4, 3, ORDER_SEQUENTIAL, { 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3 } },
	{ 4, 3, ORDER_INTERLEAVED, { 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3 } },
	/* one run: both are the command-line order */
	{ 4, 1, ORDER_SEQUENTIAL, { 0, 1, 2, 3 } },
	{ 4, 1, ORDER_INTERLEAVED, { 0, 1, 2, 3 } },
	/* one point: every run is of it */
	{ 1, 5, ORDER_SEQUENTIAL, { 0, 0, 0, 0, 0 } },
	{ 1, 5, ORDER_INTERLEAVED, { 0, 0, 0, 0, 0 } },
	{ 1, 5, ORDER_RANDOM, { 0, 0, 0, 0, 0 } },
	{ 1, 1, ORDER_RANDOM, { 0 } },
};

START_TEST(test_order)
{
	const struct order_case *c = &order_cases[_i];
	unsigned int n = c->npoints * c->runs, order[MAX_ORDER];
	char want[4096];

	schedule(order, c->npoints, c->runs, c->how, 12345);
	snprintf(want, sizeof(want), "%s", order_str(c->want, n));
	ck_assert_msg(!memcmp(order, c->want, n * sizeof(*order)),
		      "%u points x %u runs, order %d: got %s, want %s",
		      c->npoints, c->runs, (int)c->how, order_str(order, n),
		      want);
}
END_TEST

/* Sequential and interleaved do not depend on the seed. */
START_TEST(test_order_seed_ignored)
{
	unsigned int a[MAX_ORDER], b[MAX_ORDER];

	schedule(a, 5, 4, ORDER_SEQUENTIAL, 1);
	schedule(b, 5, 4, ORDER_SEQUENTIAL, UINT64_C(0x7fffffffffffffff));
	ck_assert(!memcmp(a, b, 20 * sizeof(*a)));
	schedule(a, 5, 4, ORDER_INTERLEAVED, 0);
	schedule(b, 5, 4, ORDER_INTERLEAVED, 987654321);
	ck_assert(!memcmp(a, b, 20 * sizeof(*a)));
}
END_TEST

/* Each of @npoints points exactly @runs times. */
static void check_permutation(const unsigned int *o, unsigned int npoints,
			      unsigned int runs, uint64_t seed)
{
	unsigned int count[64] = { 0 };

	for (unsigned int i = 0; i < npoints * runs; i++) {
		ck_assert_msg(o[i] < npoints, "seed %llu: order[%u] = %u",
			      (unsigned long long)seed, i, o[i]);
		count[o[i]]++;
	}
	for (unsigned int p = 0; p < npoints; p++)
		ck_assert_msg(count[p] == runs,
			      "seed %llu: point %u runs %u times, want %u: %s",
			      (unsigned long long)seed, p, count[p], runs,
			      order_str(o, npoints * runs));
}

static const uint64_t seeds[] = {
	0,
	1,
	2,
	7,
	42,
	12345,
	987654321,
	UINT64_C(0x7fffffffffffffff),
	UINT64_C(0x123456789abcdef),
};

/* Random: a permutation, and the same seed gives the same order. */
START_TEST(test_random_permutation)
{
	static const unsigned int shapes[][2] = { { 2, 3 },  { 3, 2 },
						  { 7, 1 },  { 4, 10 },
						  { 16, 8 }, { 1, 4 } };
	unsigned int a[MAX_ORDER], b[MAX_ORDER];

	for (unsigned int s = 0; s < ARRAY_SIZE(shapes); s++) {
		unsigned int np = shapes[s][0], runs = shapes[s][1];

		for (unsigned int k = 0; k < ARRAY_SIZE(seeds); k++) {
			schedule(a, np, runs, ORDER_RANDOM, seeds[k]);
			check_permutation(a, np, runs, seeds[k]);
			schedule(b, np, runs, ORDER_RANDOM, seeds[k]);
			ck_assert_msg(!memcmp(a, b, np * runs * sizeof(*a)),
				      "%u x %u, seed %llu: two orders", np,
				      runs, (unsigned long long)seeds[k]);
		}
	}
}
END_TEST

/*
 * 8 points x 10 runs has 80! / (10!)^8 (about 10^70) orders: different
 * seeds give different ones, and none is the sequential order.
 */
START_TEST(test_random_seeds_differ)
{
	static unsigned int o[ARRAY_SIZE(seeds)][MAX_ORDER];
	unsigned int seq[MAX_ORDER], n = 80;

	schedule(seq, 8, 10, ORDER_SEQUENTIAL, 0);
	for (unsigned int k = 0; k < ARRAY_SIZE(seeds); k++) {
		schedule(o[k], 8, 10, ORDER_RANDOM, seeds[k]);
		ck_assert_msg(memcmp(o[k], seq, n * sizeof(*seq)),
			      "seed %llu: the sequential order",
			      (unsigned long long)seeds[k]);
		for (unsigned int j = 0; j < k; j++)
			ck_assert_msg(memcmp(o[k], o[j], n * sizeof(*seq)),
				      "seeds %llu and %llu: the same order",
				      (unsigned long long)seeds[k],
				      (unsigned long long)seeds[j]);
	}
}
END_TEST

/*
 * A seed recorded in a result file must give the same order in a later
 * vfsbench. This is the documented algorithm (sweep.h), written out
 * independently: splitmix64 (Vigna's constants) driving a Fisher-Yates
 * shuffle of the sequential order, from the last position down, j =
 * next() % (i + 1).
 */
static uint64_t ref_splitmix64(uint64_t *state)
{
	uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static void ref_schedule(unsigned int *o, unsigned int npoints,
			 unsigned int runs, uint64_t seed)
{
	unsigned int n = npoints * runs, k = 0;

	for (unsigned int p = 0; p < npoints; p++)
		for (unsigned int r = 0; r < runs; r++)
			o[k++] = p;
	for (unsigned int i = n - 1; i > 0; i--) {
		unsigned int j =
			(unsigned int)(ref_splitmix64(&seed) % (i + 1));
		unsigned int t = o[i];

		o[i] = o[j];
		o[j] = t;
	}
}

START_TEST(test_random_reference)
{
	static const unsigned int shapes[][2] = {
		{ 2, 3 }, { 3, 3 }, { 5, 7 }, { 16, 8 }
	};
	unsigned int got[MAX_ORDER], want[MAX_ORDER];
	uint64_t st = 0;

	/* the generator itself: splitmix64's first output from seed 0 */
	ck_assert(ref_splitmix64(&st) == UINT64_C(0xe220a8397b1dcdaf));
	for (unsigned int s = 0; s < ARRAY_SIZE(shapes); s++) {
		unsigned int np = shapes[s][0], runs = shapes[s][1];

		for (unsigned int k = 0; k < ARRAY_SIZE(seeds); k++) {
			char w[4096];

			schedule(got, np, runs, ORDER_RANDOM, seeds[k]);
			ref_schedule(want, np, runs, seeds[k]);
			snprintf(w, sizeof(w), "%s",
				 order_str(want, np * runs));
			ck_assert_msg(
				!memcmp(got, want, np * runs * sizeof(*got)),
				"%u x %u, seed %llu: got %s, want %s", np, runs,
				(unsigned long long)seeds[k],
				order_str(got, np * runs), w);
		}
	}
}
END_TEST

/*
 * --order shuffled: @runs rounds, each of which holds every point exactly
 * once; the same seed gives the same order, and the rounds are not all
 * the same (a shuffle per round, not one shuffle repeated).
 */
START_TEST(test_shuffled_rounds)
{
	static const uint64_t round_seeds[] = { 1, 7, 12345,
						0x9e3779b97f4a7c15ull };
	unsigned int order[MAX_ORDER], again[MAX_ORDER];

	for (unsigned int k = 0; k < ARRAY_SIZE(round_seeds); k++) {
		unsigned int np = 6, runs = 8;
		bool differ = false;

		schedule(order, np, runs, ORDER_SHUFFLED, round_seeds[k]);
		schedule(again, np, runs, ORDER_SHUFFLED, round_seeds[k]);
		ck_assert_msg(!memcmp(order, again, np * runs * sizeof(*order)),
			      "seed %llu: not reproducible",
			      (unsigned long long)round_seeds[k]);
		for (unsigned int r = 0; r < runs; r++) {
			unsigned int seen[6] = { 0 };

			for (unsigned int i = 0; i < np; i++) {
				ck_assert_uint_lt(order[r * np + i], np);
				seen[order[r * np + i]]++;
			}
			for (unsigned int p = 0; p < np; p++)
				ck_assert_msg(
					seen[p] == 1,
					"seed %llu round %u: point %u x %u: %s",
					(unsigned long long)round_seeds[k], r,
					p, seen[p],
					order_str(order, np * runs));
			if (r &&
			    memcmp(order, order + r * np, np * sizeof(*order)))
				differ = true;
		}
		ck_assert_msg(differ, "seed %llu: every round alike: %s",
			      (unsigned long long)round_seeds[k],
			      order_str(order, np * runs));
	}
	/* one point: every run is of it */
	schedule(order, 1, 4, ORDER_SHUFFLED, 3);
	for (unsigned int i = 0; i < 4; i++)
		ck_assert_uint_eq(order[i], 0);
}
END_TEST

static Suite *schedule_suite(void)
{
	Suite *s = suite_create("schedule");
	TCase *tc;

	tc = tcase_create("fixed");
	tcase_add_loop_test(tc, test_order, 0, (int)ARRAY_SIZE(order_cases));
	tcase_add_test(tc, test_order_seed_ignored);
	suite_add_tcase(s, tc);

	tc = tcase_create("random");
	tcase_add_test(tc, test_random_permutation);
	tcase_add_test(tc, test_random_seeds_differ);
	tcase_add_test(tc, test_random_reference);
	tcase_add_test(tc, test_shuffled_rounds);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(schedule_suite());
}
