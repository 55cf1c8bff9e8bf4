/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SIGINT/SIGTERM/SIGHUP handling: record, stop the run, nothing more. And the
 * kick that interrupts a client's blocked system call after a stop.
 */
#include <config.h>
#include "run/signals.h"

#include <pthread.h>
#include <string.h>

#include "base/compiler.h"
#include "run/state.h"

struct signals signals;

static void on_signal(int sig)
{
	atomic_int *phase = signals.phase;

	if (!signals.count)
		signals.last = sig;
	signals.count++;
	if (signals.count > 1)
		signals.abort_cleanup = 1;
	if (phase)
		atomic_store_explicit(phase, PHASE_STOP, memory_order_relaxed);
}

/* Its only work is to make a blocked system call return EINTR. */
static void on_kick(UNUSED int sig)
{
}

void signals_raise(int sig)
{
	atomic_int *phase = signals.phase;

	/* after a real signal this changes nothing: it is not a second one */
	if (signals.count)
		return;
	signals.last = sig;
	signals.count = 1;
	if (phase)
		atomic_store_explicit(phase, PHASE_STOP, memory_order_relaxed);
}

void signals_install(void)
{
	struct sigaction sa;
	sigset_t set;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* the end of a terminal or an ssh session: a stop like SIGTERM */
	sigaction(SIGHUP, &sa, NULL);
	/* no SA_RESTART: that is the point */
	sa.sa_handler = on_kick;
	sigaction(SIGNAL_KICK, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, SIGNAL_KICK);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	/* a closed pipe is a write error (EPIPE) to handle, not a death */
	signal(SIGPIPE, SIG_IGN);
	/* a write past RLIMIT_FSIZE is EFBIG, counted as any errno */
	signal(SIGXFSZ, SIG_IGN);
}

void signals_block(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

void signals_restore(const sigset_t *old)
{
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

void signals_accept_kick(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGNAL_KICK);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}
