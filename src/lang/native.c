/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The native loadfile parser (vfsbench-loadfile(5)): text in, ops out.
 * Every check that can be made before a run (arity, numbers, handles, path
 * safety) is made here, so a bad loadfile fails before anything exists on
 * disk.
 */
#include <config.h>
#include "lang/native.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/compiler.h"
#include "base/msg.h"
#include "base/reserved.h"
#include "base/units.h"
#include "lang/builder.h"
#include "lang/dbench.h"
#include "lang/lines.h"
#include "lang/loadfile.h"

#define MAX_TOKENS 16

struct token {
	char *text; /* unquoted, NUL-terminated, points into the line copy */
	unsigned int col; /* 1-based column of the token's first byte */
	const char *src; /* the token in the unmodified line */
};

/* Parser state for one file. */
struct parser {
	const char *name;
	unsigned int line;
	bool in_setup;
	unsigned int open_line[OP_MAX_HANDLES]; /* 0: handle closed */
	unsigned int open_col[OP_MAX_HANDLES];
	const char *orig; /* the current line, before tokenizing */
	struct builder *b;
	bool links_out; /* --links-out: see struct loadfile_opts */
	bool read_outside; /* --read-outside: see struct loadfile_opts */
	/* the handles an open of an absolute path filled: read-only */
	bool outside[OP_MAX_HANDLES];
	/* the first line with ".." in a path (0: none), and the first
	 * symlink target with no name to go down to ("."): together they
	 * could lead out, see check_dotdot() */
	unsigned int dotdot_line;
	unsigned int flat_line, flat_col;
	const char *flat_target;
	bool dialect_forced; /* --dialect native, not detected */
	/* [run N] streams: the current one's header line and first op */
	unsigned int stream_line, stream_first;
	size_t data_bytes; /* of every data line so far */
};

static int perr(struct parser *p, unsigned int col, const char *fmt, ...)
	PRINTF(3, 4);

static int perr(struct parser *p, unsigned int col, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	error_at(p->name, p->line, col, "%s", msg);
	return -EINVAL;
}

/*
 * Column of byte @off of a token's text, counting the opening quote and
 * escapes of a quoted token. Offset 0 is the token itself, quote included.
 */
static unsigned int tok_col(const struct token *t, size_t off)
{
	const char *s = t->src;

	if (*s != '"' || !off)
		return t->col + (unsigned int)off;
	for (s++; off; off--)
		s += s[0] == '\\' && (s[1] == '"' || s[1] == '\\') ? 2 : 1;
	return t->col + (unsigned int)(s - t->src);
}

/* Column just after a token. */
static unsigned int tok_end_col(const struct token *t)
{
	unsigned int col = tok_col(t, strlen(t->text));

	return *t->src == '"' ? col + 1 : col;
}

/*
 * Split @line (modified in place) into tokens. Double quotes group, with
 * \" and \\ as escapes; '#' outside quotes ends the line.
 */
static int tokenize(struct parser *p, char *line, struct token *tok,
		    unsigned int *ntok)
{
	char *r = line, *w, c;
	unsigned int n = 0;

	for (;;) {
		while (*r == ' ' || *r == '\t')
			r++;
		if (!*r || *r == '#')
			break;
		if (n == MAX_TOKENS)
			return perr(p, (unsigned int)(r - line) + 1,
				    "too many tokens (at most %d)", MAX_TOKENS);
		tok[n].col = (unsigned int)(r - line) + 1;
		tok[n].src = p->orig + (r - line);
		tok[n].text = w = r;
		if (*r == '"') {
			r++;
			while (*r != '"') {
				if (!*r)
					return perr(p, tok[n].col,
						    "unterminated quote");
				if (*r == '\\' && (r[1] == '"' || r[1] == '\\'))
					r++;
				*w++ = *r++;
			}
			r++;
			if (*r && *r != ' ' && *r != '\t' && *r != '#')
				return perr(p, (unsigned int)(r - line) + 1,
					    "text after closing quote");
		} else {
			while (*r && *r != ' ' && *r != '\t' && *r != '#')
				*w++ = *r++;
		}
		/* r is at a separator, '#' or NUL; w <= r */
		c = *r;
		*w = '\0';
		n++;
		if (c != ' ' && c != '\t')
			break;
		r++;
	}
	*ntok = n;
	return 0;
}

