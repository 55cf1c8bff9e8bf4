/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for perfprofile.c, tally.c and lockstat.c: perf script's
 * text read back into samples, kernel and user shares, leaf symbols, lock
 * chains and folded stacks; perf lock contention's table read back. The
 * input below is perf script -F tid,period,event,ip,sym,dso output as
 * perf 6.1 prints it, cut down by hand; every expected count is worked
 * out from it by hand.
 */
#include <config.h>
#include "stats/perfprofile.h"
#include "stats/lockstat.h"

#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

static const char script[] =
	"30639     250000 cpu-clock: \n"
	"\tffffffff813ea5b5 rwsem_spin_on_owner ([kernel.kallsyms])\n"
	"\tffffffff8226a788 rwsem_down_write_slowpath ([kernel.kallsyms])\n"
	"\tffffffff8226abb6 down_write ([kernel.kallsyms])\n"
	"\tffffffff816f2fc0 do_unlinkat ([kernel.kallsyms])\n"
	"\tffffffff816f338b __x64_sys_unlink ([kernel.kallsyms])\n"
	"\tffffffff8225a101 do_syscall_64 ([kernel.kallsyms])\n"
	"\t           f9b17 __GI___unlink (/usr/lib/x86_64-linux-gnu/libc.so.6)\n"
	"\n"
	"30640     250000 cpu-clock: \n"
	"\tffffffff813ea5b5 rwsem_spin_on_owner ([kernel.kallsyms])\n"
	"\tffffffff8226a788 rwsem_down_write_slowpath ([kernel.kallsyms])\n"
	"\tffffffff8226abb6 down_write ([kernel.kallsyms])\n"
	"\tffffffff816f2fc0 do_unlinkat ([kernel.kallsyms])\n"
	"\tffffffff816f338b __x64_sys_unlink ([kernel.kallsyms])\n"
	"\tffffffff8225a101 do_syscall_64 ([kernel.kallsyms])\n"
	"\t           f9b17 __GI___unlink (/usr/lib/x86_64-linux-gnu/libc.so.6)\n"
	"\n"
	"30640     250000 cpu-clock: \n"
	"\tffffffff81234567 finish_task_switch ([kernel.kallsyms])\n"
	"\tffffffff81234568 __schedule ([kernel.kallsyms])\n"
	"\tffffffff81234569 schedule ([kernel.kallsyms])\n"
	"\tffffffff8226a788 rwsem_down_write_slowpath ([kernel.kallsyms])\n"
	"\tffffffff8226abb6 down_write ([kernel.kallsyms])\n"
	"\tffffffff816f1000 filename_create ([kernel.kallsyms])\n"
	"\tffffffff816f1001 do_mkdirat ([kernel.kallsyms])\n"
	"\n"
	"30639     250000 cpu-clock: \n"
	"\tffffffff8226e6a7 _raw_spin_lock ([kernel.kallsyms])\n"
	"\tffffffff81705f7f new_inode ([kernel.kallsyms])\n"
	"\tffffffff815cb20b shmem_mknod ([kernel.kallsyms])\n"
	"\tffffffff816f1ecb path_openat ([kernel.kallsyms])\n"
	"\tffffffff816f2296 do_filp_open ([kernel.kallsyms])\n"
	"\n"
	"30639     250000 cpu-clock: \n"
	"\t           f8a28 __close (/usr/lib/x86_64-linux-gnu/libc.so.6)\n"
	"\n"
	"30639     250000 cpu-clock: \n"
	"\t           1a2b3 [unknown] (/usr/bin/vfsbench)\n"
	"\t               0 [unknown] ([unknown])\n"
	"\n"
	" 9084     250000 cpu-clock: \n"
	"\tffffffff822417b8 mas_alloc_cyclic ([kernel.kallsyms])\n"
	"\tffffffff816f1ecb path_openat ([kernel.kallsyms])\n";

static FILE *input(const char *s)
{
	FILE *f = fmemopen((void *)s, strlen(s), "r");

	ck_assert_ptr_nonnull(f);
	return f;
}

