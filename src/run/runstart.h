/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_RUN_RUNSTART_H
#define VB_RUN_RUNSTART_H

#include <stdbool.h>

struct run;
struct workdir;

/*
 * Start the run's clients (each its directory, its state, its thread)
 * and wait until every one started is at the gate, set up or failed.
 * Returns 0; the first failure in client order, reported; -EINTR after
 * a signal; -ETIMEDOUT when clients did not arrive within --stop-timeout
 * of a stop.
 */
int run_start_clients(struct run *run, struct workdir *wd, int shared_fd);

/*
 * Wait until @arrivals clients have arrived at the gate, or with
 * @arrivals 0 until every client started is done, kicking those still in
 * a system call after a stop. False when they were not there within
 * --stop-timeout of the stop (with @arrivals 0, those left are marked
 * stuck).
 */
bool run_await_clients(struct run *run, unsigned int arrivals);

/* Wait for the clients to end, join them and merge their results. */
void run_join_clients(struct run *run);

#endif /* VB_RUN_RUNSTART_H */
