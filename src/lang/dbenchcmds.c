/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Each command of dbench's loadfiles translated into its OP_DB_* op: its
 * paths, its handle (a dbench fnum given a slot), its flags, its
 * expectation, as dbench 4.0's fileio backend issues it
 * (../shared/reference/dbench.md, section 1.4).
 */
#include <config.h>
#include "lang/dbenchint.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/alloc.h"
#include "base/msg.h"
#include "lang/builder.h"
#include "lang/dbench.h"

int translator_error(struct translator *t, unsigned int col, const char *fmt,
		     ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	error_at(builder_name(t->b), t->line, col, "%s", msg);
	return -EINVAL;
}

static int parse_num(struct translator *t, const struct db_token *tok,
		     uint64_t max, uint64_t *v)
{
	char *end;

	if (tok->text[0] < '0' || tok->text[0] > '9')
		return translator_error(t, tok->col, "bad number '%s'",
					tok->text);
	errno = 0;
	*v = strtoull(tok->text, &end, 0);
	if (errno || *end || *v > max)
		return translator_error(t, tok->col, "bad number '%s'",
					tok->text);
	return 0;
}

/* dbench's rule: NT_STATUS_OK or a 0x value of 0 must succeed. */
int translator_status(struct translator *t, const struct db_token *tok,
		      bool *ok)
{
	uint64_t v;
	char *end;

	if (!strncmp(tok->text, "NT_STATUS_", 10) && tok->text[10]) {
		*ok = !strcmp(tok->text, "NT_STATUS_OK");
		return 0;
	}
	if (!strncmp(tok->text, "0x", 2) && tok->text[2]) {
		errno = 0;
		v = strtoull(tok->text + 2, &end, 16);
		if (!errno && !*end) {
			*ok = v == 0;
			return 0;
		}
	}
	return translator_error(
		t, tok->col,
		"bad status '%s' (expected NT_STATUS_... or 0x...)", tok->text);
}

/*
 * A dbench path, with backslashes, to a path relative to the client's
 * directory: "\clients\clientN\rest" is "rest" (any N: each client has
 * its own directory, so no substring replace is needed), "\clients\rest"
 * is "rest" too, and "\clients" or "\clients\clientN" alone is "."
 * (vfsbench creates both). With several clients per thread the thread
 * works in the directory above theirs: "\clients\clientN\rest" is
 * "client${client}/rest", each copy of the line expanding ${client} to
 * its own client (op->sub), and "\clients\rest" stays "rest".
 */
static int map_path(struct translator *t, const struct db_token *tok,
		    const char **out)
{
	char *p = xstrdup(tok->text), *s = p, *c, *full;
	bool own = false;
	size_t n;

	for (c = p; *c; c++)
		if (*c == '\\')
			*c = '/';
	while (*s == '/')
		s++;
	n = strcspn(s, "/");
	if (n == 7 && !strncasecmp(s, "clients", 7)) {
		s += n;
		while (*s == '/')
			s++;
		n = strcspn(s, "/");
		if (n > 6 && !strncasecmp(s, "client", 6) &&
		    strspn(s + 6, "0123456789") == n - 6) {
			s += n;
			while (*s == '/')
				s++;
			own = true;
		}
	}
	if (op_path_dotdot(s)) {
		free(p);
		return translator_error(
			t, tok->col,
			"'..' in path '%s': paths must stay inside the client directory",
			tok->text);
	}
	if (strlen(s) >= PATH_MAX) {
		free(p);
		return translator_error(
			t, tok->col, "path longer than %d bytes", PATH_MAX - 1);
	}
	if (t->per_thread > 1 && own) {
		full = xmalloc(strlen(s) + 18);
		sprintf(full, "client${client}%s%s", *s ? "/" : "", s);
		*out = builder_strdup(t->b, full);
		free(full);
	} else {
		*out = builder_strdup(t->b, *s ? s : ".");
	}
	free(p);
	return 0;
}

/* The directory part of @path ("." when it has none). */
static const char *parent_of(struct translator *t, const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return builder_strdup(t->b, ".");
	return builder_strndup(t->b, path, (size_t)(slash - path));
}