START_TEST(test_parse)
{
	struct perf_profile pp = { 0 };
	FILE *in = input(script);
	char lock[128], entry[128];

	ck_assert_int_eq(perf_profile_parse(&pp, in, "fixture"), 0);
	fclose(in);
	ck_assert_str_eq(pp.event, "cpu-clock");
	ck_assert(!pp.mixed);
	EXPECT_UINT("samples", pp.samples, 7);
	EXPECT_UINT("kernel", pp.kernel, 5);
	EXPECT_UINT("user", pp.user, 2);
	EXPECT_UINT("period", pp.period, 7 * 250000);
	EXPECT_UINT("self", tally_get(&pp.self, "rwsem_spin_on_owner"), 2);
	EXPECT_UINT("self", tally_get(&pp.self, "__close"), 1);
	/* a user frame without a symbol: its object's name */
	EXPECT_UINT("self", tally_get(&pp.self, "[vfsbench]"), 1);
	EXPECT_UINT("chains", pp.locks.len, 3);
	EXPECT_UINT(
		"chain",
		tally_get(
			&pp.locks,
			"rwsem_spin_on_owner <- rwsem_down_write_slowpath <- down_write <- do_unlinkat"),
		2);
	/* a schedule() under the lock starts the chain */
	EXPECT_UINT(
		"chain",
		tally_get(
			&pp.locks,
			"schedule <- rwsem_down_write_slowpath <- down_write <- filename_create"),
		0);
	EXPECT_UINT(
		"chain",
		tally_get(
			&pp.locks,
			"__schedule <- schedule <- rwsem_down_write_slowpath <- down_write <- filename_create"),
		1);
	EXPECT_UINT(
		"chain",
		tally_get(
			&pp.locks,
			"_raw_spin_lock <- new_inode <- shmem_mknod <- path_openat"),
		1);
	perf_profile_chain_ends(
		"__schedule <- schedule <- rwsem_down_write_slowpath <- down_write <- filename_create",
		lock, entry, sizeof(lock));
	ck_assert_str_eq(lock, "down_write");
	ck_assert_str_eq(entry, "filename_create");
	perf_profile_chain_ends(
		"_raw_spin_lock <- new_inode <- shmem_mknod <- path_openat",
		lock, entry, sizeof(lock));
	ck_assert_str_eq(lock, "_raw_spin_lock");
	ck_assert_str_eq(entry, "path_openat");
	/* the last sample has no blank line after it: counted too */
	EXPECT_UINT("self", tally_get(&pp.self, "mas_alloc_cyclic"), 1);
	EXPECT_UINT(
		"folded",
		tally_get(
			&pp.folded,
			"__GI___unlink;do_syscall_64;__x64_sys_unlink;do_unlinkat;down_write;rwsem_down_write_slowpath;rwsem_spin_on_owner"),
		2);
	EXPECT_UINT("folded", tally_get(&pp.folded, "[unknown];[vfsbench]"), 1);
	perf_profile_release(&pp);
}
END_TEST

START_TEST(test_folded)
{
	struct perf_profile pp = { 0 };
	FILE *in = input(script), *out;
	char *buf = NULL, *line;
	size_t len = 0;
	unsigned long long sum = 0;

	ck_assert_int_eq(perf_profile_parse(&pp, in, "fixture"), 0);
	fclose(in);
	out = open_memstream(&buf, &len);
	ck_assert_int_eq(perf_profile_write_folded(&pp, out), 0);
	fclose(out);
	/* every line "frames count", the counts summing to the samples */
	for (line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		char *sp = strrchr(line, ' ');

		ck_assert_ptr_nonnull(sp);
		ck_assert(sp > line);
		sum += strtoull(sp + 1, NULL, 10);
	}
	EXPECT_UINT("folded sum", sum, pp.samples);
	free(buf);
	perf_profile_release(&pp);
}
END_TEST

START_TEST(test_errors)
{
	struct perf_profile pp = { 0 };
	FILE *in = input("30639 250000 cpu-clock:\n\tnot-an-address x\n");
	struct capture c;
	char *err;

	capture_start(&c);
	ck_assert_int_eq(perf_profile_parse(&pp, in, "bad"), -EINVAL);
	err = capture_end(&c);
	fclose(in);
	ck_assert_str_eq(
		err,
		"error: bad:2: not a line of perf script -F tid,period,event,ip,sym,dso: '\\x09not-an-address x'\n");
	free(err);
	perf_profile_release(&pp);
	/* two events in one file: said, not mixed up silently */
	in = input(
		"1 10 cycles:\n\tffffffff81000000 a ([kernel.kallsyms])\n\n"
		"1 10 cpu-clock:\n\tffffffff81000000 a ([kernel.kallsyms])\n");
	ck_assert_int_eq(perf_profile_parse(&pp, in, "two"), 0);
	fclose(in);
	ck_assert(pp.mixed);
	ck_assert_str_eq(pp.event, "cycles");
	perf_profile_release(&pp);
}
END_TEST

START_TEST(test_tally)
{
	struct tally t = { 0 };
	const struct tally_entry **v;
	char key[16];

	/* enough keys to grow the table several times */
	for (unsigned int i = 0; i < 1000; i++) {
		snprintf(key, sizeof(key), "k%u", i % 300);
		tally_add(&t, key, 1);
	}
	EXPECT_UINT("len", t.len, 300);
	EXPECT_UINT("k0", tally_get(&t, "k0"), 4);
	EXPECT_UINT("k299", tally_get(&t, "k299"), 3);
	EXPECT_UINT("none", tally_get(&t, "nope"), 0);
	v = tally_sorted(&t);
	/* 100 keys seen 4 times, sorted by key among them */
	ck_assert_str_eq(v[0]->key, "k0");
	ck_assert_str_eq(v[1]->key, "k1");
	EXPECT_UINT("last", v[299]->n, 3);
	free(v);
	tally_release(&t);
}
END_TEST

