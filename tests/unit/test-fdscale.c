/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for fdscale.c: fdscale_sequence() against sequences worked
 * out by hand from its rule (next = max(prev + 1, ceil(prev * step)),
 * capped at max); fdscale_run() in process with a small max, one thread
 * and three sharing the fd table or each with its own, hot and cold, every
 * position: the steps are the sequence, best <= mean <= worst, the sample
 * counts add up and every fd it opened is closed (the entries of
 * /proc/self/fd before and after); fdscale_limit() under a lowered
 * RLIMIT_NOFILE, in a child of its own. Output is TAP on stdout.
 */
#include <config.h>
#include "fdscale/fdscale.h"

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdatomic.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/clock.h"
#include "base/compiler.h"
#include "sys/cpucache.h"
#include "unit.h"

/* fdscale.c's FD_MARGIN: fds kept aside for the process itself. */
#define MARGIN 64

/* --- fdscale_sequence ------------------------------------------------ */

struct seq_case {
	const char *what;
	uint64_t max;
	double step;
	unsigned int n;
	uint64_t want[16];
};

static const struct seq_case seq_cases[] = {
	/* 1 is the first step and the last */
	{ "max 1", 1, 1.25, 1, { 1 } },
	/*
	 * ceil(1.25) = 2, ceil(2.5) = 3, ceil(3.75) = 4, ceil(5) = 5,
	 * ceil(6.25) = 7, ceil(8.75) = 9, ceil(11.25) = 12, capped: 10
	 */
	{ "max 10, 1.25", 10, 1.25, 8, { 1, 2, 3, 4, 5, 7, 9, 10 } },
	/* doubling from 1; 512 * 2 = 1024, capped: 1000 */
	{ "max 1000, 2",
	  1000,
	  2,
	  11,
	  { 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1000 } },
	/* the cap lands exactly on a step: no repeat of it */
	{ "max 16, 2", 16, 2, 5, { 1, 2, 4, 8, 16 } },
	/* a step at least +1 even where ceil(prev * step) is prev */
	{ "max 2, 100", 2, 100, 2, { 1, 2 } },
	/*
	 * 1.01: + 1 each step while ceil(prev * 1.01) <= prev + 1, i.e. up
	 * to 100: ceil(100 * 1.01) = 101, ceil(101 * 1.01) = ceil(102.01)
	 * = 103. want[] is left empty: 1..100 by one, then 101, 103.
	 */
	{ "max 103, 1.01", 103, 1.01, 102, { 0 } },
};

START_TEST(test_sequence)
{
	const struct seq_case *c = &seq_cases[_i];
	uint64_t got[128];
	unsigned int n;

	n = fdscale_sequence(c->max, c->step, NULL);
	ck_assert_msg(n == c->n, "%s: count %u, want %u", c->what, n, c->n);
	memset(got, 0xff, sizeof(got));
	ck_assert_uint_eq(fdscale_sequence(c->max, c->step, got), n);
	if (c->want[0]) {
		for (unsigned int i = 0; i < n; i++)
			ck_assert_msg(got[i] == c->want[i],
				      "%s: step %u is %" PRIu64
				      ", want %" PRIu64,
				      c->what, i, got[i], c->want[i]);
	} else {
		/* 1..100 by one, then 101, 103 */
		for (unsigned int i = 0; i < 100; i++)
			ck_assert_uint_eq(got[i], i + 1);
		ck_assert_uint_eq(got[100], 101);
		ck_assert_uint_eq(got[101], 103);
	}
	ck_assert_msg(got[n] == UINT64_MAX, "%s: wrote past the count",
		      c->what);
}
END_TEST

