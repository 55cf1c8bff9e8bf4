/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_CLI_RECORDTREE_H
#define VB_CLI_RECORDTREE_H

#include <stdbool.h>
#include <stddef.h>

#include "lang/record.h"

/*
 * struct recordtree: the entries below a directory, as vfsbench record
 * finds them before the command runs (doc/recording.md, "The tree"): every
 * directory, file and symlink, by fstatat(2) from its directory's fd,
 * without following a link at any step or leaving the file system of the
 * root, sorted by path.
 */
#define RECORDTREE_MAX 1000000 /* entries: a bound on the memory it takes */
/* --with-data: the bytes of files read, a bound on the memory they take */
#define RECORDTREE_DATA_MAX (64u << 20)

struct recordtree {
	struct record_entry *v;
	size_t n, alloc;
};

/*
 * Read the tree below @root (an absolute path); with @with_data, the
 * bytes of each regular file of at most OP_MAX_DATA bytes too, while they
 * come to at most RECORDTREE_DATA_MAX (a file unread has data NULL). A
 * directory that is no longer the one fstatat() saw when it is opened (a
 * symlink now) is left out, with a warning. Returns 0, or -errno with a
 * message (-EFBIG: more than RECORDTREE_MAX entries).
 */
int recordtree_read(struct recordtree *t, const char *root, bool with_data);

#endif /* VB_CLI_RECORDTREE_H */
