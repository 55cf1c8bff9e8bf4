/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_SYS_MEMORY_H
#define VB_SYS_MEMORY_H

#include <stdint.h>

/*
 * struct memory_limits: how much more memory this process may use, for
 * the check before a sweep creates anything. Each figure is in bytes,
 * UINT64_MAX where there is no such limit or it cannot be read.
 */
struct memory_limits {
	/* RLIMIT_AS (ulimit -v) less the address space in use */
	uint64_t as_left;
	uint64_t as_limit;
	/* MemAvailable of /proc/meminfo: what can be touched without
	 * swapping or the OOM killer */
	uint64_t available;
	/* the memory cgroup's limit less its usage (v2 memory.max, or v1
	 * memory.limit_in_bytes) */
	uint64_t cgroup_left;
};

void memory_limits(struct memory_limits *m);

#endif /* VB_SYS_MEMORY_H */
