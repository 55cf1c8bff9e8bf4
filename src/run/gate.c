/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The start barrier between the main thread and the clients.
 */
#include <config.h>
#include "run/gate.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

void gate_init(struct gate *g)
{
	pthread_condattr_t attr;

	pthread_mutex_init(&g->lock, NULL);
	/* gate_wait_until() takes CLOCK_MONOTONIC deadlines */
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&g->arrived_cond, &attr);
	pthread_condattr_destroy(&attr);
	g->arrived = 0;
	atomic_init(&g->generation, 0);
}

void gate_arrive(struct gate *g)
{
	unsigned int gen;

	pthread_mutex_lock(&g->lock);
	gen = atomic_load_explicit(&g->generation, memory_order_acquire);
	g->arrived++;
	pthread_cond_signal(&g->arrived_cond);
	pthread_mutex_unlock(&g->lock);
	/* FUTEX_WAIT returns at once if the generation moved already */
	while (atomic_load_explicit(&g->generation, memory_order_acquire) ==
	       gen)
		syscall(SYS_futex, &g->generation, FUTEX_WAIT_PRIVATE, gen,
			NULL, NULL, 0);
}

void gate_wait(struct gate *g, unsigned int n)
{
	pthread_mutex_lock(&g->lock);
	while (g->arrived < n)
		pthread_cond_wait(&g->arrived_cond, &g->lock);
	pthread_mutex_unlock(&g->lock);
}

bool gate_wait_until(struct gate *g, unsigned int n, uint64_t deadline_ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(deadline_ns / 1000000000u),
		.tv_nsec = (long)(deadline_ns % 1000000000u),
	};
	bool all;

	pthread_mutex_lock(&g->lock);
	while (g->arrived < n)
		if (pthread_cond_timedwait(&g->arrived_cond, &g->lock, &ts) ==
		    ETIMEDOUT)
			break;
	all = g->arrived >= n;
	pthread_mutex_unlock(&g->lock);
	return all;
}

void gate_open(struct gate *g)
{
	pthread_mutex_lock(&g->lock);
	g->arrived = 0;
	atomic_fetch_add_explicit(&g->generation, 1, memory_order_release);
	pthread_mutex_unlock(&g->lock);
	syscall(SYS_futex, &g->generation, FUTEX_WAKE_PRIVATE, INT_MAX, NULL,
		NULL, 0);
}

void gate_release(struct gate *g)
{
	pthread_mutex_destroy(&g->lock);
	pthread_cond_destroy(&g->arrived_cond);
}
