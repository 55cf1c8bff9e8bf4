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
#include "lang/nativeint.h"

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
			return parser_error(p, (unsigned int)(r - line) + 1,
					    "too many tokens (at most %d)",
					    MAX_TOKENS);
		tok[n].col = (unsigned int)(r - line) + 1;
		tok[n].src = p->orig + (r - line);
		tok[n].text = w = r;
		if (*r == '"') {
			r++;
			while (*r != '"') {
				if (!*r)
					return parser_error(
						p, tok[n].col,
						"unterminated quote");
				if (*r == '\\' && (r[1] == '"' || r[1] == '\\'))
					r++;
				*w++ = *r++;
			}
			r++;
			if (*r && *r != ' ' && *r != '\t' && *r != '#')
				return parser_error(
					p, (unsigned int)(r - line) + 1,
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
			return parser_error(
				p, col,
				"handle @%u is already open (opened at line %u)",
				h + 1, p->open_line[h]);
		/* an open expected to fail leaves its handle closed */
		if (op->expect <= 0) {
			p->open_line[h] = p->line;
			p->open_col[h] = col;
		}
	} else if (!p->open_line[h]) {
		return parser_error(
			p, col, "handle @%u used before it is opened", h + 1);
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
		return parser_error(
			p, tok[op->id == OP_MKDIR ? 1 : 2].col,
			"'%s' below a subdirectory: with --links-out, mkdir and symlink may only make a name directly in the client directory",
			name);
	return parser_error(
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
			return parser_error(
				p, t->col,
				"absolute path '%s' in '%s', which %s: with --read-outside only ops that read may name a path outside the client directory",
				t->text, d->name,
				op->id == OP_OPEN ?
					"opens with write access, creat or trunc" :
					"changes the filesystem");
		if (d->args[i] == ARG_HANDLE && changes &&
		    !(d->flags & OPF_OPENS) && p->outside[op->handle])
			return parser_error(
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
		return parser_error(
			p, tok[0].col,
			"unknown op '%s' ('%s' is an op of dbench loadfiles; this file is read as native, %s)",
			tok[0].text, dbench_op_name(tok[0].text),
			p->dialect_forced ?
				"as --dialect native says" :
				"since its first op line does not end in a status, NT_STATUS_... or 0x...: --dialect dbench reads it as dbench's");
	if (!d)
		return parser_error(p, tok[0].col, "unknown op '%s'",
				    tok[0].text);
	/* the tree a run starts from, not a load: see vfsbench-loadfile(5) */
	if (id == OP_DATA && !p->in_setup)
		return parser_error(
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
	    token_is_expectation(tok[ntok - 1].text)) {
		ret = parser_expect(p, &tok[ntok - 1], &op->expect);
		if (ret)
			return ret;
		ntok--;
	}
	if (ntok - 1 > want)
		return parser_error(p, tok[want + 1].col,
				    "too many arguments to '%s' (at most %u)",
				    d->name, want);
	if (ntok - 1 < want - !!(d->flags & OPF_LAST_OPTIONAL)) {
		unsigned int col = token_end_col(&tok[ntok - 1]);

		return parser_error(
			p, col, "missing argument to '%s' (expected %u)",
			d->name, want - !!(d->flags & OPF_LAST_OPTIONAL));
	}
	for (i = 0; i + 1 < ntok; i++) {
		ret = parser_arg(p, op, d->args[i], &tok[i + 1], i);
		if (ret)
			return ret;
		if (d->args[i] == ARG_HANDLE)
			handle_col = tok[i + 1].col;
	}
	ret = parser_check_dotdot(p, d, op, tok, ntok);
	if (!ret)
		ret = parser_check_link(p, op, tok);
	if (!ret && p->read_outside)
		ret = check_outside(p, d, op, tok, ntok);
	if (!ret)
		ret = parser_check_marker(p, op, tok);
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
		ret = parser_error(p, 1, "no ops in [run %u]",
				   lf->nstreams - 1);
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
		return parser_error(p, tok[1].col,
				    "bad section header (expected [run N])");
	tok[1].text[len - 1] = '\0';
	if (units_parse_uint(tok[1].text, LOADFILE_MAX_STREAMS - 1, &v) ||
	    tok[1].text[0] < '0' || tok[1].text[0] > '9')
		return parser_error(p, tok[1].col,
				    "bad stream number '%s' (expected 0 .. %d)",
				    tok[1].text, LOADFILE_MAX_STREAMS - 1);
	if (!lf->nstreams && builder_count(p->b, SECTION_RUN))
		return parser_error(
			p, tok[0].col,
			"[run %u] after ops of a plain [run] section: a loadfile has one [run] section or the streams [run 0], [run 1], ..., not both",
			(unsigned int)v);
	if (v != lf->nstreams)
		return parser_error(
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
			return parser_error(
				p, tok[0].col,
				"unknown section '%s' (expected [setup], [run] or [run N])",
				tok[0].text);
		if (ntok > 1)
			return parser_error(p, tok[1].col,
					    "text after section header");
		if (!setup && p->b->lf->nstreams)
			return parser_error(
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
			ret = parser_error(
				&p, col,
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
	if (!ret && (p.dotdot_line || p.updir_line) && p.flat_line) {
		p.line = p.flat_line;
		ret = parser_error(
			&p, p.flat_col,
			"symlink target '%s' leads to the link's own directory, so '..' through the link would leave it: with '..' in a %s (line %u), a target must name something below",
			p.flat_target,
			p.dotdot_line ? "path" : "symlink target",
			p.dotdot_line ? p.dotdot_line : p.updir_line);
	}
	if (!ret)
		ret = parser_check_links(&p);
	lines_release(&it);
	nsetup = builder_count(b, SECTION_SETUP);
	nrun = builder_count(b, SECTION_RUN);
	if (!ret && !nsetup && !nrun) {
		p.line = 1;
		ret = parser_error(&p, 1, "no ops in loadfile");
	}
	if (!ret && !nrun) {
		p.line = p.line ? p.line : 1;
		ret = parser_error(&p, 1, "no ops in the [run] section");
	}
	return ret ? -EINVAL : 0;
}
