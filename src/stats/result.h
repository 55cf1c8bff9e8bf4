/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_STATS_RESULT_H
#define VB_STATS_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>

#include "stats/hist.h"

/*
 * struct result: what one client measured, and the merge of all clients
 * of one run. Statistics are kept per slot (one per op kind the [run]
 * section uses, see struct loadfile).
 *
 * Unexpected results are counted per slot and per outcome: index 0 is an
 * op that succeeded where an errno was expected, 1 .. ERR_ERRNO_MAX-1 the
 * errno it failed with, ERR_OTHER any larger errno, ERR_SKIPPED an op not
 * run because its handle was dead (its open had failed), ERR_INTERRUPTED
 * an op that the stop of the run interrupted (EINTR), ERR_UNCACHED a
 * probe whose lookup could not complete in RCU-walk mode (EAGAIN): none of
 * the last three is an unexpected result. ERR_INLINE is no outcome but a
 * property: the ops of -e uring that completed inline, within their
 * submission (engine/uringring.h), whatever their result.
 */
#define ERR_ERRNO_MAX	134
#define ERR_OTHER	ERR_ERRNO_MAX
#define ERR_SKIPPED	(ERR_ERRNO_MAX + 1)
#define ERR_INTERRUPTED (ERR_ERRNO_MAX + 2)
#define ERR_UNCACHED	(ERR_ERRNO_MAX + 3)
#define ERR_INLINE	(ERR_ERRNO_MAX + 4)
#define ERR_NR		(ERR_ERRNO_MAX + 5)

/*
 * CPU time and context switches, from getrusage(2); the run-queue delay
 * and the migrations between CPUs, from /proc/thread-self.
 */
struct usage {
	double user_s;
	double sys_s;
	uint64_t voluntary; /* ru_nvcsw: blocked (I/O, locks) */
	uint64_t involuntary; /* ru_nivcsw: preempted */
	uint64_t run_delay_ns; /* waiting for a CPU (schedstat) */
	bool run_delay_known; /* /proc/thread-self/schedstat was readable */
	uint64_t migrations; /* se.nr_migrations of /proc/thread-self/sched */
	bool migrations_known; /* it was readable (CONFIG_SCHED_DEBUG) */
	/* -e uring: the CPU time of the clients' io-wq workers */
	uint64_t iowq_ns;
	bool iowq_known;
};

struct result {
	unsigned int nslots;
	struct hist *lat; /* [nslots]: the latencies of the ops timed */
	/* [nslots]: the ops of each kind done, exact; lat[s].count of them
	 * were timed (all of them, unless --latency-sample) */
	uint64_t *count;
	uint64_t (*err)[ERR_NR]; /* [nslots][ERR_NR] */
	uint64_t ops; /* ops completed (timed) */
	uint64_t unexpected; /* sum of err[][] below ERR_SKIPPED */
	uint64_t skipped;
	uint64_t interrupted; /* ops the stop interrupted: at most 1 a client */
	uint64_t bytes; /* read + written */
	uint64_t passes; /* complete [run] passes */
	uint64_t t_start; /* ns, CLOCK_MONOTONIC: measurement start */
	uint64_t t_end; /* last completion */
	struct usage usage; /* of the client threads, while measuring */
};

/*
 * Allocate for @nslots, cache-line aligned, empty: 0, or -ENOMEM with
 * nothing allocated (result_release() is harmless then).
 */
int result_init(struct result *r, unsigned int nslots);
/* Empty the counters, keep the allocation. */
void result_reset(struct result *r);
/* Add @src into @dst (same nslots); the window becomes the union. */
void result_merge(struct result *dst, const struct result *src);
/*
 * A result as bytes, to send to another rank of an MPI job (the same
 * build on the same architecture: run/peers.c checks it): pack @r into
 * @buf of result_packed_size() bytes, and unpack into @r, which has the
 * same nslots.
 */
size_t result_packed_size(unsigned int nslots);
void result_pack(const struct result *r, void *buf);
void result_unpack(struct result *r, const void *buf);
/* Measurement window in ns (0 if nothing was measured). */
uint64_t result_elapsed(const struct result *r);
/*
 * A snapshot of the calling thread's usage: getrusage(RUSAGE_THREAD),
 * the run-queue delay of /proc/thread-self/schedstat, the migrations of
 * /proc/thread-self/sched and the CPU it last ran on (field 39 of
 * /proc/thread-self/stat). Taken outside the timed ops.
 */
struct usage_mark {
	struct rusage ru;
	uint64_t run_delay_ns;
	bool run_delay_known;
	uint64_t migrations;
	bool migrations_known;
	int cpu; /* -1 when unknown */
};

void usage_mark(struct usage_mark *m);
/* Add the usage between two marks of one thread to @r. */
void result_add_usage(struct result *r, const struct usage_mark *from,
		      const struct usage_mark *to);
/*
 * The share of the CPU time the clients could have had that they used:
 * (user + sys + the io-wq workers' time) / (min(@nclients, @cpus) x the
 * measurement window), @cpus the CPUs the run may use (its affinity, its
 * pinning, the cgroup's quota: run->cpus), @nclients the clients, each
 * io_uring lane of a thread one: io-wq runs a thread's lanes' ops on
 * other CPUs. Far below 1 means the clients were starved (or blocked on
 * I/O).
 */
double result_cpu_share(const struct result *r, unsigned int nclients,
			double cpus);

/*
 * The share of the clients' time spent waiting on a run queue: (run_delay
 * + @unmeasured x window) / (nclients x window), or -1 when schedstat was
 * not readable. The @unmeasured clients, those that measured no op, took
 * no usage mark of their own: with more clients than CPUs they waited the
 * whole window, and are counted so.
 */
double result_wait_share(const struct result *r, unsigned int nclients,
			 unsigned int unmeasured);

/*
 * A run is flagged as starved when clients never ran: @unmeasured of them
 * (threads, each of @lanes clients: the CPU share counts @nclients x
 * @lanes) measured no op while there were more clients than @cpus, so the
 * scheduler left them waiting through the window (a fact, whatever the
 * window's length). It is also flagged when the clients used under half
 * the CPU time they could have had and spent over a tenth of their time
 * waiting for a CPU (so a run blocked on I/O is not starved), over a
 * window of at least 100 ms: shorter windows are within the accounting's
 * noise. Without schedstat, the CPU share alone decides that second test.
 */
bool result_starved(const struct result *r, unsigned int nclients,
		    unsigned int lanes, unsigned int unmeasured, double cpus);

/* All slots merged into @all: the latency of any op. */
void result_all_ops(const struct result *r, struct hist *all);
/* Largest single op latency in ns, over all slots. */
uint64_t result_max_latency(const struct result *r);
void result_release(struct result *r);

#endif /* VB_STATS_RESULT_H */
