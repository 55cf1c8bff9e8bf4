/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * struct workdir: creating the work directory under -D with the marker
 * that says vfsbench made it, using a named one (dbench's "clients"),
 * ours from an earlier run or adopted, and attaching to another
 * process's; releasing it. Paths inside it are workpath.c's, removing
 * what is in it and then itself workdirrm.c's (with rmtree.c doing the
 * deleting): the code that deletes stays apart from the code that makes.
 */
#include <config.h>
#include "workdir/workdir.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/msg.h"
#include "workdir/fileid.h"
#include "workdir/marker.h"
#include "workdir/rmtree.h"
#include "workdir/workowner.h"

#define WORKDIR_PREFIX	     "vfsbench."
#define WORKDIR_SUFFIX_LEN   6
#define WORKDIR_CREATE_TRIES 100

static void workdir_clear_fields(struct workdir *wd)
{
	wd->parent_fd = -1;
	wd->fd = -1;
	wd->path = NULL;
	wd->name = NULL;
	wd->dev = 0;
	wd->ino = 0;
	wd->id[0] = '\0';
	wd->attached = false;
	memset(&wd->mounts, 0, sizeof(wd->mounts));
	wd->reused = false;
	wd->foreign = false;
}

void workdir_release(struct workdir *wd)
{
	if (wd->fd >= 0)
		close(wd->fd);
	if (wd->parent_fd >= 0)
		close(wd->parent_fd);
	free(wd->path);
	free(wd->name);
	rmtree_seen_release(&wd->mounts);
	workdir_clear_fields(wd);
}

/* ---- workdir_create ---- */

static uint64_t random_seed(void)
{
	struct timespec ts;
	uint64_t seed;

	if (getrandom(&seed, sizeof(seed), GRND_NONBLOCK) == sizeof(seed))
		return seed;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^
	       ((uint64_t)getpid() << 16) ^ (uint64_t)(uintptr_t)&ts;
}

/* splitmix64: one 64-bit step of a well-mixed sequence. */
static uint64_t next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void make_name(char *name, uint64_t *state)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyz"
				    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	uint64_t r = next_random(state);
	size_t len = strlen(WORKDIR_PREFIX);
	int i;

	memcpy(name, WORKDIR_PREFIX, len);
	for (i = 0; i < WORKDIR_SUFFIX_LEN; i++) {
		name[len + i] = chars[r % (sizeof(chars) - 1)];
		r /= sizeof(chars) - 1;
	}
	name[len + WORKDIR_SUFFIX_LEN] = '\0';
}

/*
 * The next component of *@p into @name[NAME_MAX + 1], *@p moved past it:
 * 1, 0 at the end, -ENAMETOOLONG.
 */
static int next_component(const char **p, char *name)
{
	const char *s = *p + strspn(*p, "/");
	size_t len = strcspn(s, "/");

	if (!len) {
		*p = s;
		return 0;
	}
	if (len > NAME_MAX)
		return -ENAMETOOLONG;
	memcpy(name, s, len);
	name[len] = '\0';
	*p = s + len;
	return 1;
}

/* Whether @p holds another component after its slashes. */
static bool more_components(const char *p)
{
	return p[strspn(p, "/")] != '\0';
}

/*
 * Open the -D directory, resolved one component at a time from "/" or
 * ".": a symlink anywhere in @parent ("link/." too) is -ELOOP, a missing
 * component -ENOENT, a non-directory -ENOTDIR, each with a message.
 */
