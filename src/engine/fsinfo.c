/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The filesystem-information calls by path, shared by the native ops
 * (posix.c) and dbench's QUERY_FS_INFORMATION (dbench.c): statfs(2),
 * statvfs(3) and the statvfs() of glibc before 2.13.
 */
#include <config.h>
#include "engine/fsinfo.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "base/compiler.h"
#include "base/octal.h"

/* statfs(2) through glibc's statfs(), a wrapper that adds no other call. */
long posix_statfs(UNUSED struct engine_ctx *c, UNUSED const struct op *op,
		  const char *path, UNUSED const char *path2)
{
	struct statfs sf;

	return ENGINE_RET(statfs(path, &sf));
}

long posix_statvfs(UNUSED struct engine_ctx *c, UNUSED const struct op *op,
		   const char *path, UNUSED const char *path2)
{
	struct statvfs sv;

	return ENGINE_RET(statvfs(path, &sv));
}

/*
 * Scan one buffer of mount lines for a mount point on device @dev. A line
 * cut at the end of the buffer is left for the next read: returns the
 * number of bytes consumed, and sets *found.
 */
static size_t scan_mounts(char *buf, size_t len, dev_t dev, bool *found)
{
	size_t used = 0;

	while (used < len) {
		char *line = buf + used, *nl, *sp, *mp;
		struct stat st;

		nl = memchr(line, '\n', len - used);
		if (!nl)
			break;
		*nl = '\0';
		used = (size_t)(nl - buf) + 1;
		sp = strchr(line, ' ');
		if (!sp)
			continue;
		mp = sp + 1;
		sp = strchr(mp, ' ');
		if (!sp)
			continue;
		*sp = '\0';
		unescape_octal(mp);
		if (stat(mp, &st) == 0 && st.st_dev == dev) {
			*found = true;
			break;
		}
	}
	return used;
}

/*
 * What glibc's statvfs() did before 2.13 to fill f_flag: statfs(), stat()
 * of the path, then a walk of the mount table stat()ing each mount point
 * until one is on the same device. The mount table's cost grows with the
 * number of mounts, and its mount-point stat()s contend on the paths near
 * the root: the cost Nick Piggin measured in 2009-2010.
 */
long posix_statvfs_legacy(struct engine_ctx *c, UNUSED const struct op *op,
			  const char *path, UNUSED const char *path2)
{
	struct statfs sf;
	struct stat st;
	size_t have = 0;
	bool found = false;
	int fd;

	if (statfs(path, &sf) || stat(path, &st))
		return -(long)errno;
	fd = open("/proc/self/mounts", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -(long)errno;
	while (!found) {
		ssize_t n =
			read(fd, c->dirbuf + have, ENGINE_DIRBUF - have - 1);
		size_t used;

		if (n <= 0)
			break;
		have += (size_t)n;
		used = scan_mounts(c->dirbuf, have, st.st_dev, &found);
		memmove(c->dirbuf, c->dirbuf + used, have - used);
		have -= used;
		if (have == ENGINE_DIRBUF - 1)
			have = 0; /* a line longer than the buffer: skip it */
	}
	close(fd);
	return 0;
}
