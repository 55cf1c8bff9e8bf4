/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_LANG_BUILTIN_H
#define VB_LANG_BUILTIN_H

/*
 * The built-in loadfiles, generated from loadfiles/ at build time
 * (gen-builtin.sh), so that `vfsbench 4` works with no files.
 */
struct builtin_loadfile {
	const char *name; /* "statfs.load" */
	const char *text;
};
extern const struct builtin_loadfile builtin_loadfiles[]; /* NULL-ended */

#define LOADFILE_DEFAULT "default.load"

/* The built-in loadfile @spec names, with or without ".load", or NULL. */
const struct builtin_loadfile *builtin_find(const char *spec);

#endif /* VB_LANG_BUILTIN_H */