/* Every sequence: starts at 1, strictly ascending, ends at max. */
START_TEST(test_sequence_shape)
{
	static const double steps[] = { 1.01, 1.1, 1.25, 1.5, 2, 3.7, 100 };
	static const uint64_t maxes[] = { 1, 2, 3, 7, 100, 1000, 99999 };

	for (unsigned int s = 0; s < ARRAY_SIZE(steps); s++) {
		for (unsigned int m = 0; m < ARRAY_SIZE(maxes); m++) {
			unsigned int n =
				fdscale_sequence(maxes[m], steps[s], NULL);
			uint64_t *v = xcalloc(n, sizeof(*v));

			fdscale_sequence(maxes[m], steps[s], v);
			ck_assert_uint_eq(v[0], 1);
			ck_assert_uint_eq(v[n - 1], maxes[m]);
			for (unsigned int i = 1; i < n; i++)
				ck_assert_msg(
					v[i] > v[i - 1] && v[i] <= maxes[m],
					"max %" PRIu64 " step %g: %" PRIu64
					" after %" PRIu64,
					maxes[m], steps[s], v[i], v[i - 1]);
			free(v);
		}
	}
}
END_TEST

/*
 * A step that is not a binary fraction: 170 * 1.1 is 187 exactly, but
 * 170.0 * 1.1 in doubles is 187.00000000000003, whose ceil is 188. The
 * rule, with the factor as the user wrote it, gives 187.
 */
START_TEST(test_sequence_decimal_step)
{
	static const uint64_t want[] = {
		1,  2,	3,   4,	  5,   6,   7,	 8,   9,   10,	11,  13, 15, 17,
		19, 21, 24,  27,  30,  33,  37,	 41,  46,  51,	57,  63, 70, 77,
		85, 94, 104, 115, 127, 140, 154, 170, 187, 206, 227, 250
	};
	uint64_t got[64];
	unsigned int n = fdscale_sequence(250, 1.1, got);

	ck_assert_uint_eq(n, ARRAY_SIZE(want));
	for (unsigned int i = 0; i < n; i++)
		ck_assert_msg(got[i] == want[i],
			      "step %u is %" PRIu64 ", want %" PRIu64, i,
			      got[i], want[i]);
}
END_TEST

/* --- fdscale_run ------------------------------------------------------ */

/* The entries of /proc/self/fd, less the directory's own fd. */
static unsigned int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	unsigned int n = 0;
	struct dirent *e;

	ck_assert_msg(d != NULL, "/proc/self/fd: %s", strerror(errno));
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n - 1;
}

static unsigned int popcount(unsigned int bits)
{
	return (unsigned int)__builtin_popcount(bits);
}

/* The bounds of the default cold buffer: 64 KiB to 64 MiB. */
static uint64_t clamp(uint64_t bytes)
{
	return bytes < (64 << 10) ? 64 << 10 :
	       bytes > (64 << 20) ? 64 << 20 :
				    bytes;
}

static void config_init(struct fdscale_config *cfg, uint64_t max,
			unsigned int loops, unsigned int positions,
			unsigned int threads, bool private_table)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->max = max;
	cfg->step = 1.25;
	cfg->loops = loops;
	cfg->positions = positions;
	cfg->threads = threads;
	cfg->private_table = private_table;
	cfg->file = "/dev/null";
	cfg->seed = 1;
}

/*
 * Run @cfg and check the result: no cap, the steps are the sequence,
 * best <= mean <= worst, and the samples: loops x positions x the threads
 * that had an fd to free (a shared table of N fds keeps all but N of the
 * threads idle; a private table holds N fds per thread); the fds open
 * before and after are the same number.
 */
