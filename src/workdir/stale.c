/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Work directories left behind in a -D directory: found, named, and
 * removed when they are provably ours and their process is gone.
 */
#include <config.h>
#include "workdir/stale.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/msg.h"
#include "workdir/fileid.h"
#include "workdir/marker.h"
#include "workdir/workdir.h"
#include "workdir/workowner.h"

#define STALE_PREFIX "vfsbench."

/* What the marker in @dirfd says of its tree; fills t->pid and t->uid. */
static enum stale_kind classify(int dirfd, struct stale_tree *t)
{
	struct marker *m = &t->marker;

	t->err = marker_read(dirfd, m);
	if (t->err)
		return STALE_UNMARKED;
	t->pid = m->pid;
	t->uid = (long)m->uid;
	if (m->uid != geteuid())
		return STALE_FOREIGN;
	switch (marker_instance(m, &t->here, &t->err)) {
	case MARKER_GONE:
		return STALE_GONE;
	case MARKER_RUNNING:
	case MARKER_SELF:
		return STALE_LIVE;
	case MARKER_ELSEWHERE:
		t->elsewhere = true;
		return STALE_ELSEWHERE;
	case MARKER_UNKNOWN:
		break;
	}
	return STALE_UNKNOWN;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct stale_tree *)a)->name,
		      ((const struct stale_tree *)b)->name);
}

static void add(struct stale *s, int dfd, const char *name)
{
	struct stale_tree *t;
	struct stat st;
	int fd;

	s->tree = xrealloc(s->tree, (s->n + 1) * sizeof(*s->tree));
	t = &s->tree[s->n++];
	*t = (struct stale_tree){ .name = xstrdup(name), .pid = -1, .uid = -1 };
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) ||
	    !S_ISDIR(st.st_mode)) {
		t->kind = STALE_NOT_DIR;
		return;
	}
	fd = openat(dfd, name, WORKDIR_DIR_FLAGS);
	if (fd < 0) {
		/* one swapped for a link since the look above is not followed
		 */
		t->err = -errno;
		t->kind = t->err == -ELOOP || t->err == -ENOTDIR ?
				  STALE_NOT_DIR :
				  STALE_UNOPENED;
		return;
	}
	t->kind = classify(fd, t);
	close(fd);
	s->gone += t->kind == STALE_GONE;
}

int stale_scan(struct stale *s, const char *parent)
{
	struct dirent *e;
	DIR *d;
	int fd;

	memset(s, 0, sizeof(*s));
	s->parent_fd = -1;
	s->parent = xstrdup(parent);
	s->parent_fd = workdir_open_parent(parent);
	if (s->parent_fd < 0)
		return s->parent_fd;
	fd = openat(s->parent_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		fd = -errno;
		error("cannot list '%s': %s", parent, strerror(-fd));
		return fd;
	}
	d = fdopendir(fd);
	if (!d) {
		int err = -errno;

		close(fd);
		error("cannot list '%s': %s", parent, strerror(-err));
		return err;
	}
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, STALE_PREFIX, strlen(STALE_PREFIX)))
			add(s, dirfd(d), e->d_name);
	closedir(d);
	if (s->n)
		qsort(s->tree, s->n, sizeof(*s->tree), by_name);
	return 0;
}

void stale_report(const char *parent)
{
	struct stale s;

	if (!stale_scan(&s, parent))
		stale_warn(&s);
	stale_release(&s);
}

unsigned int stale_warn(const struct stale *s)
{
	for (unsigned int i = 0; i < s->n; i++)
		if (s->tree[i].kind == STALE_GONE)
			warning("'%s/%s' was left behind by vfsbench pid %ld, which is gone",
				s->parent, s->tree[i].name, s->tree[i].pid);
	if (s->gone)
		warning("remove %s with: vfsbench clean -D '%s'",
			s->gone == 1 ? "it" : "them", s->parent);
	return s->gone;
}

/* Remove the tree @t, ours and gone: every check done again, on its fd. */
static int remove_one(struct stale *s, const struct stale_tree *t,
		      const char *path, const volatile int *abort_flag)
{
	struct workdir wd;
	struct fileid id;
	struct marker m;
	int fd, err;

	fd = openat(s->parent_fd, t->name, WORKDIR_DIR_FLAGS);
	if (fd < 0) {
		err = -errno;
		error("cannot open '%s': %s; not removing it", path,
		      strerror(-err));
		return err;
	}
	/* every entry ours, no directory others may write in; then the
	 * marker, read again: ours, its process gone */
	err = workowner_check(fd, path);
	if (!err)
		err = marker_trust(fd, path, s->assume_gone);
	if (!err)
		err = marker_read(fd, &m);
	if (!err)
		err = fileid_of_fd(fd, &id);
	if (err) {
		close(fd);
		return err == -EPERM ? err : -EPERM;
	}
	memset(&wd, 0, sizeof(wd));
	wd.parent_fd = dup(s->parent_fd);
	if (wd.parent_fd < 0) {
		err = -errno;
		close(fd);
		return err;
	}
	wd.fd = fd;
	wd.path = xstrdup(path);
	wd.name = xstrdup(t->name);
	wd.dev = id.dev;
	wd.ino = id.ino;
	memcpy(wd.id, m.id, sizeof(wd.id));
	err = workdir_remove(&wd, abort_flag);
	if (err)
		workdir_release(&wd);
	return err;
}

