/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The native loadfile parser's arguments (vfsbench-loadfile(5)): paths,
 * handles, flags, modes, sizes, offsets, data and expectations, each
 * checked where it stands, with its column in the message.
 */
#include <config.h>
#include "lang/nativeint.h"

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
#include "base/msg.h"
#include "base/reserved.h"
#include "base/units.h"
#include "lang/builder.h"
#include "lang/loadfile.h"

int parser_error(struct parser *p, unsigned int col, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	error_at(p->name, p->line, col, "%s", msg);
	return -EINVAL;
}

unsigned int token_col(const struct token *t, size_t off)
{
	const char *s = t->src;

	if (*s != '"' || !off)
		return t->col + (unsigned int)off;
	for (s++; off; off--)
		s += s[0] == '\\' && (s[1] == '"' || s[1] == '\\') ? 2 : 1;
	return t->col + (unsigned int)(s - t->src);
}

/* Column just after a token. */
unsigned int token_end_col(const struct token *t)
{
	unsigned int col = token_col(t, strlen(t->text));

	return *t->src == '"' ? col + 1 : col;
}

bool token_is_expectation(const char *s)
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

int parser_expect(struct parser *p, const struct token *t, int *expect)
{
	if (!strcmp(t->text, "ok"))
		*expect = EXPECT_OK;
	else if (!strcmp(t->text, "any"))
		*expect = EXPECT_ANY;
	else if (op_errno_parse(t->text, expect))
		return parser_error(p, t->col, "unknown errno name '%s'",
				    t->text);
	return 0;
}

/*
 * A path stays inside the client's directory: relative, and ${client} is
 * the only variable. Its ".." components are checked once the line is
 * complete, by parser_check_dotdot().
 */
static int parse_path(struct parser *p, const struct token *t, const char **out,
		      bool *expand)
{
	const char *s = t->text, *c;
	size_t len = strlen(s);

	if (!len)
		return parser_error(p, t->col, "empty path");
	if (s[0] == '/' && !p->read_outside)
		return parser_error(
			p, t->col,
			"absolute path '%s': paths are relative to the client directory",
			s);
	if (len >= PATH_MAX)
		return parser_error(p, t->col, "path longer than %d bytes",
				    PATH_MAX - 1);
	for (c = s; *c; c++) {
		if (c[0] == '$') {
			if (strncmp(c, "${client}", 9)) {
				const char *end = strchr(c, '}');
				int l = end ? (int)(end - c + 1) :
					      (int)strlen(c);

				return parser_error(
					p, token_col(t, (size_t)(c - s)),
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
 * A target with ".." is checked with its link's path, once the line is
 * whole (parser_check_link()). --links-out lifts the rules for loadfiles
 * that change nothing.
 */
static int parse_target(struct parser *p, const struct token *t,
			const char **out)
{
	const char *s = t->text;

	if (!s[0])
		return parser_error(p, t->col, "empty symlink target");
	if (!p->links_out && s[0] == '/')
		return parser_error(
			p, t->col,
			"absolute symlink target '%s': a link must lead inside the client directory (a loadfile that only reads may link out with --links-out)",
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
int parser_check_marker(struct parser *p, const struct op *op,
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
	return parser_error(
		p, token_col(t, (size_t)(base - t->text)),
		"'%s' makes a file named as vfsbench's marker: the cleanup would take its directory for another instance's and leave it",
		t->text);
}

int parser_check_dotdot(struct parser *p, const struct op_desc *d,
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
				return parser_error(
					p, token_col(t, (size_t)(c - s)),
					"'..' in path '%s': paths must stay inside the client directory",
					s);
			continue;
		}
		c = op_path_leaves(s);
		if (c)
			return parser_error(
				p, token_col(t, (size_t)(c - s)),
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
		return parser_error(p, t->col,
				    "bad handle '%s' (expected @1 .. @%d)",
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
			return parser_error(
				p, token_col(t, (size_t)(s - t->text)),
				"bad open flag '%.*s'", (int)len, s);
		*flags |= open_flags[i].flag;
		modes += open_flags[i].access_mode;
		if (!comma)
			break;
		s = comma + 1;
	}
	if (modes != 1)
		return parser_error(
			p, t->col,
			"open flags need exactly one of rdonly, wronly, rdwr");
	return 0;
}

static int parse_mode(struct parser *p, const struct token *t, uint16_t *mode)
{
	char *end;
	unsigned long v;

	if (t->text[0] < '0' || t->text[0] > '7')
		return parser_error(p, t->col, "bad mode '%s' (expected octal)",
				    t->text);
	errno = 0;
	v = strtoul(t->text, &end, 8);
	if (errno || *end || v > 07777)
		return parser_error(p, t->col,
				    "bad mode '%s' (expected octal <= 7777)",
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
		return parser_error(
			p, t->col,
			"bad access mode '' (expected f or some of r, w, x)");
	for (; *s; s++) {
		int bit = *s == 'r' ? R_OK :
			  *s == 'w' ? W_OK :
			  *s == 'x' ? X_OK :
				      0;

		if (!bit || (*amode & bit))
			return parser_error(
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
		return parser_error(
			p, t->col, "bad whence '%s' (expected set, cur or end)",
			t->text);
	return 0;
}

/* A size or an offset (@what, for messages), with units. */
static int parse_size(struct parser *p, const struct token *t, uint64_t *v,
		      uint64_t max, const char *what)
{
	if (units_parse_size(t->text, v))
		return parser_error(p, t->col, "bad %s '%s'", what, t->text);
	if (*v > max)
		return parser_error(p, t->col,
				    "%s '%s' too large (at most %llu)", what,
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
			return parser_error(
				p, t->col,
				"bad offset '%s' (expected a size or ${client}*SIZE[+SIZE])",
				s);
		return parse_size(p, t, &op->offset, INT64_MAX, "offset");
	}
	s += sizeof(var) - 1;
	plus = strchr(s, '+');
	len = plus ? (size_t)(plus - s) : strlen(s);
	part.col = token_col(t, (size_t)(s - t->text));
	if (!len || len >= sizeof(num))
		return parser_error(p, part.col, "bad offset stride '%.*s'",
				    (int)len, s);
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
	part.col = token_col(t, (size_t)(plus + 1 - t->text));
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
		return parser_error(
			p, token_end_col(t) - 1,
			"odd number of hex digits (%zu): each byte is two",
			len);
	if (n > OP_MAX_DATA)
		return parser_error(p, t->col, "%zu bytes of data (at most %u)",
				    n, OP_MAX_DATA);
	if (p->data_bytes + n > OP_MAX_DATA_TOTAL)
		return parser_error(
			p, t->col,
			"%zu bytes of data in the loadfile with this line (at most %u)",
			p->data_bytes + n, OP_MAX_DATA_TOTAL);
	buf = xmalloc(n + 1);
	for (size_t i = 0; i < len; i++) {
		int d = hex_digit(t->text[i]);

		if (d < 0) {
			free(buf);
			return parser_error(p, token_col(t, i),
					    "bad hex digit '%c' in data",
					    t->text[i]);
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

int parser_arg(struct parser *p, struct op *op, enum op_arg kind,
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
