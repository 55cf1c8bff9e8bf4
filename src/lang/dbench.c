/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dbench's loadfile dialect: detection, and translation of each line into
 * one OP_DB_* op that issues what dbench 4.0's fileio backend issues for
 * it (../shared/reference/dbench.md, section 1.4). Paths, handles, flags
 * and expectations are all worked out here, at load time, so the client
 * loop does no parsing; dbench re-parses every line of every pass.
 */
#include <config.h>
#include "lang/dbench.h"

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
#include "base/compiler.h"
#include "base/msg.h"
#include "lang/builder.h"
#include "lang/lines.h"
#include "lang/loadfile.h"

#define DB_MAX_TOKENS 20

struct db_token {
	char *text;
	unsigned int col;
};

/* An open dbench file handle (fnum) and the slot it was given. */
struct db_slot {
	bool open; /* by an NTCreateX expected to succeed */
	unsigned int sub; /* whose: --clients-per-process */
	uint64_t fnum;
	unsigned int line, col;
	const char *path; /* as opened, in the loadfile's strings */
};

struct translator {
	struct builder *b;
	const struct loadfile_opts *opts;
	unsigned int line;
	unsigned int sub, per_thread; /* --clients-per-process */
	struct db_slot slot[OP_MAX_HANDLES];
	unsigned int *dead; /* indexes of ops on unknown handles */
	unsigned int ndead, dead_alloc;
};

struct db_line {
	struct db_token *arg; /* between the op name and the status */
	unsigned int nargs;
	bool ok; /* the status is NT_STATUS_OK or 0x0 */
};

static int terr(struct translator *t, unsigned int col, const char *fmt, ...)
	PRINTF(3, 4);

static int terr(struct translator *t, unsigned int col, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	error_at(builder_name(t->b), t->line, col, "%s", msg);
	return -EINVAL;
}

/* Spaces separate, double quotes group (dbench has no escapes). */
static int tokenize(struct translator *t, char *line, struct db_token *tok,
		    unsigned int *ntok)
{
	char *r = line;
	unsigned int n = 0;

	for (;;) {
		while (*r == ' ' || *r == '\t')
			r++;
		if (!*r)
			break;
		if (n == DB_MAX_TOKENS)
			return terr(t, (unsigned int)(r - line) + 1,
				    "too many tokens (at most %d)",
				    DB_MAX_TOKENS);
		tok[n].col = (unsigned int)(r - line) + 1;
		if (*r == '"') {
			tok[n].text = ++r;
			r = strchr(r, '"');
			if (!r)
				return terr(t, tok[n].col,
					    "unterminated quote");
			*r++ = '\0';
			if (*r && *r != ' ' && *r != '\t')
				return terr(t, (unsigned int)(r - line) + 1,
					    "text after closing quote");
		} else {
			tok[n].text = r;
			while (*r && *r != ' ' && *r != '\t')
				r++;
			if (*r)
				*r++ = '\0';
		}
		n++;
	}
	*ntok = n;
	return 0;
}

static int parse_num(struct translator *t, const struct db_token *tok,
		     uint64_t max, uint64_t *v)
{
	char *end;

	if (tok->text[0] < '0' || tok->text[0] > '9')
		return terr(t, tok->col, "bad number '%s'", tok->text);
	errno = 0;
	*v = strtoull(tok->text, &end, 0);
	if (errno || *end || *v > max)
		return terr(t, tok->col, "bad number '%s'", tok->text);
	return 0;
}

