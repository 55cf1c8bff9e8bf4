/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_UTIL_H
#define VB_UTIL_H

#include <stddef.h>
#include <stdint.h>

/*
 * Small helpers used everywhere: exit codes, messages on stderr and
 * allocation that dies on OOM. Only main() and die() exit; modules report
 * errors with error() and return -1 or -errno. The x*alloc() helpers are for
 * setup only: the client hot loop allocates nothing.
 */

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define UNUSED	      __attribute__((unused))
#define NORETURN      __attribute__((noreturn))
#define PRINTF(f, a)  __attribute__((format(printf, f, a)))
#define CACHELINE     64

/* Exit codes, documented in vfsbench(1). */
enum vb_exit {
	VB_EXIT_OK = 0,
	VB_EXIT_UNEXPECTED = 1, /* --strict mismatch or --max-errors reached */
	VB_EXIT_USAGE = 2, /* bad option, value or loadfile */
	VB_EXIT_RUNTIME = 3, /* setup or run failed */
	VB_EXIT_SIGINT = 130,
	VB_EXIT_SIGTERM = 143,
};

/* "error: <msg>" on stderr; returns -1 so callers can return error(...). */
int error(const char *fmt, ...) PRINTF(1, 2);
/*
 * "FILE:LINE:COL: <msg>" on stderr, the form editors and compilers use for
 * input errors; returns -1.
 */
int error_at(const char *file, unsigned int line, unsigned int col,
	     const char *fmt, ...) PRINTF(4, 5);
/* "warning: <msg>" on stderr. */
void warning(const char *fmt, ...) PRINTF(1, 2);
/* "fatal: <msg>" on stderr, then exit(VB_EXIT_RUNTIME). */
NORETURN void die(const char *fmt, ...) PRINTF(1, 2);
/* A programming error: file and line on stderr, then abort(). */
NORETURN void vb_bug(const char *file, int line, const char *fmt, ...)
	PRINTF(3, 4);
#define BUG(...) vb_bug(__FILE__, __LINE__, __VA_ARGS__)

/*
 * Undo the octal escapes (\040 for a space) of /proc/self/mounts and
 * mountinfo, in place.
 */
void unescape_octal(char *s);

void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
char *xstrdup(const char *s);
/* Allocation aligned to a cache line, zeroed; free() with free(). */
void *xcalloc_aligned(size_t nmemb, size_t size);

#endif /* VB_UTIL_H */
