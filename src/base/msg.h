/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_BASE_MSG_H
#define VB_BASE_MSG_H

#include "base/compiler.h"

/*
 * Messages on stderr. Modules report errors with error() and return -1 or
 * -errno; only main() and die() exit. Control bytes and bytes that are not
 * UTF-8 are written as \xNN, so a message stays one readable line.
 */

/* "error: <msg>" on stderr; returns -1 so callers can return error(...). */
int error(const char *fmt, ...) PRINTF(1, 2);
/*
 * "FILE:LINE:COL: <msg>" on stderr, the form editors and compilers use for
 * input errors; returns -1.
 */
int error_at(const char *file, unsigned int line, unsigned int col,
	     const char *fmt, ...) PRINTF(4, 5);
/*
 * What every message starts with, "@who: " ("rank 1 (host b)" in an MPI
 * job, where the ranks' stderr meets); NULL or "" for nothing (default).
 */
void msg_set_origin(const char *who);
/*
 * Each line of @text (a program's output, a log's end) on stderr after
 * @prefix ("  serial| "), escaped as the messages are: what an error()
 * just before it quotes.
 */
void msg_quote(const char *prefix, const char *text);
/* "warning: <msg>" on stderr. */
void warning(const char *fmt, ...) PRINTF(1, 2);
/*
 * "fatal: <msg>" on stderr, then the hook set by die_set_hook() (once),
 * then exit(VB_EXIT_RUNTIME).
 */
NORETURN void die(const char *fmt, ...) PRINTF(1, 2);
/*
 * What die() does before it exits: main() removes the work directory, so
 * that an allocation that fails there (x*alloc(), base/alloc.h) leaves
 * nothing behind. NULL for nothing.
 */
void die_set_hook(void (*hook)(void));
/* A programming error: file and line on stderr, then abort(). */
NORETURN void vb_bug(const char *file, int line, const char *fmt, ...)
	PRINTF(3, 4);
#define BUG(...) vb_bug(__FILE__, __LINE__, __VA_ARGS__)

#endif /* VB_BASE_MSG_H */
