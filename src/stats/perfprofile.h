/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_STATS_PERFPROFILE_H
#define VB_STATS_PERFPROFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "stats/tally.h"

/*
 * struct perf_profile: where one profiled point's samples fell, read
 * from "perf script -F tid,period,event,ip,sym,dso" of a perf record -g:
 * kernel against user space by each sample's leaf frame, the leaf
 * symbols (self samples), the lock chains and the folded stacks.
 *
 * A lock chain is a call chain that ends in a lock or a wait: from the
 * leaf, the first frame that is a lock (a spinlock slow path, osq_lock,
 * an rwsem or mutex slow path, lockref_*; a schedule() leafwards of such
 * a frame starts the chain there instead), then its callers out to the
 * first VFS entry point (path_openat, filename_create, do_renameat2...;
 * failing one, the syscall's __x64_sys_ function; failing that, six
 * frames). Its key is those frames, leaf first, joined by " <- ".
 */
struct perf_profile {
	char *event; /* the event perf sampled, as its samples name it */
	bool mixed; /* samples of more than one event */
	uint64_t samples, kernel, user;
	uint64_t period; /* the sum of the samples' periods (ns: *-clock) */
	struct tally self; /* leaf symbol -> samples */
	struct tally locks; /* lock chain -> samples */
	struct tally folded; /* "root;...;leaf" -> samples */
};

/* The separator of a lock chain's frames, leaf first. */
#define PERF_CHAIN_SEP " <- "

/*
 * Add the samples of perf script's output @in (@name for messages) to
 * @pp. Returns 0, or -EINVAL with "NAME:LINE: message" for a line that is
 * not perf script's.
 */
int perf_profile_parse(struct perf_profile *pp, FILE *in, const char *name);

/*
 * In a lock chain's key @chain: the lock (the outermost frame of its
 * leading run of lock frames) and the entry point (the last frame), into
 * @lock and @entry of @len bytes each.
 */
void perf_profile_chain_ends(const char *chain, char *lock, char *entry,
			     size_t len);

/* Whether the kernel symbol @sym takes or waits for a lock. */
bool perf_profile_is_lock(const char *sym);

/*
 * Write the folded stacks ("a;b;c N", one a line, most samples first),
 * flamegraph.pl's input. Returns 0 or -errno.
 */
int perf_profile_write_folded(const struct perf_profile *pp, FILE *out);

void perf_profile_release(struct perf_profile *pp);

#endif /* VB_STATS_PERFPROFILE_H */
