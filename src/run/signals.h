/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_RUN_SIGNALS_H
#define VB_RUN_SIGNALS_H

#include <signal.h>
#include <stdatomic.h>

/*
 * SIGINT and SIGTERM: the first stops the run (the handler stores
 * PHASE_STOP into the run's phase, a lock-free atomic, which is
 * async-signal-safe); the second also asks cleanup to stop and leave the
 * files where they are. The handler does nothing else. Client threads
 * block both signals so that the main thread receives them.
 */
struct signals {
	volatile sig_atomic_t count;
	volatile sig_atomic_t last; /* signal number of the first signal */
	volatile sig_atomic_t abort_cleanup; /* set by the second signal */
	atomic_int *volatile phase; /* the running run's phase, or NULL */
	int cleanup_cut; /* a run's cleanup stopped part way */
};

extern struct signals signals;

/* Handle SIGINT and SIGTERM; ignore SIGPIPE, so EPIPE reaches writers. */
void signals_install(void);
/* Block SIGINT/SIGTERM in the calling thread (and threads it creates). */
void signals_block(sigset_t *old);
void signals_restore(const sigset_t *old);

#endif /* VB_RUN_SIGNALS_H */
