// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The tree a recorded program finds (cli/recordtree.h), read with nftw(3)
 * by lstat: FTW_PHYS follows no link, FTW_MOUNT stays on the root's file
 * system, as the loadfile's [setup] can only make one tree on one.
 */
#include <config.h>
#include "cli/recordtree.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/msg.h"

/* nftw() has no argument for its callback: one walk at a time */
static struct {
	struct recordtree *t;
	size_t rootlen;
	const char *skip;
	int err;
} walk;

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

int recordtree_read(struct recordtree *t, const char *root, const char *skip)
{
	memset(t, 0, sizeof(*t));
	walk.t = t;
	walk.rootlen = strcmp(root, "/") ? strlen(root) : 0;
	walk.skip = skip;
	walk.err = 0;
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