/* dbench's rule: NT_STATUS_OK or a 0x value of 0 must succeed. */
static int parse_status(struct translator *t, const struct db_token *tok,
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
	return terr(t, tok->col,
		    "bad status '%s' (expected NT_STATUS_... or 0x...)",
		    tok->text);
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
		return terr(
			t, tok->col,
			"'..' in path '%s': paths must stay inside the client directory",
			tok->text);
	}
	if (strlen(s) >= PATH_MAX) {
		free(p);
		return terr(t, tok->col, "path longer than %d bytes",
			    PATH_MAX - 1);
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
	return terr(t, col, "more than %d handles open at once",
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
		return terr(t, l->arg[2].col,
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
		return terr(t, l->arg[3].col,
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
		return terr(t, l->arg[0].col,
			    "Sleep of %s us is longer than %d (10 minutes)",
			    l->arg[0].text, DB_SLEEP_MAX);
	return 0;
}

static const struct db_desc {
	const char *name; /* matched case-insensitively, as dbench HEAD does */
	enum op_id id;
	unsigned int nargs;
	int (*translate)(struct translator *t, struct op *op,
			 const struct db_line *l);
} db_ops[] = {
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

static const struct db_desc *db_lookup(const char *name)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(db_ops); i++)
		if (!strcasecmp(db_ops[i].name, name))
			return &db_ops[i];
	return NULL;
}

const char *dbench_op_name(const char *name)
{
	const struct db_desc *d = db_lookup(name);

	return d ? d->name : NULL;
}

/* A leading number is dbench 4's timestamp; replay is closed-loop. */
static bool is_timestamp(const char *s)
{
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	strtod(s, &end);
	return !*end;
}

/*
 * -R: after a ReadX or WriteX of @size bytes, wait until the call has
 * taken size / rate, as dbench waits before its next line. The wait is
 * worked out here, in ns.
 */
static void append_pace(struct translator *t, uint64_t size)
{
	struct op *op = builder_append(t->b, SECTION_RUN);

	op->id = OP_DB_PACE;
	op->line = t->line;
	op->expect = EXPECT_ANY;
	op->sub = (uint8_t)t->sub;
	op->size = (uint64_t)((double)size * 1e3 / t->opts->rate_mbps);
}

static int translate_line(struct translator *t, char *line)
{
	struct db_token tok[DB_MAX_TOKENS], *first;
	const struct db_desc *d;
	struct db_line l;
	unsigned int ntok = 0;
	struct op *op;

	if (tokenize(t, line, tok, &ntok))
		return -EINVAL;
	if (!ntok || tok[0].text[0] == '#')
		return 0;
	first = tok;
	if (is_timestamp(first->text)) {
		first++;
		ntok--;
		if (!ntok)
			return terr(t, tok[0].col, "timestamp without an op");
	}
	d = db_lookup(first->text);
	if (!d)
		return terr(t, first->col, "unknown dbench op '%s'",
			    first->text);
	if (ntok < 2)
		return terr(t, first->col + (unsigned int)strlen(first->text),
			    "missing status after '%s'", first->text);
	if (parse_status(t, &first[ntok - 1], &l.ok))
		return -EINVAL;
	if (ntok - 2 != d->nargs)
		return terr(
			t, first[ntok - 1].col,
			"'%s' takes %u argument%s before its status, not %u",
			d->name, d->nargs, d->nargs == 1 ? "" : "s", ntok - 2);
	l.arg = first + 1;
	l.nargs = ntok - 2;
	/* one copy of the line for each client of the thread, in turn */
	for (t->sub = 0; t->sub < t->per_thread; t->sub++) {
		op = builder_append(t->b, SECTION_RUN);
		op->id = d->id;
		op->line = t->line;
		op->expect = EXPECT_ANY;
		op->sub = (uint8_t)t->sub;
		if (d->translate(t, op, &l))
			return -EINVAL;
		op->expand = (op->path && strstr(op->path, "${client}")) ||
			     (op->path2 && strstr(op->path2, "${client}"));
		/* no link leads out in this dialect, but --links-out promises
		 * that nothing is changed, whatever the dialect */
		if (t->opts->links_out && op_changes(op))
			return terr(
				t, first->col,
				"'%s' changes the filesystem: with --links-out a loadfile may only read",
				d->name);
		if (op->xflags & OPX_PACED)
			append_pace(t, op->size);
	}
	return 0;
}

/*
 * Handles still open at the end (a cut of client.txt) are closed after
 * each pass; ops on unknown handles get a never-open slot.
 */
static int finish(struct translator *t)
{
	struct builder *b = t->b;
	unsigned int n = 0, line = 0, col = 0;

	for (unsigned int s = 0; s < OP_MAX_HANDLES; s++)
		if (t->slot[s].open && (!n++ || t->slot[s].line < line)) {
			line = t->slot[s].line;
			col = t->slot[s].col;
		}
	builder_left_open(b, SECTION_RUN, n, line, col);
	if (t->ndead) {
		unsigned int never = builder_handles(b);

		for (unsigned int i = 0; i < t->ndead; i++)
			builder_op(b, SECTION_RUN, t->dead[i])->handle = never;
		builder_use_handle(b, never);
	}
	if (!builder_count(b, SECTION_RUN)) {
		t->line = 1;
		return terr(t, 1, "no ops in loadfile");
	}
	return 0;
}

int dbench_parse(struct builder *b, const char *buf, size_t len,
		 const struct loadfile_opts *opts)
{
	struct translator t = {
		.b = b,
		.opts = opts,
		.per_thread = opts->per_thread > 1 ? opts->per_thread : 1,
	};
	struct lines it;
	unsigned int col;
	int ret = 0, more;

	/* dbench eats the last byte of every line; we take CRLF and a
	 * missing final newline as they are meant */
	lines_init(&it, buf, len);
	while (!ret && (more = lines_next(&it, &col))) {
		t.line = it.line;
		if (more < 0)
			ret = terr(&t, col,
				   "NUL byte in loadfile (is it a text file?)");
		else
			ret = translate_line(&t, it.text);
	}
	lines_release(&it);
	if (!ret)
		ret = finish(&t);
	free(t.dead);
	return ret;
}

/*
 * The first op line decides: a dbench op name (after an optional
 * timestamp) and a last token shaped like a status. A native line can
 * have neither a status nor, except for close/rename/unlink/mkdir/rmdir,
 * a dbench op name.
 */
bool dbench_detect(const char *buf, size_t len)
{
	const char *s = buf, *end = buf + len;
	char word[32];

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *e = nl ? nl : end, *p = s, *w, *last;
		size_t n;

		while (e > p &&
		       (e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t'))
			e--;
		while (p < e && (*p == ' ' || *p == '\t'))
			p++;
		if (p == e || *p == '#') {
			s = nl ? nl + 1 : end;
			continue;
		}
		if (*p >= '0' && *p <= '9') { /* a timestamp */
			while (p < e && *p != ' ' && *p != '\t')
				p++;
			while (p < e && (*p == ' ' || *p == '\t'))
				p++;
		}
		for (w = p; w < e && *w != ' ' && *w != '\t'; w++)
			;
		n = (size_t)(w - p);
		if (!n || n >= sizeof(word))
			return false;
		memcpy(word, p, n);
		word[n] = '\0';
		for (last = e; last > w && last[-1] != ' ' && last[-1] != '\t';
		     last--)
			;
		/* the buffer need not end in NUL: compare within the line */
		n = (size_t)(e - last);
		return db_lookup(word) && last > w &&
		       ((n > 10 && !memcmp(last, "NT_STATUS_", 10)) ||
			(n > 2 && !memcmp(last, "0x", 2)));
	}
	return false;
}
