/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_SYS_PIPE_H
#define VB_SYS_PIPE_H

#include <stdbool.h>

/*
 * Has the reader of the pipe or socket @fd gone away (vfsbench | head)?
 * poll() says so (POLLERR or POLLHUP on the write end) without writing,
 * so it can be asked while nothing is to be written. False for anything
 * else, and for a pipe that still has a reader.
 */
bool pipe_reader_gone(int fd);

#endif /* VB_SYS_PIPE_H */
