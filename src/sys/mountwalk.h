/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_SYS_MOUNTWALK_H
#define VB_SYS_MOUNTWALK_H

/*
 * What a lookup of the absolute path @path walks from "/": its
 * components (*@components) and the mount points it crosses into
 * (*@mounts: a component on another mount than its parent, by statx's
 * mount id). 0, or -errno.
 */
int mountwalk_count(const char *path, unsigned int *components,
		    unsigned int *mounts);

#endif /* VB_SYS_MOUNTWALK_H */
