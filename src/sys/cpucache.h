/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_SYS_CPUCACHE_H
#define VB_SYS_CPUCACHE_H

#include <stdint.h>

/*
 * struct cpucache: the sizes of one CPU's data caches, as sysfs lists them
 * in the index0, index1... directories of /sys/devices/system/cpu/cpuN/cache
 * (level, type, size).
 * Instruction caches are left out; a size sysfs does not give is 0.
 */
struct cpucache {
	uint64_t l1d; /* the level-1 data cache */
	uint64_t l2; /* the level-2 data or unified cache */
	uint64_t llc; /* the data or unified cache of the highest level */
	unsigned int llc_level;
};

#define CPUCACHE_SYSFS "/sys/devices/system/cpu/cpu0/cache"

/*
 * Read the cache directory @dir (CPUCACHE_SYSFS, or a copy of its layout
 * in tests). 0, or -ENOENT when it lists no data cache (all sizes 0).
 */
int cpucache_read(struct cpucache *c, const char *dir);

#endif /* VB_SYS_CPUCACHE_H */
