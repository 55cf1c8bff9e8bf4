/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_RUN_CLIENTPATHS_H
#define VB_RUN_CLIENTPATHS_H

#include <stdbool.h>
#include <stddef.h>

struct loadfile;
struct op;

/*
 * struct clientpaths: the paths one client resolves, made before its
 * thread starts so that the hot loop only loads a pointer: ${client}
 * expanded, and the walk's prefix (--depth's components, --prefix
 * shared's own directory, --resolve abs's absolute path) in front of
 * every path an op resolves. A symlink's target is stored as written.
 *
 * Without a prefix, only the ops with ${client} have entries, at
 * 2 * op->xidx; with one, every op has, at 2 * its index in the
 * loadfile, and a path named by many lines is stored once.
 */
struct clientpaths {
	const char **x; /* [2 * n]: path and path2, NULL: the op's own */
	bool prefixed;
	char *arena; /* the prefixed strings */
	char **own; /* [2 * n] without a prefix: the expanded strings */
	unsigned int n;
};

/*
 * Make the paths of the client whose ${client} is @base + op->sub, with
 * @prefix ("" for none; it ends in '/'). 0 or -ENOMEM; release in both
 * cases.
 */
int clientpaths_init(struct clientpaths *p, const struct loadfile *lf,
		     unsigned int base, const char *prefix);

/* At most what clientpaths_init() allocates, with a prefix of @plen. */
size_t clientpaths_bytes(const struct loadfile *lf, size_t plen);

void clientpaths_release(struct clientpaths *p);

#endif /* VB_RUN_CLIENTPATHS_H */