/* remove_one(), and the tree is STALE_REMOVED once it is gone. */
static int remove_gone(struct stale *s, struct stale_tree *t, const char *path,
		       const volatile int *abort_flag)
{
	int err = remove_one(s, t, path, abort_flag);

	if (!err)
		t->kind = STALE_REMOVED;
	return err;
}

/* A tree of another PID namespace or boot, left: why, and what would do. */
static int refuse_elsewhere(const struct stale_tree *t, const char *path)
{
	char where[200];

	marker_elsewhere(&t->marker, &t->here, where, sizeof(where));
	error("'%s' was made by vfsbench pid %ld %s: whether it still runs cannot be told from here; left in place (once you know it has ended: vfsbench clean --assume-gone)",
	      path, t->pid, where);
	return -EPERM;
}

/* A tree whose marker is missing or cannot be read: which, and why. */
static void refuse_unmarked(const struct stale_tree *t, const char *path)
{
	if (t->err == -ENOENT)
		error("'%s' has no vfsbench marker file: vfsbench removes only trees it created",
		      path);
	else if (t->err == -EINVAL)
		error("'%s/%s' is not a vfsbench marker file (not a regular file of a marker's text): vfsbench removes only trees it created",
		      path, WORKDIR_MARKER);
	else
		error("cannot read '%s/%s': %s; not removing it", path,
		      WORKDIR_MARKER, strerror(-t->err));
}

/* The first error wins; a refusal or a live tree does not hide a failure. */
static void keep_first(int *ret, int err)
{
	if (err && !*ret)
		*ret = err;
}

int stale_remove(struct stale *s, const volatile int *abort_flag)
{
	int ret = 0;

	for (unsigned int i = 0; i < s->n; i++) {
		struct stale_tree *t = &s->tree[i];
		size_t len = strlen(s->parent) + strlen(t->name) + 2;
		char *path = xmalloc(len);
		int err = 0;

		snprintf(path, len, "%s/%s", s->parent, t->name);
		if (abort_flag && *abort_flag) {
			free(path);
			keep_first(&ret, -EINTR);
			break;
		}
		switch (t->kind) {
		case STALE_ELSEWHERE:
			/* --assume-gone: the user vouches that it has ended */
			if (s->assume_gone)
				err = remove_gone(s, t, path, abort_flag);
			else
				err = refuse_elsewhere(t, path);
			break;
		case STALE_GONE:
			err = remove_gone(s, t, path, abort_flag);
			break;
		case STALE_LIVE:
			/* not stale: named, never touched, not an error */
			warning("'%s' is in use by vfsbench pid %ld, which is running: left in place",
				path, t->pid);
			break;
		case STALE_REMOVED:
			break;
		case STALE_FOREIGN:
			error("'%s' belongs to uid %ld, not to us (uid %ld): another user's tree is never removed",
			      path, t->uid, (long)geteuid());
			err = -EPERM;
			break;
		case STALE_UNMARKED:
			refuse_unmarked(t, path);
			err = -EPERM;
			break;
		case STALE_UNOPENED:
			error("cannot open '%s': %s; not removing it", path,
			      strerror(-t->err));
			err = -EPERM;
			break;
		case STALE_NOT_DIR:
			error("'%s' is not a directory (symlinks are not followed): not removing it",
			      path);
			err = -EPERM;
			break;
		case STALE_UNKNOWN:
			error("cannot tell whether vfsbench pid %ld of '%s' is gone%s%s: not removing it",
			      t->pid, path, t->err ? ": " : "",
			      t->err == -EXDEV ?
				      "this process's /proc is not of its PID namespace" :
			      t->err ? strerror(-t->err) :
				       "");
			err = -EPERM;
			break;
		}
		free(path);
		keep_first(&ret, err);
	}
	return ret;
}

void stale_release(struct stale *s)
{
	if (s->parent_fd >= 0)
		close(s->parent_fd);
	for (unsigned int i = 0; i < s->n; i++)
		free(s->tree[i].name);
	free(s->tree);
	free(s->parent);
	memset(s, 0, sizeof(*s));
	s->parent_fd = -1;
}
