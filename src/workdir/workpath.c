/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Relative paths inside the work directory: their syntax (no absolute
 * path, no "." or ".."), and opening their directories one component at
 * a time with O_NOFOLLOW, never leaving the work directory's mount;
 * workdir_mkdir(). Shared with the removal (workdirrm.c), which opens
 * the way to what it removes alike.
 */
#include <config.h>
#include "workdir/workpath.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/msg.h"
#include "workdir/fileid.h"
#include "workdir/workdir.h"

static bool is_dot_or_dotdot(const char *name)
{
	return name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2]));
}

/*
 * Copy the next component of *p into name[NAME_MAX + 1] and advance *p
 * past it. Returns 1 for a component, 0 at the end, -ENAMETOOLONG.
 */
int workpath_next(const char **p, char *name)
{
	const char *s = *p, *e;
	size_t len;

	while (*s == '/')
		s++;
	if (!*s) {
		*p = s;
		return 0;
	}
	e = strchrnul(s, '/');
	len = (size_t)(e - s);
	if (len > NAME_MAX)
		return -ENAMETOOLONG;
	memcpy(name, s, len);
	name[len] = '\0';
	*p = e;
	return 1;
}

/* Check the syntax of relpath; returns the number of components. */
int workpath_check(const struct workdir *wd, const char *relpath)
{
	char name[NAME_MAX + 1];
	const char *p = relpath;
	int n = 0, r;

	if (!relpath || relpath[0] == '/')
		goto out_invalid;
	while ((r = workpath_next(&p, name)) > 0) {
		if (is_dot_or_dotdot(name))
			goto out_invalid;
		n++;
	}
	if (r < 0) {
		error("path '%s' inside work directory '%s' has a component longer than %d bytes",
		      relpath, wd->path, NAME_MAX);
		return r;
	}
	if (n)
		return n;
out_invalid:
	error("invalid path '%s' inside work directory '%s': want a relative path without '.' or '..'",
	      relpath ? relpath : "(null)", wd->path);
	return -EINVAL;
}

/*
 * Open (after creating it, if `create`) the directory `name` in dirfd,
 * never following a symlink and never leaving the work directory's mount.
 */
static int open_component(const struct fileid *root, int dirfd,
			  const char *name, bool create)
{
	struct fileid id;
	int fd, err;

	if (create && mkdirat(dirfd, name, 0755) && errno != EEXIST)
		return -errno;
	fd = openat(dirfd, name, WORKDIR_DIR_FLAGS);
	if (fd < 0)
		return -errno;
	err = fileid_of_fd(fd, &id);
	if (!err && !fileid_same_mount(&id, root))
		err = -EXDEV;
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

/*
 * Open the directory made of the first `n` components of relpath, creating
 * them if `create`. Returns its fd, which may be wd->fd when n is 0.
 * -ENOENT is not reported when `quiet_enoent`.
 */
int workpath_open(const struct workdir *wd, const char *relpath, int n,
		  bool create, bool quiet_enoent)
{
	char name[NAME_MAX + 1];
	const char *p = relpath;
	struct fileid root;
	int cur = wd->fd, fd, err;

	err = fileid_of_fd(wd->fd, &root);
	if (err) {
		error("cannot stat work directory '%s': %s", wd->path,
		      strerror(-err));
		return err;
	}
	while (n-- > 0 && workpath_next(&p, name) > 0) {
		fd = open_component(&root, cur, name, create);
		if (cur != wd->fd)
			close(cur);
		if (fd < 0) {
			err = fd;
			goto out_report;
		}
		cur = fd;
	}
	return cur;

out_report:
	if (err == -EXDEV)
		error("'%s/%.*s' is on another mount; not using it", wd->path,
		      (int)(p - relpath), relpath);
	else if (err == -ENOTDIR || err == -ELOOP)
		error("'%s/%.*s' is not a directory (symlinks are not followed)",
		      wd->path, (int)(p - relpath), relpath);
	else if (err != -ENOENT || !quiet_enoent)
		error("cannot %s directory '%s/%.*s': %s",
		      create ? "create" : "open", wd->path, (int)(p - relpath),
		      relpath, strerror(-err));
	return err;
}

int workdir_mkdir(struct workdir *wd, const char *relpath, int *dirfd_out)
{
	int n, fd;

	n = workpath_check(wd, relpath);
	if (n < 0)
		return n;
	fd = workpath_open(wd, relpath, n, true, false);
	if (fd < 0)
		return fd;
	if (dirfd_out)
		*dirfd_out = fd;
	else
		close(fd);
	return 0;
}
