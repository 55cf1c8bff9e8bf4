/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_ENGINE_URINGRING_H
#define VB_ENGINE_URINGRING_H

#include <errno.h>
#include <liburing.h>
#include <stdbool.h>
#include <stdint.h>

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
	/* cancels submitted (uring_ring_cancel()) whose completion is not
	 * yet reaped, and whether any was: ECANCELED is then a stop's */
	unsigned int cancels;
	bool cancelled;
};

/* The user data of a cancel: no lane's (lanes are numbered from 0). */
#define URING_CANCEL_DATA UINT64_MAX

/* The setup flags of every ring (doc/design.md, "The uring engine"). */
#define URING_SETUP_FLAGS \
	(IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN)

/* Create the calling thread's ring for @depth ops in flight: 0 or -errno. */
int uring_ring_init(struct uring_ring *r, unsigned int depth);
void uring_ring_release(struct uring_ring *r);

/*
 * Submit the one SQE prepared on @r and wait for its completion: the
 * CQE's res (a result >= 0 or -errno). A punted op sets r->punted. A
 * signal does not end the wait by itself: the op is in flight and its
 * completion must be reaped before the next op. But a signal that
 * interrupts it is the kick of a stop (SIGNAL_KICK, the only signal a
 * client thread takes, sent only once its run is stopped: doc/design.md,
 * "Signals"), so the wait cancels the op (uring_ring_cancel()), which
 * then completes with -EINTR, as a blocked system call of the posix
 * engine does: a read of an empty FIFO that nobody writes ends.
 */
int uring_ring_run(struct uring_ring *r);

/*
 * After a kick: cancel every request in flight on @r
 * (IORING_ASYNC_CANCEL_ANY; io-wq's workers are signalled out of a
 * blocking call, a poll is taken down), unless a cancel is in flight
 * already. 0 or -errno.
 */
int uring_ring_cancel(struct uring_ring *r);

/*
 * The kernel's own restart codes (ERESTARTSYS 512 to
 * ERESTART_RESTARTBLOCK 516), which never reach a system call's caller
 * but do reach a CQE: an io-wq worker signalled out of a FIFO's open by
 * a cancel completes it with -ERESTARTSYS (Linux 6.18).
 */
#define URING_ERESTART_MIN 512
#define URING_ERESTART_MAX 516

/*
 * A completion @res of an op, as the client sees it: where a stop's
 * cancel was submitted, -ECANCELED (not started yet) and a restart code
 * (interrupted by it) are -EINTR, interrupted, not an error.
 */
static inline int uring_ring_res(const struct uring_ring *r, int res)
{
	if (r->cancelled && (res == -ECANCELED || (res <= -URING_ERESTART_MIN &&
						   res >= -URING_ERESTART_MAX)))
		return -EINTR;
	return res;
}

/* The SQE for the op under way, marked with the lane that submits it. */
static inline struct io_uring_sqe *uring_ring_sqe(struct uring_ring *r)
{
	struct io_uring_sqe *e = io_uring_get_sqe(&r->ring);

	io_uring_sqe_set_data64(e, r->cur);
	return e;
}

#endif /* VB_ENGINE_URINGRING_H */
