/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_SYS_SYSFILE_H
#define VB_SYS_SYSFILE_H

/*
 * The first line of a small file of /proc or /sys (up to 4 KiB), without
 * its newline, allocated; NULL when it cannot be read, with errno set
 * (0 for an empty file). @dir may be NULL; otherwise the file is
 * @dir/@name.
 */
char *sysfile_line(const char *dir, const char *name);

#endif /* VB_SYS_SYSFILE_H */
