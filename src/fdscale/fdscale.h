/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_FDSCALE_FDSCALE_H
#define VB_FDSCALE_FDSCALE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * vfsbench fdscale: the cost of open() as the number of open fds grows,
 * after Ingo Molnar's fd-scale-bench (2007). At each step the table holds
 * N fds; one fd at a chosen position of the open range is closed and the
 * open() that refills it (open(2) returns the lowest free fd, so it gets
 * the same slot back) is timed, L times per position. Cache-cold mode
 * evicts the CPU caches before every timed open by writing a buffer
 * several times the last-level cache.
 */

/* Which fd of the open range is freed before a timed open. */
enum fdscale_pos {
	FDPOS_LOW = (1 << 0), /* the lowest of the benchmark's fds */
	FDPOS_MIDDLE = (1 << 1),
	FDPOS_HIGH = (1 << 2), /* the highest */
	FDPOS_RANDOM = (1 << 3),
};

struct fdscale_config {
	uint64_t max; /* largest number of open fds (default 1,000,000) */
	double step; /* growth factor between steps (default 1.25) */
	unsigned int loops; /* timed opens per position per step (10) */
	unsigned int positions; /* enum fdscale_pos bits (low|middle) */
	bool cold;
	uint64_t evict_bytes; /* cold mode buffer; 0: 4 x the LLC */
	unsigned int threads; /* threads freeing/refilling at once (1) */
	bool private_table; /* unshare(CLONE_FILES) per thread */
	const char *file; /* what open() opens ("/dev/null") */
	char *json;
	char *csv;
	uint64_t seed; /* FDPOS_RANDOM */
	bool quiet; /* no progress lines on stderr */
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
};

struct fdscale {
	const struct fdscale_config *cfg;
	struct fdscale_step *steps;
	unsigned int nsteps;
	uint64_t max; /* the max actually reached (limits may cap it) */
	char *capped; /* why max was lowered, or NULL */
	uint64_t evict_bytes; /* the cold-mode buffer used */
	uint64_t llc_bytes; /* the last-level cache found, 0 if unknown */
};

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

/* Run the benchmark. 0 or -errno (message printed). */
int fdscale_run(struct fdscale *fs, const struct fdscale_config *cfg);
void fdscale_release(struct fdscale *fs);

#endif /* VB_FDSCALE_FDSCALE_H */
