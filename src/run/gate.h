/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_RUN_GATE_H
#define VB_RUN_GATE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/*
 * struct gate: a start barrier the main thread controls. Clients arrive
 * and block; the main thread waits until a given number have arrived, then
 * opens the gate for all of them at once. Unlike pthread_barrier_t the
 * main thread can count arrivals one by one (to set clients up in order)
 * and can open the gate after a failed setup to let everyone go home.
 * Used only outside the measured region.
 */
struct gate {
	pthread_mutex_t lock;
	pthread_cond_t arrived_cond;
	unsigned int arrived;
	/*
	 * Bumped by gate_open(). Waiters sleep on it with a futex, not on a
	 * condition variable: after a broadcast every waiter would retake
	 * the mutex in turn, and with thousands of clients on a few CPUs
	 * they left the gate over seconds instead of together.
	 */
	atomic_uint generation;
};

void gate_init(struct gate *g);
/* Client side: count in, then block until the gate opens. */
void gate_arrive(struct gate *g);
/* Main side: block until @n clients have arrived since the last opening. */
void gate_wait(struct gate *g, unsigned int n);
/*
 * Main side: the same, giving up at @deadline_ns (CLOCK_MONOTONIC); true
 * if @n clients have arrived.
 */
bool gate_wait_until(struct gate *g, unsigned int n, uint64_t deadline_ns);
/* Main side: release everyone waiting, reset the count. */
void gate_open(struct gate *g);
void gate_release(struct gate *g);

#endif /* VB_RUN_GATE_H */
