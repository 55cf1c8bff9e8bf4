/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_WORKDIR_RMTREE_H
#define VB_WORKDIR_RMTREE_H

#include <stdbool.h>
#include <stddef.h>

#include "workdir/fileid.h"

/*
 * rmtree: the recursive removal walk behind workdir_clear() and
 * workdir_remove(). It works by directory fds only (openat() with
 * O_NOFOLLOW, fdopendir(), unlinkat()), never by path, so a rename above
 * the tree cannot send it somewhere else:
 *
 *   - a symlink is unlinked as a link; whatever it points to is not touched;
 *   - a hard link is unlinked; the other names of the file stay;
 *   - a directory on another mount than `dirfd` (a different st_dev, or a
 *     bind mount of the same filesystem, told apart by its mount id where
 *     the kernel reports one) is not entered and not removed: it is
 *     reported as "... is a mount point; left in place", the walk removes
 *     everything else it can and then returns -EXDEV;
 *   - a directory of ours that a loadfile made unreadable, unsearchable
 *     or unwritable (mkdir d 0300) gets the owner's bits (u+rwx) back
 *     before it is entered, through an O_PATH fd that does not follow a
 *     link, only on the walk's mount;
 *   - a directory below the root that holds a marker file (a regular
 *     ".vfsbench-workdir": another instance's work directory, whose -D
 *     was inside this tree) is not entered and not removed: it is
 *     reported as "... holds another vfsbench instance's marker file ...;
 *     left in place", and the walk returns -EBUSY once done.
 *
 * Depth: the walk keeps an explicit stack in memory and holds at most 35
 * fds of its own however deep the tree is: the first 32 levels stay open,
 * deeper ones are closed on the way down and reopened through ".." (checked
 * against the device and inode seen on the way down) on the way back up.
 * Depth is therefore limited by memory only; trees of 4096 levels are
 * tested with RLIMIT_NOFILE at 128. When a closed directory cannot be
 * found again because something was moved, the walk reports it and stops
 * with -ESTALE.
 *
 * Ownership: `dirfd` is borrowed; it is not closed and its file position
 * is not used. `path` is the path of `dirfd`, used for messages only. The
 * walk's state is private to one call and freed before the call returns.
 *
 * Return values: 0 when everything asked for is gone. Otherwise errors are
 * reported with error() one by one, the walk goes on with what it can
 * still remove, and the first error is returned (-EXDEV for a mount point
 * left in place). `abort_flag` may be NULL; once `*abort_flag` is non-zero
 * the walk stops after the current entry and returns -EINTR without a
 * message. The functions never exit.
 */

/*
 * The mount points and other instances' directories a series of walks
 * has reported: each is reported once, however often a walk meets it
 * again (a run's tree, then the whole work directory). All zero is empty; free
 * it with rmtree_seen_release().
 */
struct rmtree_seen {
	struct fileid *ids;
	size_t n, alloc;
};

void rmtree_seen_release(struct rmtree_seen *seen);

/*
 * `seen` (may be NULL) below: the mount points already reported, and
 * where those this walk reports are added.
 *
 * Remove everything inside the directory `dirfd` except the entry named
 * `keep` at its top level (NULL: keep nothing); `dirfd` itself stays.
 * The top level is read again, up to 3 times, while a pass still finds
 * entries and nothing was left in place, in case readdir() skipped some
 * while we unlinked.
 */
int rmtree_empty(int dirfd, const char *path, const char *keep,
		 const volatile int *abort_flag, struct rmtree_seen *seen);

/*
 * Remove the entry `name` of the directory `dirfd` and, if it is a
 * directory, everything below it. `is_dir` is what the caller saw with
 * lstat(); if the entry has changed type since, the walk notices and
 * removes it all the same. An entry that is already gone is not an error.
 */
int rmtree_remove_at(int dirfd, const char *name, bool is_dir, const char *path,
		     const volatile int *abort_flag, struct rmtree_seen *seen);

#endif /* VB_WORKDIR_RMTREE_H */
