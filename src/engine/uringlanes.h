/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_ENGINE_URINGLANES_H
#define VB_ENGINE_URINGLANES_H

#include <stdbool.h>
#include <stddef.h>

struct uring_ring;
struct uring_lane;

/*
 * struct uring_lanes: --uring-depth N, the N lanes of one client thread
 * on its one ring. A lane is a replay of the [run] section with a stack
 * of its own (a ucontext); lanes switch only where one waits for its
 * completion, so a lane runs undisturbed from one completion to its next
 * submission. Submitting, a lane enters the kernel without waiting; if
 * its completion is not there, it hands the thread to a lane whose
 * completion is in (or that has not started), and when none is, it
 * waits for completions itself. So at most N submissions are in flight,
 * one per lane, and a lane's next op is submitted when its previous
 * completes. Made before the lanes start, used by the client thread
 * alone; no op allocates, locks or formats anything.
 */
struct uring_lanes {
	struct uring_ring *ring;
	struct uring_lane *lane; /* [n] */
	unsigned int n;
	unsigned int left; /* lanes that have not returned */
	size_t stack_size;
	void (*fn)(void *arg);
	void *const *arg;
	void *home; /* the thread's own context (ucontext_t) */
	void *home_fiber; /* the sanitizers' name for it */
};

/* The most lanes a client thread may have (--uring-depth). */
#define URING_LANES_MAX 256

/*
 * Allocate @n lanes for @r, with their stacks: 0 or -ENOMEM, nothing
 * left allocated on failure.
 */
int uring_lanes_init(struct uring_lanes *l, struct uring_ring *r,
		     unsigned int n);

/*
 * Run @fn(@arg[k]) in lane k, for k < n, until every one has returned.
 * r->cur is the lane running, the user data of its submissions.
 */
void uring_lanes_run(struct uring_lanes *l, void (*fn)(void *arg),
		     void *const *arg);

/*
 * In a lane: submit the SQE it has prepared and run the other lanes
 * until its completion is in: the CQE's res. r->punted is set when the
 * completion was not there after the submission.
 */
int uring_lanes_wait(struct uring_lanes *l);

void uring_lanes_release(struct uring_lanes *l);

#endif /* VB_ENGINE_URINGLANES_H */
