/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * struct workdir: creating the work directory under -D, making directories
 * inside it, and removing subtrees and the whole of it again after checking
 * that it is still ours. The deleting itself is done by rmtree.c.
 */
#include <config.h>
#include "run/workdir.h"

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
#include "run/fileid.h"
#include "run/rmtree.h"

#define WORKDIR_PREFIX	     "vfsbench."
#define WORKDIR_SUFFIX_LEN   6
#define WORKDIR_CREATE_TRIES 100

#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

static bool is_dot_or_dotdot(const char *name)
{
	return name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2]));
}

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

static int write_marker(int dirfd, const char *path, const char *id)
{
	char buf[160];
	int fd, len, err;

	fd = openat(dirfd, WORKDIR_MARKER,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		err = -errno;
		goto out_report;
	}
	len = snprintf(
		buf, sizeof(buf),
		"vfsbench work directory of pid %ld (id %s); vfsbench removes it when the run ends\n",
		(long)getpid(), id);
	err = write_all(fd, buf, (size_t)len);
	if (close(fd) && !err)
		err = -errno;
	if (!err)
		return 0;
out_report:
	error("cannot write marker file '%s/%s': %s", path, WORKDIR_MARKER,
	      strerror(-err));
	return err;
}

/* Open the -D directory, which must be a real directory, not a symlink. */
static int open_parent(const char *parent)
{
	struct stat st, fst;
	int fd, err;

	if (lstat(parent, &st)) {
		err = -errno;
		if (err == -ENOENT)
			error("work directory parent '%s' does not exist",
			      parent);
		else
			error("cannot access work directory parent '%s': %s",
			      parent, strerror(-err));
		return err;
	}
	if (S_ISLNK(st.st_mode)) {
		error("work directory parent '%s' is a symlink; give the real path",
		      parent);
		return -ELOOP;
	}
	if (!S_ISDIR(st.st_mode)) {
		error("work directory parent '%s' is not a directory", parent);
		return -ENOTDIR;
	}
	fd = open(parent, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		error("cannot open work directory parent '%s': %s", parent,
		      strerror(-err));
		return err;
	}
	if (fstat(fd, &fst) || fst.st_dev != st.st_dev ||
	    fst.st_ino != st.st_ino) {
		close(fd);
		error("work directory parent '%s' changed while being opened",
		      parent);
		return -ESTALE;
	}
	return fd;
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
 * must not look like the parent's own -ENOENT, -ENOTDIR or -ELOOP.
 */
static int creating_error(int err)
{
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

	pfd = open_parent(pdir);
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

	fd = openat(pfd, name, DIR_FLAGS);
	err = fd < 0 ? -errno : fileid_of_fd(fd, &id);
	if (err) {
		error("cannot open work directory '%s': %s", path,
		      strerror(-err));
		err = creating_error(err);
		goto out_rmdir;
	}
	err = write_marker(fd, path, wd->id);
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
	int fd, err;

	fd = openat(pfd, name, DIR_FLAGS);
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
	err = fileid_at(fd, WORKDIR_MARKER, AT_SYMLINK_NOFOLLOW, &marker);
	if (!err && S_ISREG(marker.mode)) {
		wd->reused = true;
		return fd;
	}
	if (adopt) {
		wd->foreign = true;
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
	pfd = open_parent(pdir);
	if (pfd < 0) {
		free(pdir);
		return pfd;
	}
	path = join_path(pdir, name);
	free(pdir);
	if (!mkdirat(pfd, name, 0700)) {
		made = true;
		fd = openat(pfd, name, DIR_FLAGS);
		err = fd < 0 ? -errno : 0;
		if (err)
			error("cannot open '%s': %s", path, strerror(-err));
		else
			err = write_marker(fd, path, new_id(wd->id));
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

/* Does the marker in @fd name @id? Never through a symlink. */
static bool marker_names(int fd, const char *id)
{
	char buf[256], want[WORKDIR_ID_LEN + 8];
	struct stat st;
	ssize_t n;
	int mfd;

	mfd = openat(fd, WORKDIR_MARKER,
		     O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (mfd < 0)
		return false;
	n = fstat(mfd, &st) || !S_ISREG(st.st_mode) ?
		    -1 :
		    read(mfd, buf, sizeof(buf) - 1);
	close(mfd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	snprintf(want, sizeof(want), "(id %s)", id);
	return strstr(buf, want) != NULL;
}

int workdir_attach(struct workdir *wd, const char *parent, const char *name,
		   const char *id)
{
	struct fileid fid;
	char *pdir;
	int pfd, fd;

	workdir_clear_fields(wd);
	pdir = parent_path(parent);
	pfd = open_parent(pdir);
	if (pfd < 0) {
		free(pdir);
		return pfd;
	}
	fd = openat(pfd, name, DIR_FLAGS);
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

/* ---- relative paths inside the work directory ---- */

/*
 * Copy the next component of *p into name[NAME_MAX + 1] and advance *p
 * past it. Returns 1 for a component, 0 at the end, -ENAMETOOLONG.
 */
static int next_component(const char **p, char *name)
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
static int check_relpath(const struct workdir *wd, const char *relpath)
{
	char name[NAME_MAX + 1];
	const char *p = relpath;
	int n = 0, r;

	if (!relpath || relpath[0] == '/')
		goto out_invalid;
	while ((r = next_component(&p, name)) > 0) {
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
	fd = openat(dirfd, name, DIR_FLAGS);
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
static int open_relpath(const struct workdir *wd, const char *relpath, int n,
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
	while (n-- > 0 && next_component(&p, name) > 0) {
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

	n = check_relpath(wd, relpath);
	if (n < 0)
		return n;
	fd = open_relpath(wd, relpath, n, true, false);
	if (fd < 0)
		return fd;
	if (dirfd_out)
		*dirfd_out = fd;
	else
		close(fd);
	return 0;
}

/* ---- removal ---- */

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
		next_component(&p, name);
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

	n = check_relpath(wd, relpath);
	if (n < 0)
		return n;
	plen = last_component(relpath, name);
	if (n == 1 && !strcmp(name, WORKDIR_MARKER)) {
		error("refusing to clear the marker file of '%s'", wd->path);
		return -EINVAL;
	}
	pfd = open_relpath(wd, relpath, n - 1, false, true);
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
