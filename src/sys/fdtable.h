/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_SYS_FDTABLE_H
#define VB_SYS_FDTABLE_H

/*
 * Growing the fd table of a multi-threaded process makes the kernel wait
 * for an RCU grace period (milliseconds: 2.5 to 16 ms measured here at
 * 256, 512, ... fds), stalling the thread that opens. So the table is sized
 * before the clients are released: fdtable_reserve() makes room for @n
 * more fds above the lowest free one by duplicating an fd to that number
 * (the table never shrinks) and, if needed, raises RLIMIT_NOFILE's soft
 * limit to the hard limit. Returns 0, or -EMFILE with a message naming
 * the limit to raise.
 */
int fdtable_reserve(unsigned int n);

/*
 * The size of the calling thread's fd table, in fds: the FDSize line of
 * /proc/thread-self/status (what the kernel allocated, a power of two of
 * at least 64, which grows with the highest fd and never shrinks). 0 if
 * it cannot be read.
 */
unsigned long fdtable_size(void);

#endif /* VB_SYS_FDTABLE_H */
