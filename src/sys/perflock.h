/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_SYS_PERFLOCK_H
#define VB_SYS_PERFLOCK_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

#include "sys/perfctl.h"

/*
 * struct perf_lock: a "perf lock record" beside each perf record of
 * --profile: the lock:contention_begin/end tracepoints with their call
 * chains, its events off at first (-D -1) and turned on and off with the
 * record's (perf_ctl.also), so that it sees the same measured windows.
 * It runs in a mount namespace of its own: perf mounts tracefs itself
 * where it finds none, and that mount must not be left on the host. Its
 * messages come back through a pipe (its standard output and error).
 */
struct perf_lock {
	pid_t pid;
	struct perf_ctl ctl;
	int out; /* the read end of its standard output and error */
	bool running;
	char *absent; /* it did not record: why; else NULL */
};

/*
 * Start perf lock record on @target, writing @file, and wait until it is
 * attached. One that cannot run does not stop the profile: pl->absent
 * says why (perf's own message read back) and pl->running is false.
 * As perf record's, the wait has no deadline but *@stop.
 * Returns 0, or -errno when a pipe could not be made (with a message).
 */
int perf_lock_start(struct perf_lock *pl, pid_t target, const char *file,
		    const volatile sig_atomic_t *stop);

/*
 * Stop it (SIGINT: it writes @file); a failure sets pl->absent. A stop
 * signal of ours leaves it the grace, then kills its group.
 */
void perf_lock_stop(struct perf_lock *pl);

/* Stop it if it runs; free what it holds. */
void perf_lock_release(struct perf_lock *pl);

/*
 * Run "perf lock -i @file contention -E @entries" (tracepoint mode) in a
 * mount namespace of its own and read what it printed, standard output
 * and error together (perf 6.1 prints its table on standard error), into
 * *@text (to be freed); *@status is NULL when it exited with status 0,
 * else how it ended in words (to be freed). A stop signal (*@stop other
 * than 0, before or while it runs) leaves it the grace, then kills its
 * group (sys/childwait.h). Returns 0, or -errno when it could not be
 * run (with *@status saying why).
 */
int perf_lock_contention(const char *file, unsigned int entries, char **text,
			 char **status, const volatile sig_atomic_t *stop);

#endif /* VB_SYS_PERFLOCK_H */
