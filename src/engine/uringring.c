/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One client's ring: created, one op submitted and reaped at a time, torn
 * down. The ops themselves are in uring.c.
 */
#include <config.h>
#include "engine/uringring.h"

#include <errno.h>
#include <string.h>

/*
 * Depth 1 needs one entry (create and probe chain nothing), a lane one
 * each; the completion queue is twice the size, so it never overflows.
 */
#define URING_ENTRIES 4

int uring_ring_init(struct uring_ring *r, unsigned int depth)
{
	int ret;

	memset(r, 0, sizeof(*r));
	ret = io_uring_queue_init(depth > URING_ENTRIES ? depth : URING_ENTRIES,
				  &r->ring, URING_SETUP_FLAGS);
	if (ret < 0)
		r->ring.ring_fd = -1;
	return ret;
}

void uring_ring_release(struct uring_ring *r)
{
	if (r->ring.ring_fd > 0)
		io_uring_queue_exit(&r->ring);
	r->ring.ring_fd = -1;
}

int uring_ring_cancel(struct uring_ring *r)
{
	struct io_uring_sqe *e;
	int ret;

	if (r->cancels)
		return 0;
	e = io_uring_get_sqe(&r->ring);
	if (!e)
		return -EBUSY;
	io_uring_prep_cancel64(e, 0, IORING_ASYNC_CANCEL_ANY);
	io_uring_sqe_set_data64(e, URING_CANCEL_DATA);
	do {
		ret = io_uring_submit(&r->ring);
	} while (ret == -EINTR);
	if (ret < 0)
		return ret;
	r->cancels++;
	r->cancelled = true;
	return 0;
}

/*
 * The next completion of an op: a cancel's is reaped and passed over,
 * a wait that a kick interrupts cancels what is in flight.
 */
static int wait_op(struct uring_ring *r, struct io_uring_cqe **cqe)
{
	int ret;

	for (;;) {
		ret = io_uring_wait_cqe(&r->ring, cqe);
		if (ret == -EINTR) {
			ret = uring_ring_cancel(r);
			if (ret < 0)
				return ret;
			continue;
		}
		if (ret < 0)
			return ret;
		if ((*cqe)->user_data != URING_CANCEL_DATA)
			return 0;
		r->cancels--;
		io_uring_cqe_seen(&r->ring, *cqe);
	}
}

/* The cancels' completions, so that none is taken for an op's. */
static int reap_cancels(struct uring_ring *r)
{
	struct io_uring_cqe *cqe;
	int ret;

	while (r->cancels) {
		do {
			ret = io_uring_wait_cqe(&r->ring, &cqe);
		} while (ret == -EINTR);
		if (ret < 0)
			return ret;
		/* with nothing else in flight, only a cancel can complete */
		if (cqe->user_data == URING_CANCEL_DATA)
			r->cancels--;
		io_uring_cqe_seen(&r->ring, cqe);
	}
	return 0;
}

int uring_ring_run(struct uring_ring *r)
{
	struct io_uring_cqe *cqe;
	int ret;

	/* io_uring_enter(2) with to_submit 1 and no wait */
	do {
		ret = io_uring_submit(&r->ring);
	} while (ret == -EINTR);
	if (ret < 0)
		return ret;
	if (!io_uring_cq_ready(&r->ring)) {
		r->punted = true;
		ret = wait_op(r, &cqe);
		if (ret < 0)
			return ret;
	} else if ((ret = io_uring_peek_cqe(&r->ring, &cqe)) < 0) {
		return ret;
	}
	ret = uring_ring_res(r, cqe->res);
	io_uring_cqe_seen(&r->ring, cqe);
	if (r->cancels) {
		int err = reap_cancels(r);

		if (err < 0)
			return err;
	}
	return ret;
}
