/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * CPU lists, the placement orders and the topology walk, on hwloc's
 * synthetic topologies (so they need no particular machine): every
 * expected order below was worked out by hand from the topology's shape.
 */
#include <config.h>

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/compiler.h"
#include "sys/cpulist.h"
#include "sys/placement.h"
#include "sys/topology.h"
#include "unit.h"

/* "0 1 2" of a list, for messages and comparisons. */
static char *words(const unsigned int *v, unsigned int n)
{
	static char buf[1024];
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < n && used < sizeof(buf); i++)
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%u",
					 i ? " " : "", v[i]);
	return buf;
}

START_TEST(test_cpulist_parse)
{
	static const struct {
		const char *in, *want; /* want NULL: -EINVAL */
	} cases[] = {
		{ "0-3,8", "0 1 2 3 8" },
		{ "3,1,2", "3 1 2" },
		{ "5", "5" },
		{ "1,1", "1 1" },
		{ "2-2", "2" },
		{ "8191", "8191" },
		{ "", NULL },
		{ ",", NULL },
		{ "1,", NULL },
		{ ",1", NULL },
		{ "3-1", NULL },
		{ "a", NULL },
		{ "8192", NULL },
		{ "1--2", NULL },
		{ "-1", NULL },
		{ "1-", NULL },
		{ " 1", NULL },
		{ "+1", NULL },
	};

	for (unsigned int i = 0; i < ARRAY_SIZE(cases); i++) {
		struct cpulist l = { 0 };
		int ret = cpulist_parse(&l, cases[i].in);

		if (!cases[i].want) {
			EXPECT_INT(cases[i].in, ret, -EINVAL);
			EXPECT_UINT(cases[i].in, l.n, 0);
			continue;
		}
		EXPECT_INT(cases[i].in, ret, 0);
		EXPECT_STR(cases[i].in, words(l.cpu, l.n), cases[i].want);
		cpulist_release(&l);
	}
}
END_TEST

START_TEST(test_cpulist_format)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
		{ "5,0,1,2,3,7,8", "0-3,5,7-8" },
		{ "3,1,2", "1-3" },
		{ "4,4,4", "4" },
		{ "0,2,4", "0,2,4" },
		{ "9", "9" },
	};
	struct cpulist empty = { 0 };
	char buf[64];

	for (unsigned int i = 0; i < ARRAY_SIZE(cases); i++) {
		struct cpulist l;
		char *s;

		ck_assert_int_eq(cpulist_parse(&l, cases[i].in), 0);
		EXPECT_STR(cases[i].in, cpulist_format(&l, buf, sizeof(buf)),
			   cases[i].want);
		s = cpulist_string(&l);
		EXPECT_STR(cases[i].in, s, cases[i].want);
		free(s);
		cpulist_release(&l);
	}
	EXPECT_STR("empty", cpulist_format(&empty, buf, sizeof(buf)), "");
	/* truncated to fit, still terminated */
	{
		struct cpulist l;

		ck_assert_int_eq(cpulist_parse(&l, "0,2,4,6,8,10"), 0);
		EXPECT_STR("truncated", cpulist_format(&l, buf, 6), "0,2,4");
		EXPECT_UINT("distinct", cpulist_distinct(&l), 6);
		cpulist_release(&l);
	}
}
END_TEST

/* The synthetic topology @shape, within the CPUs of list @mask. */
static void load(struct topology *t, const char *shape, const char *mask)
{
	struct cpulist allowed;

	ck_assert_int_eq(cpulist_parse(&allowed, mask), 0);
	ck_assert_msg(!topology_load(t, shape, &allowed), "load '%s'", shape);
	cpulist_release(&allowed);
}