static void run_and_check(const struct fdscale_config *cfg)
{
	unsigned int before = count_fds(), n;
	uint64_t seq[128];
	struct fdscale fs;

	n = fdscale_sequence(cfg->max, cfg->step, seq);
	ck_assert_int_eq(fdscale_run(&fs, cfg), 0);
	ck_assert_uint_eq(count_fds(), before);
	ck_assert_ptr_null(fs.capped);
	ck_assert_uint_eq(fs.max, cfg->max);
	ck_assert_uint_eq(fs.nsteps, n);
	for (unsigned int i = 0; i < n; i++) {
		const struct fdscale_step *s = &fs.steps[i];
		uint64_t workers = cfg->threads;

		if (!cfg->private_table && seq[i] < workers)
			workers = seq[i];
		ck_assert_uint_eq(s->num_fds, seq[i]);
		ck_assert_msg(s->best_ns > 0, "step %u: best 0 ns", i);
		ck_assert_msg((double)s->best_ns <= s->mean_ns &&
				      s->mean_ns <= (double)s->worst_ns,
			      "step %u: best %" PRIu64
			      " mean %.1f worst %" PRIu64,
			      i, s->best_ns, s->mean_ns, s->worst_ns);
		ck_assert_msg(s->samples == (uint64_t)cfg->loops *
						    popcount(cfg->positions) *
						    workers,
			      "step %u (%" PRIu64 " fds): %" PRIu64
			      " samples, want %u x %u x %" PRIu64,
			      i, seq[i], s->samples, cfg->loops,
			      popcount(cfg->positions), workers);
	}
	if (cfg->cold && cfg->evict == FDEVICT_SIZE)
		ck_assert_uint_eq(fs.evict_bytes, cfg->evict_bytes);
	if (cfg->cold && cfg->evict == FDEVICT_L2)
		ck_assert_uint_eq(fs.evict_bytes,
				  fs.l2_bytes ? clamp(2 * fs.l2_bytes) :
						2 << 20);
	/* the evictions are timed, apart from the opens */
	ck_assert_msg(cfg->cold ? fs.evict_ns > 0 : fs.evict_ns == 0,
		      "evict_ns %.1f", fs.evict_ns);
	fdscale_release(&fs);
}

START_TEST(test_run_one_thread)
{
	struct fdscale_config cfg;

	config_init(&cfg, 50, 3, FDPOS_LOW | FDPOS_MIDDLE, 1, false);
	run_and_check(&cfg);
}
END_TEST

START_TEST(test_run_every_position)
{
	struct fdscale_config cfg;

	config_init(&cfg, 40, 4,
		    FDPOS_LOW | FDPOS_MIDDLE | FDPOS_HIGH | FDPOS_RANDOM, 1,
		    false);
	cfg.seed = 42;
	run_and_check(&cfg);
}
END_TEST

START_TEST(test_run_max_one)
{
	struct fdscale_config cfg;

	config_init(&cfg, 1, 2, FDPOS_HIGH | FDPOS_RANDOM, 1, false);
	run_and_check(&cfg);
}
END_TEST

START_TEST(test_run_cold)
{
	struct fdscale_config cfg;

	config_init(&cfg, 20, 2, FDPOS_LOW | FDPOS_MIDDLE, 1, false);
	cfg.cold = true;
	cfg.evict = FDEVICT_SIZE;
	cfg.evict_bytes = 64 << 10;
	run_and_check(&cfg);
	/* the default buffer: 2 x L2 (or 2 MiB) */
	config_init(&cfg, 3, 1, FDPOS_LOW, 1, false);
	cfg.cold = true;
	run_and_check(&cfg);
}
END_TEST

START_TEST(test_run_threads_shared)
{
	struct fdscale_config cfg;

	config_init(&cfg, 60, 5, FDPOS_LOW | FDPOS_MIDDLE, 3, false);
	run_and_check(&cfg);
}
END_TEST

START_TEST(test_run_threads_private)
{
	struct fdscale_config cfg;

	config_init(&cfg, 60, 5, FDPOS_LOW | FDPOS_MIDDLE, 3, true);
	run_and_check(&cfg);
}
END_TEST

START_TEST(test_run_threads_private_cold)
{
	struct fdscale_config cfg;

	config_init(&cfg, 20, 2, FDPOS_HIGH | FDPOS_RANDOM, 3, true);
	cfg.cold = true;
	cfg.evict = FDEVICT_SIZE;
	cfg.evict_bytes = 4096;
	run_and_check(&cfg);
}
END_TEST