/*
 * perf lock contention's output as perf 6.1 printed it on this machine
 * (a perf lock record of two shells creating and unlinking files in one
 * directory), with a made-up row in ns and one in s, and no newline at
 * the end, as perf leaves it.
 */
static const char contention[] =
	" contended   total wait     max wait     avg wait         type   caller\n"
	"\n"
	"         2     20.19 ms     19.06 ms     10.10 ms      rwsem:W   do_mmap+0x494\n"
	"         1     15.92 ms     15.92 ms     15.92 ms      rwsem:W   __x64_sys_unlinkat+0x5d\n"
	"        41      1.06 ms    102.41 us     25.96 us        mutex   perf_try_init_event+0x3a\n"
	"         3       850 ns       400 ns       283 ns     spinlock   d_alloc_parallel+0x1a\n"
	"         7       1.50 s       1.20 s    214.29 ms     rwlock:R   kernel_wait4+0xe3";

START_TEST(test_lockstat)
{
	struct lock_stat ls;

	ck_assert_int_eq(lock_stat_parse(&ls, contention, NULL), 0);
	ck_assert_ptr_null(ls.absent);
	EXPECT_UINT("rows", ls.n, 5);
	EXPECT_UINT("contended", ls.row[0].contended, 2);
	ck_assert_double_eq_tol(ls.row[0].wait_total, 20190000, 1e-3);
	ck_assert_double_eq_tol(ls.row[0].wait_max, 19060000, 1e-3);
	ck_assert_double_eq_tol(ls.row[0].wait_avg, 10100000, 1e-3);
	ck_assert_str_eq(ls.row[0].type, "rwsem:W");
	ck_assert_str_eq(ls.row[0].caller, "do_mmap+0x494");
	ck_assert_str_eq(ls.row[1].caller, "__x64_sys_unlinkat+0x5d");
	EXPECT_UINT("mutex", ls.row[2].contended, 41);
	ck_assert_double_eq_tol(ls.row[2].wait_max, 102410, 1e-6);
	ck_assert_double_eq_tol(ls.row[3].wait_total, 850, 1e-9);
	ck_assert_double_eq_tol(ls.row[3].wait_avg, 283, 1e-9);
	ck_assert_str_eq(ls.row[3].type, "spinlock");
	ck_assert_double_eq_tol(ls.row[4].wait_total, 1.5e9, 1e-3);
	ck_assert_str_eq(ls.row[4].caller, "kernel_wait4+0xe3");
	lock_stat_release(&ls);

	/* a table with no row: read back, nothing contended */
	ck_assert_int_eq(
		lock_stat_parse(
			&ls,
			" contended   total wait     max wait     avg wait         type   caller\n\n",
			NULL),
		0);
	ck_assert_ptr_null(ls.absent);
	EXPECT_UINT("none", ls.n, 0);
	lock_stat_release(&ls);

	/* perf failed: its messages and how it ended are the reason */
	ck_assert_int_eq(
		lock_stat_parse(
			&ls,
			"No trace sample to read. Did you call 'perf lock record'?\n",
			"exited with status 234"),
		0);
	ck_assert_str_eq(
		ls.absent,
		"perf lock contention exited with status 234: No trace sample to read. Did you call 'perf lock record'?");
	EXPECT_UINT("failed", ls.n, 0);
	lock_stat_release(&ls);

	/* a table, then a failure: the rows are not trusted */
	ck_assert_int_eq(lock_stat_parse(&ls, contention,
					 "was killed by signal 9 (Killed)"),
			 0);
	EXPECT_UINT("killed", ls.n, 0);
	ck_assert_ptr_nonnull(strstr(
		ls.absent,
		"perf lock contention was killed by signal 9 (Killed): "));
	lock_stat_release(&ls);

	/* exit 0 without a table, two lines of message: joined */
	ck_assert_int_eq(
		lock_stat_parse(&ls, "  first line  \n\nsecond\n", NULL), 0);
	ck_assert_str_eq(
		ls.absent,
		"perf lock contention printed no table: first line; second");
	lock_stat_release(&ls);
	ck_assert_int_eq(lock_stat_parse(&ls, "", "exited with status 1"), 0);
	ck_assert_str_eq(
		ls.absent,
		"perf lock contention exited with status 1: it printed nothing");
	lock_stat_release(&ls);
}
END_TEST

static Suite *perfprofile_suite(void)
{
	Suite *s = suite_create("perfprofile");
	TCase *tc = tcase_create("perfprofile");

	tcase_add_test(tc, test_parse);
	tcase_add_test(tc, test_folded);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_tally);
	tcase_add_test(tc, test_lockstat);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(perfprofile_suite());
}
