/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_SYS_CHILDWAIT_H
#define VB_SYS_CHILDWAIT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * struct child_wait: vfsbench waiting for a child process (a hook, perf
 * record, perf script...) and for what it writes on a pipe, while
 * obeying the stop signals. The child leads a process group of its own.
 * Once *stop differs from @since (a stop signal: sys/ does not include
 * run/, so the count comes as plain data), its group gets @term (none
 * when 0) and SIGCONT, and SIGKILL once COMMAND_STOP_GRACE_MS has passed
 * or at the next signal; so no child, however it treats its signals
 * (perf ignoring SIGINT, a perf script that hangs), keeps vfsbench from
 * its cleanup. Every wait polls (every 10 ms): a blocking waitpid() or
 * read() would miss a signal that lands just before it.
 */

/*
 * How long a child's process group has between a stop and the SIGKILL
 * that follows (vfsbench(1) HOOKS, PROFILING).
 */
#define COMMAND_STOP_GRACE_MS 2000

/* How a child was seen to end. */
enum command_end {
	COMMAND_ENDED, /* by itself: no stop while it was waited for */
	COMMAND_TERMINATED, /* a stop: told (@term), then it ended */
	COMMAND_KILLED, /* still there at the end of the grace: SIGKILL */
	COMMAND_KILLED_AGAIN, /* a second stop during the grace: SIGKILL */
	/* child_wait.expired said so: @term, then SIGKILL after the grace */
	COMMAND_TIMED_OUT,
};

struct child_wait {
	pid_t pid; /* the child, leader of its process group */
	const volatile sig_atomic_t *stop; /* may be NULL: no stop */
	sig_atomic_t since; /* *stop's value that is no stop */
	sig_atomic_t seen; /* *stop when the stop was acted on */
	int term; /* sent to the group at a stop; 0: nothing */
	uint64_t deadline; /* CLOCK_MONOTONIC ms: SIGKILL then */
	bool exited; /* the leader has ended (a zombie until reaped) */
	bool killed; /* its group got SIGKILL */
	enum command_end end;
	/*
	 * Asked at every look (every 10 ms), with @ctx: true ends the child
	 * as a stop does, as COMMAND_TIMED_OUT (a guest that does not boot:
	 * vm/guest.c). NULL, the default: never. Set after
	 * child_wait_init().
	 */
	bool (*expired)(void *ctx);
	void *ctx;
};

/*
 * A wait for @pid (the leader of its own group). @since is *@stop's value
 * that is no stop: its value when the child started for a hook (an
 * --exec-after after a stopped run still runs), 0 for a child that ends
 * vfsbench's work (perf), so that a stop before the wait counts too.
 */
void child_wait_init(struct child_wait *cw, pid_t pid,
		     const volatile sig_atomic_t *stop, sig_atomic_t since,
		     int term);

/*
 * Until the leader has ended, forwarding a stop; then what is left of
 * its group after a stop is killed, and the leader reaped. 0 with its
 * wait status in *@status (cw->end says how it ended), or -errno.
 */
int child_wait_end(struct child_wait *cw, int *status);

/*
 * read() of at most @len bytes of @fd (a pipe the child writes), with
 * the stop forwarded meanwhile: the count, 0 at the end of the pipe, or
 * -1 with errno (EINTR once the group was killed and its leader has
 * ended: a process outside the group may hold the pipe open).
 */
ssize_t child_wait_read(struct child_wait *cw, int fd, void *buf, size_t len);

/*
 * All that @fd gives, as child_wait_read() reads it, NUL-terminated, at
 * most @max bytes kept (the rest read and dropped, so that the child
 * never blocks on a full pipe). Freed by the caller.
 */
char *child_wait_read_all(struct child_wait *cw, int fd, size_t max);

/*
 * Where the group was killed: "still ran 2 s after the stop signal:
 * killed (SIGKILL)" or "... at a second stop signal ...", in @buf; else
 * NULL.
 */
const char *child_wait_killed(const struct child_wait *cw, char *buf,
			      size_t len);

#endif /* VB_SYS_CHILDWAIT_H */
