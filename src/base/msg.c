/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Messages on stderr: errors, input errors at FILE:LINE:COL, warnings,
 * fatal errors and programming errors. die() is the only place besides
 * main() that exits the process.
 */
#include <config.h>
#include "base/msg.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/exit.h"
#include "base/utf8.h"

static void vreport(const char *prefix, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

/*
 * A message as it is written: one write(2) of the whole line, so that
 * lines from many threads, or from the ranks of an MPI job that mpirun
 * forwards onto one stream, never cut into each other.
 */
struct line {
	/* on a client's stack (run/memory.c's STACK_TOUCHED): a longer
	 * one is cut */
	char s[8192];
	size_t len;
};

/*
 * Messages quote what the user gave (a loadfile's name and tokens, paths),
 * which may be binary junk: control bytes and bytes that are not UTF-8
 * are written as \xNN, so a message stays one readable line.
 */
static void put_escaped(struct line *l, const char *text)
{
	/* no allocation here: die() reports an allocation that failed */
	for (const unsigned char *s = (const unsigned char *)text; *s;) {
		size_t n = *s >= 0x80 ? utf8_seq(s) : 1;

		/* room for this byte's escape and the newline */
		if (l->len + 5 > sizeof(l->s))
			return;
		if (*s < 0x20 || *s == 0x7f || !n) {
			l->len += (size_t)snprintf(l->s + l->len, 5, "\\x%02x",
						   *s++);
			continue;
		}
		memcpy(l->s + l->len, s, n);
		l->len += n;
		s += n;
	}
}

/* Who speaks: "" for one process, "rank 1 (host b): " in an MPI job. */
static char origin[320];

void msg_set_origin(const char *who)
{
	snprintf(origin, sizeof(origin), "%s%s", who ? who : "",
		 who && *who ? ": " : "");
}

/* One line on stderr: who speaks, @prefix and @text, escaped. */
static void put_line(const char *prefix, const char *text)
{
	struct line l;

	l.len = 0;
	put_escaped(&l, origin);
	put_escaped(&l, prefix);
	put_escaped(&l, text);
	l.s[l.len++] = '\n';
	fwrite(l.s, 1, l.len, stderr);
}

static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	char buf[4096];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	put_line(prefix, buf);
}

void msg_quote(const char *prefix, const char *text)
{
	while (*text) {
		size_t n = strcspn(text, "\n");
		char part[4096];

		snprintf(part, sizeof(part), "%.*s", (int)n, text);
		put_line(prefix, part);
		text += n + (text[n] == '\n');
	}
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

static void (*die_hook)(void);

void die_set_hook(void (*hook)(void))
{
	die_hook = hook;
}

void die(const char *fmt, ...)
{
	void (*hook)(void) = die_hook;
	va_list ap;

	va_start(ap, fmt);
	vreport("fatal: ", fmt, ap);
	va_end(ap);
	/* a die() inside the hook must not run it again */
	die_hook = NULL;
	if (hook)
		hook();
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
