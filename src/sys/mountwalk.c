/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The components and mount points above a directory, for --resolve abs's
 * report: statx(2) of each prefix of the path, comparing mount ids
 * (st_dev alone misses a bind mount of the same filesystem).
 */
#include <config.h>
#include "sys/mountwalk.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>

static int mount_id(const char *path, uint64_t *id)
{
	struct statx stx;

	if (statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_MNT_ID, &stx))
		return -errno;
	if (!(stx.stx_mask & STATX_MNT_ID))
		return -EOPNOTSUPP;
	*id = stx.stx_mnt_id;
	return 0;
}

int mountwalk_count(const char *path, unsigned int *components,
		    unsigned int *mounts)
{
	char buf[PATH_MAX];
	uint64_t parent, id;
	size_t len = strlen(path);
	int ret;

	*components = *mounts = 0;
	if (path[0] != '/' || len >= sizeof(buf))
		return -EINVAL;
	ret = mount_id("/", &parent);
	if (ret)
		return ret;
	for (size_t i = 1; i <= len; i++) {
		if (path[i] != '/' && path[i] != '\0')
			continue;
		if (path[i - 1] == '/')
			continue; /* "//" or a final '/' */
		memcpy(buf, path, i);
		buf[i] = '\0';
		ret = mount_id(buf, &id);
		if (ret)
			return ret;
		++*components;
		*mounts += id != parent;
		parent = id;
	}
	return 0;
}
