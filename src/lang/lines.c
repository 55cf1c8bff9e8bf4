/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A loadfile buffer cut into lines for the parsers: LF or CRLF, a last
 * line without its newline, and NUL bytes found.
 */
#include <config.h>
#include "lang/lines.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

void lines_init(struct lines *it, const char *buf, size_t len)
{
	memset(it, 0, sizeof(*it));
	it->s = buf;
	it->end = buf + len;
}

int lines_next(struct lines *it, unsigned int *nul_col)
{
	const char *nl, *nul;
	size_t l;

	if (it->s >= it->end)
		return 0;
	nl = memchr(it->s, '\n', (size_t)(it->end - it->s));
	l = nl ? (size_t)(nl - it->s) : (size_t)(it->end - it->s);
	it->line++;
	nul = memchr(it->s, '\0', l);
	if (nul) {
		*nul_col = (unsigned int)(nul - it->s) + 1;
		return -1;
	}
	if (l && it->s[l - 1] == '\r')
		l--;
	if (2 * (l + 1) > it->alloc) {
		it->alloc = 2 * (l + 1);
		it->text = xrealloc(it->text, it->alloc);
	}
	memcpy(it->text, it->s, l);
	it->text[l] = '\0';
	it->orig = it->text + l + 1;
	memcpy(it->orig, it->s, l);
	it->orig[l] = '\0';
	it->s = nl ? nl + 1 : it->end;
	return 1;
}

void lines_release(struct lines *it)
{
	free(it->text);
	memset(it, 0, sizeof(*it));
}
