/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perf's --control protocol (tools/perf/Documentation/perf-record.txt,
 * "--control=fifo:ctl-fifo[,ack-fifo]"): one command a line on the
 * control fd, "ack\n" back on the ack fd once perf has acted on it.
 */
#include <config.h>
#include "sys/perfctl.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/clock.h"
#include "base/msg.h"

/* Open @path, a FIFO, with @flags; -errno with a message. */
static int open_fifo(const char *path, int flags, const char *what)
{
	struct stat st;
	int fd = open(path, flags | O_NONBLOCK | O_CLOEXEC), err;

	if (fd < 0) {
		err = errno;
		if (err == ENXIO)
			error("--perf-ctl: no process has '%s' open for reading: start perf record --control fifo:%s first",
			      path, path);
		else
			error("--perf-ctl: cannot open %s '%s': %s", what, path,
			      strerror(err));
		return -err;
	}
	if (fstat(fd, &st) || !S_ISFIFO(st.st_mode)) {
		close(fd);
		error("--perf-ctl: '%s' is not a FIFO (mkfifo it, and give it to perf record --control fifo:...)",
		      path);
		return -EINVAL;
	}
	return fd;
}

int perf_ctl_open(struct perf_ctl *pc, const char *fifo, const char *ack,
		  const volatile sig_atomic_t *stop)
{
	size_t len = strlen(fifo) + (ack ? strlen(ack) : 0) + 2;

	memset(pc, 0, sizeof(*pc));
	pc->ack = -1;
	pc->noise = -1;
	/* a FIFO may have writers besides perf: its EOF may never come */
	pc->timeout_ms = PERF_CTL_TIMEOUT_MS;
	pc->stop = stop;
	pc->ctl = open_fifo(fifo, O_WRONLY, "the control FIFO");
	if (pc->ctl < 0)
		return pc->ctl;
	if (ack) {
		pc->ack = open_fifo(ack, O_RDONLY, "the ack FIFO");
		if (pc->ack < 0) {
			int ret = pc->ack;

			close(pc->ctl);
			return ret;
		}
	}
	pc->name = xmalloc(len);
	snprintf(pc->name, len, "%s%s%s", fifo, ack ? "," : "", ack ? ack : "");
	return 0;
}

void perf_ctl_init(struct perf_ctl *pc, int ctl, int ack, const char *name,
		   const volatile sig_atomic_t *stop)
{
	pc->ctl = ctl;
	pc->ack = ack;
	pc->name = xstrdup(name);
	pc->also = NULL;
	pc->timeout_ms = -1;
	pc->stop = stop;
	pc->noise = -1;
}

/*
 * Write @buf whole; a reader that has gone is -EPIPE, and the SIGPIPE it
 * raises (for this thread) is taken here instead of ending vfsbench.
 */
static int write_all(int fd, const char *buf, size_t len)
{
	sigset_t pipe_set, old;
	const struct timespec zero = { 0, 0 };
	int ret = 0;

	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			break;
		}
		buf += n;
		len -= (size_t)n;
	}
	if (ret == -EPIPE)
		sigtimedwait(&pipe_set, NULL, &zero);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	/* a FIFO whose reader is stuck fills up: perf is not reading */
	return ret == -EAGAIN ? -ETIMEDOUT : ret;
}

/*
 * One line from @pc's ack fd, byte by byte so nothing after it is taken.
 * NULs are skipped: perf writes its ack with the string's terminator,
 * "ack\n\0". The wait is in slices of a second at most, so that a stop
 * signal that came just before poll() still ends it.
 */
static int read_line(const struct perf_ctl *pc, char *buf, size_t len)
{
	uint64_t deadline =
		clock_now_ns() + (uint64_t)pc->timeout_ms * 1000000u;
	size_t n = 0;

	for (;;) {
		struct pollfd p = { .fd = pc->ack, .events = POLLIN };
		uint64_t now = clock_now_ns();
		int ret, slice = 1000;
		ssize_t r;

		if (pc->stop && *pc->stop)
			return -EINTR;
		if (pc->timeout_ms >= 0 && now >= deadline)
			return -ETIMEDOUT;
		if (pc->timeout_ms >= 0 && deadline - now < 1000000000u)
			slice = (int)((deadline - now) / 1000000u) + 1;
		ret = poll(&p, 1, slice);
		if (ret < 0 && errno == EINTR)
			continue;
		if (ret < 0)
			return -errno;
		if (!ret)
			continue;
		r = read(pc->ack, buf + n, 1);
		if (r < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (r < 0)
			return -errno;
		if (!r)
			return -EPIPE;
		if (!buf[n])
			continue;
		if (buf[n] == '\n' || n + 2 >= len) {
			buf[n] = '\0';
			return 0;
		}
		n++;
	}
}

/* @cmd to @pc alone, and its ack. */
static int send_one(const struct perf_ctl *pc, const char *cmd)
{
	char line[32], reply[16];
	int ret;

	snprintf(line, sizeof(line), "%s\n", cmd);
	ret = write_all(pc->ctl, line, strlen(line));
	if (!ret && pc->ack >= 0) {
		ret = read_line(pc, reply, sizeof(reply));
		if (!ret && strcmp(reply, "ack"))
			ret = -EPROTO;
	}
	/* perf said what it did before it acked */
	if (pc->noise >= 0)
		perf_ctl_forward(pc->noise);
	return ret;
}

void perf_ctl_forward(int fd)
{
	char buf[4096];
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf) - 1)) > 0 ||
	       (n < 0 && errno == EINTR)) {
		char *line = buf;

		if (n < 0)
			continue;
		buf[n] = '\0';
		while (*line) {
			char *end = strchrnul(line, '\n');
			size_t len = (size_t)(end - line);

			if (!(len == 14 &&
			      !strncmp(line, "Events enabled", len)) &&
			    !(len == 15 &&
			      !strncmp(line, "Events disabled", len)))
				fprintf(stderr, "%.*s\n", (int)len, line);
			line = *end ? end + 1 : end;
		}
	}
}

int perf_ctl_send(const struct perf_ctl *pc, const char *cmd)
{
	int ret = send_one(pc, cmd);

	/* each follower whatever the one before it answered */
	if (!ret)
		for (const struct perf_ctl *f = pc->also; f; f = f->also)
			send_one(f, cmd);
	return ret;
}

const char *perf_ctl_strerror(int err)
{
	switch (err) {
	case -EPIPE:
		return "perf has gone (it closed its end)";
	case -ETIMEDOUT:
		return "perf did not acknowledge it in time";
	case -EINTR:
		return "a stop signal came before perf acknowledged it";
	case -EPROTO:
		return "perf answered something other than 'ack'";
	default:
		return strerror(-err);
	}
}

void perf_ctl_close(struct perf_ctl *pc)
{
	if (pc->ctl >= 0)
		close(pc->ctl);
	if (pc->ack >= 0)
		close(pc->ack);
	free(pc->name);
	pc->ctl = pc->ack = -1;
	pc->name = NULL;
}
