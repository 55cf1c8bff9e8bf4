/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_SYS_PIPE_H
#define VB_SYS_PIPE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Has the reader of the pipe or socket @fd gone away (vfsbench | head)?
 * poll() says so (POLLERR or POLLHUP on the write end) without writing,
 * so it can be asked while nothing is to be written. False for anything
 * else, and for a pipe that still has a reader.
 */
bool pipe_reader_gone(int fd);

/*
 * All that @fd gives until its end (the writer exits or closes it), NUL
 * terminated, at most @max bytes kept: the rest is read and dropped, so
 * that the writer (perf) never blocks on a full pipe. Freed by the caller.
 */
char *pipe_read_all(int fd, size_t max);

#endif /* VB_SYS_PIPE_H */