static int find_slot(const struct translator *t, uint64_t fnum)
{
	for (unsigned int s = 0; s < OP_MAX_HANDLES; s++)
		if (t->slot[s].open && t->slot[s].fnum == fnum &&
		    t->slot[s].sub == t->sub)
			return (int)s;
	return -1;
}

static int free_slot(struct translator *t, unsigned int col)
{
	for (unsigned int s = 0; s < OP_MAX_HANDLES; s++)
		if (!t->slot[s].open)
			return (int)s;
	return translator_error(t, col, "more than %d handles open at once",
				OP_MAX_HANDLES);
}

/*
 * An op on file handle @tok. An fnum no successful NTCreateX opened is
 * dbench's fatal "handle not found"; here the op runs on a slot that is
 * never open, fails with EBADF and is counted on its line.
 */
static int ref_handle(struct translator *t, struct op *op,
		      const struct db_token *tok)
{
	uint64_t fnum;
	int s;

	if (parse_num(t, tok, UINT32_MAX, &fnum))
		return -EINVAL;
	s = find_slot(t, fnum);
	if (s < 0) {
		if (t->ndead == t->dead_alloc) {
			t->dead_alloc = t->dead_alloc ? 2 * t->dead_alloc : 16;
			t->dead = xrealloc(t->dead,
					   t->dead_alloc * sizeof(*t->dead));
		}
		/* the op is the last one appended */
		t->dead[t->ndead++] = builder_count(t->b, SECTION_RUN) - 1;
		op->expect = EXPECT_OK;
		return 0;
	}
	op->handle = (unsigned int)s;
	op->has_handle = true;
	builder_use_handle(t->b, (unsigned int)s);
	return 0;
}

/* The options of every op that starts with dbench's resolve step. */
static unsigned int resolve_flags(const struct translator *t)
{
	return (t->opts->no_resolve ? 0 : OPX_RESOLVE_SCAN) |
	       (t->opts->xattr ? OPX_XATTR : 0) |
	       (t->opts->stat_check ? OPX_STAT_CHECK : 0);
}

static int x_ntcreatex(struct translator *t, struct op *op,
		       const struct db_line *l)
{
	static const int disposition[] = {
		[0] = 0, /* SUPERSEDE: dbench adds nothing */
		[1] = 0, /* OPEN */
		[2] = O_CREAT, /* CREATE, without O_EXCL */
		[3] = 0, /* OPEN_IF: does not create in dbench */
		[4] = O_CREAT | O_TRUNC, /* OVERWRITE */
		[5] = O_CREAT | O_TRUNC, /* OVERWRITE_IF */
	};
	uint64_t options, disp, fnum;
	int s;

	if (map_path(t, &l->arg[0], &op->path) ||
	    parse_num(t, &l->arg[1], UINT32_MAX, &options) ||
	    parse_num(t, &l->arg[2], UINT32_MAX, &disp) ||
	    parse_num(t, &l->arg[3], UINT32_MAX, &fnum))
		return -EINVAL;
	if (disp >= ARRAY_SIZE(disposition))
		return translator_error(
			t, l->arg[2].col,
			"bad disposition '%s' (expected 0 to 5)",
			l->arg[2].text);
	op->xflags = resolve_flags(t);
	if (options & 0x1)
		op->xflags |= OPX_NT_DIRECTORY;
	op->flags = O_RDWR | disposition[disp] | O_CLOEXEC |
		    (t->opts->sync_open ? O_SYNC : 0);
	op->mode = 0600;
	op->expect = l->ok ? EXPECT_OK : EXPECT_FAIL;
	s = l->ok ? find_slot(t, fnum) : -1;
	if (s >= 0)
		return translator_error(
			t, l->arg[3].col,
			"handle %llu is already open (opened at line %u)",
			(unsigned long long)fnum, t->slot[s].line);
	s = free_slot(t, l->arg[3].col);
	if (s < 0)
		return -EINVAL;
	op->handle = (unsigned int)s;
	op->has_handle = true;
	builder_use_handle(t->b, (unsigned int)s);
	/* an open expected to fail borrows the slot for the moment */
	if (l->ok)
		t->slot[s] =
			(struct db_slot){ true,	   t->sub,	  fnum,
					  t->line, l->arg[3].col, op->path };
	return 0;
}

