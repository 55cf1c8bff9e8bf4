/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * How the ranks of an MPI job wait for each other, and their plainest
 * meeting: every rank's bytes to every rank, through rank 0, which names
 * a rank that does not come (meet.h).
 */
#include <config.h>
#include "run/meet.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/alloc.h"
#include "base/clock.h"
#include "base/msg.h"
#include "run/layout.h"
#include "run/signals.h"
#include "run/state.h"

/* Its message tag; run/peers.c's are 2 and 3, mpi/job.c's clock's 100. */
#define TAG_MEET 1

/*
 * mpirun sends SIGTERM when it tears the job down (after its own SIGINT,
 * or when a rank died) and SIGKILL a second later (Open MPI's
 * odls_base_sigkill_timeout): half a second to meet, half to clean up.
 */
#define TERM_GRACE_NS (500 * NSEC_PER_MSEC)

static bool lost;

bool meet_lost(void)
{
	return lost;
}

int meet_lose(int err)
{
	lost = true;
	return err;
}

static bool wait_stopped(const struct meet *w)
{
	return signals.count ||
	       (w->rs && atomic_load(&w->rs->end) != RUN_END_COMPLETE);
}

static uint64_t wait_grace(const struct meet *w)
{
	return signals.count && signals.last == SIGTERM ?
		       TERM_GRACE_NS :
		       w->stop_wait_ns + NSEC_PER_SEC;
}

static bool overdue(struct meet *w, uint64_t now)
{
	if (w->deadline && now >= w->deadline)
		return true;
	if (!wait_stopped(w))
		return false;
	if (!w->stopped_at)
		w->stopped_at = now;
	return now - w->stopped_at >= wait_grace(w);
}

const char *meet_grace_str(const struct meet *w, char *buf, size_t len)
{
	if (w->deadline && !wait_stopped(w))
		snprintf(buf, len, "%.1f s",
			 (double)(w->deadline - w->stopped_at) / 1e9);
	else
		snprintf(buf, len, "%.1f s of %s", (double)wait_grace(w) / 1e9,
			 signals.count && signals.last == SIGTERM ? "SIGTERM" :
								    "the stop");
	return buf;
}

static void nap(uint64_t *ns)
{
	struct timespec ts = { .tv_nsec = (long)*ns };

	nanosleep(&ts, NULL);
	if (*ns < NSEC_PER_MSEC)
		*ns *= 2;
}

int meet_wait(struct meet *w, struct job_req *q, unsigned int n)
{
	uint64_t ns = 20000;

	for (;;) {
		bool all = true;

		for (unsigned int i = 0; i < n; i++) {
			int r = job_test(&q[i]);

			if (r < 0)
				return r;
			all = all && r;
		}
		if (all)
			return 0;
		if (w->tick)
			w->tick(w->p, w->rs);
		if (overdue(w, clock_now_ns()))
			return -ETIMEDOUT;
		nap(&ns);
	}
}

int meet_exchange(const struct layout *l, const void *mine, size_t len,
		  void *all, struct meet *w, const char *what)
{
	unsigned int n = l->nranks, me = l->rank;
	char name[LAYOUT_HOST_MAX + 32], g[64];
	struct job_req *q;
	int err = 0;

	memcpy((char *)all + (size_t)me * len, mine, len);
	if (n < 2)
		return 0;
	if (lost)
		return -ETIMEDOUT;
	q = xcalloc(n, sizeof(*q));
	if (me == 0) {
		for (unsigned int r = 1; r < n && !err; r++)
			err = job_irecv(&q[r], r, TAG_MEET,
					(char *)all + (size_t)r * len, len);
		if (!err)
			err = meet_wait(w, q + 1, n - 1);
		for (unsigned int r = 1; r < n; r++) {
			if (!q[r].active)
				continue;
			if (err == -ETIMEDOUT)
				error("%s did not come to %s within %s: it may have died",
				      layout_name(l, r, name, sizeof(name)),
				      what, meet_grace_str(w, g, sizeof(g)));
			job_cancel(&q[r]);
		}
	} else {
		err = job_isend(&q[0], 0, TAG_MEET, mine, len);
		if (!err)
			err = meet_wait(w, q, 1);
	}
	if (!err)
		err = job_ibcast(&q[0], all, (size_t)n * len);
	if (!err)
		err = meet_wait(w, q, 1);
	if (err == -ETIMEDOUT && me)
		error("%s did not answer at %s within %s",
		      layout_name(l, 0, name, sizeof(name)), what,
		      meet_grace_str(w, g, sizeof(g)));
	free(q);
	return err ? meet_lose(err) : 0;
}

int meet_all(const struct layout *l, const void *mine, size_t len, void *all,
	     uint64_t stop_wait_ns, const char *what)
{
	struct meet w = { .stop_wait_ns = stop_wait_ns };

	if (!l || l->nranks < 2) {
		memcpy(all, mine, len);
		return 0;
	}
	return meet_exchange(l, mine, len, all, &w, what);
}
