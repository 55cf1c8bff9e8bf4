/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The ownership walk of a tree found on disk, before vfsbench uses it:
 * every entry the caller's, no directory writable by anyone else.
 */
#include <config.h>
#include "workdir/workowner.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/msg.h"

/* nftw() passes no context: the walk's, for one call at a time. */
static struct {
	const char *path; /* the tree's, for messages */
	size_t skip; /* length of the /proc/self/fd/N/. prefix */
	int err;
} walk;

/* @fpath shown under the tree's own path. */
static const char *shown(const char *fpath, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", walk.path, fpath + walk.skip);
	return buf;
}

static int visit(const char *fpath, const struct stat *sb, int type,
		 struct FTW *ftw)
{
	char buf[4096];

	(void)ftw;
	if (type == FTW_NS) {
		error("cannot stat '%s': not using '%s'",
		      shown(fpath, buf, sizeof(buf)), walk.path);
		walk.err = -EPERM;
		return 1;
	}
	if (sb->st_uid != geteuid()) {
		error("'%s' is owned by uid %ld, not by us (uid %ld): not using '%s'",
		      shown(fpath, buf, sizeof(buf)), (long)sb->st_uid,
		      (long)geteuid(), walk.path);
		walk.err = -EPERM;
		return 1;
	}
	if (S_ISDIR(sb->st_mode) && (sb->st_mode & (S_IWGRP | S_IWOTH))) {
		error("directory '%s' is writable by %s (mode %04o): not using '%s'",
		      shown(fpath, buf, sizeof(buf)),
		      sb->st_mode & S_IWOTH ? "others" : "its group",
		      (unsigned int)(sb->st_mode & 07777), walk.path);
		walk.err = -EPERM;
		return 1;
	}
	return 0;
}

int workowner_check(int dirfd, const char *path)
{
	char top[64];
	int ret;

	snprintf(top, sizeof(top), "/proc/self/fd/%d/.", dirfd);
	walk.path = path;
	walk.skip = strlen(top);
	walk.err = 0;
	ret = nftw(top, visit, 16, FTW_PHYS | FTW_MOUNT);
	if (ret < 0) {
		ret = -errno;
		error("cannot check who owns '%s': %s; not using it", path,
		      strerror(-ret));
		return ret;
	}
	return walk.err;
}
