// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The tree a recorded program finds (cli/recordtree.h), read by fds: each
 * directory is opened from its parent's fd with O_NOFOLLOW and must be
 * the directory fstatat(2) saw there, each file's bytes are read from an
 * fd opened the same way. A path is never resolved again from the root,
 * so another user who swaps a directory for a symlink while the tree is
 * read leads the walk nowhere: the walk is already below the directory
 * it opened, or finds the link and does not follow it. Entries on
 * another file system are left out, as the loadfile's [setup] can only
 * make one tree on one.
 */
#include <config.h>
#include "cli/recordtree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/msg.h"
#include "lang/ops.h"

struct walk {
	struct recordtree *t;
	const char *root; /* for messages: "" for "/" */
	dev_t dev; /* the root's file system */
	bool with_data;
	size_t data_bytes; /* read so far, at most RECORDTREE_DATA_MAX */
	char rel[PATH_MAX]; /* the directory being read, "" for the root */
};

/*
 * The @size bytes of the file @name in @dfd, or NULL: not the regular
 * file fstatat() saw (@st: it changed since, or became a link, which is
 * not followed), or unreadable. Without blocking on what became a FIFO.
 */
static char *file_data(int dfd, const char *name, const struct stat *st)
{
	int fd = openat(dfd, name,
			O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	uint64_t size = (uint64_t)st->st_size;
	struct stat now;
	size_t got = 0;
	char *buf;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &now) || !S_ISREG(now.st_mode) ||
	    now.st_dev != st->st_dev || now.st_ino != st->st_ino ||
	    (uint64_t)now.st_size != size) {
		close(fd);
		return NULL;
	}
	/* one byte more than the size: a file that grew is seen to */
	buf = xmalloc(size + 1);
	for (;;) {
		ssize_t n = read(fd, buf + got, size + 1 - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
		if (got == size + 1)
			break;
	}
	close(fd);
	if (got != size) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* A new entry for @w->rel + @name; NULL past RECORDTREE_MAX. */
static struct record_entry *add(struct walk *w, const char *name,
				const struct stat *st)
{
	struct recordtree *t = w->t;
	struct record_entry *e;
	size_t dl = strlen(w->rel), nl = strlen(name);

	if (t->n == RECORDTREE_MAX)
		return NULL;
	if (t->n == t->alloc) {
		t->alloc = t->alloc ? 2 * t->alloc : 1024;
		t->v = xrealloc(t->v, t->alloc * sizeof(*t->v));
	}
	e = &t->v[t->n++];
	memset(e, 0, sizeof(*e));
	e->path = xmalloc(dl + nl + 2);
	if (dl) {
		memcpy(e->path, w->rel, dl);
		e->path[dl++] = '/';
	}
	memcpy(e->path + dl, name, nl + 1);
	e->mode = st->st_mode;
	e->size = S_ISREG(st->st_mode) ? (uint64_t)st->st_size : 0;
	return e;
}

/* The names in the directory @dfd (without "." and ".."); -errno. */
static int list(int dfd, char ***names, size_t *n)
{
	int fd = dup(dfd);
	size_t alloc = 0;
	struct dirent *de;
	DIR *d;

	*names = NULL;
	*n = 0;
	if (fd < 0)
		return -errno;
	/* the stream reads from the offset the fd has: the start */
	d = fdopendir(fd);
	if (!d) {
		int err = -errno;

		close(fd);
		return err;
	}
	rewinddir(d);
	errno = 0;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (*n == alloc) {
			alloc = alloc ? 2 * alloc : 64;
			*names = xrealloc(*names, alloc * sizeof(**names));
		}
		(*names)[(*n)++] = xstrdup(de->d_name);
	}
	fd = errno ? -errno : 0;
	closedir(d);
	return fd;
}

static int read_dir(struct walk *w, int dfd);

/*
 * The directory @name of @dfd, which fstatat() saw as @st: opened without
 * following a link, and only if it is still that directory; its entries
 * read below it. 0, or -errno (a message said why).
 */
