/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_WORKDIR_MARKER_H
#define VB_WORKDIR_MARKER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "base/reserved.h"

/*
 * struct marker: the ".vfsbench-workdir" file that says a directory is a
 * vfsbench work directory, and whose. It names the process that made it
 * by its pid and its start time (field 22 of /proc/PID/stat, clock ticks
 * since boot), so that a pid reused by another process is not taken for
 * the instance that wrote it, and a random id that the ranks of an MPI
 * job find rank 0's directory by. A pid means something only in its PID
 * namespace and on its boot of its host: the marker also records both
 * (struct marker_place), and one written in another is never judged by
 * this process's /proc (doc/design.md, "Work directory").
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

/* The boot id (/proc/sys/kernel/random/boot_id) and its NUL. */
#define MARKER_BOOT_LEN 37

/* Where a pid names a process: a PID namespace on one boot of a host. */
struct marker_place {
	unsigned long long pidns; /* inode of /proc/self/ns/pid */
	char boot[MARKER_BOOT_LEN]; /* a random id per boot of a host */
};

struct marker {
	uid_t uid; /* the file's owner */
	long pid;
	unsigned long long start; /* valid only if has_start */
	bool has_start; /* false in a marker of an older vfsbench */
	/* valid only if has_place: false in a marker written before it was
	 * recorded, judged then by pid and start time alone, as it was */
	struct marker_place place;
	bool has_place;
	char id[WORKDIR_ID_LEN];
};

/* What this process can tell of the instance a marker names. */
enum marker_instance {
	MARKER_GONE, /* no such pid, or another process with it */
	MARKER_RUNNING, /* a process with its pid and start time */
	MARKER_SELF, /* the caller */
	/*
	 * written in another PID namespace or on another boot (another
	 * host on a shared -D, or this one before a reboot): its pid
	 * cannot be looked up from here, so it is never taken for gone
	 */
	MARKER_ELSEWHERE,
	/* cannot be told: see marker_instance()'s @err */
	MARKER_UNKNOWN,
};

/* This process's place: 0, or -errno when /proc cannot say. */
int marker_place_here(struct marker_place *p);

/*
 * What this process can tell of the instance @m names; for
 * MARKER_ELSEWHERE, *@here is our own place, for the messages (may be
 * NULL). For MARKER_UNKNOWN, *@err says why: 0 when the marker has no
 * start time and its pid runs, -EXDEV when /proc is not of our PID
 * namespace (/proc/self is not getpid(): its pids are not the marker's),
 * else the -errno of reading /proc.
 */
enum marker_instance marker_instance(const struct marker *m,
				     struct marker_place *here, int *err);

/*
 * A message's words for a MARKER_ELSEWHERE marker @m seen from @here:
 * "in another PID namespace (pid:[X]; this process is in pid:[Y])" or
 * "on another host or an earlier boot (boot id X; this boot is Y)".
 */
void marker_elsewhere(const struct marker *m, const struct marker_place *here,
		      char *buf, size_t len);

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
 * process gone (no such pid, or one with another start time) or us; a
 * marker of another PID namespace or boot only with @elsewhere_gone
 * (vfsbench clean --assume-gone: the user vouches for it).
 * Returns 0, or -EPERM with a message naming what failed (a missing or
 * malformed marker, another owner, a live instance, one that cannot be
 * told gone).
 */
int marker_trust(int dirfd, const char *path, bool elsewhere_gone);

/* Whether the marker in @dirfd names @id and is owned by our euid. */
bool marker_names(int dirfd, const char *id);

#endif /* VB_WORKDIR_MARKER_H */
