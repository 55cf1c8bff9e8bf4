/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SIGINT/SIGTERM handling: record, stop the run, nothing more.
 */
#include <config.h>
#include "run/signals.h"

#include <string.h>

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

void signals_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* a closed pipe is a write error (EPIPE) to handle, not a death */
	signal(SIGPIPE, SIG_IGN);
}

void signals_block(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

void signals_restore(const sigset_t *old)
{
	pthread_sigmask(SIG_SETMASK, old, NULL);
}
