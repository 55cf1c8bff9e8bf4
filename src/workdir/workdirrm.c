/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Removing from the work directory (workdir_clear(): one subtree, reached
 * through workpath.c, never through a symlink) and the work directory
 * itself (workdir_remove(): only while it is still ours, the same
 * directory in the same place with its marker, checked before and after
 * emptying it). The walk that deletes is rmtree.c's; this is where it is
 * aimed.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/msg.h"
#include "workdir/fileid.h"
#include "workdir/marker.h"
#include "workdir/rmtree.h"
#include "workdir/workdir.h"
#include "workdir/workpath.h"

/* Length of relpath up to (not including) its last component. */
static size_t last_component(const char *relpath, char *name)
{
	const char *p = relpath, *start = relpath;

	while (*p) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		start = p;
		workpath_next(&p, name);
	}
	return (size_t)(start - relpath);
}

int workdir_clear(struct workdir *wd, const char *relpath,
		  const volatile int *abort_flag)
{
	char name[NAME_MAX + 1];
	struct stat st;
	char *base;
	size_t plen;
	int n, pfd, err;

	n = workpath_check(wd, relpath);
	if (n < 0)
		return n;
	plen = last_component(relpath, name);
	if (n == 1 && !strcmp(name, WORKDIR_MARKER)) {
		error("refusing to clear the marker file of '%s'", wd->path);
		return -EINVAL;
	}
	pfd = workpath_open(wd, relpath, n - 1, false, true);
	if (pfd < 0)
		return pfd;
	if (fstatat(pfd, name, &st, AT_SYMLINK_NOFOLLOW)) {
		err = -errno;
		if (err != -ENOENT)
			error("cannot stat '%s/%s': %s", wd->path, relpath,
			      strerror(-err));
		goto out_close;
	}

	while (plen && relpath[plen - 1] == '/')
		plen--;
	base = xmalloc(strlen(wd->path) + plen + 2);
	sprintf(base, "%s%s%.*s", wd->path, plen ? "/" : "", (int)plen,
		relpath);
	err = rmtree_remove_at(pfd, name, S_ISDIR(st.st_mode), base, abort_flag,
			       &wd->mounts);
	free(base);
out_close:
	if (pfd != wd->fd)
		close(pfd);
	return err;
}

/*
 * Is wd still what we created, in the place we created it? See workdir.h
 * for the return values.
 */
static int workdir_check(const struct workdir *wd)
{
	struct fileid self, there, marker;
	int err;

	err = fileid_of_fd(wd->fd, &self);
	if (err) {
		error("cannot stat work directory '%s': %s", wd->path,
		      strerror(-err));
		return err;
	}
	err = fileid_at(wd->parent_fd, wd->name, AT_SYMLINK_NOFOLLOW, &there);
	if (err && err != -ENOENT) {
		error("cannot stat work directory '%s': %s", wd->path,
		      strerror(-err));
		return err;
	}
	if (err && !self.nlink) {
		error("work directory '%s' has vanished", wd->path);
		return -ENOENT;
	}
	if (err) {
		error("work directory '%s' was moved away; not removing it",
		      wd->path);
		return -ESTALE;
	}
	if (there.dev != wd->dev || there.ino != wd->ino) {
		error("'%s' is no longer our work directory (replaced); not removing it",
		      wd->path);
		return -ESTALE;
	}
	err = fileid_at(wd->fd, WORKDIR_MARKER, AT_SYMLINK_NOFOLLOW, &marker);
	if (err || !S_ISREG(marker.mode)) {
		error("work directory '%s' has lost its marker file '%s'; not removing it",
		      wd->path, WORKDIR_MARKER);
		return -ESTALE;
	}
	/* ours: owned by us, naming the id we wrote */
	if (!marker_names(wd->fd, wd->id)) {
		error("the marker file of work directory '%s' is no longer ours; not removing it",
		      wd->path);
		return -ESTALE;
	}
	return 0;
}

int workdir_remove(struct workdir *wd, const volatile int *abort_flag)
{
	int err;

	if (wd->foreign) {
		error("'%s' was not made by vfsbench: not removing it",
		      wd->path);
		return -EPERM;
	}
	if (wd->attached) {
		workdir_release(wd);
		return 0;
	}
	err = workdir_check(wd);
	if (err)
		return err;
	err = rmtree_empty(wd->fd, wd->path, WORKDIR_MARKER, abort_flag,
			   &wd->mounts);
	if (err)
		return err;

	err = workdir_check(wd);
	if (err)
		return err;
	if (unlinkat(wd->fd, WORKDIR_MARKER, 0)) {
		err = -errno;
		error("cannot remove '%s/%s': %s", wd->path, WORKDIR_MARKER,
		      strerror(-err));
		return err;
	}
	if (unlinkat(wd->parent_fd, wd->name, AT_REMOVEDIR)) {
		err = -errno;
		error("cannot remove work directory '%s': %s", wd->path,
		      strerror(-err));
		return err;
	}
	workdir_release(wd);
	return 0;
}
