/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_LANG_BUILTIN_H
#define VB_LANG_BUILTIN_H

#include <stdbool.h>
#include <stddef.h>

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

/* Is built-in @b a suite's index (NAME.suite) rather than a loadfile? */
bool builtin_is_suite(const struct builtin_loadfile *b);

/* The built-in suite index @spec names, with or without ".suite". */
const struct builtin_loadfile *builtin_find_suite(const char *spec);

/*
 * What the loadfile @text (named @name) says it is: the first sentence
 * of its leading comment, up to the first full stop followed by a space
 * or a line's end, or to the comment paragraph's end, with the "#"s and
 * line breaks made single spaces and a leading "NAME:" left out. Into
 * @buf (@len bytes, truncated, terminated); returns its length.
 */
size_t builtin_summary(const char *text, const char *name, char *buf,
		       size_t len);

#endif /* VB_LANG_BUILTIN_H */
