/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_LANG_RECORDINT_H
#define VB_LANG_RECORDINT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/compiler.h"

/* what its includer has from lang/record.h: no include loop */
struct record;
struct record_counts;
struct record_entry;
struct record_fdbind;
struct record_task;
struct strace_call;

/*
 * What struct record's own files share (record.c: state, paths and fds;
 * recordcalls.c: the calls; recordwrite.c: the output). Not for others.
 */

/* Where a call's path is. */
enum record_where {
	RECORD_INSIDE, /* at or below the root */
	RECORD_OUTSIDE,
	RECORD_UNUSABLE, /* not a string, or one no loadfile can name */
};

/* One more of @name. */
void record_count_add(struct record_counts *c, const char *name);
/* The task of @pid, new (with an empty fd table) if not seen yet. */
struct record_task *record_task_get(struct record *r, long pid);
/* Append a line of [run]. */
void record_line(struct record *r, const char *fmt, ...) PRINTF(2, 3);
/* The entry of the tree at @rel, or NULL. */
struct record_entry *record_entry_find(struct record *r, const char *rel);
/* @rel and the directories above it, as they were, go into [setup]. */
void record_mark_used(struct record *r, const char *rel);
/*
 * @path joined to @base, "." and ".." removed lexically, into @out
 * (PATH_MAX bytes); 0 or -ENAMETOOLONG.
 */
int record_normalise(const char *base, const char *path, char *out);
/*
 * The path of string argument @patharg, resolved from the directory of fd
 * argument @dirfd (NULL: the task's cwd): relative to the root in @rel,
 * quoted for a loadfile in @q (PATH_MAX + 8 bytes each). For a path
 * outside, @rel and @q hold it absolute, @q empty when no loadfile can
 * name it.
 */
enum record_where record_resolve(struct record *r, struct record_task *t,
				 const char *dirfd, const char *patharg,
				 char *rel, char *q);
/* Is @flag one of the '|'-separated @flags? */
bool record_has_flag(const char *flags, const char *flag);
/*
 * The expectation of a call's result, " ENOENT", " any" or "" (ok), into
 * @out; false for an errno name this C library does not know.
 */
bool record_expectation(const struct strace_call *c, char *out, size_t len);
/*
 * The handle (0-based) of fd argument @arg, or -1 with the call counted as
 * dropped (outside the root, or an fd not opened below it in the trace).
 */
int record_fd_handle(struct record *r, struct record_task *t,
		     const struct strace_call *c, const char *arg);
/* The binding of fd argument @arg in task @t's table, or NULL. */
struct record_fdbind *record_fd_binding(struct record *r, struct record_task *t,
					const char *arg);
/* fd @fd of task @t is handle @h now, at offset 0. */
void record_fd_bind(struct record *r, struct record_task *t, int fd, int h);
/* @b, from record_fd_binding(), is closed. */
void record_fd_unbind(struct record *r, struct record_task *t,
		      struct record_fdbind *b);
/* The lowest free handle, taken; -1 when all 256 are. */
int record_handle_get(struct record *r);

#endif /* VB_LANG_RECORDINT_H */
