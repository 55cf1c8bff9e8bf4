/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_WORKDIR_WORKCHAIN_H
#define VB_WORKDIR_WORKCHAIN_H

/*
 * Whether the path from "/" to the directory @dir can be changed by
 * anyone but the caller and root. --resolve abs names every file by its
 * path from "/" again at every op, so whoever can rename one of those
 * directories (or anything in one) can swap the work directory for a
 * symlink mid-run and send root's creates and unlinks wherever it
 * points; the other modes resolve from directory fds opened at the
 * start and are immune.
 *
 * Every directory from "/" to @dir's real path, @dir included, must be
 * owned by root or the caller's effective uid, and be writable by its
 * group or others only with the sticky bit set (then only the owner of
 * an entry may rename it, and each entry is itself checked). The group
 * bits include any ACL's named users and groups (they are the ACL's
 * mask). The walk opens each component with O_NOFOLLOW.
 *
 * Returns 0, or -EPERM with a message that starts with @what, names
 * the first component that failed and ends with @hint, or another -errno with a
 * message when the path cannot be walked.
 */
int workchain_check(const char *dir, const char *what, const char *hint);

#endif /* VB_WORKDIR_WORKCHAIN_H */