static int x_close(struct translator *t, struct op *op, const struct db_line *l)
{
	if (ref_handle(t, op, &l->arg[0]))
		return -EINVAL;
	if (op->has_handle)
		t->slot[op->handle].open = false;
	return 0;
}

static int x_path(struct translator *t, struct op *op, const struct db_line *l)
{
	if (map_path(t, &l->arg[0], &op->path))
		return -EINVAL;
	op->xflags = resolve_flags(t);
	if (t->opts->sync_dirs &&
	    (op->id == OP_DB_UNLINK || op->id == OP_DB_RMDIR))
		op->xflags |= OPX_SYNC_DIRS;
	/* dbench checks the status of these, and ignores the rest */
	if (op->id == OP_DB_UNLINK || op->id == OP_DB_RMDIR)
		op->expect = l->ok ? EXPECT_OK : EXPECT_FAIL;
	return 0;
}

static int x_rename(struct translator *t, struct op *op,
		    const struct db_line *l)
{
	if (map_path(t, &l->arg[0], &op->path) ||
	    map_path(t, &l->arg[1], &op->path2))
		return -EINVAL;
	op->xflags =
		resolve_flags(t) | (t->opts->sync_dirs ? OPX_SYNC_DIRS : 0);
	op->expect = l->ok ? EXPECT_OK : EXPECT_FAIL;
	return 0;
}

static int x_find(struct translator *t, struct op *op, const struct db_line *l)
{
	uint64_t v;

	if (map_path(t, &l->arg[0], &op->path) ||
	    parse_num(t, &l->arg[1], UINT32_MAX, &v) ||
	    parse_num(t, &l->arg[2], UINT32_MAX, &v) ||
	    parse_num(t, &l->arg[3], UINT32_MAX, &v))
		return -EINVAL;
	op->path2 = parent_of(t, op->path);
	op->xflags = resolve_flags(t);
	if (strpbrk(op->path, "<>*?\""))
		op->xflags |= OPX_WILDCARD;
	return 0;
}

static int x_qpathinfo(struct translator *t, struct op *op,
		       const struct db_line *l)
{
	uint64_t level;

	if (parse_num(t, &l->arg[1], UINT32_MAX, &level))
		return -EINVAL;
	return x_path(t, op, l);
}

static int x_qfsinfo(struct translator *t, struct op *op,
		     const struct db_line *l)
{
	static const unsigned int call[] = {
		[FSINFO_STATVFS] = 0,
		[FSINFO_STATFS] = OPX_FSINFO_STATFS,
		[FSINFO_STATVFS_LEGACY] = OPX_FSINFO_LEGACY,
	};
	uint64_t level;

	if (parse_num(t, &l->arg[0], UINT32_MAX, &level))
		return -EINVAL;
	op->path =
		builder_strdup(t->b, t->opts->basedir ? t->opts->basedir : ".");
	op->xflags = call[t->opts->fsinfo];
	return 0;
}

/* QUERY_FILE_INFORMATION, Flush, and the handle half of the others. */
static int x_handle(struct translator *t, struct op *op,
		    const struct db_line *l)
{
	uint64_t v;

	if (ref_handle(t, op, &l->arg[0]))
		return -EINVAL;
	if (op->id == OP_DB_QFILEINFO &&
	    parse_num(t, &l->arg[1], UINT32_MAX, &v))
		return -EINVAL;
	if (t->opts->xattr)
		op->xflags |= OPX_XATTR;
	return 0;
}

static int x_sfileinfo(struct translator *t, struct op *op,
		       const struct db_line *l)
{
	if (x_handle(t, op, l))
		return -EINVAL;
	/* dbench's utime() goes through the name the handle was opened by */
	op->path = op->has_handle ? t->slot[op->handle].path :
				    builder_strdup(t->b, ".");
	return 0;
}

