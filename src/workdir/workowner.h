/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_WORKDIR_WORKOWNER_H
#define VB_WORKDIR_WORKOWNER_H

/*
 * Whether a tree found on disk (dbench's DIR/clients, reused or adopted)
 * is provably the caller's: every entry in it, the top directory
 * included, is owned by the caller's effective uid, and no directory is
 * writable by its group or by others, so that no one else can have put
 * a link or a file in it, nor can while it is used. The walk goes
 * through /proc/self/fd/@dirfd, never follows a symlink (a link is
 * checked as a link) and does not leave the top directory's filesystem.
 *
 * Returns 0, or -EPERM with a message naming the first entry that
 * failed, or another -errno (with a message) when the tree cannot be
 * read. Not thread-safe: call it from the main thread.
 */
int workowner_check(int dirfd, const char *path);

#endif /* VB_WORKDIR_WORKOWNER_H */