/*
 * Three threads on one table, every position, many loops: whatever the
 * threads free and refill at the same time, every fd is still closed at
 * the end. (Threads that free the same slot at once, which high and
 * random allow, would lose an fd here.)
 */
START_TEST(test_run_threads_shared_every_position)
{
	struct fdscale_config cfg;

	for (unsigned int round = 0; round < 20; round++) {
		config_init(&cfg, 12, 50,
			    FDPOS_LOW | FDPOS_MIDDLE | FDPOS_HIGH |
				    FDPOS_RANDOM,
			    3, false);
		cfg.seed = round + 1;
		run_and_check(&cfg);
	}
}
END_TEST

/* A file that cannot be opened: an error, and no fd left behind. */
START_TEST(test_run_bad_file)
{
	unsigned int before = count_fds();
	struct fdscale_config cfg;
	struct fdscale fs;

	config_init(&cfg, 10, 1, FDPOS_LOW, 1, false);
	cfg.file = "/nonexistent/vfsbench-fdscale";
	ck_assert_int_ne(fdscale_run(&fs, &cfg), 0);
	fdscale_release(&fs);
	ck_assert_uint_eq(count_fds(), before);
}
END_TEST

/* --- the cold buffer: cpucache_read() and fdscale_evict_size() ------- */

/* A copy of sysfs's cache directory in a scratch directory. */
struct fake_cache {
	const char *level, *type, *size;
};

static void write_attr(const char *dir, unsigned int i, const char *name,
		       const char *value)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/index%u/%s", dir, i, name);
	f = fopen(path, "w");
	ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
	fprintf(f, "%s\n", value);
	fclose(f);
}

/* The directory of @n caches; *@dir is made, remove it with rm_fake(). */
static void make_fake(char *dir, const struct fake_cache *c, unsigned int n)
{
	char path[512];

	strcpy(dir, "/tmp/vfsbench-cpucache.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	for (unsigned int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/index%u", dir, i);
		ck_assert_int_eq(mkdir(path, 0700), 0);
		write_attr(dir, i, "level", c[i].level);
		write_attr(dir, i, "type", c[i].type);
		write_attr(dir, i, "size", c[i].size);
	}
}

static void rm_fake(const char *dir, unsigned int n)
{
	static const char *const names[] = { "level", "type", "size" };
	char path[512];

	for (unsigned int i = 0; i < n; i++) {
		for (unsigned int a = 0; a < ARRAY_SIZE(names); a++) {
			snprintf(path, sizeof(path), "%s/index%u/%s", dir, i,
				 names[a]);
			unlink(path);
		}
		snprintf(path, sizeof(path), "%s/index%u", dir, i);
		rmdir(path);
	}
	rmdir(dir);
}

/* cpucache_read() of a fake directory of @n caches. */
static int read_fake(struct cpucache *c, const struct fake_cache *fc,
		     unsigned int n)
{
	char dir[64];
	int ret;

	make_fake(dir, fc, n);
	ret = cpucache_read(c, dir);
	rm_fake(dir, n);
	return ret;
}

/*
 * The VM of the report: 32K L1d and L1i, 1 MiB L2, a 260 MiB L3. The
 * instruction cache is not counted; the default buffer is 2 MiB, not the
 * 1 GiB (4 x L3) it was; --evict llc is 2 x L3.
 */
START_TEST(test_cpucache_vm)
{
	static const struct fake_cache vm[] = {
		{ "1", "Data", "32K" },
		{ "1", "Instruction", "64K" },
		{ "2", "Unified", "1024K" },
		{ "3", "Unified", "266240K" },
	};
	struct cpucache c;

	ck_assert_int_eq(read_fake(&c, vm, ARRAY_SIZE(vm)), 0);
	EXPECT_UINT("vm", c.l1d, 32 << 10);
	EXPECT_UINT("vm", c.l2, 1 << 20);
	EXPECT_UINT("vm", c.llc, 260ull << 20);
	EXPECT_UINT("vm", c.llc_level, 3);
	EXPECT_UINT("vm", fdscale_evict_size(&c, FDEVICT_L2), 2 << 20);
	EXPECT_UINT("vm", fdscale_evict_size(&c, FDEVICT_LLC), 520ull << 20);
}
END_TEST

