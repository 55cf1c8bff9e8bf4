/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_SYS_IOWQ_H
#define VB_SYS_IOWQ_H

#include <stdint.h>

/*
 * The CPU time that the io-wq workers of thread @tid have used so far:
 * the threads of this process named iou-wrk-<tid> (the kernel names a
 * ring's workers after the task that submitted to it), summed from the
 * first field of their /proc/self/task/<id>/schedstat, in ns. A worker
 * that has exited is no longer counted. 0, or -errno when /proc cannot
 * be read.
 */
int iowq_cpu_ns(int tid, uint64_t *ns);

#endif /* VB_SYS_IOWQ_H */
