/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --uring-depth: N lanes of one client thread on its ring, each on a
 * stack of its own, switched with swapcontext(3) where a lane waits for
 * its completion (uringlanes.h). The switch also saves and restores the
 * signal mask, a system call: doc/performance.md, "Lanes against
 * threads", measures what it costs.
 */
#include <config.h>
#include "engine/uringlanes.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "engine/uringring.h"

#if defined(__has_feature)
#	if __has_feature(address_sanitizer)
#		define LANES_ASAN 1
#	endif
#	if __has_feature(thread_sanitizer)
#		define LANES_TSAN 1
#	endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#	define LANES_ASAN 1
#endif
#if defined(__SANITIZE_THREAD__)
#	define LANES_TSAN 1
#endif
#ifdef LANES_ASAN
#	include <sanitizer/common_interface_defs.h>
#endif
#ifdef LANES_TSAN
#	include <sanitizer/tsan_interface.h>
#endif

enum lane_state {
	LANE_NEW, /* not started: runnable */
	LANE_WAITING, /* its op in flight */
	LANE_COMPLETED, /* its completion is in: runnable */
	LANE_RUNNING,
	LANE_RETURNED,
};

struct uring_lane {
	ucontext_t uc;
	void *map; /* the stack, a guard page below it */
	void *stack;
	void *fiber; /* ThreadSanitizer's */
	int res; /* the completion's */
	enum lane_state state;
};

/* The lanes the thread is running, for lane_main(), which takes no
 * pointer (makecontext(3) passes ints). */
static __thread struct uring_lanes *current;

/* 256 KiB, a client thread's own (run/memory.h): the ops run there. */
#define LANE_STACK (256u << 10)

int uring_lanes_init(struct uring_lanes *l, struct uring_ring *r,
		     unsigned int n)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	*l = (struct uring_lanes){ .ring = r,
				   .n = n,
				   .stack_size = LANE_STACK };
	l->lane = calloc(n, sizeof(*l->lane));
	l->home = calloc(1, sizeof(ucontext_t));
	if (!l->lane || !l->home)
		goto fail;
	for (unsigned int k = 0; k < n; k++) {
		struct uring_lane *lane = &l->lane[k];

		lane->map =
			mmap(NULL, LANE_STACK + page, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
		if (lane->map == MAP_FAILED) {
			lane->map = NULL;
			goto fail;
		}
		/* an overflow faults instead of writing the next lane's */
		if (mprotect(lane->map, page, PROT_NONE))
			goto fail;
		lane->stack = (char *)lane->map + page;
	}
	return 0;
fail:
	uring_lanes_release(l);
	return -ENOMEM;
}

void uring_lanes_release(struct uring_lanes *l)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	for (unsigned int k = 0; l->lane && k < l->n; k++)
		if (l->lane[k].map)
			munmap(l->lane[k].map, LANE_STACK + page);
	free(l->lane);
	free(l->home);
	l->lane = NULL;
	l->home = NULL;
}

/*
 * Switch from @from to @to, whose stack is @bottom (NULL: the thread's
 * own), telling the sanitizers; @to_fiber is ThreadSanitizer's name for
 * it. @exiting: @from never runs again.
 */
static void lane_swap(ucontext_t *from, ucontext_t *to, const void *bottom,
		      size_t size, void *to_fiber, bool exiting)
{
#ifdef LANES_ASAN
	void *fake = NULL;

	__sanitizer_start_switch_fiber(exiting ? NULL : &fake, bottom, size);
#else
	(void)bottom;
	(void)size;
	(void)exiting;
#endif
#ifdef LANES_TSAN
	__tsan_switch_to_fiber(to_fiber, 0);
#else
	(void)to_fiber;
#endif
	swapcontext(from, to);
#ifdef LANES_ASAN
	__sanitizer_finish_switch_fiber(fake, NULL, NULL);
#endif
}

/* The thread's own stack, for the sanitizers: told by the first lane
 * started, which home starts. */
static __thread const void *home_bottom;
static __thread size_t home_size;
static __thread bool home_known;

static void lane_main(void)
{
	struct uring_lanes *l = current;
	unsigned int k = l->ring->cur;

#ifdef LANES_ASAN
	const void *bottom;
	size_t size;

	__sanitizer_finish_switch_fiber(NULL, &bottom, &size);
	if (!home_known) {
		home_bottom = bottom;
		home_size = size;
		home_known = true;
	}
#endif
	l->ring->punted = false;
	l->fn(l->arg[k]);
	l->lane[k].state = LANE_RETURNED;
	l->left--;
	/* home, which starts the next lane; this one never runs again */
	lane_swap(&l->lane[k].uc, l->home, home_bottom, home_size,
		  l->home_fiber, true);
}

