/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * JSON strings that keep bytes which are not UTF-8.
 */
#include <config.h>
#include "base/jsonstr.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/escape.h"
#include "base/utf8.h"

json_t *jsonstr_new(const char *s)
{
	char *esc, *buf;
	size_t len;
	json_t *v;

	if (!s)
		return json_null();
	if (utf8_valid(s))
		return json_string(s);
	esc = escape_bytes(s);
	len = strlen(esc);
	buf = xmalloc(len + 1);
	buf[0] = '\0';
	memcpy(buf + 1, esc, len);
	v = json_stringn(buf, len + 1);
	free(buf);
	free(esc);
	return v;
}

char *jsonstr_value(const json_t *v)
{
	const char *s = json_string_value(v);

	if (!s)
		return NULL;
	if (json_string_length(v) && !s[0])
		return unescape_bytes(s + 1);
	return xstrdup(s);
}
