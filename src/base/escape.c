/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Bytes as text: the \xNN form of messages and reports, and the
 * reversible escape of result files.
 */
#include <config.h>
#include "base/escape.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/utf8.h"

char *escape_shown(const char *text)
{
	char *out = xmalloc(4 * strlen(text) + 1), *w = out;

	for (const unsigned char *s = (const unsigned char *)text; *s;) {
		size_t n = *s >= 0x80 ? utf8_seq(s) : 1;

		if (*s < 0x20 || *s == 0x7f || !n) {
			w += sprintf(w, "\\x%02x", *s++);
			continue;
		}
		memcpy(w, s, n);
		w += n;
		s += n;
	}
	*w = '\0';
	return out;
}

char *escape_bytes(const char *text)
{
	char *out = xmalloc(4 * strlen(text) + 1), *w = out;

	for (const unsigned char *s = (const unsigned char *)text; *s;) {
		size_t n = *s < 0x80 ? 1 : utf8_valid_seq(s);

		if (!n) {
			w += sprintf(w, "\\x%02x", *s++);
			continue;
		}
		if (*s == '\\')
			*w++ = '\\';
		memcpy(w, s, n);
		w += n;
		s += n;
	}
	*w = '\0';
	return out;
}

static int hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

char *unescape_bytes(const char *s)
{
	char *out = xmalloc(strlen(s) + 1), *w = out;

	while (*s) {
		if (s[0] == '\\' && s[1] == '\\') {
			*w++ = '\\';
			s += 2;
		} else if (s[0] == '\\' && s[1] == 'x' && hex(s[2]) >= 0 &&
			   hex(s[3]) >= 0) {
			*w++ = (char)(hex(s[2]) << 4 | hex(s[3]));
			s += 4;
		} else {
			*w++ = *s++;
		}
	}
	*w = '\0';
	return out;
}