static bool is_expectation(const char *s)
{
	if (!strcmp(s, "ok") || !strcmp(s, "any"))
		return true;
	if (s[0] != 'E' || !s[1])
		return false;
	for (s++; *s; s++)
		if (!((*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')))
			return false;
	return true;
}

static int parse_expect(struct parser *p, const struct token *t, int *expect)
{
	if (!strcmp(t->text, "ok"))
		*expect = EXPECT_OK;
	else if (!strcmp(t->text, "any"))
		*expect = EXPECT_ANY;
	else if (op_errno_parse(t->text, expect))
		return perr(p, t->col, "unknown errno name '%s'", t->text);
	return 0;
}

/*
 * A path stays inside the client's directory: relative, and ${client} is
 * the only variable. Its ".." components are checked once the line is
 * complete, by check_dotdot().
 */
static int parse_path(struct parser *p, const struct token *t, const char **out,
		      bool *expand)
{
	const char *s = t->text, *c;
	size_t len = strlen(s);

	if (!len)
		return perr(p, t->col, "empty path");
	if (s[0] == '/' && !p->read_outside)
		return perr(
			p, t->col,
			"absolute path '%s': paths are relative to the client directory",
			s);
	if (len >= PATH_MAX)
		return perr(p, t->col, "path longer than %d bytes",
			    PATH_MAX - 1);
	for (c = s; *c; c++) {
		if (c[0] == '$') {
			if (strncmp(c, "${client}", 9)) {
				const char *end = strchr(c, '}');
				int l = end ? (int)(end - c + 1) :
					      (int)strlen(c);

				return perr(
					p, tok_col(t, (size_t)(c - s)),
					"unknown variable '%.*s' (only ${client} is defined)",
					l, c);
			}
			*expand = true;
		}
	}
	*out = builder_strdup(p->b, s);
	return 0;
}

/*
 * A symlink target is resolved from the link's directory, which is inside
 * the client directory: relative without "..", it leads only downwards,
 * also after the link is renamed or hard-linked elsewhere, and so by
 * induction does every name resolved through any chain of such links.
 * --links-out lifts the rule for loadfiles that change nothing.
 */
static int parse_target(struct parser *p, const struct token *t,
			const char **out)
{
	const char *s = t->text, *c;

	if (!s[0])
		return perr(p, t->col, "empty symlink target");
	if (!p->links_out && s[0] == '/')
		return perr(
			p, t->col,
			"absolute symlink target '%s': a link must lead inside the client directory (a loadfile that only reads may link out with --links-out)",
			s);
	c = p->links_out ? NULL : op_path_dotdot(s);
	if (c)
		return perr(
			p, tok_col(t, (size_t)(c - s)),
			"'..' in symlink target '%s': a link must lead inside the client directory (a loadfile that only reads may link out with --links-out)",
			s);
	*out = builder_strdup(p->b, s);
	if (!p->links_out && !p->flat_line && !op_path_descends(s)) {
		p->flat_line = p->line;
		p->flat_col = t->col;
		p->flat_target = *out;
	}
	return 0;
}

/*
 * ".." in the paths of a complete line (open's flags, which say whether
 * it writes, come after its path).
 *
 * An op that creates, changes or removes something may have no ".."
 * at all: with relative paths and relative link targets without "..",
 * every name it resolves is at or below its directory (see
 * parse_target()), so whatever the loadfile does, it changes nothing
 * outside.
 *
 * An op that only reads (op_changes() false) may have ".." where the
 * path stays lexically inside the directory it is resolved from (the
 * client's cwd): walking its components from the left, a depth that
 * each name adds 1 to and ".." takes 1 from never goes below 0
 * ("a/b/../b/c"; not "a/../../x"). That is also where the walk goes on
 * disk. The kernel resolves ".." as the parent of the directory the walk
 * has reached; a name is a real directory one level down, or a link whose
 * target, relative without "..", leads at least one level down from the
 * link's directory, provided that it has a name in it: so the walk is
 * always at least as deep below the client directory as the lexical
 * count says, and a ".." from there stays inside. A target without a name
 * (".") would lead nowhere down, so "l/.." would leave through it: such a
 * target and a ".." in a path are refused together (native_parse()).
 * With --links-out links may lead anywhere, and the loadfile only reads
 * anyway. The one gap: in --cwd shared another client may rename a
 * directory higher while a walk is below it, and the ".." after that goes
 * above where the count says; the op still only reads.
 */
/*
 * A regular file named as vfsbench's marker makes its directory another
 * instance's work directory to the cleanup, which leaves it: no op may
 * make one (create, open with creat, the new name of rename and link).
 * Other ops may name it: a symlink of that name is no marker.
 */
static int check_marker_name(struct parser *p, const struct op *op,
			     const struct token *tok)
{
	const struct token *t;
	const char *base;
	int arg;

	switch (op->id) {
	case OP_CREATE:
		arg = 0;
		break;
	case OP_OPEN:
		if (!(op->flags & O_CREAT))
			return 0;
		arg = 0;
		break;
	case OP_RENAME:
	case OP_LINK:
		arg = 1;
		break;
	default:
		return 0;
	}
	t = &tok[arg + 1];
	base = strrchr(t->text, '/');
	base = base ? base + 1 : t->text;
	if (strcmp(base, VB_MARKER_NAME))
		return 0;
	return perr(
		p, tok_col(t, (size_t)(base - t->text)),
		"'%s' makes a file named as vfsbench's marker: the cleanup would take its directory for another instance's and leave it",
		t->text);
}

static int check_dotdot(struct parser *p, const struct op_desc *d,
			const struct op *op, const struct token *tok,
			unsigned int ntok)
{
	bool changes = op_changes(op);

	for (unsigned int i = 0; i + 1 < ntok; i++) {
		const struct token *t = &tok[i + 1];
		const char *s = t->text, *c;

		if (d->args[i] != ARG_PATH)
			continue;
		/* absolute (--read-outside): only reads, see check_outside() */
		if (s[0] == '/')
			continue;
		if (changes) {
			c = op_path_dotdot(s);
			if (c)
				return perr(
					p, tok_col(t, (size_t)(c - s)),
					"'..' in path '%s': paths must stay inside the client directory",
					s);
			continue;
		}
		c = op_path_leaves(s);
		if (c)
			return perr(
				p, tok_col(t, (size_t)(c - s)),
				"'..' in path '%s' leads out of the client directory",
				s);
		if (!p->dotdot_line && op_path_dotdot(s))
			p->dotdot_line = p->line;
	}
	return 0;
}

static int parse_handle(struct parser *p, const struct token *t,
			uint16_t *handle)
{
	uint64_t v;

	if (t->text[0] != '@' ||
	    units_parse_uint(t->text + 1, OP_MAX_HANDLES, &v) || v < 1)
		return perr(p, t->col, "bad handle '%s' (expected @1 .. @%d)",
			    t->text, OP_MAX_HANDLES);
	*handle = (uint16_t)(v - 1);
	return 0;
}

static const struct {
	const char *name;
	int flag;
	bool access_mode;
} open_flags[] = {
	{ "rdonly", O_RDONLY, true },	   { "wronly", O_WRONLY, true },
	{ "rdwr", O_RDWR, true },	   { "creat", O_CREAT, false },
	{ "excl", O_EXCL, false },	   { "trunc", O_TRUNC, false },
	{ "append", O_APPEND, false },	   { "sync", O_SYNC, false },
	{ "dsync", O_DSYNC, false },	   { "directory", O_DIRECTORY, false },
	{ "nofollow", O_NOFOLLOW, false }, { "noatime", O_NOATIME, false },
	{ "cloexec", O_CLOEXEC, false },
};

static int parse_flags(struct parser *p, const struct token *t, int *flags)
{
	char *s = t->text, *comma;
	int modes = 0;

	*flags = 0;
	for (;;) {
		unsigned int i;
		size_t len;

		comma = strchr(s, ',');
		len = comma ? (size_t)(comma - s) : strlen(s);
		for (i = 0; i < ARRAY_SIZE(open_flags); i++)
			if (strlen(open_flags[i].name) == len &&
			    !strncmp(open_flags[i].name, s, len))
				break;
		if (i == ARRAY_SIZE(open_flags))
			return perr(p, tok_col(t, (size_t)(s - t->text)),
				    "bad open flag '%.*s'", (int)len, s);
		*flags |= open_flags[i].flag;
		modes += open_flags[i].access_mode;
		if (!comma)
			break;
		s = comma + 1;
	}
	if (modes != 1)
		return perr(
			p, t->col,
			"open flags need exactly one of rdonly, wronly, rdwr");
	return 0;
}

static int parse_mode(struct parser *p, const struct token *t, uint16_t *mode)
{
	char *end;
	unsigned long v;

	if (t->text[0] < '0' || t->text[0] > '7')
		return perr(p, t->col, "bad mode '%s' (expected octal)",
			    t->text);
	errno = 0;
	v = strtoul(t->text, &end, 8);
	if (errno || *end || v > 07777)
		return perr(p, t->col, "bad mode '%s' (expected octal <= 7777)",
			    t->text);
	*mode = (uint16_t)v;
	return 0;
}

static int parse_amode(struct parser *p, const struct token *t, int *amode)
{
	const char *s = t->text;

	*amode = 0;
	if (!strcmp(s, "f"))
		return 0;
	if (!*s)
		return perr(
			p, t->col,
			"bad access mode '' (expected f or some of r, w, x)");
	for (; *s; s++) {
		int bit = *s == 'r' ? R_OK :
			  *s == 'w' ? W_OK :
			  *s == 'x' ? X_OK :
				      0;

		if (!bit || (*amode & bit))
			return perr(
				p, t->col,
				"bad access mode '%s' (expected f or some of r, w, x)",
				t->text);
		*amode |= bit;
	}
	return 0;
}

/* lseek(2)'s whence, by the SEEK_ name's tail in lower case. */
static int parse_whence(struct parser *p, const struct token *t, int *whence)
{
	if (!strcmp(t->text, "set"))
		*whence = SEEK_SET;
	else if (!strcmp(t->text, "cur"))
		*whence = SEEK_CUR;
	else if (!strcmp(t->text, "end"))
		*whence = SEEK_END;
	else
		return perr(p, t->col,
			    "bad whence '%s' (expected set, cur or end)",
			    t->text);
	return 0;
}

/* A size or an offset (@what, for messages), with units. */
static int parse_size(struct parser *p, const struct token *t, uint64_t *v,
		      uint64_t max, const char *what)
{
	if (units_parse_size(t->text, v))
		return perr(p, t->col, "bad %s '%s'", what, t->text);
	if (*v > max)
		return perr(p, t->col, "%s '%s' too large (at most %llu)", what,
			    t->text, (unsigned long long)max);
	return 0;
}

/*
 * An offset: a size, or ${client}*STRIDE[+BASE], a region of its own for
 * each client in a shared file. The product is made when the op runs,
 * from the client's number, so the op stays one for every client.
 */
static int parse_offset(struct parser *p, const struct token *t, struct op *op)
{
	static const char var[] = "${client}*";
	char *s = t->text, *plus;
	struct token part = *t;
	uint64_t stride;
	char num[32];
	size_t len;
	int ret;

	if (strncmp(s, var, sizeof(var) - 1)) {
		if (s[0] == '$')
			return perr(
				p, t->col,
				"bad offset '%s' (expected a size or ${client}*SIZE[+SIZE])",
				s);
		return parse_size(p, t, &op->offset, INT64_MAX, "offset");
	}
	s += sizeof(var) - 1;
	plus = strchr(s, '+');
	len = plus ? (size_t)(plus - s) : strlen(s);
	part.col = tok_col(t, (size_t)(s - t->text));
	if (!len || len >= sizeof(num))
		return perr(p, part.col, "bad offset stride '%.*s'", (int)len,
			    s);
	memcpy(num, s, len);
	num[len] = '\0';
	part.text = num;
	ret = parse_size(p, &part, &stride, UINT32_MAX, "offset stride");
	if (ret)
		return ret;
	op->stride = (uint32_t)stride;
	if (!plus)
		return 0;
	part.text = plus + 1;
	part.col = tok_col(t, (size_t)(plus + 1 - t->text));
	return parse_size(p, &part, &op->offset, INT64_MAX, "offset");
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * data's bytes, two hexadecimal digits each: decoded once here, so the
 * [setup] op writes them as they are, and bounded so that a loadfile of
 * file contents stays a loadfile (OP_MAX_DATA, OP_MAX_DATA_TOTAL).
 */
static int parse_hex(struct parser *p, const struct token *t, struct op *op)
{
	size_t len = strlen(t->text), n = len / 2;
	char *buf;

	if (len % 2)
		return perr(p, tok_end_col(t) - 1,
			    "odd number of hex digits (%zu): each byte is two",
			    len);
	if (n > OP_MAX_DATA)
		return perr(p, t->col, "%zu bytes of data (at most %u)", n,
			    OP_MAX_DATA);
	if (p->data_bytes + n > OP_MAX_DATA_TOTAL)
		return perr(
			p, t->col,
			"%zu bytes of data in the loadfile with this line (at most %u)",
			p->data_bytes + n, OP_MAX_DATA_TOTAL);
	buf = xmalloc(n + 1);
	for (size_t i = 0; i < len; i++) {
		int d = hex_digit(t->text[i]);

		if (d < 0) {
			free(buf);
			return perr(p, tok_col(t, i),
				    "bad hex digit '%c' in data", t->text[i]);
		}
		if (i % 2)
			buf[i / 2] = (char)(buf[i / 2] << 4 | d);
		else
			buf[i / 2] = (char)d;
	}
	p->data_bytes += n;
	op->bytes = strtab_store(&p->b->lf->strings, buf, n);
	op->size = n;
	free(buf);
	return 0;
}

static int parse_arg(struct parser *p, struct op *op, enum op_arg kind,
		     const struct token *t, unsigned int argi)
{
	const char **path = argi == 0 ? &op->path : &op->path2;

	switch (kind) {
	case ARG_PATH:
		return parse_path(p, t, path, &op->expand);
	case ARG_TARGET:
		return parse_target(p, t, &op->path);
	case ARG_HANDLE:
		return parse_handle(p, t, &op->handle);
	case ARG_FLAGS:
		return parse_flags(p, t, &op->flags);
	case ARG_MODE:
		return parse_mode(p, t, &op->mode);
	case ARG_AMODE:
		return parse_amode(p, t, &op->flags);
	case ARG_OFFSET:
		return parse_offset(p, t, op);
	case ARG_SIZE:
		return parse_size(p, t, &op->size,
				  op->id == OP_FTRUNCATE || op->id == OP_LOCK ||
						  op->id == OP_UNLOCK ?
					  (uint64_t)INT64_MAX :
				  op->id == OP_GETDENTS ? OP_MAX_GETDENTS :
							  OP_MAX_IO,
				  "size");
	case ARG_WHENCE:
		return parse_whence(p, t, &op->flags);
	case ARG_HEX:
		return parse_hex(p, t, op);
	case ARG_NONE:
		break;
	}
	BUG("argument kind %d", kind);
}

static unsigned int nargs(const struct op_desc *d)
{
	unsigned int n = 0;

	while (n < OP_MAX_ARGS && d->args[n] != ARG_NONE)
		n++;
	return n;
}

/* Static handle discipline: opened before use, not twice, closed later. */
static int check_handle(struct parser *p, const struct op_desc *d,
			struct op *op, unsigned int col)
{
	unsigned int h = op->handle;

	op->has_handle = true;
	if (d->flags & OPF_OPENS) {
		if (p->open_line[h])
			return perr(
				p, col,
				"handle @%u is already open (opened at line %u)",
				h + 1, p->open_line[h]);
		/* an open expected to fail leaves its handle closed */
		if (op->expect <= 0) {
			p->open_line[h] = p->line;
			p->open_col[h] = col;
		}
	} else if (!p->open_line[h]) {
		return perr(p, col, "handle @%u used before it is opened",
			    h + 1);
	} else if (d->flags & OPF_CLOSES) {
		p->open_line[h] = 0;
	}
	builder_use_handle(p->b, h);
	return 0;
}

/*
 * Handles still open when a section ends are accepted (a cut of a longer
 * loadfile): the builder warns and has them closed after each pass; the
 * next section starts with all closed.
 */
static void end_section(struct parser *p)
{
	unsigned int n = 0, line = 0, col = 0;

	for (unsigned int h = 0; h < OP_MAX_HANDLES; h++) {
		if (!p->open_line[h])
			continue;
		if (!n++ || p->open_line[h] < line) {
			line = p->open_line[h];
			col = p->open_col[h];
		}
		p->open_line[h] = 0;
	}
	builder_left_open(p->b, p->in_setup ? SECTION_SETUP : SECTION_RUN, n,
			  line, col);
}

/*
 * With --links-out any path may lead out of the work directory through a
 * link, so only ops that read are run; the column is the token that makes
 * the op change something.
 */
static int links_out_error(struct parser *p, const struct op *op,
			   const struct token *tok)
{
	const char *name = op_table[op->id].name;

	if (op->id == OP_MKDIR || op->id == OP_SYMLINK)
		return perr(
			p, tok[op->id == OP_MKDIR ? 1 : 2].col,
			"'%s' below a subdirectory: with --links-out, mkdir and symlink may only make a name directly in the client directory",
			name);
	return perr(
		p, tok[op->id == OP_OPEN ? 2 : 0].col,
		"'%s' %s: with --links-out a loadfile may only read (and mkdir or symlink a name directly in the client directory)",
		name,
		op->id == OP_OPEN ? "with write access, creat or trunc" :
				    "changes the filesystem");
}

/*
 * With --read-outside an absolute path is allowed in an op that only
 * reads (op_changes() false), and a handle such an open filled may only
 * be read through: nothing outside the work directory is ever created,
 * changed or removed. The column is the absolute path's, or the handle's.
 */
static int check_outside(struct parser *p, const struct op_desc *d,
			 const struct op *op, const struct token *tok,
			 unsigned int ntok)
{
	bool changes = op_changes(op);

	for (unsigned int i = 0; i + 1 < ntok; i++) {
		const struct token *t = &tok[i + 1];

		if (d->args[i] == ARG_PATH && t->text[0] == '/' && changes)
			return perr(
				p, t->col,
				"absolute path '%s' in '%s', which %s: with --read-outside only ops that read may name a path outside the client directory",
				t->text, d->name,
				op->id == OP_OPEN ?
					"opens with write access, creat or trunc" :
					"changes the filesystem");
		if (d->args[i] == ARG_HANDLE && changes &&
		    !(d->flags & OPF_OPENS) && p->outside[op->handle])
			return perr(
				p, t->col,
				"'%s' on handle @%u, opened on an absolute path: a file outside the client directory may only be read",
				d->name, op->handle + 1u);
	}
	if (d->flags & OPF_OPENS)
		p->outside[op->handle] = op->path && op->path[0] == '/';
	return 0;
}

static int parse_op(struct parser *p, struct token *tok, unsigned int ntok)
{
	const struct op_desc *d;
	enum op_id id;
	struct op *op;
	unsigned int want, i, handle_col = tok[0].col;
	int ret;

	d = op_lookup(tok[0].text, &id);
	if (!d && dbench_op_name(tok[0].text))
		return perr(
			p, tok[0].col,
			"unknown op '%s' ('%s' is an op of dbench loadfiles; this file is read as native, %s)",
			tok[0].text, dbench_op_name(tok[0].text),
			p->dialect_forced ?
				"as --dialect native says" :
				"since its first op line does not end in a status, NT_STATUS_... or 0x...: --dialect dbench reads it as dbench's");
	if (!d)
		return perr(p, tok[0].col, "unknown op '%s'", tok[0].text);
	/* the tree a run starts from, not a load: see vfsbench-loadfile(5) */
	if (id == OP_DATA && !p->in_setup)
		return perr(
			p, tok[0].col,
			"'data' outside [setup]: it makes the files a run starts from");
	op = builder_append(p->b, p->in_setup ? SECTION_SETUP : SECTION_RUN);
	op->id = id;
	op->line = p->line;
	op->expect = EXPECT_OK;
	op->mode = id == OP_MKDIR ? 0755 : 0644;
	if (id == OP_GETDENTS)
		op->size = OP_DEFAULT_GETDENTS;
	want = nargs(d);

	/* A last token spelled like an expectation is one: a path spelled
	 * "ok" or "ENOENT" is written "./ok". */
	if (ntok > 1 && ntok - 1 >= want - !!(d->flags & OPF_LAST_OPTIONAL) &&
	    is_expectation(tok[ntok - 1].text)) {
		ret = parse_expect(p, &tok[ntok - 1], &op->expect);
		if (ret)
			return ret;
		ntok--;
	}
	if (ntok - 1 > want)
		return perr(p, tok[want + 1].col,
			    "too many arguments to '%s' (at most %u)", d->name,
			    want);
	if (ntok - 1 < want - !!(d->flags & OPF_LAST_OPTIONAL)) {
		unsigned int col = tok_end_col(&tok[ntok - 1]);

		return perr(p, col, "missing argument to '%s' (expected %u)",
			    d->name, want - !!(d->flags & OPF_LAST_OPTIONAL));
	}
	for (i = 0; i + 1 < ntok; i++) {
		ret = parse_arg(p, op, d->args[i], &tok[i + 1], i);
		if (ret)
			return ret;
		if (d->args[i] == ARG_HANDLE)
			handle_col = tok[i + 1].col;
	}
	ret = check_dotdot(p, d, op, tok, ntok);
	if (!ret && p->read_outside)
		ret = check_outside(p, d, op, tok, ntok);
	if (!ret)
		ret = check_marker_name(p, op, tok);
	if (ret)
		return ret;
	if (p->links_out && !op_links_out_ok(op))
		return links_out_error(p, op, tok);
	for (i = 0; i < want; i++)
		if (d->args[i] == ARG_HANDLE)
			return check_handle(p, d, op, handle_col);
	return 0;
}

/* The stream that ends here, if any, has ops. */
static int check_stream(struct parser *p)
{
	struct loadfile *lf = p->b->lf;
	unsigned int line = p->line;
	int ret = 0;

	if (lf->nstreams &&
	    builder_count(p->b, SECTION_RUN) == p->stream_first) {
		p->line = p->stream_line;
		ret = perr(p, 1, "no ops in [run %u]", lf->nstreams - 1);
		p->line = line;
	}
	return ret;
}

/*
 * "[run N]": stream N of the [run] section, which client i runs when
 * N is i mod the number of streams. Numbered from 0 in order, and
 * never mixed with a plain [run] section.
 */
static int parse_stream(struct parser *p, struct token *tok, unsigned int ntok)
{
	struct loadfile *lf = p->b->lf;
	size_t len = ntok == 2 ? strlen(tok[1].text) : 0;
	uint64_t v;
	int ret;

	if (ntok != 2 || len < 2 || tok[1].text[len - 1] != ']')
		return perr(p, tok[1].col,
			    "bad section header (expected [run N])");
	tok[1].text[len - 1] = '\0';
	if (units_parse_uint(tok[1].text, LOADFILE_MAX_STREAMS - 1, &v) ||
	    tok[1].text[0] < '0' || tok[1].text[0] > '9')
		return perr(p, tok[1].col,
			    "bad stream number '%s' (expected 0 .. %d)",
			    tok[1].text, LOADFILE_MAX_STREAMS - 1);
	if (!lf->nstreams && builder_count(p->b, SECTION_RUN))
		return perr(
			p, tok[0].col,
			"[run %u] after ops of a plain [run] section: a loadfile has one [run] section or the streams [run 0], [run 1], ..., not both",
			(unsigned int)v);
	if (v != lf->nstreams)
		return perr(
			p, tok[1].col,
			"[run %u] where [run %u] is next: streams are numbered from 0, in order",
			(unsigned int)v, lf->nstreams);
	ret = check_stream(p);
	if (ret)
		return ret;
	end_section(p);
	p->in_setup = false;
	p->stream_line = p->line;
	p->stream_first = builder_count(p->b, SECTION_RUN);
	builder_stream(p->b);
	return 0;
}

static int parse_line(struct parser *p, char *line)
{
	struct token tok[MAX_TOKENS];
	unsigned int ntok = 0;
	int ret;

	ret = tokenize(p, line, tok, &ntok);
	if (ret || !ntok)
		return ret;
	if (!strcmp(tok[0].text, "[run") && ntok > 1)
		return parse_stream(p, tok, ntok);
	if (tok[0].text[0] == '[') {
		bool setup = !strcmp(tok[0].text, "[setup]");

		if (!setup && strcmp(tok[0].text, "[run]"))
			return perr(
				p, tok[0].col,
				"unknown section '%s' (expected [setup], [run] or [run N])",
				tok[0].text);
		if (ntok > 1)
			return perr(p, tok[1].col, "text after section header");
		if (!setup && p->b->lf->nstreams)
			return perr(
				p, tok[0].col,
				"[run] after [run 0]: a loadfile has one [run] section or the streams [run 0], [run 1], ..., not both");
		end_section(p);
		p->in_setup = setup;
		return 0;
	}
	return parse_op(p, tok, ntok);
}

int native_parse(struct builder *b, const char *buf, size_t len,
		 const struct loadfile_opts *opts)
{
	struct parser p = { .name = builder_name(b),
			    .b = b,
			    .links_out = opts->links_out,
			    .read_outside = opts->read_outside,
			    .dialect_forced = opts->dialect == DIALECT_NATIVE };
	unsigned int col, nsetup, nrun;
	struct lines it;
	int ret = 0, more;

	lines_init(&it, buf, len);
	while ((more = lines_next(&it, &col))) {
		p.line = it.line;
		if (more < 0) {
			ret = perr(&p, col,
				   "NUL byte in loadfile (is it a text file?)");
			break;
		}
		p.orig = it.orig;
		ret = parse_line(&p, it.text);
		if (ret)
			break;
	}
	if (!ret)
		ret = check_stream(&p);
	if (!ret)
		end_section(&p);
	if (!ret && p.dotdot_line && p.flat_line) {
		p.line = p.flat_line;
		ret = perr(
			&p, p.flat_col,
			"symlink target '%s' leads to the link's own directory, so '..' through the link would leave it: with '..' in a path (line %u), a target must name something below",
			p.flat_target, p.dotdot_line);
	}
	lines_release(&it);
	nsetup = builder_count(b, SECTION_SETUP);
	nrun = builder_count(b, SECTION_RUN);
	if (!ret && !nsetup && !nrun) {
		p.line = 1;
		ret = perr(&p, 1, "no ops in loadfile");
	}
	if (!ret && !nrun) {
		p.line = p.line ? p.line : 1;
		ret = perr(&p, 1, "no ops in the [run] section");
	}
	return ret ? -EINVAL : 0;
}
