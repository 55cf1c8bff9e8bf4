/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Whether anyone still reads a pipe we write.
 */
#include <config.h>
#include "sys/pipe.h"

#include <errno.h>
#include <poll.h>

bool pipe_reader_gone(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLOUT };

	return poll(&p, 1, 0) == 1 && (p.revents & (POLLERR | POLLHUP));
}
