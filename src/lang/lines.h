/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_LANG_LINES_H
#define VB_LANG_LINES_H

#include <stddef.h>

/*
 * struct lines: the lines of a loadfile buffer, for the dialect parsers.
 * Each comes as two NUL-terminated copies without its line end (LF, or
 * CRLF; the last line need not end): @text to tokenize in place and @orig
 * as written. A NUL byte is an error, since a loadfile is text.
 */
struct lines {
	const char *s, *end;
	unsigned int line; /* 1-based number of the current line */
	char *text;
	char *orig;
	size_t alloc;
};

void lines_init(struct lines *it, const char *buf, size_t len);
/*
 * The next line: 1 with it->text and it->orig set, 0 at the end, or -1
 * when the line holds a NUL byte, with its 1-based column in *nul_col.
 */
int lines_next(struct lines *it, unsigned int *nul_col);
void lines_release(struct lines *it);

#endif /* VB_LANG_LINES_H */