/* Sizes in bytes, K and M; an L2 as the last level; no cache at all. */
START_TEST(test_cpucache_layouts)
{
	static const struct fake_cache l2_last[] = {
		{ "1", "Data", "49152" },
		{ "2", "Unified", "4M" },
	};
	struct cpucache c;

	ck_assert_int_eq(read_fake(&c, l2_last, ARRAY_SIZE(l2_last)), 0);
	EXPECT_UINT("l2 last", c.l1d, 49152);
	EXPECT_UINT("l2 last", c.l2, 4 << 20);
	EXPECT_UINT("l2 last", c.llc, 4 << 20);
	EXPECT_UINT("l2 last", c.llc_level, 2);
	EXPECT_UINT("l2 last", fdscale_evict_size(&c, FDEVICT_L2), 8 << 20);

	ck_assert_int_eq(read_fake(&c, NULL, 0), -ENOENT);
	EXPECT_UINT("none", c.l2 + c.llc + c.l1d, 0);
	ck_assert_int_eq(cpucache_read(&c, "/nonexistent/vfsbench"), -ENOENT);
	/* what is assumed: an L2 of 1 MiB, a last level of 32 MiB */
	EXPECT_UINT("none", fdscale_evict_size(&c, FDEVICT_L2), 2 << 20);
	EXPECT_UINT("none", fdscale_evict_size(&c, FDEVICT_LLC), 64 << 20);
}
END_TEST

/*
 * The default buffer follows the L2 alone, within 64 KiB and 64 MiB:
 * whatever the last level, 2 MiB for a 1 MiB L2.
 */
START_TEST(test_evict_size_bounds)
{
	static const uint64_t llcs[] = { 0, 8 << 20, 32 << 20, 260ull << 20,
					 1ull << 30 };
	struct cpucache c = { .l1d = 32 << 10, .l2 = 1 << 20, .llc_level = 3 };

	for (unsigned int i = 0; i < ARRAY_SIZE(llcs); i++) {
		c.llc = llcs[i];
		EXPECT_UINT("llc", fdscale_evict_size(&c, FDEVICT_L2), 2 << 20);
	}
	c.l2 = 16 << 10;
	EXPECT_UINT("small l2", fdscale_evict_size(&c, FDEVICT_L2), 64 << 10);
	c.l2 = 48ull << 20;
	EXPECT_UINT("large l2", fdscale_evict_size(&c, FDEVICT_L2), 64 << 20);
}
END_TEST

/* --- progress lines ---------------------------------------------------- */

/* A clock for the progress lines that moves @fake_step at every read. */
static atomic_uint_fast64_t fake_now;
static uint64_t fake_step;

static uint64_t fake_clock(void)
{
	return atomic_fetch_add(&fake_now, fake_step);
}

/* fdscale_run() of @cfg under the fake clock: what went to stderr. */
static char *run_progress(struct fdscale_config *cfg, uint64_t step)
{
	struct capture cap;
	struct fdscale fs;

	atomic_store(&fake_now, 0);
	fake_step = step;
	cfg->clock = fake_clock;
	capture_start(&cap);
	ck_assert_int_eq(fdscale_run(&fs, cfg), 0);
	fdscale_release(&fs);
	return capture_end(&cap);
}

/*
 * A clock that moves a second at every read: a line at every look, after
 * each timed open, with the step's count; one that moves 0.4 s: a line
 * at the first look at least a second after the last line.
 */