static const struct {
	const char *shape, *mask, *compact, *spread, *sweep;
	unsigned int cores, caches, packages, nodes;
	int smt;
} shapes[] = {
	/* 2 packages x 2 L3 x 2 cores x 2 threads: spread takes one
	 * thread of each core, alternating packages, then L3s, then cores;
	 * the second threads come last */
	{ "pack:2 l3:2 core:2 pu:2", "0-15",
	  "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15",
	  "0 8 4 12 2 10 6 14 1 9 5 13 3 11 7 15", "1 2 4 8 16", 8, 4, 2, 1,
	  1 },
	/* the same within taskset 0-3,8: package 0's first L3 (cores 0
	 * and 1, two threads each) and one thread of package 1 */
	{ "pack:2 l3:2 core:2 pu:2", "0-3,8", "0 1 2 3 8", "0 8 2 1 3",
	  "1 2 3 5", 3, 2, 2, 1, 1 },
	/* 3 cores per L3: the walk stops at 3 and 6 */
	{ "pack:2 l3:2 core:3 pu:2", "0-23",
	  "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23",
	  "0 12 6 18 2 14 8 20 4 16 10 22 1 13 7 19 3 15 9 21 5 17 11 23",
	  "1 2 3 6 12 24", 12, 4, 2, 1, 1 },
	/* two NUMA nodes per package, no cache: package, then node */
	{ "pack:2 numa:2 core:2 pu:1", "0-7", "0 1 2 3 4 5 6 7",
	  "0 4 2 6 1 5 3 7", "1 2 4 8", 8, 2, 2, 4, 0 },
	/* 4 packages of one 6-core L3 each */
	{ "pack:4 l3:1 core:6 pu:1", "0-23",
	  "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23",
	  "0 6 12 18 1 7 13 19 2 8 14 20 3 9 15 21 4 10 16 22 5 11 17 23",
	  "1 2 4 6 12 24", 24, 4, 4, 1, 0 },
	/* a 2-CPU VM */
	{ "pack:1 l3:1 core:2 pu:1", "0-1", "0 1", "0 1", "1 2", 2, 1, 1, 1,
	  0 },
};

START_TEST(test_orders)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(shapes); i++) {
		struct topology t;
		struct cpulist c, s;
		unsigned int *sweep, n;
		char ctx[128];

		snprintf(ctx, sizeof(ctx), "'%s' within %s", shapes[i].shape,
			 shapes[i].mask);
		load(&t, shapes[i].shape, shapes[i].mask);
		EXPECT_UINT(ctx, t.ncores, shapes[i].cores);
		EXPECT_UINT(ctx, t.ncaches, shapes[i].caches);
		EXPECT_UINT(ctx, t.npackages, shapes[i].packages);
		EXPECT_UINT(ctx, t.nnodes, shapes[i].nodes);
		EXPECT_INT(ctx, t.smt, shapes[i].smt);
		placement_order(&t, PLACEMENT_COMPACT, &c);
		EXPECT_STR(ctx, words(c.cpu, c.n), shapes[i].compact);
		placement_order(&t, PLACEMENT_SPREAD, &s);
		EXPECT_STR(ctx, words(s.cpu, s.n), shapes[i].spread);
		topology_sweep(&t, &sweep, &n);
		EXPECT_STR(ctx, words(sweep, n), shapes[i].sweep);
		free(sweep);
		cpulist_release(&c);
		cpulist_release(&s);
		topology_release(&t);
	}
}
END_TEST

START_TEST(test_topology_find)
{
	struct topology t;
	const struct topology_cpu *c;

	load(&t, "pack:2 l3:2 core:2 pu:2", "0-15");
	c = topology_find(&t, 13);
	ck_assert_ptr_nonnull(c);
	/* PU 13: package 1, its second L3 (3 overall), core 6, thread 1 */
	EXPECT_UINT("cpu 13", c->package, 1);
	EXPECT_UINT("cpu 13", c->cache, 3);
	EXPECT_UINT("cpu 13", c->core, 6);
	ck_assert_ptr_null(topology_find(&t, 16));
	topology_release(&t);
	{
		struct cpulist none;

		ck_assert_int_eq(cpulist_parse(&none, "100"), 0);
		ck_assert_int_eq(topology_load(&t, "pack:1 core:2 pu:1", &none),
				 -ENOENT);
		cpulist_release(&none);
	}
}
END_TEST

