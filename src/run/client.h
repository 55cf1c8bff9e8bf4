/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_RUN_CLIENT_H
#define VB_RUN_CLIENT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <unistd.h>

#include "base/compiler.h"
#include "engine/engine.h"
#include "lang/loadfile.h"
#include "run/clientpaths.h"
#include "run/state.h"
#include "stats/result.h"

struct engine;
struct loadfile;
struct op;
struct run_state;

/*
 * struct progress: what the main thread reads every second for the
 * progress line. One cache line per client, written by that client only,
 * with relaxed stores of its private counters (no read-modify-write in
 * the hot loop).
 */
struct progress {
	_Alignas(CACHELINE) atomic_uint_fast64_t ops;
	atomic_uint_fast64_t bytes;
	/*
	 * The longest op since the main thread last took it (with an
	 * exchange to 0), for the per-second latency of dbench's lines: a
	 * load of this line the client writes anyway, and a store only when
	 * an op is the longest so far.
	 */
	atomic_uint_fast64_t max_ns;
	atomic_int done;
};

/* --show-execute-time: one whole pass of the [run] section. */
struct pass_time {
	uint64_t end_ns; /* CLOCK_MONOTONIC */
	uint64_t dur_ns;
};

/*
 * --uring-depth: what the lanes of one thread share (lane 0 holds it),
 * written by that thread alone: their op and byte counts for the
 * thread's progress slot, and the thread's usage from lane 0's start of
 * the measurement.
 */
struct lane_tally {
	uint64_t ops, bytes;
	struct usage_mark u_start;
	uint64_t iowq_start;
	bool measuring;
};

/*
 * struct client: one worker thread. Everything the hot loop writes is
 * private to the client (allocated by and for it, cache-line aligned) and
 * is read by the main thread only after pthread_join().
 */
struct client {
	/* aligned so that clients in one array never share a cache line */
	_Alignas(
		CACHELINE) unsigned int id; /* this rank's: the progress slot */
	unsigned int number; /* in the job: ${client}, clients/client<N> */
	struct run_state *rs;
	const struct engine *engine;
	const struct op *ops; /* the [run] section */
	unsigned int nops;
	int dirfd; /* the client's directory, opened by the main thread */
	struct clientpaths paths; /* ${client} expanded, the walk's prefix */
	char *walkdir; /* that prefix, the loadfile's directory; NULL: "" */
	const struct op *all_ops; /* the loadfile's, for paths' index */
	engine_op_fn *const *opfn; /* the engine's, in --resolve's mode */
	struct engine_ctx ctx; /* handles and buffers, for the engine */
	unsigned int nhandles;
	struct result res;
	struct progress *progress;
	/* --show-execute-time: every whole pass, warmup included; grown by
	 * doubling at pass ends, never inside a pass */
	struct pass_time *pass;
	unsigned int npass, pass_alloc;
	uint64_t pass_mark; /* when the pass under way began */
	/* --latency-sample: per slot, the ops until the next one timed;
	 * NULL when every op is timed */
	uint32_t *sample_left;
	int error; /* fatal setup error: -errno, 0 if none */
	unsigned int error_line; /* the loadfile line it came from */
	uint8_t error_op; /* and that line's op (enum op_id) */
	bool pin_failed; /* the error is sched_setaffinity's */
	/* the error is --dcache negative's, at name dcache_at */
	bool dcache_failed;
	uint32_t dcache_at;
	/* --placement: the CPU it pins itself to before [setup], or -1 */
	int cpu;
	/* seen by the thread itself: its affinity mask once pinned (owned),
	 * and the CPU it last ran on when its measurement ended (-1) */
	char *affinity;
	int last_cpu;
	pthread_t thread;
	/* the thread's id for /proc, set when it starts; read by the main
	 * thread about a client that does not stop */
	atomic_int tid;
	/*
	 * --uring-depth N above 1: this thread's lane (0: the thread's own
	 * client, which holds the others), its lanes 1..N-1 (clients of
	 * their own, run on this thread and merged into this client's
	 * result when they end), how many are made, the arguments of the
	 * engine's lanes() and what they share.
	 */
	unsigned int lane, nlanes, lanes_made;
	struct client *lanes;
	void **lane_arg;
	struct lane_tally *tally;
};

