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
 * Messages quote what the user gave (a loadfile's name and tokens, paths),
 * which may be binary junk: control bytes and bytes that are not UTF-8
 * are written as \xNN, so a message stays one readable line.
 */
static void put_escaped(const char *text)
{
	/* no allocation here: die() reports an allocation that failed */
	for (const unsigned char *s = (const unsigned char *)text; *s;) {
		size_t n = *s >= 0x80 ? utf8_seq(s) : 1;

		if (*s < 0x20 || *s == 0x7f || !n) {
			fprintf(stderr, "\\x%02x", *s++);
			continue;
		}
		fwrite(s, 1, n, stderr);
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

static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	char buf[4096];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	put_escaped(origin);
	put_escaped(prefix);
	put_escaped(buf);
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
