/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Finding a built-in loadfile by name, and what it says it is.
 */
#include <config.h>
#include "lang/builtin.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>

bool builtin_is_suite(const struct builtin_loadfile *b)
{
	size_t l = strlen(b->name);

	return l > 6 && !strcmp(b->name + l - 6, ".suite");
}

const struct builtin_loadfile *builtin_find_suite(const char *spec)
{
	size_t l = strlen(spec);

	for (const struct builtin_loadfile *b = builtin_loadfiles; b->name; b++)
		if (builtin_is_suite(b) &&
		    (!strcmp(b->name, spec) ||
		     (strlen(b->name) == l + 6 && !strncmp(b->name, spec, l))))
			return b;
	return NULL;
}

const struct builtin_loadfile *builtin_find(const char *spec)
{
	size_t l = strlen(spec);

	for (const struct builtin_loadfile *b = builtin_loadfiles; b->name;
	     b++) {
		/* an index is no loadfile: -c fxmark.suite is not one */
		if (builtin_is_suite(b))
			continue;
		if (!strcmp(b->name, spec))
			return b;
		if (strlen(b->name) == l + 5 && !strncmp(b->name, spec, l) &&
		    !strcmp(b->name + l, ".load"))
			return b;
	}
	return NULL;
}

/* Append @c to @buf (@len bytes, @n used), one space for any run of them. */
static void put(char *buf, size_t len, size_t *n, char c)
{
	if (isspace((unsigned char)c)) {
		if (!*n || buf[*n - 1] == ' ')
			return;
		c = ' ';
	}
	if (*n + 1 < len)
		buf[(*n)++] = c;
}

size_t builtin_summary(const char *text, const char *name, char *buf,
		       size_t len)
{
	size_t n = 0, nl = strlen(name);
	const char *t = text;
	bool start = true;

	/* the comment lines before the first blank one or the first op */
	while (*t == '#') {
		const char *eol = strchr(t, '\n');
		const char *end = eol ? eol : t + strlen(t);

		t++;
		while (t < end && (*t == ' ' || *t == '\t'))
			t++;
		if (t == end)
			break; /* a bare "#": the paragraph ends */
		/* "statfs.load: ...": the name is already on the line */
		if (start && !strncmp(t, name, nl) && t[nl] == ':')
			t += nl + 1;
		start = false;
		for (; t < end; t++) {
			put(buf, len, &n, *t);
			/* a sentence ends at a full stop and a space or the
			 * line's end: "2.13" and "cache.h" go on */
			if (*t == '.' && (t + 1 == end || t[1] == ' ')) {
				t = end;
				goto out;
			}
		}
		put(buf, len, &n, ' ');
		t = eol ? eol + 1 : end;
	}
out:
	while (n && buf[n - 1] == ' ')
		n--;
	if (len)
		buf[n < len ? n : len - 1] = '\0';
	return n;
}
