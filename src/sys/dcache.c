/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The dentry cache before a run's clock starts (--dcache): dropped, or
 * filled with negative dentries.
 */
#include <config.h>
#include "sys/dcache.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#define DROP_CACHES "/proc/sys/vm/drop_caches"

int dcache_drop(void)
{
	int fd, ret = 0;

	/* dirty inodes (and the dentries that pin them) cannot go */
	sync();
	fd = open(DROP_CACHES, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* 2: dentries and inodes; not the page cache (1) */
	if (write(fd, "2", 1) != 1)
		ret = errno ? -errno : -EIO;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

int dcache_pinned(const char *path, bool *pinned)
{
	struct statfs sf;

	if (statfs(path, &sf))
		return -errno;
	*pinned = sf.f_type == TMPFS_MAGIC || sf.f_type == RAMFS_MAGIC;
	return 0;
}

static void negative_name(uint32_t i, char *buf, unsigned int len)
{
	snprintf(buf, len, ".vb-neg-%u", i);
}

int dcache_make_negative(int dirfd, uint32_t from, uint32_t to, uint32_t *at)
{
	struct stat st;
	char name[32];

	for (uint32_t i = from; i < to; i++) {
		negative_name(i, name, sizeof(name));
		if (!fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW)) {
			*at = i;
			return -EEXIST;
		}
		if (errno != ENOENT) {
			*at = i;
			return -errno;
		}
	}
	return 0;
}