static int descend(struct walk *w, int dfd, const char *name,
		   const struct stat *st)
{
	size_t len = strlen(w->rel);
	struct stat now;
	int fd, ret, err;

	fd = openat(dfd, name,
		    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK |
			    O_CLOEXEC);
	err = fd < 0 ? errno : 0;
	if (err == EMFILE || err == ENFILE || err == ENOMEM)
		return error("cannot read %s/%s%s%s: %s", w->root, w->rel,
			     len ? "/" : "", name, strerror(err)),
		       -err;
	if (err && err != ELOOP && err != ENOTDIR && err != ENOENT)
		return 0; /* unreadable: the program could not list it either */
	if (fd < 0 || fstat(fd, &now) || now.st_dev != st->st_dev ||
	    now.st_ino != st->st_ino) {
		/* swapped for a link, or another directory: not followed */
		warning("%s/%s%s%s changed while the tree was read: left out",
			w->root, w->rel, len ? "/" : "", name);
		if (fd >= 0)
			close(fd);
		return 0;
	}
	if (!add(w, name, st)) {
		close(fd);
		return -EFBIG;
	}
	if (len)
		w->rel[len] = '/';
	strcpy(w->rel + len + !!len, name);
	ret = read_dir(w, fd);
	w->rel[len] = '\0';
	close(fd);
	return ret;
}

/* One entry @name of the directory @dfd; 0 or -errno. */
static int visit(struct walk *w, int dfd, const char *name)
{
	struct record_entry *e;
	struct stat st;

	/* a path a loadfile could not hold (PATH_MAX) is not read */
	if (strlen(w->rel) + strlen(name) + 2 > sizeof(w->rel))
		return 0;
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return 0; /* gone meanwhile */
	if (st.st_dev != w->dev)
		return 0; /* a mount point */
	if (S_ISDIR(st.st_mode))
		return descend(w, dfd, name, &st);
	e = add(w, name, &st);
	if (!e)
		return -EFBIG;
	if (w->with_data && S_ISREG(st.st_mode) && e->size &&
	    e->size <= OP_MAX_DATA &&
	    w->data_bytes + e->size <= RECORDTREE_DATA_MAX) {
		e->data = file_data(dfd, name, &st);
		if (e->data)
			w->data_bytes += e->size;
	}
	if (S_ISLNK(st.st_mode)) {
		char target[PATH_MAX];
		ssize_t len = readlinkat(dfd, name, target, sizeof(target) - 1);

		if (len >= 0) {
			target[len] = '\0';
			e->target = xstrdup(target);
		}
	}
	return 0;
}

static int read_dir(struct walk *w, int dfd)
{
	char **names;
	size_t n;
	int ret = list(dfd, &names, &n);

	if (ret)
		return 0; /* unreadable: as nftw's FTW_DNR, left out */
	for (size_t i = 0; i < n; i++) {
		if (!ret)
			ret = visit(w, dfd, names[i]);
		free(names[i]);
	}
	free(names);
	return ret;
}

static int entry_cmp(const void *a, const void *b)
{
	return strcmp(((const struct record_entry *)a)->path,
		      ((const struct record_entry *)b)->path);
}

int recordtree_read(struct recordtree *t, const char *root, bool with_data)
{
	struct walk w = { .t = t,
			  .root = strcmp(root, "/") ? root : "",
			  .with_data = with_data };
	struct stat st;
	int fd, ret;

	memset(t, 0, sizeof(*t));
	fd = open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		ret = -errno;
		error("cannot read the tree below %s: %s", root,
		      strerror(errno));
		if (fd >= 0)
			close(fd);
		return ret;
	}
	w.dev = st.st_dev;
	ret = read_dir(&w, fd);
	close(fd);
	if (ret == -EFBIG)
		error("more than %d entries below %s: give a smaller --root",
		      RECORDTREE_MAX, root);
	if (ret) {
		for (size_t i = 0; i < t->n; i++) {
			free(t->v[i].path);
			free(t->v[i].target);
			free(t->v[i].data);
		}
		free(t->v);
		memset(t, 0, sizeof(*t));
		return ret;
	}
	if (t->n)
		qsort(t->v, t->n, sizeof(*t->v), entry_cmp);
	return 0;
}
