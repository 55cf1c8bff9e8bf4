/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Whether anyone still reads a pipe we write, and all a pipe gives.
 */
#include <config.h>
#include "sys/pipe.h"

#include <errno.h>
#include <poll.h>
#include <unistd.h>

#include "base/alloc.h"

bool pipe_reader_gone(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLOUT };

	return poll(&p, 1, 0) == 1 && (p.revents & (POLLERR | POLLHUP));
}

char *pipe_read_all(int fd, size_t max)
{
	char *buf = xmalloc(max + 1);
	size_t len = 0;
	ssize_t r;

	for (;;) {
		char skip[4096];

		if (len < max)
			r = read(fd, buf + len, max - len);
		else /* past what counts: drained so that the writer can exit */
			r = read(fd, skip, sizeof(skip));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (len < max)
			len += (size_t)r;
	}
	buf[len] = '\0';
	return buf;
}