START_TEST(test_placement)
{
	struct cpulist allowed, list, main_cpus;
	struct placement pl;
	struct topology t;
	unsigned int bad = 0;

	ck_assert_int_eq(cpulist_parse(&allowed, "0-3"), 0);
	load(&t, "pack:1 core:2 pu:2", "0-3");
	placement_init(&pl, PLACEMENT_SPREAD, NULL, &allowed, &t, 0);
	/* spread over 2 cores of 2 threads: 0 2 1 3, then again */
	EXPECT_INT("client 0", placement_cpu(&pl, 0), 0);
	EXPECT_INT("client 1", placement_cpu(&pl, 1), 2);
	EXPECT_INT("client 2", placement_cpu(&pl, 2), 1);
	EXPECT_INT("client 5", placement_cpu(&pl, 5), 2);
	ck_close(placement_cpus(&pl, 1), 1, 0, "1 client, 1 CPU");
	ck_close(placement_cpus(&pl, 3), 3, 0, "3 clients, 3 CPUs");
	ck_close(placement_cpus(&pl, 9), 4, 0, "9 clients, 4 CPUs");
	ck_assert(placement_main(&pl, 1, &main_cpus));
	EXPECT_STR("main, 1 client", words(main_cpus.cpu, main_cpus.n),
		   "1 2 3");
	cpulist_release(&main_cpus);
	ck_assert(placement_main(&pl, 3, &main_cpus));
	EXPECT_STR("main, 3 clients", words(main_cpus.cpu, main_cpus.n), "3");
	cpulist_release(&main_cpus);
	ck_assert(!placement_main(&pl, 4, &main_cpus));
	EXPECT_UINT("main, 4 clients", main_cpus.n, 0);
	placement_release(&pl);

	/* a cgroup quota of 1.5 CPUs caps what the clients may use */
	placement_init(&pl, PLACEMENT_NONE, NULL, &allowed, NULL, 1.5);
	EXPECT_INT("none", placement_cpu(&pl, 0), -1);
	ck_close(placement_cpus(&pl, 8), 1.5, 0, "quota");
	ck_assert(!placement_main(&pl, 1, &main_cpus));
	placement_release(&pl);
	EXPECT_INT("no placement", placement_cpu(NULL, 3), -1);

	ck_assert_int_eq(cpulist_parse(&list, "3,3,0"), 0);
	ck_assert_int_eq(placement_check(&list, &allowed, &bad), 0);
	placement_init(&pl, PLACEMENT_LIST, &list, &allowed, &t, 0);
	EXPECT_INT("list 0", placement_cpu(&pl, 0), 3);
	EXPECT_INT("list 1", placement_cpu(&pl, 1), 3);
	ck_close(placement_cpus(&pl, 2), 1, 0, "two clients on CPU 3");
	placement_release(&pl);
	cpulist_release(&list);
	ck_assert_int_eq(cpulist_parse(&list, "1,7,2"), 0);
	EXPECT_INT("outside", placement_check(&list, &allowed, &bad), -EINVAL);
	EXPECT_UINT("outside", bad, 7);
	cpulist_release(&list);
	topology_release(&t);
	cpulist_release(&allowed);
}
END_TEST

START_TEST(test_placement_parse)
{
	static const struct {
		const char *in;
		int ret;
		enum placement_kind kind;
	} cases[] = {
		{ "none", 0, PLACEMENT_NONE },
		{ "compact", 0, PLACEMENT_COMPACT },
		{ "spread", 0, PLACEMENT_SPREAD },
		{ "0,2-3", 0, PLACEMENT_LIST },
		{ "list", -EINVAL, PLACEMENT_NONE },
		{ "Compact", -EINVAL, PLACEMENT_NONE },
		{ "", -EINVAL, PLACEMENT_NONE },
	};

	for (unsigned int i = 0; i < ARRAY_SIZE(cases); i++) {
		enum placement_kind kind = PLACEMENT_NONE;
		struct cpulist l = { 0 };

		EXPECT_INT(cases[i].in, placement_parse(cases[i].in, &kind, &l),
			   cases[i].ret);
		EXPECT_INT(cases[i].in, kind, cases[i].kind);
		cpulist_release(&l);
	}
}
END_TEST

static Suite *placement_suite(void)
{
	Suite *s = suite_create("placement");
	TCase *tc = tcase_create("cpus");

	tcase_add_test(tc, test_cpulist_parse);
	tcase_add_test(tc, test_cpulist_format);
	tcase_add_test(tc, test_orders);
	tcase_add_test(tc, test_topology_find);
	tcase_add_test(tc, test_placement);
	tcase_add_test(tc, test_placement_parse);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(placement_suite());
}
