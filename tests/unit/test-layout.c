/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for the arithmetic of an MPI job that needs no MPI: where
 * run/layout.c puts each client (round-robin over hosts, host by host,
 * each host's ranks in turn, client 0 on rank 0), and the results that
 * stats/result.c packs as bytes for another rank, merged on arrival as
 * in one process. Output is TAP on stdout.
 */
#include <config.h>
#include "run/layout.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/result.h"
#include "unit.h"

/* A job of @n ranks whose hosts are the letters of @hosts ("aabba"). */
static void make_layout(struct layout *l, const char *hosts)
{
	unsigned int n = (unsigned int)strlen(hosts);
	char *names = calloc(n, LAYOUT_HOST_MAX);

	ck_assert_ptr_nonnull(names);
	for (unsigned int r = 0; r < n; r++)
		names[r * LAYOUT_HOST_MAX] = hosts[r];
	layout_build(l, 0, n, names);
	free(names);
}

/* The rank of each client of a run of @total, as a string of digits. */
static const char *owners(const struct layout *l, unsigned int total, char *buf)
{
	for (unsigned int k = 0; k < total; k++)
		buf[k] = (char)('0' + layout_rank_of(l, k));
	buf[total] = '\0';
	return buf;
}

START_TEST(test_layout_hosts)
{
	struct layout l;

	make_layout(&l, "abab");
	ck_assert_uint_eq(l.nhosts, 2);
	ck_assert_str_eq(l.hosts[0], "a");
	ck_assert_str_eq(l.hosts[1], "b");
	ck_assert_uint_eq(l.host_of[3], 1);
	/* host b: ranks 1 and 3 */
	ck_assert_uint_eq(l.first[1], 2);
	ck_assert_uint_eq(l.by_host[2], 1);
	ck_assert_uint_eq(l.by_host[3], 3);
	layout_release(&l);
}
END_TEST

START_TEST(test_layout_round_robin)
{
	struct layout l;
	char buf[32];

	/* ranks 0, 2 on host a; 1, 3 on host b */
	make_layout(&l, "abab");
	layout_distribute(&l, DISTRIBUTE_ROUND_ROBIN, 8);
	/* client k on host k mod 2, each host's ranks in turn */
	ck_assert_str_eq(owners(&l, 8, buf), "01230123");
	layout_release(&l);
	/* ranks 0, 1 on host a, rank 2 alone on b */
	make_layout(&l, "aab");
	layout_distribute(&l, DISTRIBUTE_ROUND_ROBIN, 6);
	ck_assert_str_eq(owners(&l, 6, buf), "021202");
	layout_release(&l);
}
END_TEST

START_TEST(test_layout_host_by_host)
{
	struct layout l;
	char buf[32];

	make_layout(&l, "aabb");
	/* 4 per host: the sweep's 8 over 2 hosts */
	layout_distribute(&l, DISTRIBUTE_HOST_BY_HOST, 8);
	ck_assert_uint_eq(l.per_host, 4);
	ck_assert_str_eq(owners(&l, 8, buf), "01012323");
	ck_assert_str_eq(owners(&l, 3, buf), "010");
	/* 7 over 2 hosts: 4, then 3 */
	layout_distribute(&l, DISTRIBUTE_HOST_BY_HOST, 7);
	ck_assert_str_eq(owners(&l, 7, buf), "0101232");
	layout_release(&l);
}
END_TEST

START_TEST(test_layout_place)
{
	unsigned int ids[8], total = 0;
	struct layout l;

	make_layout(&l, "aab");
	layout_distribute(&l, DISTRIBUTE_ROUND_ROBIN, 7);
	/* "0212021": every client once, numbers ascending */
	ck_assert_uint_eq(layout_place(&l, 7, 0, ids), 2);
	ck_assert_uint_eq(ids[0], 0);
	ck_assert_uint_eq(ids[1], 4);
	ck_assert_uint_eq(layout_place(&l, 7, 1, ids), 2);
	ck_assert_uint_eq(ids[0], 2);
	ck_assert_uint_eq(ids[1], 6);
	ck_assert_uint_eq(layout_place(&l, 7, 2, ids), 3);
	ck_assert_uint_eq(ids[2], 5);
	for (unsigned int r = 0; r < 3; r++)
		total += layout_place(&l, 7, r, NULL);
	ck_assert_uint_eq(total, 7);
	/* a rank with no client at a small count */
	ck_assert_uint_eq(layout_place(&l, 1, 2, NULL), 0);
	layout_release(&l);
}
END_TEST

START_TEST(test_layout_single)
{
	struct layout l;
	char buf[8];

	layout_single(&l, "here");
	ck_assert_uint_eq(l.nranks, 1);
	ck_assert_str_eq(layout_name(&l, 0, buf, sizeof(buf)), "rank 0 ");
	ck_assert_uint_eq(layout_place(&l, 5, 0, NULL), 5);
	layout_release(&l);
}
END_TEST

/* Fill @r with values that differ field by field. */
static void fill(struct result *r, uint64_t base)
{
	r->ops = base + 1;
	r->unexpected = base + 2;
	r->skipped = base + 3;
	r->interrupted = base + 4;
	r->bytes = base + 5;
	r->passes = base + 6;
	r->t_start = 1000 + base;
	r->t_end = 5000 + base;
	r->usage.user_s = 0.25 + (double)base;
	r->usage.sys_s = 0.5;
	r->usage.voluntary = 7;
	r->usage.involuntary = 8;
	r->usage.run_delay_ns = 9;
	r->usage.run_delay_known = true;
	for (unsigned int s = 0; s < r->nslots; s++) {
		for (uint64_t v = 1; v < 100000; v = v * 3 + s)
			hist_add(&r->lat[s], v + base);
		r->err[s][2] = s + base;
		r->err[s][ERR_INTERRUPTED] = 1;
		/* more ops than timed, as with --latency-sample */
		r->count[s] = 7 * r->lat[s].count + s;
	}
}

START_TEST(test_result_pack)
{
	struct result a, b, c, m1, m2;
	void *buf = malloc(result_packed_size(3));

	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(result_init(&a, 3), 0);
	ck_assert_int_eq(result_init(&b, 3), 0);
	ck_assert_int_eq(result_init(&c, 3), 0);
	ck_assert_int_eq(result_init(&m1, 3), 0);
	ck_assert_int_eq(result_init(&m2, 3), 0);
	fill(&a, 0);
	fill(&b, 17);
	/* a sum of squares past 64 bits: both of its words travel */
	hist_add(&a.lat[1], UINT64_C(1) << 40);
	ck_assert(a.lat[1].sumsq_hi != 0);
	/* the round trip is exact, field by field */
	result_pack(&a, buf);
	result_unpack(&c, buf);
	ck_assert_uint_eq(c.ops, a.ops);
	ck_assert_uint_eq(c.t_end, a.t_end);
	ck_assert(c.usage.user_s == a.usage.user_s);
	ck_assert(c.usage.run_delay_known);
	for (unsigned int s = 0; s < 3; s++) {
		ck_assert_mem_eq(&c.lat[s], &a.lat[s], sizeof(c.lat[s]));
		ck_assert_mem_eq(c.err[s], a.err[s], sizeof(c.err[s]));
		ck_assert_uint_eq(c.count[s], a.count[s]);
	}
	/* merged after the trip as in one process: the same percentiles */
	result_merge(&m1, &a);
	result_merge(&m1, &b);
	result_pack(&b, buf);
	result_unpack(&c, buf);
	result_merge(&m2, &a);
	result_merge(&m2, &c);
	for (unsigned int s = 0; s < 3; s++) {
		ck_assert_mem_eq(&m1.lat[s], &m2.lat[s], sizeof(m1.lat[s]));
		ck_assert_uint_eq(hist_percentile(&m2.lat[s], 99),
				  hist_percentile(&m1.lat[s], 99));
		ck_assert_uint_eq(m2.count[s], a.count[s] + b.count[s]);
	}
	ck_assert_uint_eq(m2.t_start, 1000);
	ck_assert_uint_eq(m2.t_end, 5017);
	ck_assert_uint_eq(m2.ops, a.ops + b.ops);
	result_release(&a);
	result_release(&b);
	result_release(&c);
	result_release(&m1);
	result_release(&m2);
	free(buf);
}
END_TEST

/*
 * Three clients' usage, every field a value of its own (so a field added
 * into another, or left out, changes a sum), and each "known" flag set
 * by one client alone, a different one each.
 */
static const struct usage usage_in[3] = {
	{ .user_s = 0.125,
	  .sys_s = 0.25,
	  .voluntary = 3,
	  .involuntary = 5,
	  .run_delay_ns = 7000,
	  .run_delay_known = true,
	  .migrations = 11,
	  .iowq_ns = 13000 },
	{ .user_s = 1.5,
	  .sys_s = 3.0,
	  .voluntary = 17,
	  .involuntary = 19,
	  .run_delay_ns = 23000,
	  .migrations = 29,
	  .migrations_known = true,
	  .iowq_ns = 31000 },
	{ .user_s = 8.0,
	  .sys_s = 16.0,
	  .voluntary = 37,
	  .involuntary = 41,
	  .run_delay_ns = 43000,
	  .migrations = 47,
	  .iowq_ns = 53000,
	  .iowq_known = true },
};

/* @got is @want, field by field (the sums are exact: dyadic seconds). */
static void expect_usage(const char *ctx, const struct usage *got,
			 const struct usage *want)
{
	ck_assert_msg(got->user_s == want->user_s, "%s: user_s %g, want %g",
		      ctx, got->user_s, want->user_s);
	ck_assert_msg(got->sys_s == want->sys_s, "%s: sys_s %g, want %g", ctx,
		      got->sys_s, want->sys_s);
	EXPECT_UINT(ctx, got->voluntary, want->voluntary);
	EXPECT_UINT(ctx, got->involuntary, want->involuntary);
	EXPECT_UINT(ctx, got->run_delay_ns, want->run_delay_ns);
	EXPECT_UINT(ctx, got->run_delay_known, want->run_delay_known);
	EXPECT_UINT(ctx, got->migrations, want->migrations);
	EXPECT_UINT(ctx, got->migrations_known, want->migrations_known);
	EXPECT_UINT(ctx, got->iowq_ns, want->iowq_ns);
	EXPECT_UINT(ctx, got->iowq_known, want->iowq_known);
}

/*
 * The merge adds every usage field, as it adds the ops: the CPU time,
 * the switches, the run-queue wait, the migrations, io-wq's CPU time; a
 * figure is known once one client's was.
 */
START_TEST(test_result_merge_usage)
{
	static const struct usage sum[3] = {
		{ .user_s = 0.125,
		  .sys_s = 0.25,
		  .voluntary = 3,
		  .involuntary = 5,
		  .run_delay_ns = 7000,
		  .run_delay_known = true,
		  .migrations = 11,
		  .iowq_ns = 13000 },
		{ .user_s = 1.625,
		  .sys_s = 3.25,
		  .voluntary = 20,
		  .involuntary = 24,
		  .run_delay_ns = 30000,
		  .run_delay_known = true,
		  .migrations = 40,
		  .migrations_known = true,
		  .iowq_ns = 44000 },
		{ .user_s = 9.625,
		  .sys_s = 19.25,
		  .voluntary = 57,
		  .involuntary = 65,
		  .run_delay_ns = 73000,
		  .run_delay_known = true,
		  .migrations = 87,
		  .migrations_known = true,
		  .iowq_ns = 97000,
		  .iowq_known = true },
	};
	struct result in, total;
	char ctx[32];

	ck_assert_int_eq(result_init(&in, 2), 0);
	ck_assert_int_eq(result_init(&total, 2), 0);
	for (unsigned int k = 0; k < 3; k++) {
		in.usage = usage_in[k];
		result_merge(&total, &in);
		snprintf(ctx, sizeof(ctx), "after client %u", k);
		expect_usage(ctx, &total.usage, &sum[k]);
	}
	/* and the source is left as it was */
	expect_usage("the source", &in.usage, &usage_in[2]);
	result_release(&in);
	result_release(&total);
}
END_TEST

/*
 * A rank's usage reaches rank 0 whole: every field through the bytes,
 * with the known flags set and unset (rank 0 merges what it unpacks, so
 * a field the bytes lose is lost from the run's figures).
 */
START_TEST(test_result_pack_usage)
{
	struct result a, c;
	void *buf = malloc(result_packed_size(2));
	char ctx[32];

	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(result_init(&a, 2), 0);
	ck_assert_int_eq(result_init(&c, 2), 0);
	for (unsigned int k = 0; k < 3; k++) {
		a.usage = usage_in[k];
		memset(buf, 0xa5, result_packed_size(2));
		result_pack(&a, buf);
		result_reset(&c);
		result_unpack(&c, buf);
		snprintf(ctx, sizeof(ctx), "usage %u unpacked", k);
		expect_usage(ctx, &c.usage, &usage_in[k]);
	}
	result_release(&a);
	result_release(&c);
	free(buf);
}
END_TEST

static Suite *layout_suite(void)
{
	Suite *suite = suite_create("layout");
	TCase *tc = tcase_create("layout");

	tcase_add_test(tc, test_layout_hosts);
	tcase_add_test(tc, test_layout_round_robin);
	tcase_add_test(tc, test_layout_host_by_host);
	tcase_add_test(tc, test_layout_place);
	tcase_add_test(tc, test_layout_single);
	tcase_add_test(tc, test_result_pack);
	tcase_add_test(tc, test_result_merge_usage);
	tcase_add_test(tc, test_result_pack_usage);
	suite_add_tcase(suite, tc);
	return suite;
}

int main(void)
{
	return unit_main(layout_suite());
}
