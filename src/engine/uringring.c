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
		do {
			ret = io_uring_wait_cqe(&r->ring, &cqe);
		} while (ret == -EINTR);
		if (ret < 0)
			return ret;
	} else if ((ret = io_uring_peek_cqe(&r->ring, &cqe)) < 0) {
		return ret;
	}
	ret = cqe->res;
	io_uring_cqe_seen(&r->ring, cqe);
	return ret;
}
