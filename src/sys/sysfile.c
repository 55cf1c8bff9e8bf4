/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One-line files of /proc and /sys, for the environment and the cgroup.
 */
#include <config.h>
#include "sys/sysfile.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"

char *sysfile_line(const char *dir, const char *name)
{
	char path[4096], buf[4096];
	char *ret = NULL;
	FILE *f;
	int err;

	if (dir)
		snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(dir ? path : name, "re");
	if (!f)
		return NULL;
	errno = 0;
	if (fgets(buf, sizeof(buf), f)) {
		buf[strcspn(buf, "\n")] = '\0';
		ret = xstrdup(buf);
	}
	err = errno;
	fclose(f);
	errno = err;
	return ret;
}
