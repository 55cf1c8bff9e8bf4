/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * struct marker: writing, reading and trusting the file that says a work
 * directory is a vfsbench instance's, and whose (pid and start time).
 */
#include <config.h>
#include "workdir/marker.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/msg.h"

#define MARKER_HEAD "vfsbench work directory of pid "

static int read_text(int fd, char *buf, size_t len)
{
	size_t n = 0;
	ssize_t r;

	while (n < len - 1) {
		r = read(fd, buf + n, len - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (!r)
			break;
		n += (size_t)r;
	}
	buf[n] = '\0';
	return (int)n;
}

int marker_proc_start(long pid, unsigned long long *start)
{
	char path[64], buf[1024], *p;
	int fd, n, field;

	if (pid <= 0)
		return -ENOENT;
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ESRCH ? -ENOENT : -errno;
	n = read_text(fd, buf, sizeof(buf));
	close(fd);
	if (n < 0)
		return n == -ESRCH ? -ENOENT : n;
	/* the name may hold spaces and parentheses: after the last ')' */
	p = strrchr(buf, ')');
	if (!p)
		return -EINVAL;
	/* p + 2 is field 3 (the state) */
	p += 2;
	for (field = 3; field < 22 && *p; field++) {
		p = strchr(p, ' ');
		if (!p)
			return -EINVAL;
		p++;
	}
	if (field != 22 || sscanf(p, "%llu", start) != 1)
		return -EINVAL;
	return 0;
}

static int write_all(int fd, const char *buf, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, buf, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Write a marker naming us and @id as @name in @dirfd (O_EXCL). */
static int write_as(int dirfd, const char *name, const char *path,
		    const char *id)
{
	unsigned long long start;
	char buf[200];
	int fd, len, err;

	err = marker_proc_start(getpid(), &start);
	if (err) {
		error("cannot read this process's start time from /proc: %s",
		      strerror(-err));
		return err;
	}
	fd = openat(dirfd, name,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		err = -errno;
		goto out_report;
	}
	len = snprintf(
		buf, sizeof(buf),
		MARKER_HEAD
		"%ld started at %llu (id %s); vfsbench removes it when the run ends\n",
		(long)getpid(), start, id);
	err = write_all(fd, buf, (size_t)len);
	if (close(fd) && !err)
		err = -errno;
	if (!err)
		return 0;
out_report:
	error("cannot write marker file '%s/%s': %s", path, name,
	      strerror(-err));
	return err;
}

int marker_write(int dirfd, const char *path, const char *id)
{
	return write_as(dirfd, WORKDIR_MARKER, path, id);
}

int marker_replace(int dirfd, const char *path, const char *id)
{
	static const char tmp[] = WORKDIR_MARKER ".new";
	int err;

	/* one a crash left; the tree is ours (checked) */
	if (unlinkat(dirfd, tmp, 0) && errno != ENOENT) {
		err = -errno;
		error("cannot remove '%s/%s': %s", path, tmp, strerror(-err));
		return err;
	}
	err = write_as(dirfd, tmp, path, id);
	if (err)
		return err;
	if (renameat(dirfd, tmp, dirfd, WORKDIR_MARKER)) {
		err = -errno;
		unlinkat(dirfd, tmp, 0);
		error("cannot replace marker file '%s/%s': %s", path,
		      WORKDIR_MARKER, strerror(-err));
		return err;
	}
	return 0;
}

int marker_read(int dirfd, struct marker *m)
{
	char buf[256], *p;
	struct stat st;
	int fd, n, used;

	memset(m, 0, sizeof(*m));
	fd = openat(dirfd, WORKDIR_MARKER,
		    O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return errno == ELOOP ? -EINVAL : -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	m->uid = st.st_uid;
	n = read_text(fd, buf, sizeof(buf));
	close(fd);
	if (n < 0)
		return n;
	if (strncmp(buf, MARKER_HEAD, strlen(MARKER_HEAD)) ||
	    sscanf(buf + strlen(MARKER_HEAD), "%ld%n", &m->pid, &used) != 1)
		return -EINVAL;
	p = buf + strlen(MARKER_HEAD) + used;
	m->has_start = sscanf(p, " started at %llu", &m->start) == 1;
	p = strstr(p, "(id ");
	if (p && strlen(p + 4) >= WORKDIR_ID_LEN - 1 &&
	    p[4 + WORKDIR_ID_LEN - 1] == ')') {
		memcpy(m->id, p + 4, WORKDIR_ID_LEN - 1);
		m->id[WORKDIR_ID_LEN - 1] = '\0';
	}
	return 0;
}

int marker_trust(int dirfd, const char *path)
{
	unsigned long long start;
	struct marker m;
	int err;

	err = marker_read(dirfd, &m);
	if (err) {
		error("'%s/%s' is not a vfsbench marker file (%s): not using '%s'",
		      path, WORKDIR_MARKER,
		      err == -EINVAL ? "not a regular file of a marker's text" :
				       strerror(-err),
		      path);
		return -EPERM;
	}
	if (m.uid != geteuid()) {
		error("'%s/%s' is owned by uid %ld, not by us (uid %ld): another user's marker; not using '%s'",
		      path, WORKDIR_MARKER, (long)m.uid, (long)geteuid(), path);
		return -EPERM;
	}
	if (m.pid == (long)getpid())
		return 0;
	err = marker_proc_start(m.pid, &start);
	if (err == -ENOENT)
		return 0;
	if (err) {
		error("cannot tell whether vfsbench pid %ld of '%s' still runs: %s; not using it",
		      m.pid, path, strerror(-err));
		return -EPERM;
	}
	if (!m.has_start) {
		error("'%s' belongs to pid %ld, which is running (its marker has no start time to tell a reused pid): not using it",
		      path, m.pid);
		return -EPERM;
	}
	if (start == m.start) {
		error("'%s' is in use by another vfsbench (pid %ld, running): not using it",
		      path, m.pid);
		return -EPERM;
	}
	return 0;
}

bool marker_names(int dirfd, const char *id)
{
	struct marker m;

	return !marker_read(dirfd, &m) && m.uid == geteuid() &&
	       !strcmp(m.id, id);
}