/*
 * Prepare client @id of the run whose state is @rs (this rank's @id-th;
 * rs->ids gives its number in the job): allocations only, no thread yet;
 * its CPU is rs->cfg->placement's for @id. @dirfd is taken over (closed
 * by client_release(), which must be called also after a failure);
 * @prefix goes in front of every path it resolves ("" for none, see
 * clientpaths.h). Returns 0 or -ENOMEM. With --uring-depth N above 1,
 * it is lane 0 of its thread, client number N times the job's; its
 * lanes are added with client_add_lane().
 */
int client_init(struct client *c, struct run_state *rs, unsigned int id,
		int dirfd, const char *prefix);

/*
 * --uring-depth: lane @lane (1 to N-1) of client @c's thread, the client
 * numbered client_lane_number(); @dirfd and @prefix as client_init()'s.
 */
int client_add_lane(struct client *c, unsigned int lane, int dirfd,
		    const char *prefix);

/*
 * The number in the job (${client}, clients/client<N>) of lane @lane of
 * this rank's client thread @id: with N lanes, N times the thread's
 * number plus the lane, so the lanes of a run number as the clients of
 * a run with N times the threads.
 */
unsigned int client_lane_number(const struct run_state *rs, unsigned int id,
				unsigned int lane);

/*
 * What client_init() allocates for one client of @lf on @e, in bytes: its
 * pread/pwrite buffer, the directory and path buffers of the ops that
 * need them, its histograms and error counts, and the rest (handles,
 * expanded paths). The memory check before a sweep adds them up.
 */
struct client_memory {
	size_t data, scratch, stats, other;
};

void client_memory(struct client_memory *m, const struct loadfile *lf,
		   const struct engine *e, size_t prefix_len);

/* The thread function; @arg is the struct client. */
void *client_main(void *arg);

void client_release(struct client *c);

/*
 * What a client's [setup] (clientsetup.c) and its hot loop (client.c)
 * both do with an op and its handles: inline, so that the hot loop's
 * machine code is what it was when both were one file.
 */
static inline long client_exec(struct client *c, const struct op *op)
{
	const char *p1 = op->path, *p2 = op->path2;
	const char *const *x;

	/* a walk's prefix gives every op its own paths (clientpaths.h) */
	if (c->paths.prefixed) {
		x = &c->paths.x[2 * (size_t)(op - c->all_ops)];
		p1 = x[0];
		p2 = x[1];
	} else if (op->expand) {
		x = &c->paths.x[2 * (size_t)op->xidx];
		if (x[0])
			p1 = x[0];
		if (x[1])
			p2 = x[1];
	}
	return c->opfn[op->id](&c->ctx, op, p1, p2);
}

/* Close handle @h, untimed: the engine's way (a direct descriptor). */
static inline void client_drop_handle(struct client *c, unsigned int h)
{
	if (c->engine->drop) {
		c->engine->drop(&c->ctx, h);
		return;
	}
	close(c->ctx.fd[h]);
	c->ctx.fd[h] = -1;
}

/* An open expected to fail that succeeded: its fd has no close op. */
static inline void client_drop_unexpected_fd(struct client *c,
					     const struct op *op)
{
	if (op->opens && op->expect != EXPECT_OK && op->expect != EXPECT_ANY &&
	    c->ctx.fd[op->handle] >= 0)
		client_drop_handle(c, op->handle);
}

/* out of line, as it was: the hot loop calls it where a pass ends */
static NOINLINE UNUSED void client_close_handles(struct client *c)
{
	for (unsigned int h = 0; h < c->nhandles; h++)
		if (c->ctx.fd[h] >= 0)
			client_drop_handle(c, h);
}

/* Has the run been stopped (a signal, the clock, --strict...)? */
static inline bool client_stopped(const struct run_state *rs)
{
	return atomic_load_explicit(&rs->phase, memory_order_relaxed) ==
	       PHASE_STOP;
}

/*
 * The thread's setup, before the gate: its CPU, its isolation, its
 * ring, the [setup] section of each lane, --dcache negative's names.
 * 0, or -errno (c->error_line and friends say where).
 */
int client_setup(struct client *c);

#endif /* VB_RUN_CLIENT_H */
