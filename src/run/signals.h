/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_RUN_SIGNALS_H
#define VB_RUN_SIGNALS_H

#include <signal.h>
#include <stdatomic.h>

/*
 * SIGINT, SIGTERM and SIGHUP: the first stops the run (the handler stores
 * PHASE_STOP into the run's phase, a lock-free atomic, which is
 * async-signal-safe); the second also asks cleanup to stop and leave the
 * files where they are. The handler does nothing else. Client threads
 * block them so that the main thread receives them. The subcommands
 * (fdscale, compare, plot) look at count where they may wait.
 *
 * SIGNAL_KICK is how a stop reaches a client blocked in a system call (an
 * open of a FIFO, a lock, a sleep): its handler does nothing and is
 * installed without SA_RESTART, so the call returns EINTR and the client
 * sees the stop at its next op boundary. Only client threads accept it;
 * the main thread sends it with pthread_kill() (run.c).
 */
#define SIGNAL_KICK SIGUSR1

struct signals {
	volatile sig_atomic_t count;
	volatile sig_atomic_t last; /* signal number of the first signal */
	volatile sig_atomic_t abort_cleanup; /* set by the second signal */
	atomic_int *volatile phase; /* the running run's phase, or NULL */
	int cleanup_cut; /* a run's cleanup stopped part way */
};

extern struct signals signals;

/*
 * Handle SIGINT, SIGTERM, SIGHUP and SIGNAL_KICK, and block SIGNAL_KICK
 * in the calling thread (the main thread); ignore SIGPIPE, so that EPIPE
 * reaches writers, and SIGXFSZ, so that a write past RLIMIT_FSIZE (ulimit -f)
 * is an EFBIG counted as any errno, not the end of the process.
 */
void signals_install(void);
/*
 * Record @sig as if it had been the first signal received, unless one was
 * (a closed standard output is a SIGPIPE that stops the run as SIGINT
 * does).
 */
void signals_raise(int sig);
/* Block the stop signals in the calling thread (and threads it creates). */
void signals_block(sigset_t *old);
void signals_restore(const sigset_t *old);
/* In a client thread: accept SIGNAL_KICK. */
void signals_accept_kick(void);

#endif /* VB_RUN_SIGNALS_H */
