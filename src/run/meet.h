/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_RUN_MEET_H
#define VB_RUN_MEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mpi/job.h"

struct layout;
struct peers;
struct run_state;

/*
 * How the ranks of an MPI job wait for each other (run/peers.h says
 * where they meet): every wait polls its requests, is unbounded while
 * this rank runs normally (a slower host is not an error) and gives up
 * once it is stopped: after --stop-timeout and a second, or half a
 * second after a SIGTERM (mpirun sends it when it tears the job down, and
 * SIGKILL a second later), or at an absolute deadline. A wait given up
 * leaves the job "lost": no more meetings, and main() aborts the job
 * once it has cleaned up.
 */
struct meet {
	struct run_state *rs; /* its end stops the wait; NULL outside a run */
	/* called at every poll (a run's stop notices), or NULL */
	void (*tick)(struct peers *p, struct run_state *rs);
	struct peers *p;
	uint64_t stop_wait_ns;
	uint64_t stopped_at; /* when the wait saw this rank stopped */
	uint64_t deadline; /* an absolute limit besides, or 0 */
};

/* Has a meeting been given up? Then there are no more. */
bool meet_lost(void);
/* The job is lost; returns @err. */
int meet_lose(int err);

/*
 * Wait for the @n requests at @q: 0, -ETIMEDOUT (those in flight are
 * left active, for the caller to name) or -EIO.
 */
int meet_wait(struct meet *w, struct job_req *q, unsigned int n);
/* "0.5 s of SIGTERM", "11.0 s of the stop": a wait given up, for messages. */
const char *meet_grace_str(const struct meet *w, char *buf, size_t len);

/*
 * Every rank's @len bytes at @mine, in @all (nranks * @len, by rank),
 * waiting as @w says; @what names the meeting in messages. A gather to
 * rank 0 and a broadcast back, so that rank 0 names a rank that did not
 * come. 0, or -ETIMEDOUT / -EIO with a message (the job is lost).
 */
int meet_exchange(const struct layout *l, const void *mine, size_t len,
		  void *all, struct meet *w, const char *what);
/* The same, for a meeting of main(): outside a run, @stop_wait_ns. */
int meet_all(const struct layout *l, const void *mine, size_t len, void *all,
	     uint64_t stop_wait_ns, const char *what);

#endif