static int x_io(struct translator *t, struct op *op, const struct db_line *l)
{
	uint64_t ret_size;

	if (ref_handle(t, op, &l->arg[0]) ||
	    parse_num(t, &l->arg[1], INT64_MAX, &op->offset) ||
	    parse_num(t, &l->arg[2], OP_MAX_IO, &op->size))
		return -EINVAL;
	if (op->id == OP_DB_LOCKX || op->id == OP_DB_UNLOCKX)
		return 0;
	if (parse_num(t, &l->arg[3], OP_MAX_IO, &ret_size))
		return -EINVAL;
	if (op->id == OP_DB_WRITEX && t->opts->fsync_writes)
		op->xflags |= OPX_FSYNC;
	if (op->id == OP_DB_WRITEX && t->opts->one_byte_fix)
		op->xflags |= OPX_ONE_BYTE_FIX;
	if (t->opts->fake_io) {
		/* nothing is issued; dbench counts the size it would return */
		op->xflags |= OPX_FAKE_IO;
		op->size = ret_size;
	} else if (t->opts->trunc_io && op->size > t->opts->trunc_io) {
		op->size = t->opts->trunc_io;
	}
	if (t->opts->rate_mbps > 0)
		op->xflags |= OPX_PACED;
	/* dbench fails a run on a write error, whatever the status */
	op->expect = EXPECT_OK;
	return 0;
}

/* A stop interrupts a Sleep; the bound catches what is not think time. */
#define DB_SLEEP_MAX 600000000 /* us: 10 minutes */

static int x_sleep(struct translator *t, struct op *op, const struct db_line *l)
{
	if (parse_num(t, &l->arg[0], UINT64_MAX, &op->size))
		return -EINVAL;
	if (op->size > DB_SLEEP_MAX)
		return translator_error(
			t, l->arg[0].col,
			"Sleep of %s us is longer than %d (10 minutes)",
			l->arg[0].text, DB_SLEEP_MAX);
	return 0;
}

static const struct db_desc db_ops[] = {
	{ "NTCreateX", OP_DB_NTCREATEX, 4, x_ntcreatex },
	{ "Close", OP_DB_CLOSE, 1, x_close },
	{ "Rename", OP_DB_RENAME, 2, x_rename },
	{ "Unlink", OP_DB_UNLINK, 2, x_qpathinfo }, /* path, attributes */
	{ "Deltree", OP_DB_DELTREE, 1, x_path },
	{ "Rmdir", OP_DB_RMDIR, 1, x_path },
	{ "Mkdir", OP_DB_MKDIR, 1, x_path },
	{ "QUERY_PATH_INFORMATION", OP_DB_QPATHINFO, 2, x_qpathinfo },
	{ "QUERY_FILE_INFORMATION", OP_DB_QFILEINFO, 2, x_handle },
	{ "QUERY_FS_INFORMATION", OP_DB_QFSINFO, 1, x_qfsinfo },
	{ "SET_FILE_INFORMATION", OP_DB_SFILEINFO, 2, x_sfileinfo },
	{ "FIND_FIRST", OP_DB_FIND, 4, x_find },
	{ "WriteX", OP_DB_WRITEX, 4, x_io },
	{ "ReadX", OP_DB_READX, 4, x_io },
	{ "LockX", OP_DB_LOCKX, 3, x_io },
	{ "UnlockX", OP_DB_UNLOCKX, 3, x_io },
	{ "Flush", OP_DB_FLUSH, 1, x_handle },
	{ "Sleep", OP_DB_SLEEP, 1, x_sleep },
};

const struct db_desc *dbench_lookup(const char *name)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(db_ops); i++)
		if (!strcasecmp(db_ops[i].name, name))
			return &db_ops[i];
	return NULL;
}

const char *dbench_op_name(const char *name)
{
	const struct db_desc *d = dbench_lookup(name);

	return d ? d->name : NULL;
}
