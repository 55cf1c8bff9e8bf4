/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_SYS_DCACHE_H
#define VB_SYS_DCACHE_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The dentry cache's state before a run's clock starts (--dcache): cold
 * (dropped) or holding negative dentries that the client made.
 */

/*
 * sync(), then "2" into /proc/sys/vm/drop_caches: the kernel frees the
 * unused dentries and inodes of every filesystem (slab reclaim), those
 * that were dirty once the sync wrote them. Needs root. 0 or -errno.
 */
int dcache_drop(void);

/*
 * Is @path on a filesystem whose dentries cannot be dropped: tmpfs (and
 * ramfs), which keep them as the only copy of the tree? -errno when
 * statfs() fails, else 0 (*@pinned set).
 */
int dcache_pinned(const char *path, bool *pinned);

/*
 * Negative dentries @from to @to - 1 in the directory @dirfd (AT_FDCWD:
 * the cwd): fstatat() of .vb-neg-FROM to .vb-neg-(TO-1), each of which
 * must be missing. 0, or -EEXIST when a name exists, or the lookup's
 * -errno other than ENOENT; *@at is then the index of that name. The
 * caller makes N of them a slice at a time, and looks for a stop in
 * between (10 million take a minute and a half on a loaded machine).
 */
int dcache_make_negative(int dirfd, uint32_t from, uint32_t to, uint32_t *at);

#endif /* VB_SYS_DCACHE_H */
