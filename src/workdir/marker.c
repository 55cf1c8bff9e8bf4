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

/* Field 22 of the stat file @path (/proc/PID/stat) into *@start. */
static int proc_start(const char *path, unsigned long long *start)
{
	char buf[1024], *p;
	int fd, n, field;

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

int marker_proc_start(long pid, unsigned long long *start)
{
	char path[64];

	if (pid <= 0)
		return -ENOENT;
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	return proc_start(path, start);
}

/* A boot id as the kernel writes it: 36 hex digits and dashes. */
static bool boot_id_ok(const char *s)
{
	size_t n = strspn(s, "0123456789abcdef-");

	return n == MARKER_BOOT_LEN - 1 && !s[n];
}

int marker_place_here(struct marker_place *p)
{
	char buf[64];
	struct stat st;
	int fd, n;

	memset(p, 0, sizeof(*p));
	if (stat("/proc/self/ns/pid", &st))
		return -errno;
	p->pidns = (unsigned long long)st.st_ino;
	fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read_text(fd, buf, sizeof(buf));
	close(fd);
	if (n < 0)
		return n;
	buf[strcspn(buf, "\n")] = '\0';
	if (!boot_id_ok(buf))
		return -EINVAL;
	memcpy(p->boot, buf, MARKER_BOOT_LEN);
	return 0;
}

/*
 * Is the /proc we see our PID namespace's? Not after `unshare --pid
 * --fork` without a /proc of its own: /proc/self is then our pid in the
 * namespace that mounted it, and /proc/N another process than our N.
 */
static int proc_is_ours(void)
{
	char buf[32];
	ssize_t n = readlink("/proc/self", buf, sizeof(buf) - 1);

	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return strtol(buf, NULL, 10) == (long)getpid() ? 0 : -EXDEV;
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
	struct marker_place here;
	unsigned long long start;
	char buf[300];
	int fd, len, err;

	/* /proc/self: /proc/getpid() may be another process's (above) */
	err = proc_start("/proc/self/stat", &start);
	if (err) {
		error("cannot read this process's start time from /proc: %s",
		      strerror(-err));
		return err;
	}
	err = marker_place_here(&here);
	if (err) {
		error("cannot read this process's PID namespace and boot id from /proc: %s",
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
		"%ld started at %llu (id %s) in pid namespace %llu on boot %s; vfsbench removes it when the run ends\n",
		(long)getpid(), start, id, here.pidns, here.boot);
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
	char buf[512], boot[MARKER_BOOT_LEN], *p;
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
	/* both or neither: a place half read is no place */
	p = strstr(buf + strlen(MARKER_HEAD), " in pid namespace ");
	if (p &&
	    sscanf(p, " in pid namespace %llu on boot %36[0-9a-f-]",
		   &m->place.pidns, boot) == 2 &&
	    boot_id_ok(boot)) {
		memcpy(m->place.boot, boot, MARKER_BOOT_LEN);
		m->has_place = true;
	}
	return 0;
}

enum marker_instance marker_instance(const struct marker *m,
				     struct marker_place *here, int *err)
{
	struct marker_place me;
	unsigned long long start;

	*err = 0;
	if (m->has_place) {
		*err = marker_place_here(&me);
		if (*err)
			return MARKER_UNKNOWN;
		if (here)
			*here = me;
		/* its pid is another process's here, or none */
		if (m->place.pidns != me.pidns ||
		    strcmp(m->place.boot, me.boot))
			return MARKER_ELSEWHERE;
	}
	if (m->pid == (long)getpid())
		return MARKER_SELF;
	*err = proc_is_ours();
	if (*err)
		return MARKER_UNKNOWN;
	*err = marker_proc_start(m->pid, &start);
	if (*err == -ENOENT) {
		*err = 0;
		return MARKER_GONE;
	}
	if (*err)
		return MARKER_UNKNOWN;
	if (!m->has_start)
		return MARKER_UNKNOWN;
	return start == m->start ? MARKER_RUNNING : MARKER_GONE;
}

void marker_elsewhere(const struct marker *m, const struct marker_place *here,
		      char *buf, size_t len)
{
	if (strcmp(m->place.boot, here->boot))
		snprintf(
			buf, len,
			"on another host or an earlier boot (boot id %s; this boot is %s)",
			m->place.boot, here->boot);
	else
		snprintf(
			buf, len,
			"in another PID namespace (pid:[%llu]; this process is in pid:[%llu])",
			m->place.pidns, here->pidns);
}

int marker_trust(int dirfd, const char *path, bool elsewhere_gone)
{
	struct marker_place here;
	struct marker m;
	char where[200];
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
	switch (marker_instance(&m, &here, &err)) {
	case MARKER_GONE:
	case MARKER_SELF:
		return 0;
	case MARKER_RUNNING:
		error("'%s' is in use by another vfsbench (pid %ld, running): not using it",
		      path, m.pid);
		return -EPERM;
	case MARKER_ELSEWHERE:
		if (elsewhere_gone)
			return 0;
		marker_elsewhere(&m, &here, where, sizeof(where));
		error("'%s' was made by vfsbench pid %ld %s: whether it still runs cannot be told from here; not using it",
		      path, m.pid, where);
		return -EPERM;
	case MARKER_UNKNOWN:
		break;
	}
	if (!err)
		error("'%s' belongs to pid %ld, which is running (its marker has no start time to tell a reused pid): not using it",
		      path, m.pid);
	else if (err == -EXDEV)
		error("cannot tell whether vfsbench pid %ld of '%s' still runs: this process's /proc is not of its PID namespace; not using it",
		      m.pid, path);
	else
		error("cannot tell whether vfsbench pid %ld of '%s' still runs: %s; not using it",
		      m.pid, path, strerror(-err));
	return -EPERM;
}

bool marker_names(int dirfd, const char *id)
{
	struct marker m;

	return !marker_read(dirfd, &m) && m.uid == geteuid() &&
	       !strcmp(m.id, id);
}
