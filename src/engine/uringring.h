/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_ENGINE_URINGRING_H
#define VB_ENGINE_URINGRING_H

#include <liburing.h>
#include <stdbool.h>

/*
 * struct uring_ring: one client's io_uring (-e uring), created by the
 * client's own thread before the clock starts (IORING_SETUP_SINGLE_ISSUER
 * ties the ring to it) and used by that thread alone.
 *
 * The ring is set up with IORING_SETUP_DEFER_TASKRUN: a completion that
 * an io-wq worker produces is queued as task work of the submitter and
 * reaches the completion queue only when the submitter enters the kernel
 * to wait for it. So after io_uring_enter(2) has submitted an op without
 * waiting, a completion in the queue is one the submission itself
 * produced (inline); an empty queue means the op was punted to io-wq.
 * No race with a fast worker can make a punted op look inline.
 */
struct uring_ring {
	struct io_uring ring;
	/* some submission of the op under way was punted */
	bool punted;
	/* --uring-fixed: [nhandles], the handles that are direct
	 * descriptors (the slot of the ring's file table is the handle's
	 * number); NULL without it */
	bool *direct;
	/* --uring-depth above 1: the lanes, made with the ring (pool), and
	 * the same while they run (lanes), else NULL */
	struct uring_lanes *pool, *lanes;
	/* the lane running (0 without lanes): its submissions' user data */
	unsigned int cur;
};

/* The setup flags of every ring (doc/design.md, "The uring engine"). */
#define URING_SETUP_FLAGS \
	(IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN)

/* Create the calling thread's ring for @depth ops in flight: 0 or -errno. */
int uring_ring_init(struct uring_ring *r, unsigned int depth);
void uring_ring_release(struct uring_ring *r);

/*
 * Submit the one SQE prepared on @r and wait for its completion: the
 * CQE's res (a result >= 0 or -errno). A punted op sets r->punted. A
 * signal does not end the wait: the op is in flight and its completion
 * must be reaped before the next op.
 */
int uring_ring_run(struct uring_ring *r);

/* The SQE for the op under way, marked with the lane that submits it. */
static inline struct io_uring_sqe *uring_ring_sqe(struct uring_ring *r)
{
	struct io_uring_sqe *e = io_uring_get_sqe(&r->ring);

	io_uring_sqe_set_data64(e, r->cur);
	return e;
}

#endif /* VB_ENGINE_URINGRING_H */
