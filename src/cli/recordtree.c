// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The tree a recorded program finds (cli/recordtree.h), read with nftw(3)
 * by lstat: FTW_PHYS follows no link, FTW_MOUNT stays on the root's file
 * system, as the loadfile's [setup] can only make one tree on one.
 */
#include <config.h>
#include "cli/recordtree.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/msg.h"
#include "lang/ops.h"

/* nftw() has no argument for its callback: one walk at a time */
static struct {
	struct recordtree *t;
	size_t rootlen;
	const char *skip;
	int err;
	bool with_data;
	size_t data_bytes; /* read so far, at most RECORDTREE_DATA_MAX */
} walk;

/*
 * The @size bytes of the file at @path, or NULL: not a regular file of
 * that size any more (it changed since lstat), or unreadable. Without
 * following a link, and without blocking on what became a FIFO.
 */
static char *file_data(const char *path, uint64_t size)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	char *buf;
	size_t got = 0;
	struct stat st;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    (uint64_t)st.st_size != size) {
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

static int visit(const char *path, const struct stat *st, int type,
		 struct FTW *ftw)
{
	struct record_entry *e;
	size_t n = strlen(path);

	if (!ftw->level)
		return FTW_CONTINUE;
	if (walk.skip && !strcmp(path, walk.skip))
		return type == FTW_D ? FTW_SKIP_SUBTREE : FTW_CONTINUE;
	if (type == FTW_NS || type == FTW_DNR) {
		/* unreadable: the program could not have found it either */
		return FTW_CONTINUE;
	}
	if (walk.t->n == RECORDTREE_MAX) {
		walk.err = -EFBIG;
		return FTW_STOP;
	}
	if (walk.t->n == walk.t->alloc) {
		walk.t->alloc = walk.t->alloc ? 2 * walk.t->alloc : 1024;
		walk.t->v =
			xrealloc(walk.t->v, walk.t->alloc * sizeof(*walk.t->v));
	}
	e = &walk.t->v[walk.t->n++];
	memset(e, 0, sizeof(*e));
	e->path = xstrndup(path + walk.rootlen + 1, n - walk.rootlen - 1);
	e->mode = st->st_mode;
	e->size = S_ISREG(st->st_mode) ? (uint64_t)st->st_size : 0;
	if (walk.with_data && S_ISREG(st->st_mode) && e->size &&
	    e->size <= OP_MAX_DATA &&
	    walk.data_bytes + e->size <= RECORDTREE_DATA_MAX) {
		e->data = file_data(path, e->size);
		if (e->data)
			walk.data_bytes += e->size;
	}
	if (S_ISLNK(st->st_mode)) {
		char target[PATH_MAX];
		ssize_t len = readlink(path, target, sizeof(target) - 1);

		if (len >= 0) {
			target[len] = '\0';
			e->target = xstrdup(target);
		}
	}
	return FTW_CONTINUE;
}

static int entry_cmp(const void *a, const void *b)
{
	return strcmp(((const struct record_entry *)a)->path,
		      ((const struct record_entry *)b)->path);
}

int recordtree_read(struct recordtree *t, const char *root, const char *skip,
		    bool with_data)
{
	memset(t, 0, sizeof(*t));
	walk.t = t;
	walk.rootlen = strcmp(root, "/") ? strlen(root) : 0;
	walk.skip = skip;
	walk.err = 0;
	walk.with_data = with_data;
	walk.data_bytes = 0;
	if (nftw(root, visit, 64, FTW_PHYS | FTW_MOUNT | FTW_ACTIONRETVAL) <
	    0) {
		walk.err = -errno;
		return error("cannot read the tree below %s: %s", root,
			     strerror(errno)),
		       walk.err;
	}
	if (walk.err == -EFBIG)
		return error("more than %d entries below %s: give a smaller --root",
			     RECORDTREE_MAX, root),
		       -EFBIG;
	if (t->n)
		qsort(t->v, t->n, sizeof(*t->v), entry_cmp);
	return 0;
}