/* The next runnable lane after @from, or n. */
static unsigned int next_runnable(const struct uring_lanes *l,
				  unsigned int from)
{
	for (unsigned int i = 1; i <= l->n; i++) {
		unsigned int k = (from + i) % l->n;

		if (l->lane[k].state == LANE_NEW ||
		    l->lane[k].state == LANE_COMPLETED)
			return k;
	}
	return l->n;
}

/*
 * The completions in the queue, each to its lane (a cancel's passed
 * over); with @wait at least one, waited for. 0 or -errno from the wait.
 * An EINTR is the kick of a stop (uringring.h): the ops in flight are
 * cancelled, and waited for, so that each lane's ends with -EINTR.
 */
static int reap(struct uring_lanes *l, bool wait)
{
	struct io_uring *ring = &l->ring->ring;
	struct io_uring_cqe *cqe;
	int ret;

	while (wait) {
		ret = io_uring_wait_cqe(ring, &cqe);
		if (ret == -EINTR)
			ret = uring_ring_cancel(l->ring);
		else if (!ret)
			break;
		if (ret < 0)
			return ret;
	}
	while (!io_uring_peek_cqe(ring, &cqe)) {
		struct uring_lane *lane;

		if (cqe->user_data == URING_CANCEL_DATA) {
			l->ring->cancels--;
			io_uring_cqe_seen(ring, cqe);
			continue;
		}
		lane = &l->lane[cqe->user_data];
		lane->res = uring_ring_res(l->ring, cqe->res);
		lane->state = LANE_COMPLETED;
		io_uring_cqe_seen(ring, cqe);
	}
	return 0;
}

/* Start or resume lane @k, from the lane @from (n: from home). */
static void lane_enter(struct uring_lanes *l, unsigned int from, unsigned int k)
{
	struct uring_lane *to = &l->lane[k];
	ucontext_t *uc = from == l->n ? l->home : &l->lane[from].uc;

	if (to->state == LANE_NEW) {
		getcontext(&to->uc);
		to->uc.uc_stack.ss_sp = to->stack;
		to->uc.uc_stack.ss_size = l->stack_size;
		to->uc.uc_link = NULL;
		makecontext(&to->uc, lane_main, 0);
#ifdef LANES_TSAN
		to->fiber = __tsan_create_fiber(0);
#endif
	}
	to->state = LANE_RUNNING;
	l->ring->cur = k;
	lane_swap(uc, &to->uc, to->stack, l->stack_size, to->fiber, false);
}

void uring_lanes_run(struct uring_lanes *l, void (*fn)(void *arg),
		     void *const *arg)
{
	unsigned int k = l->n - 1;

	l->fn = fn;
	l->arg = arg;
	l->left = l->n;
#ifdef LANES_TSAN
	l->home_fiber = __tsan_get_current_fiber();
#endif
	current = l;
	home_known = false;
	l->ring->lanes = l;
	while (l->left) {
		k = next_runnable(l, k);
		if (k < l->n)
			lane_enter(l, l->n, k);
		else if (reap(l, true))
			break; /* the ring failed: see uring_lanes_wait() */
	}
	l->ring->lanes = NULL;
	l->ring->cur = 0;
	current = NULL;
#ifdef LANES_TSAN
	for (k = 0; k < l->n; k++)
		if (l->lane[k].fiber)
			__tsan_destroy_fiber(l->lane[k].fiber);
#endif
}

int uring_lanes_wait(struct uring_lanes *l)
{
	struct uring_ring *r = l->ring;
	unsigned int me = r->cur, k;
	struct uring_lane *lane = &l->lane[me];
	int ret;

	do {
		ret = io_uring_submit(&r->ring);
	} while (ret == -EINTR);
	if (ret < 0)
		return ret;
	lane->state = LANE_WAITING;
	/* what is in now completed within the submission (uringring.h) */
	ret = reap(l, false);
	if (lane->state != LANE_COMPLETED) {
		r->punted = true;
		for (;;) {
			k = next_runnable(l, me);
			if (k < l->n) {
				/* back here once this lane's completion is in
				 * and another lane gives the thread back */
				lane_enter(l, me, k);
				break;
			}
			ret = reap(l, true);
			/*
			 * The wait itself failed: nothing more will come
			 * (the ring is broken); the op fails with it, and
			 * lanes in flight never return, so the thread's
			 * lanes end in uring_lanes_run() at the next wait.
			 */
			if (ret < 0)
				return ret;
			if (lane->state == LANE_COMPLETED)
				break;
		}
		r->cur = me;
		r->punted = true;
	}
	lane->state = LANE_RUNNING;
	return lane->res;
}
