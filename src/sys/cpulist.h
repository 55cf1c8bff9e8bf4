/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_SYS_CPULIST_H
#define VB_SYS_CPULIST_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * struct cpulist: CPU numbers (the kernel's, as sched_setaffinity(2) and
 * /sys/devices/system/cpu/cpuN take them), in an order that matters: a
 * --placement list gives client i the i-th entry, and may name a CPU
 * twice. Lists read from the kernel (an affinity mask) are ascending and
 * unique.
 */
struct cpulist {
	unsigned int *cpu; /* [n] */
	unsigned int n;
};

/* The most CPU numbers a list may name: the kernel's NR_CPUS limit. */
#define CPULIST_MAX_CPU 8191

/*
 * Parse the kernel's list syntax, "0-3,8,10-11", keeping the order given
 * ("3,1,2" stays 3 1 2; a range counts up). Returns 0, or -EINVAL (@l
 * untouched) for anything else: an empty list or item, a range that
 * counts down, a number above CPULIST_MAX_CPU.
 */
int cpulist_parse(struct cpulist *l, const char *s);

/*
 * The affinity mask of thread @tid (0: the calling thread), ascending.
 * Returns 0 or -errno from sched_getaffinity(2).
 */
int cpulist_affinity(struct cpulist *l, pid_t tid);

/*
 * Set the affinity of thread @tid (0: the calling thread) to the CPUs of
 * @l. Returns 0 or -errno from sched_setaffinity(2).
 */
int cpulist_set_affinity(const struct cpulist *l, pid_t tid);

/* Append @cpu. */
void cpulist_add(struct cpulist *l, unsigned int cpu);
bool cpulist_contains(const struct cpulist *l, unsigned int cpu);
/* How many different CPUs @l names. */
unsigned int cpulist_distinct(const struct cpulist *l);

/*
 * The CPUs of @l as the kernel writes a mask: ascending, unique, runs as
 * ranges ("0-3,8"); "" when empty. Truncated to fit @len; returns @buf.
 */
char *cpulist_format(const struct cpulist *l, char *buf, size_t len);
/* The same, allocated. */
char *cpulist_string(const struct cpulist *l);

void cpulist_release(struct cpulist *l);

#endif /* VB_SYS_CPULIST_H */
