/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * resultfile_differences(): the settings in which two results differ,
 * which keep them from being compared like for like, as one line for
 * compare's report.
 */
#include <config.h>

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "base/compiler.h"
#include "base/units.h"
#include "compare/resultfile.h"

/* Append ", " and a formatted item to @buf, truncating; counts in @n. */
static void diff_add(char *buf, size_t len, int *n, const char *fmt, ...)
	PRINTF(4, 5);

static void diff_add(char *buf, size_t len, int *n, const char *fmt, ...)
{
	size_t used = strnlen(buf, len);
	va_list ap;

	if (*n && used < len)
		used += (size_t)snprintf(buf + used, len - used, ", ");
	if (used < len) {
		va_start(ap, fmt);
		vsnprintf(buf + used, len - used, fmt, ap);
		va_end(ap);
	}
	(*n)++;
}

/* How long each client ran: "50 loops" or "time 300ms". */
static const char *length_str(const struct resultfile_settings *s, char *buf,
			      size_t len)
{
	char t[16];

	if (s->loops)
		snprintf(buf, len, "loops %" PRIu64, s->loops);
	else
		snprintf(buf, len, "time %s",
			 units_format_ns(t, sizeof(t), s->time_ns));
	return buf;
}

static const char *warmup_str(const struct resultfile_settings *s, char *buf,
			      size_t len)
{
	if (!strcmp(s->warmup_kind, "passes"))
		snprintf(buf, len, "%" PRIu64 " pass%s", s->warmup,
			 s->warmup == 1 ? "" : "es");
	else if (!s->warmup)
		snprintf(buf, len, "none");
	else
		units_format_ns(buf, len, s->warmup);
	return buf;
}

static const char *on_off(bool b)
{
	return b ? "on" : "off";
}

/* options.dbench, which matters only when both loadfiles are dbench's. */
static void dbench_differences(const struct resultfile_settings *a,
			       const struct resultfile_settings *b, char *buf,
			       size_t len, int *n)
{
	char f[256] = "";
	int nf = 0;

	if (a->sync_open != b->sync_open)
		diff_add(f, sizeof(f), &nf, "sync_open %s vs %s",
			 on_off(a->sync_open), on_off(b->sync_open));
	if (a->sync_dirs != b->sync_dirs)
		diff_add(f, sizeof(f), &nf, "sync_dirs %s vs %s",
			 on_off(a->sync_dirs), on_off(b->sync_dirs));
	if (a->fsync != b->fsync)
		diff_add(f, sizeof(f), &nf, "fsync %s vs %s", on_off(a->fsync),
			 on_off(b->fsync));
	if (a->resolve != b->resolve)
		diff_add(f, sizeof(f), &nf, "resolve %s vs %s",
			 on_off(a->resolve), on_off(b->resolve));
	if (strcmp(a->fsinfo, b->fsinfo))
		diff_add(f, sizeof(f), &nf, "fsinfo %s vs %s", a->fsinfo,
			 b->fsinfo);
	if (nf)
		diff_add(buf, len, n, "dbench flags (%s)", f);
}

int resultfile_differences(const struct resultfile *a,
			   const struct resultfile *b, char *buf, size_t len)
{
	const struct resultfile_settings *sa = &a->set, *sb = &b->set;
	char x[64], y[64];
	int n = 0;

	if (len)
		buf[0] = '\0';
	if (strcmp(a->sha256, b->sha256)) {
		if (strcmp(a->loadfile, b->loadfile))
			diff_add(buf, len, &n, "loadfile sha256 ('%s' vs '%s')",
				 a->loadfile, b->loadfile);
		else
			diff_add(buf, len, &n,
				 "loadfile sha256 ('%s' changed: %.8s vs %.8s)",
				 a->loadfile, a->sha256, b->sha256);
	}
	if (strcmp(sa->engine, sb->engine))
		diff_add(buf, len, &n, "engine %s vs %s", sa->engine,
			 sb->engine);
	if (sa->uring_depth != sb->uring_depth)
		diff_add(buf, len, &n, "uring_depth %u vs %u", sa->uring_depth,
			 sb->uring_depth);
	if (sa->uring_fixed != sb->uring_fixed)
		diff_add(buf, len, &n, "uring_fixed %s vs %s",
			 sa->uring_fixed ? "true" : "false",
			 sb->uring_fixed ? "true" : "false");
	if (strcmp(sa->cwd, sb->cwd))
		diff_add(buf, len, &n, "cwd %s vs %s", sa->cwd, sb->cwd);
	if (strcmp(sa->fs_struct, sb->fs_struct))
		diff_add(buf, len, &n, "fs_struct %s vs %s", sa->fs_struct,
			 sb->fs_struct);
	if (strcmp(sa->fd_table, sb->fd_table))
		diff_add(buf, len, &n, "fd_table %s vs %s", sa->fd_table,
			 sb->fd_table);
	if (sa->depth != sb->depth)
		diff_add(buf, len, &n, "depth %u vs %u", sa->depth, sb->depth);
	if (strcmp(sa->walk_resolve, sb->walk_resolve))
		diff_add(buf, len, &n, "resolve %s vs %s", sa->walk_resolve,
			 sb->walk_resolve);
	if (strcmp(sa->walk_prefix, sb->walk_prefix))
		diff_add(buf, len, &n, "prefix %s vs %s", sa->walk_prefix,
			 sb->walk_prefix);
	if (strcmp(sa->dcache, sb->dcache))
		diff_add(buf, len, &n, "dcache %s vs %s", sa->dcache,
			 sb->dcache);
	length_str(sa, x, sizeof(x));
	length_str(sb, y, sizeof(y));
	if (strcmp(x, y))
		diff_add(buf, len, &n, "%s vs %s", x,
			 (sa->loops != 0) == (sb->loops != 0) ?
				 strchr(y, ' ') + 1 :
				 y);
	warmup_str(sa, x, sizeof(x));
	warmup_str(sb, y, sizeof(y));
	if (strcmp(x, y))
		diff_add(buf, len, &n, "warmup %s vs %s", x, y);
	if (strcmp(sa->dialect, sb->dialect))
		diff_add(buf, len, &n, "dialect %s vs %s", sa->dialect,
			 sb->dialect);
	else if (!strcmp(sa->dialect, "dbench"))
		dbench_differences(sa, sb, buf, len, &n);
	return n;
}
