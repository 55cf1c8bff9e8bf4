/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The directories above a work directory that only root and the caller
 * can change: the condition for resolving from "/" at every op.
 */
#include <config.h>
#include "workdir/workchain.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/msg.h"

/* One directory of the chain, @path[0..@len) for the message. */
static int check_one(int fd, const char *path, size_t len, const char *what,
		     const char *hint)
{
	struct stat st;
	uid_t me = geteuid();
	int shown = len ? (int)len : 1;

	if (fstat(fd, &st)) {
		int err = -errno;

		error("%s: cannot stat '%.*s': %s", what, shown, path,
		      strerror(-err));
		return err;
	}
	if (st.st_uid != 0 && st.st_uid != me) {
		error("%s: '%.*s' is owned by uid %ld, neither root nor us (uid %ld): its owner could swap the work directory for a symlink mid-run%s",
		      what, shown, path, (long)st.st_uid, (long)me, hint);
		return -EPERM;
	}
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX)) {
		error("%s: '%.*s' is writable by %s without the sticky bit (mode %04o): another user could swap the work directory for a symlink mid-run%s",
		      what, shown, path,
		      st.st_mode & S_IWOTH ? "others" : "its group",
		      (unsigned int)(st.st_mode & 07777), hint);
		return -EPERM;
	}
	return 0;
}

int workchain_check(const char *dir, const char *what, const char *hint)
{
	char *real = realpath(dir, NULL), name[NAME_MAX + 1];
	const char *p, *e;
	int fd, next, ret;

	if (!real) {
		ret = -errno;
		error("%s: cannot resolve '%s': %s", what, dir, strerror(-ret));
		return ret;
	}
	fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		error("%s: cannot open '/': %s", what, strerror(-ret));
		goto out_free;
	}
	for (p = real;;) {
		ret = check_one(fd, real, (size_t)(p - real), what, hint);
		if (ret)
			break;
		p += strspn(p, "/");
		if (!*p)
			break;
		e = strchrnul(p, '/');
		/* realpath()'s components are at most NAME_MAX */
		memcpy(name, p, (size_t)(e - p));
		name[e - p] = '\0';
		next = openat(fd, name,
			      O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0) {
			ret = -errno;
			error("%s: cannot open '%.*s': %s", what,
			      (int)(e - real), real, strerror(-ret));
			break;
		}
		close(fd);
		fd = next;
		p = e;
	}
	close(fd);
out_free:
	free(real);
	return ret;
}
