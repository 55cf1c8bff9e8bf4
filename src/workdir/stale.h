/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_WORKDIR_STALE_H
#define VB_WORKDIR_STALE_H

#include <stdbool.h>

#include "workdir/marker.h"

/*
 * struct stale: the "vfsbench.*" entries of a -D directory, sorted out by
 * what may be done with them. A run killed by SIGKILL (or stopped by a
 * second signal) leaves its work directory behind; the next run lists
 * those of its -D whose process is gone (stale_warn()), and `vfsbench
 * clean` removes them (stale_remove()) under the rules of every removal
 * (workdir.h, rmtree.h, DESIGN.md section 7): a tree is removed only when
 * its marker is ours (our effective uid) and names a process that is
 * gone, every entry in it is ours and no directory in it is writable by
 * others (workowner.h), it is still the same directory when the removal
 * starts and ends, and the walk never follows a symlink nor enters
 * another instance's work directory.
 */

enum stale_kind {
	STALE_GONE, /* ours, its process gone: removable */
	STALE_LIVE, /* its process still runs (or is us) */
	STALE_FOREIGN, /* another user's marker */
	STALE_UNMARKED, /* no marker, not a marker's text, or unreadable */
	STALE_NOT_DIR, /* a symlink or another file: not followed */
	STALE_UNOPENED, /* a directory that cannot be opened: err says why */
	STALE_UNKNOWN, /* its process cannot be told apart (no start time) */
	/* made in another PID namespace or boot: cannot be told gone */
	STALE_ELSEWHERE,
	STALE_REMOVED, /* was STALE_GONE; stale_remove() removed it */
};

struct stale_tree {
	char *name; /* "vfsbench.XXXXXX" */
	enum stale_kind kind;
	long pid; /* the marker's, where there is one */
	long uid; /* the marker's owner, where there is one */
	/* STALE_ELSEWHERE: the marker's place and ours; STALE_UNKNOWN:
	 * why (marker_instance()'s err); STALE_UNMARKED and
	 * STALE_UNOPENED: the -errno of reading the marker, of opening */
	struct marker marker;
	struct marker_place here;
	int err;
	bool elsewhere; /* its marker's place is not ours (kept once removed) */
};

struct stale {
	int parent_fd; /* the -D directory, O_PATH */
	char *parent; /* its path, for messages */
	struct stale_tree *tree; /* [n], in name order */
	unsigned int n;
	unsigned int gone; /* how many are STALE_GONE */
	/* vfsbench clean --assume-gone: STALE_ELSEWHERE is removed too */
	bool assume_gone;
};

/*
 * Look through @parent (checked as workdir_create() checks -D, with the
 * same errors and messages) for entries named "vfsbench.*". Reads only:
 * nothing is changed. Returns 0 or -errno; release @s in any case.
 */
int stale_scan(struct stale *s, const char *parent);

/*
 * The trees whose process is gone, one warning line each on stderr, and
 * how to remove them. Returns how many.
 */
unsigned int stale_warn(const struct stale *s);

/*
 * Remove every STALE_GONE tree that is provably ours (it becomes
 * STALE_REMOVED), with an error on stderr for each tree refused and why;
 * a tree of a live process is named in a warning and never touched.
 * `abort_flag` (may be NULL) stops the walk as in workdir_remove().
 * Returns 0 when every tree whose process is gone was removed and no
 * other tree was refused, -EPERM when one was refused, -EINTR when
 * stopped, another -errno when a removal failed; the first such error
 * wins, and the walk goes on with the other trees.
 */
/*
 * At the start of a run, once its own work directory is made in
 * @parent: stale_scan() and stale_warn(), nothing else.
 */
void stale_report(const char *parent);

int stale_remove(struct stale *s, const volatile int *abort_flag);

void stale_release(struct stale *s);

#endif /* VB_WORKDIR_STALE_H */