START_TEST(test_progress_lines)
{
	static const char *const want =
		"fdscale: 1 of 1 fds open (step 1 of 5), 1 s\n"
		"fdscale: 2 of 2 fds open (step 2 of 5), 2 s\n"
		"fdscale: 3 of 3 fds open (step 3 of 5), 3 s\n"
		"fdscale: 4 of 4 fds open (step 4 of 5), 4 s\n"
		"fdscale: 5 of 5 fds open (step 5 of 5), 5 s\n";
	static const char *const want_slow =
		"fdscale: 3 of 3 fds open (step 3 of 6), 1 s\n"
		"fdscale: 7 of 7 fds open (step 6 of 6), 2 s\n";
	struct fdscale_config cfg;
	char *err;

	config_init(&cfg, 5, 1, FDPOS_LOW, 1, false);
	err = run_progress(&cfg, NSEC_PER_SEC);
	EXPECT_STR("1 s a read", err, want);
	free(err);
	/* reads at 0.4, 0.8, 1.2 (a line), 1.6, 2.0, 2.4 (a line) s */
	config_init(&cfg, 7, 1, FDPOS_LOW, 1, false);
	err = run_progress(&cfg, 400 * NSEC_PER_MSEC);
	EXPECT_STR("0.4 s a read", err, want_slow);
	free(err);
	cfg.quiet = true;
	err = run_progress(&cfg, NSEC_PER_SEC);
	EXPECT_STR("quiet", err, "");
	free(err);
}
END_TEST

/*
 * While a step's table grows, a look every 1024 dups: the fds open so far
 * of the step's target.
 */
START_TEST(test_progress_growing)
{
	struct fdscale_config cfg;
	char *err;

	config_init(&cfg, 3000, 1, FDPOS_LOW, 1, false);
	cfg.step = 100; /* 1, 100, 3000 */
	err = run_progress(&cfg, NSEC_PER_SEC);
	EXPECT_STR("growing", err,
		   "fdscale: 1 of 1 fds open (step 1 of 3), 1 s\n"
		   "fdscale: 100 of 100 fds open (step 2 of 3), 2 s\n"
		   "fdscale: 1024 of 3000 fds open (step 3 of 3), 3 s\n"
		   "fdscale: 2048 of 3000 fds open (step 3 of 3), 4 s\n"
		   "fdscale: 3000 of 3000 fds open (step 3 of 3), 5 s\n");
	free(err);
}
END_TEST

/* --- fdscale_limit ---------------------------------------------------- */

/*
 * Drop CAP_SYS_RESOURCE from the effective set, so that root cannot raise
 * the hard limit either. Not root: nothing to drop.
 */
static void drop_sys_resource(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return;
	d[CAP_SYS_RESOURCE / 32].effective &= ~(1u << (CAP_SYS_RESOURCE % 32));
	if (syscall(SYS_capset, &h, d))
		fprintf(stderr, "# capset: %s\n", strerror(errno));
}

