/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_WORKDIR_WORKPATH_H
#define VB_WORKDIR_WORKPATH_H

#include <stdbool.h>

struct workdir;

/*
 * Relative paths inside a work directory ("a/b/c", as workdir.h's
 * workdir_mkdir() and workdir_clear() take them), for workpath.c and
 * the removal in workdirrm.c. Messages name the path under wd->path.
 */

/*
 * Copy the next component of *@p into @name[NAME_MAX + 1] and advance *@p
 * past it. Returns 1 for a component, 0 at the end, -ENAMETOOLONG.
 */
int workpath_next(const char **p, char *name);

/*
 * Check the syntax of @relpath (relative, no "." or "..", no component
 * over NAME_MAX); returns the number of components or -EINVAL /
 * -ENAMETOOLONG, with a message.
 */
int workpath_check(const struct workdir *wd, const char *relpath);

/*
 * Open the directory made of the first @n components of @relpath,
 * creating them if @create, never following a symlink and never leaving
 * the work directory's mount (-EXDEV). Returns its fd, which is wd->fd
 * when @n is 0, or -errno with a message; -ENOENT is not reported when
 * @quiet_enoent.
 */
int workpath_open(const struct workdir *wd, const char *relpath, int n,
		  bool create, bool quiet_enoent);

#endif /* VB_WORKDIR_WORKPATH_H */
