/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Messages on stderr and allocation helpers that die on OOM. The only
 * place besides main() that may exit the process.
 */
#include <config.h>
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void vreport(const char *prefix, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

/* Length of the valid UTF-8 sequence of 2 to 4 bytes at @s, or 0. */
static size_t utf8_seq(const unsigned char *s)
{
	size_t n;

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	n = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80) /* the NUL ends it too */
			return 0;
	return n;
}

/*
 * Messages quote what the user gave (a loadfile's tokens, paths), which
 * may be binary junk: control bytes and bytes that are not UTF-8 are
 * written as \xNN, so a message stays one readable line.
 */
static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	char buf[4096];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	fputs(prefix, stderr);
	for (const unsigned char *s = (const unsigned char *)buf; *s;) {
		size_t n = *s >= 0x80 ? utf8_seq(s) : 1;

		if (*s < 0x20 || *s == 0x7f || !n) {
			fprintf(stderr, "\\x%02x", *s++);
			continue;
		}
		fwrite(s, 1, n, stderr);
		s += n;
	}
	fputc('\n', stderr);
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("error: ", fmt, ap);
	va_end(ap);
	return -1;
}

int error_at(const char *file, unsigned int line, unsigned int col,
	     const char *fmt, ...)
{
	char prefix[512];
	va_list ap;

	snprintf(prefix, sizeof(prefix), "%s:%u:%u: ", file, line, col);
	va_start(ap, fmt);
	vreport(prefix, fmt, ap);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("fatal: ", fmt, ap);
	va_end(ap);
	exit(VB_EXIT_RUNTIME);
}

void vb_bug(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "BUG: %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

void unescape_octal(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 |
				      (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		die("out of memory allocating %zu bytes", size);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		die("out of memory allocating %zu x %zu bytes", nmemb, size);
	return p;
}

void *xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);

	if (!p)
		die("out of memory allocating %zu bytes", size);
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		die("out of memory duplicating a string");
	return p;
}

void *xcalloc_aligned(size_t nmemb, size_t size)
{
	void *p;
	size_t bytes;

	if (size && nmemb > SIZE_MAX / size)
		die("allocation of %zu x %zu bytes overflows", nmemb, size);
	bytes = nmemb * size;
	bytes = (bytes + CACHELINE - 1) & ~(size_t)(CACHELINE - 1);
	if (posix_memalign(&p, CACHELINE, bytes ? bytes : CACHELINE))
		die("out of memory allocating %zu bytes", bytes);
	memset(p, 0, bytes ? bytes : CACHELINE);
	return p;
}
