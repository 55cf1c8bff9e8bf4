/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_WORKDIR_MARKER_H
#define VB_WORKDIR_MARKER_H

#include <stdbool.h>
#include <sys/types.h>

#include "base/reserved.h"

/*
 * struct marker: the ".vfsbench-workdir" file that says a directory is a
 * vfsbench work directory, and whose. It names the process that made it
 * by its pid and its start time (field 22 of /proc/PID/stat, clock ticks
 * since boot), so that a pid reused by another process is not taken for
 * the instance that wrote it, and a random id that the ranks of an MPI
 * job find rank 0's directory by.
 *
 * A marker is trusted (marker_trust()) only when it is a regular file
 * owned by the caller's effective uid and its process is gone or is the
 * caller; see DESIGN.md section 7. All functions return 0 or -errno and
 * never exit.
 */

/* Name of the marker file at the top of every work directory. */
#define WORKDIR_MARKER VB_MARKER_NAME
/* The random id in the marker, in hex, with its NUL. */
#define WORKDIR_ID_LEN 17

struct marker {
	uid_t uid; /* the file's owner */
	long pid;
	unsigned long long start; /* valid only if has_start */
	bool has_start; /* false in a marker of an older vfsbench */
	char id[WORKDIR_ID_LEN];
};

/*
 * The start time of process @pid (field 22 of /proc/PID/stat) into
 * *@start: 0, -ENOENT when there is no such process, -errno.
 */
int marker_proc_start(long pid, unsigned long long *start);

/*
 * Create the marker in @dirfd naming this process and @id (O_EXCL, never
 * through a symlink). @path is the directory's, for the message printed on
 * failure.
 */
int marker_write(int dirfd, const char *path, const char *id);

/*
 * Replace the marker in @dirfd (a tree found and trusted) by one naming
 * this process and @id, written beside it and renamed over it.
 */
int marker_replace(int dirfd, const char *path, const char *id);

/*
 * Read the marker in @dirfd, never through a symlink: 0 with @m filled,
 * -ENOENT when there is none, -EINVAL when it is not a regular file or
 * not a marker's text, -errno; no message.
 */
int marker_read(int dirfd, struct marker *m);

/*
 * Whether the marker in @dirfd (the directory @path) may be used and the
 * tree removed by this process: owned by our effective uid, and its
 * process gone (no such pid, or one with another start time) or us.
 * Returns 0, or -EPERM with a message naming what failed (a missing or
 * malformed marker, another owner, a live instance).
 */
int marker_trust(int dirfd, const char *path);

/* Whether the marker in @dirfd names @id and is owned by our euid. */
bool marker_names(int dirfd, const char *id);

#endif /* VB_WORKDIR_MARKER_H */
