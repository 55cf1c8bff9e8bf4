/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_SYS_TASK_H
#define VB_SYS_TASK_H

#include <stddef.h>

/*
 * What the kernel says of thread @tid of this process, for a message
 * about a thread that does not return from a system call: its state and
 * where it waits, from /proc/self/task/TID/{stat,wchan}, as in
 * "state D (uninterruptible sleep), waiting in percpu_rwsem_wait". Fills
 * @buf (always NUL-terminated) and returns it.
 */
char *task_describe(int tid, char *buf, size_t len);

#endif /* VB_SYS_TASK_H */
