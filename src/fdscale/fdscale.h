/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_FDSCALE_FDSCALE_H
#define VB_FDSCALE_FDSCALE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cpucache;

/*
 * vfsbench fdscale: the cost of open() as the number of open fds grows,
 * after Ingo Molnar's fd-scale-bench (2007). At each step the table holds
 * N fds; one fd at a chosen position of the open range is closed and the
 * open() that refills it (open(2) returns the lowest free fd, so it gets
 * the same slot back) is timed, L times per position. Cache-cold mode
 * evicts the CPU's own caches (L1 and L2) before every timed open by
 * writing a buffer of twice the L2, so that its cost does not grow with
 * the last-level cache, which it leaves as it is (--evict for more).
 */

/* Which fd of the open range is freed before a timed open. */
enum fdscale_pos {
	FDPOS_LOW = (1 << 0), /* the lowest of the benchmark's fds */
	FDPOS_MIDDLE = (1 << 1),
	FDPOS_HIGH = (1 << 2), /* the highest */
	FDPOS_RANDOM = (1 << 3),
};

/* What cold mode evicts, by the size of the buffer it writes. */
enum fdscale_evict {
	FDEVICT_L2, /* 2 x the L2 cache: L1 and L2 (the default) */
	FDEVICT_LLC, /* 2 x the last-level cache: every level */
	FDEVICT_SIZE, /* evict_bytes, as given */
};

/* What the timed opens go through (--engine). */
enum fdscale_engine {
	FDENGINE_POSIX, /* open(2) and close(2) (the default) */
	FDENGINE_URING, /* a ring per thread (fdscale/fdring.h) */
};

struct fdscale_config {
	enum fdscale_engine engine;
	bool uring_fixed; /* --uring-fixed: the ring's file table */
	uint64_t max; /* largest number of open fds (default 1,000,000) */
	double step; /* growth factor between steps (default 1.25) */
	unsigned int loops; /* timed opens per position per step (10) */
	unsigned int positions; /* enum fdscale_pos bits (low|middle) */
	bool cold;
	enum fdscale_evict evict; /* with cold */
	uint64_t evict_bytes; /* FDEVICT_SIZE */
	unsigned int threads; /* threads freeing/refilling at once (1) */
	bool private_table; /* unshare(CLONE_FILES) per thread */
	const char *file; /* what open() opens ("/dev/null") */
	char *json;
	char *csv;
	uint64_t seed; /* FDPOS_RANDOM */
	bool quiet; /* no progress lines on stderr */
	/* the progress lines' clock, for tests; NULL: CLOCK_MONOTONIC */
	uint64_t (*clock)(void);
	/* the run stops once this is non-zero (signals.count); may be NULL */
	const volatile sig_atomic_t *stop;
	int argc; /* the command line, recorded in results */
	const char **argv;
};

/* One step: the open() costs measured with @num_fds open. */
struct fdscale_step {
	uint64_t num_fds;
	uint64_t best_ns;
	uint64_t worst_ns;
	double mean_ns;
	uint64_t samples;
	/* the largest fd table of the measuring threads (FDSize), in fds */
	uint64_t fd_table_size;
};

struct fdscale {
	const struct fdscale_config *cfg;
	struct fdscale_step *steps;
	unsigned int nsteps;
	uint64_t max; /* the max actually reached (limits may cap it) */
	char *capped; /* why max was lowered, or NULL */
	uint64_t evict_bytes; /* the cold-mode buffer used */
	double evict_ns; /* cold mode: mean time to write it, per timed open */
	uint64_t l2_bytes; /* the L2 cache found, 0 if unknown */
	uint64_t llc_bytes; /* the last-level cache found, 0 if unknown */
	bool stopped; /* by *cfg->stop: the steps are those measured before */
};

/*
 * Sizes assumed where sysfs lists no cache, and the bounds of the L2
 * buffer whatever it says: the default cold mode's cost does not grow
 * with the last-level cache, nor past this with a large L2.
 */
#define FDSCALE_L2_ASSUMED  (1ull << 20)
#define FDSCALE_LLC_ASSUMED (32ull << 20)
#define FDSCALE_EVICT_MIN   (64ull << 10)
#define FDSCALE_EVICT_MAX   (64ull << 20)

/*
 * The cold-mode buffer of @e (FDEVICT_L2 or _LLC) for the caches @c:
 * twice the L2 within FDSCALE_EVICT_MIN and _MAX, or twice the last-level
 * cache.
 */
uint64_t fdscale_evict_size(const struct cpucache *c, enum fdscale_evict e);

/* fdscale_evict_size() for this machine's cpu0. */
uint64_t fdscale_evict_default(enum fdscale_evict e);

/*
 * The step sequence from 1 to @max growing by @step: each step is
 * max(previous + 1, ceil(previous * step)), the last is @max. Fills
 * @out (may be NULL) and returns the count.
 */
unsigned int fdscale_sequence(uint64_t max, double step, uint64_t *out);

/*
 * Raise RLIMIT_NOFILE (soft, and hard up to fs.nr_open when allowed) for
 * @want fds plus a margin; returns the number of fds the benchmark can
 * hold, and sets *why (owned by the caller) to a message naming the limit
 * and how to raise it when that is below @want.
 */
uint64_t fdscale_limit(uint64_t want, char **why);

/*
 * Can the benchmark run as @cfg asks? With --engine uring, io_uring and
 * the opcodes it submits (fdscale/fdring.h): 0, or -errno with the
 * reason printed, before anything is opened or written.
 */
int fdscale_usable(const struct fdscale_config *cfg);

/*
 * Run the benchmark. 0 or -errno (message printed). Once *cfg->stop is
 * set, the threads stop between two dups or timed opens and it returns
 * -EINTR without a message, with fs->stopped set and the steps measured
 * until then in @fs.
 */
int fdscale_run(struct fdscale *fs, const struct fdscale_config *cfg);
void fdscale_release(struct fdscale *fs);

#endif /* VB_FDSCALE_FDSCALE_H */
