/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Waiting for a child and reading its pipe, a stop signal forwarded to
 * its process group: the group told, then killed after a grace.
 */
#include <config.h>
#include "sys/childwait.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/alloc.h"

/* How often a wait looks at the stop count (it sleeps in between). */
#define CHILD_WAIT_POLL_MS 10

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

void child_wait_init(struct child_wait *cw, pid_t pid,
		     const volatile sig_atomic_t *stop, sig_atomic_t since,
		     int term)
{
	*cw = (struct child_wait){
		.pid = pid,
		.stop = stop,
		.since = since,
		.term = term,
		.end = COMMAND_ENDED,
	};
}

/* Has the leader ended? 0, or -errno of waitid(). */
static int look(struct child_wait *cw)
{
	siginfo_t si = { .si_pid = 0 };

	if (cw->exited)
		return 0;
	/* WNOWAIT: a zombie leader keeps the group id ours */
	while (waitid(P_PID, (id_t)cw->pid, &si, WEXITED | WNOHANG | WNOWAIT))
		if (errno != EINTR)
			return -errno;
	if (si.si_pid == cw->pid)
		cw->exited = true;
	return 0;
}

/*
 * A stop, or the watch's expiry: @term and SIGCONT, then SIGKILL after
 * the grace or at a (further) signal.
 */
static void forward(struct child_wait *cw)
{
	bool stopped = cw->stop && *cw->stop != cw->since;

	if (cw->end == COMMAND_ENDED &&
	    (stopped || (cw->expired && cw->expired(cw->ctx)))) {
		if (cw->term)
			kill(-cw->pid, cw->term);
		/* a stopped member (SIGTTOU, SIGSTOP) must see it */
		kill(-cw->pid, SIGCONT);
		cw->end = stopped ? COMMAND_TERMINATED : COMMAND_TIMED_OUT;
		cw->seen = cw->stop ? *cw->stop : 0;
		cw->deadline = now_ms() + COMMAND_STOP_GRACE_MS;
	} else if (cw->end != COMMAND_ENDED && !cw->killed &&
		   ((cw->stop && *cw->stop != cw->seen) ||
		    now_ms() >= cw->deadline)) {
		bool again = cw->stop && *cw->stop != cw->seen;

		kill(-cw->pid, SIGKILL);
		cw->killed = true;
		/* a timed-out child stays COMMAND_TIMED_OUT but for a signal */
		if (again)
			cw->end = COMMAND_KILLED_AGAIN;
		else if (cw->end == COMMAND_TERMINATED)
			cw->end = COMMAND_KILLED;
	}
}

static bool killed(const struct child_wait *cw)
{
	return cw->killed;
}

int child_wait_end(struct child_wait *cw, int *status)
{
	const struct timespec tick = { .tv_nsec =
					       CHILD_WAIT_POLL_MS * 1000000L };
	int ret;

	for (;;) {
		ret = look(cw);
		if (ret)
			return ret;
		if (cw->exited)
			break;
		forward(cw);
		nanosleep(&tick, NULL);
	}
	/* a stopped child's background children go with it */
	if (cw->end != COMMAND_ENDED)
		kill(-cw->pid, SIGKILL);
	while (waitpid(cw->pid, status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

ssize_t child_wait_read(struct child_wait *cw, int fd, void *buf, size_t len)
{
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		bool over;
		ssize_t n;
		int r;

		/* a failed look leaves the pipe's end to say it is over */
		look(cw);
		/* after the leader too: its children may hold the pipe */
		forward(cw);
		over = killed(cw) && cw->exited;
		r = poll(&p, 1, over ? 0 : CHILD_WAIT_POLL_MS);
		if (r > 0) {
			n = read(fd, buf, len);
			if (n >= 0 || (errno != EINTR && errno != EAGAIN))
				return n;
			continue;
		}
		if (r < 0 && errno != EINTR)
			return -1;
		if (!r && over) {
			/* killed: whoever still holds it is not waited for */
			errno = EINTR;
			return -1;
		}
	}
}

char *child_wait_read_all(struct child_wait *cw, int fd, size_t max)
{
	char *buf = xmalloc(max + 1);
	size_t len = 0;
	ssize_t r;

	for (;;) {
		char skip[4096];

		if (len < max)
			r = child_wait_read(cw, fd, buf + len, max - len);
		else /* past what counts: drained so that the writer can exit */
			r = child_wait_read(cw, fd, skip, sizeof(skip));
		if (r <= 0)
			break;
		if (len < max)
			len += (size_t)r;
	}
	buf[len] = '\0';
	return buf;
}

const char *child_wait_killed(const struct child_wait *cw, char *buf,
			      size_t len)
{
	if (cw->end == COMMAND_KILLED)
		snprintf(
			buf, len,
			"still ran %g s after the stop signal: killed (SIGKILL)",
			COMMAND_STOP_GRACE_MS / 1000.0);
	else if (cw->end == COMMAND_KILLED_AGAIN)
		snprintf(buf, len,
			 "still ran at a second stop signal: killed (SIGKILL)");
	else
		return NULL;
	return buf;
}
