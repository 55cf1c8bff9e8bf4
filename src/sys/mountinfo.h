/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_SYS_MOUNTINFO_H
#define VB_SYS_MOUNTINFO_H

#include <stddef.h>
#include <stdio.h>

/*
 * struct mountinfo: one line of /proc/self/mountinfo, "ID PARENT MAJ:MIN
 * ROOT MOUNTPOINT OPTS [TAGS] - TYPE SOURCE SUPEROPTS", split in place
 * (the strings point into the line), with the octal escapes of ROOT and
 * MOUNTPOINT undone. TYPE, SOURCE and SUPEROPTS may be NULL.
 */
struct mountinfo {
	unsigned long long id; /* the mount's id, statx(2)'s stx_mnt_id */
	unsigned int major, minor;
	char *root, *mount_point, *options;
	char *fstype, *source, *super_options;
	char *line; /* the buffer, grown by getline() */
	size_t alloc;
};

/*
 * The next well-formed line of @f into @m (lines that do not parse are
 * skipped). Returns 1, or 0 at the end of the file. Free m->line when done.
 */
int mountinfo_next(FILE *f, struct mountinfo *m);

#endif /* VB_SYS_MOUNTINFO_H */