static uint64_t nr_open(void)
{
	unsigned long long v = 0;
	FILE *f = fopen("/proc/sys/fs/nr_open", "re");

	if (f) {
		if (fscanf(f, "%llu", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v;
}

/*
 * Run @fn in a child of its own (RLIMIT_NOFILE is per process, and a
 * lowered hard limit cannot be raised back), whatever CK_FORK says; the
 * child's failures fail the test.
 */
static void in_child(void (*fn)(void))
{
	pid_t pid;
	int st;

	fflush(NULL);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		fn();
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st) && !WEXITSTATUS(st),
		      "the child failed (status 0x%x)", st);
}

#define child_assert(cond, ...)                                              \
	do {                                                                 \
		if (!(cond)) {                                               \
			fprintf(stderr, "# %s:%d: %s: ", __FILE__, __LINE__, \
				#cond);                                      \
			fprintf(stderr, __VA_ARGS__);                        \
			fprintf(stderr, "\n");                               \
			_exit(1);                                            \
		}                                                            \
	} while (0)

static void set_nofile(rlim_t soft, rlim_t hard)
{
	struct rlimit rl = { soft, hard };

	child_assert(!setrlimit(RLIMIT_NOFILE, &rl), "setrlimit: %s",
		     strerror(errno));
}

/* hard 200, no way up: 1000 wanted, 200 - 64 = 136 to be had. */
static void limit_capped(void)
{
	char *why = (char *)1;
	struct rlimit rl;
	uint64_t got;
	char want[64];

	drop_sys_resource();
	set_nofile(100, 200);
	got = fdscale_limit(1000, &why);
	child_assert(got == 200 - MARGIN, "got %" PRIu64, got);
	child_assert(why != NULL && why != (char *)1, "no message");
	snprintf(want, sizeof(want), "capped at %d fds", 200 - MARGIN);
	child_assert(strstr(why, want), "'%s'", why);
	child_assert(strstr(why, "ulimit -Hn"), "'%s'", why);
	child_assert(strstr(why, "fs.nr_open"), "'%s'", why);
	/* the soft limit went up to the hard one */
	child_assert(!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur == 200,
		     "soft %llu", (unsigned long long)rl.rlim_cur);
	free(why);
}

START_TEST(test_limit_capped)
{
	in_child(limit_capped);
}
END_TEST

/*
 * The advice of the message never lowers fs.nr_open: with fs.nr_open far
 * above what is needed, only the hard limit is in the way.
 */
static void limit_advice(void)
{
	uint64_t nr = nr_open();
	char *why = NULL, *p;

	drop_sys_resource();
	set_nofile(200, 200);
	fdscale_limit(1000, &why);
	child_assert(why != NULL, "no message");
	child_assert(nr >= 1000 + MARGIN, "fs.nr_open %" PRIu64, nr);
	p = strstr(why, "sysctl fs.nr_open=");
	child_assert(!p || strtoull(p + 18, NULL, 10) >= nr,
		     "advice lowers fs.nr_open (%" PRIu64 "): '%s'", nr, why);
	free(why);
}

START_TEST(test_limit_advice)
{
	in_child(limit_advice);
}
END_TEST

/* Only the soft limit is low: raised, and no message. */
static void limit_soft(void)
{
	char *why = (char *)1;
	struct rlimit rl;

	set_nofile(100, 400);
	child_assert(fdscale_limit(300, &why) == 300, "not 300");
	child_assert(why == NULL, "message '%s'", why);
	child_assert(!getrlimit(RLIMIT_NOFILE, &rl) &&
			     rl.rlim_cur >= 300 + MARGIN,
		     "soft %llu", (unsigned long long)rl.rlim_cur);
}

START_TEST(test_limit_soft)
{
	in_child(limit_soft);
}
END_TEST

/* Within the limits: @want itself, no message, the limits untouched. */
static void limit_enough(void)
{
	struct rlimit rl;
	char *why = (char *)1;

	set_nofile(500, 600);
	child_assert(fdscale_limit(100, &why) == 100, "not 100");
	child_assert(why == NULL, "message '%s'", why);
	child_assert(!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur == 500 &&
			     rl.rlim_max == 600,
		     "%llu/%llu", (unsigned long long)rl.rlim_cur,
		     (unsigned long long)rl.rlim_max);
}

START_TEST(test_limit_enough)
{
	in_child(limit_enough);
}
END_TEST

/*
 * More than fs.nr_open, or than any count at all: capped with a message,
 * never @want (want + the margin must not wrap around).
 */
static void limit_huge(void)
{
	static const uint64_t wants[] = { 0, UINT64_MAX - 10, UINT64_MAX };
	uint64_t nr = nr_open();

	for (unsigned int i = 0; i < ARRAY_SIZE(wants); i++) {
		uint64_t want = wants[i] ? wants[i] : 2 * nr + 1000;
		char *why = NULL;
		uint64_t got = fdscale_limit(want, &why);
		struct rlimit rl;

		child_assert(got < want, "want %" PRIu64 ": got %" PRIu64, want,
			     got);
		child_assert(why && strstr(why, "fs.nr_open"),
			     "want %" PRIu64 ": '%s'", want,
			     why ? why : "(null)");
		child_assert(!getrlimit(RLIMIT_NOFILE, &rl) &&
				     got + MARGIN == rl.rlim_cur,
			     "want %" PRIu64 ": got %" PRIu64 ", soft %llu",
			     want, got, (unsigned long long)rl.rlim_cur);
		free(why);
	}
}

START_TEST(test_limit_huge)
{
	in_child(limit_huge);
}
END_TEST

/* A run under a low hard limit: capped steps, every fd closed. */
static void run_capped(void)
{
	unsigned int before = count_fds(), n;
	struct fdscale_config cfg;
	struct fdscale fs;
	uint64_t seq[64];

	drop_sys_resource();
	set_nofile(200, 200);
	config_init(&cfg, 1000, 2, FDPOS_LOW | FDPOS_MIDDLE, 1, false);
	child_assert(!fdscale_run(&fs, &cfg), "fdscale_run failed");
	child_assert(fs.max == 200 - MARGIN, "max %" PRIu64, fs.max);
	child_assert(fs.capped && strstr(fs.capped, "ulimit"), "capped %s",
		     fs.capped ? fs.capped : "(null)");
	n = fdscale_sequence(200 - MARGIN, 1.25, seq);
	child_assert(fs.nsteps == n, "%u steps, want %u", fs.nsteps, n);
	child_assert(fs.steps[n - 1].num_fds == 200 - MARGIN, "last %" PRIu64,
		     fs.steps[n - 1].num_fds);
	fdscale_release(&fs);
	child_assert(count_fds() == before, "%u fds, %u before", count_fds(),
		     before);
}

START_TEST(test_run_capped)
{
	in_child(run_capped);
}
END_TEST

static Suite *fdscale_suite(void)
{
	Suite *s = suite_create("fdscale");
	TCase *tc;

	tc = tcase_create("sequence");
	tcase_add_loop_test(tc, test_sequence, 0, (int)ARRAY_SIZE(seq_cases));
	tcase_add_test(tc, test_sequence_shape);
	suite_add_tcase(s, tc);

	tc = tcase_create("sequence-decimal");
	tcase_add_test(tc, test_sequence_decimal_step);
	suite_add_tcase(s, tc);

	tc = tcase_create("cold");
	tcase_add_test(tc, test_cpucache_vm);
	tcase_add_test(tc, test_cpucache_layouts);
	tcase_add_test(tc, test_evict_size_bounds);
	suite_add_tcase(s, tc);

	tc = tcase_create("progress");
	tcase_add_test(tc, test_progress_lines);
	tcase_add_test(tc, test_progress_growing);
	suite_add_tcase(s, tc);

	tc = tcase_create("run");
	tcase_add_test(tc, test_run_one_thread);
	tcase_add_test(tc, test_run_every_position);
	tcase_add_test(tc, test_run_max_one);
	tcase_add_test(tc, test_run_cold);
	tcase_add_test(tc, test_run_threads_shared);
	/* ThreadSanitizer tracks fds process-wide, so the same fd number in
	 * two private tables shows as a race; tools/test.sh sets
	 * VB_SANITIZER=thread for its TSan build */
	if (!getenv("VB_SANITIZER") ||
	    strcmp(getenv("VB_SANITIZER"), "thread")) {
		tcase_add_test(tc, test_run_threads_private);
		tcase_add_test(tc, test_run_threads_private_cold);
	} else {
		printf("# private fd table tests left out under ThreadSanitizer\n");
	}
	tcase_add_test(tc, test_run_bad_file);
	tcase_add_test(tc, test_run_capped);
	suite_add_tcase(s, tc);

	tc = tcase_create("run-threads-race");
	tcase_add_test(tc, test_run_threads_shared_every_position);
	suite_add_tcase(s, tc);

	tc = tcase_create("limit");
	tcase_add_test(tc, test_limit_capped);
	tcase_add_test(tc, test_limit_advice);
	tcase_add_test(tc, test_limit_soft);
	tcase_add_test(tc, test_limit_enough);
	tcase_add_test(tc, test_limit_huge);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(fdscale_suite());
}
