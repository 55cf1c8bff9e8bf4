/* SPDX-License-Identifier: GPL-2.0-or-later */
/* FxMark's media name of a filesystem, from its type and its source. */
#include <config.h>
#include "sys/media.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/sysfile.h"

/* "0" or "1" from queue/rotational of block device @name, or NULL. */
static char *rotational(const char *name)
{
	char dir[PATH_MAX];
	char *line;

	snprintf(dir, sizeof(dir), "/sys/class/block/%s", name);
	line = sysfile_line(dir, "queue/rotational");
	/* a partition: the queue is its disk's, one level up */
	if (!line)
		line = sysfile_line(dir, "../queue/rotational");
	return line;
}

const char *media_of(const char *fs_type, const char *fs_source)
{
	char path[PATH_MAX];
	const char *name, *media = NULL;
	char *rot;

	if (fs_type && (!strcmp(fs_type, "tmpfs") || !strcmp(fs_type, "ramfs")))
		return "mem";
	if (!fs_source || strncmp(fs_source, "/dev/", 5))
		return NULL;
	/* /dev/mapper/x and /dev/disk/by-*: links to the device's node */
	if (!realpath(fs_source, path))
		return NULL;
	name = strrchr(path, '/') + 1;
	if (!strncmp(name, "nvme", 4))
		return "nvme";
	rot = rotational(name);
	if (rot && !strcmp(rot, "1"))
		media = "hdd";
	else if (rot && !strcmp(rot, "0"))
		media = "ssd";
	free(rot);
	return media;
}