int workdir_open_parent(const char *parent)
{
	char name[NAME_MAX + 1];
	const char *p = parent;
	struct stat st, fst;
	int cur, fd, r, err;

	if (!*parent) {
		error("work directory parent '%s' does not exist", parent);
		return -ENOENT;
	}
	cur = open(*parent == '/' ? "/" : ".",
		   O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (cur < 0) {
		err = -errno;
		error("cannot access work directory parent '%s': %s", parent,
		      strerror(-err));
		return err;
	}
	while ((r = next_component(&p, name)) > 0) {
		if (fstatat(cur, name, &st, AT_SYMLINK_NOFOLLOW)) {
			err = -errno;
			if (err == -ENOENT)
				error("work directory parent '%s' does not exist",
				      parent);
			else
				error("cannot access work directory parent '%s': %s",
				      parent, strerror(-err));
			goto out_close;
		}
		err = S_ISLNK(st.st_mode)  ? -ELOOP :
		      !S_ISDIR(st.st_mode) ? -ENOTDIR :
					     0;
		if (err == -ELOOP && more_components(p))
			error("work directory parent '%s' goes through the symlink '%.*s'; give the real path",
			      parent, (int)(p - parent), parent);
		else if (err == -ELOOP)
			error("work directory parent '%s' is a symlink; give the real path",
			      parent);
		else if (err && more_components(p))
			error("cannot access work directory parent '%s': %s",
			      parent, strerror(-err));
		else if (err)
			error("work directory parent '%s' is not a directory",
			      parent);
		if (err)
			goto out_close;
		fd = openat(cur, name,
			    O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0) {
			err = -errno;
			error("cannot open work directory parent '%s': %s",
			      parent, strerror(-err));
			goto out_close;
		}
		close(cur);
		cur = fd;
		if (fstat(cur, &fst) || fst.st_dev != st.st_dev ||
		    fst.st_ino != st.st_ino) {
			error("work directory parent '%s' changed while being opened",
			      parent);
			err = -ESTALE;
			goto out_close;
		}
	}
	if (r < 0) {
		error("work directory parent '%s' has a component longer than %d bytes",
		      parent, NAME_MAX);
		err = r;
		goto out_close;
	}
	return cur;

out_close:
	close(cur);
	return err;
}

/* A fresh random id for a marker, into @id (WORKDIR_ID_LEN); returns @id. */
static char *new_id(char *id)
{
	uint64_t state = random_seed();

	snprintf(id, WORKDIR_ID_LEN, "%016llx",
		 (unsigned long long)next_random(&state));
	return id;
}

/* mkdirat() a fresh "vfsbench.XXXXXX" in pfd; its name goes to `name`. */
static int make_workdir(int pfd, const char *parent, char *name, char *id)
{
	uint64_t state = random_seed();
	int i, err;

	new_id(id);
	for (i = 0; i < WORKDIR_CREATE_TRIES; i++) {
		make_name(name, &state);
		if (!mkdirat(pfd, name, 0700))
			return 0;
		if (errno != EEXIST)
			break;
	}
	err = i < WORKDIR_CREATE_TRIES ? -errno : -EEXIST;
	error("cannot create work directory in '%s': %s", parent,
	      strerror(-err));
	return err;
}

static char *join_path(const char *dir, const char *name)
{
	size_t dlen = strlen(dir), nlen = strlen(name);
	bool slash = !dlen || dir[dlen - 1] != '/';
	char *p = xmalloc(dlen + slash + nlen + 1);

	memcpy(p, dir, dlen);
	if (slash)
		p[dlen] = '/';
	memcpy(p + dlen + slash, name, nlen + 1);
	return p;
}

/*
 * The parent exists and is a directory: a failure to create in it (mkdir
 * in /proc says ENOENT) is a failure of the run, not a bad -D, so it
 * must not look like the parent's own -ENOENT, -ENOTDIR or -ELOOP, nor
 * like a tree refused as not ours (-EPERM).
 */
static int creating_error(int err)
{
	if (err == -EPERM)
		return -EACCES;
	return err == -ENOENT || err == -ENOTDIR || err == -ELOOP ? -EIO : err;
}

/* @parent without its trailing slashes; free() it. */
static char *parent_path(const char *parent)
{
	char *pdir = xstrdup(parent);
	size_t len = strlen(pdir);

	while (len > 1 && pdir[len - 1] == '/')
		pdir[--len] = '\0';
	return pdir;
}

/* wd takes @pfd, @fd, @path and a copy of @name, and @fd's identity. */
static void workdir_fill(struct workdir *wd, int pfd, int fd, char *path,
			 const char *name, const struct fileid *id)
{
	wd->parent_fd = pfd;
	wd->fd = fd;
	wd->path = path;
	wd->name = xstrdup(name);
	wd->dev = id->dev;
	wd->ino = id->ino;
}

int workdir_create(struct workdir *wd, const char *parent)
{
	char name[sizeof(WORKDIR_PREFIX) + WORKDIR_SUFFIX_LEN];
	char *pdir, *path;
	struct fileid id;
	int pfd, fd, err;

	workdir_clear_fields(wd);
	pdir = parent_path(parent);

	pfd = workdir_open_parent(pdir);
	if (pfd < 0) {
		err = pfd;
		goto out_free_pdir;
	}
	err = make_workdir(pfd, pdir, name, wd->id);
	if (err) {
		err = creating_error(err);
		goto out_close_parent;
	}
	path = join_path(pdir, name);

	fd = openat(pfd, name, WORKDIR_DIR_FLAGS);
	err = fd < 0 ? -errno : fileid_of_fd(fd, &id);
	if (err) {
		error("cannot open work directory '%s': %s", path,
		      strerror(-err));
		err = creating_error(err);
		goto out_rmdir;
	}
	err = marker_write(fd, path, wd->id);
	if (err) {
		err = creating_error(err);
		goto out_rmdir;
	}

	workdir_fill(wd, pfd, fd, path, name, &id);
	free(pdir);
	return 0;

out_rmdir:
	if (fd >= 0) {
		unlinkat(fd, WORKDIR_MARKER, 0);
		close(fd);
	}
	if (unlinkat(pfd, name, AT_REMOVEDIR))
		error("cannot remove half-created work directory '%s': %s",
		      path, strerror(errno));
	free(path);
out_close_parent:
	close(pfd);
out_free_pdir:
	free(pdir);
	return err;
}

/*
 * An existing @name in @pfd: ours (the marker is there), or adopted, or
 * refused. Returns its fd or -errno, with a message.
 */
static int open_existing(struct workdir *wd, int pfd, const char *name,
			 const char *path, bool adopt)
{
	struct fileid marker;
	bool has_marker;
	int fd, err;

	fd = openat(pfd, name, WORKDIR_DIR_FLAGS);
	if (fd < 0) {
		err = -errno;
		if (err == -ENOTDIR || err == -ELOOP) {
			error("'%s' is not a directory (symlinks are not followed)",
			      path);
			return -ENOTDIR;
		}
		error("cannot open '%s': %s", path, strerror(-err));
		return err;
	}
	has_marker = fileid_at(fd, WORKDIR_MARKER, AT_SYMLINK_NOFOLLOW,
			       &marker) != -ENOENT;
	if (has_marker || adopt) {
		/* found, not made now: used only if provably ours */
		err = workowner_check(fd, path);
		if (!err && has_marker)
			err = marker_trust(fd, path, false);
		/* from now on the marker names us, a live instance */
		if (!err && has_marker)
			err = marker_replace(fd, path, new_id(wd->id));
		if (err) {
			close(fd);
			return err;
		}
		wd->reused = has_marker;
		wd->foreign = !has_marker;
		return fd;
	}
	close(fd);
	error("'%s' was not made by vfsbench (it has no %s file): vfsbench neither uses nor removes a tree it did not create; remove it, or give --adopt-clients to replay into it as it is (vfsbench then never removes it)",
	      path, WORKDIR_MARKER);
	return -EEXIST;
}

int workdir_open_named(struct workdir *wd, const char *parent, const char *name,
		       bool adopt)
{
	char *pdir = parent_path(parent), *path;
	bool made = false;
	struct fileid id;
	int pfd, fd, err;

	workdir_clear_fields(wd);
	pfd = workdir_open_parent(pdir);
	if (pfd < 0) {
		free(pdir);
		return pfd;
	}
	path = join_path(pdir, name);
	free(pdir);
	if (!mkdirat(pfd, name, 0700)) {
		made = true;
		fd = openat(pfd, name, WORKDIR_DIR_FLAGS);
		err = fd < 0 ? -errno : 0;
		if (err)
			error("cannot open '%s': %s", path, strerror(-err));
		else
			err = marker_write(fd, path, new_id(wd->id));
		err = creating_error(err);
	} else if (errno == EEXIST) {
		fd = open_existing(wd, pfd, name, path, adopt);
		err = fd < 0 ? fd : 0;
	} else {
		err = -errno;
		fd = -1;
		error("cannot create '%s': %s", path, strerror(-err));
		err = creating_error(err);
	}
	if (!err) {
		err = fileid_of_fd(fd, &id);
		if (err)
			error("cannot stat '%s': %s", path, strerror(-err));
	}
	if (err) {
		if (fd >= 0 && made)
			unlinkat(fd, WORKDIR_MARKER, 0);
		if (fd >= 0)
			close(fd);
		if (made && unlinkat(pfd, name, AT_REMOVEDIR))
			error("cannot remove half-created '%s': %s", path,
			      strerror(errno));
		close(pfd);
		free(path);
		wd->reused = wd->foreign = false;
		return err;
	}
	workdir_fill(wd, pfd, fd, path, name, &id);
	return 0;
}

/* ---- workdir_attach ---- */

int workdir_attach(struct workdir *wd, const char *parent, const char *name,
		   const char *id)
{
	struct fileid fid;
	char *pdir;
	int pfd, fd;

	workdir_clear_fields(wd);
	pdir = parent_path(parent);
	pfd = workdir_open_parent(pdir);
	if (pfd < 0) {
		free(pdir);
		return pfd;
	}
	fd = openat(pfd, name, WORKDIR_DIR_FLAGS);
	if (fd < 0 || fileid_of_fd(fd, &fid) || !marker_names(fd, id)) {
		if (fd >= 0)
			close(fd);
		close(pfd);
		free(pdir);
		return -ENOENT;
	}
	workdir_fill(wd, pfd, fd, join_path(pdir, name), name, &fid);
	snprintf(wd->id, sizeof(wd->id), "%s", id);
	wd->attached = true;
	free(pdir);
	return 0;
}
