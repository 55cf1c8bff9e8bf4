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
#include "lang/dbenchint.h"
#include "lang/lines.h"
#include "lang/loadfile.h"

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
			return translator_error(t, (unsigned int)(r - line) + 1,
						"too many tokens (at most %d)",
						DB_MAX_TOKENS);
		tok[n].col = (unsigned int)(r - line) + 1;
		if (*r == '"') {
			tok[n].text = ++r;
			r = strchr(r, '"');
			if (!r)
				return translator_error(t, tok[n].col,
							"unterminated quote");
			*r++ = '\0';
			if (*r && *r != ' ' && *r != '\t')
				return translator_error(
					t, (unsigned int)(r - line) + 1,
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
			return translator_error(t, tok[0].col,
						"timestamp without an op");
	}
	d = dbench_lookup(first->text);
	if (!d)
		return translator_error(t, first->col, "unknown dbench op '%s'",
					first->text);
	if (ntok < 2)
		return translator_error(
			t, first->col + (unsigned int)strlen(first->text),
			"missing status after '%s'", first->text);
	if (translator_status(t, &first[ntok - 1], &l.ok))
		return -EINVAL;
	if (ntok - 2 != d->nargs)
		return translator_error(
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
			return translator_error(
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
		return translator_error(t, 1, "no ops in loadfile");
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
			ret = translator_error(
				&t, col,
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
		return dbench_lookup(word) && last > w &&
		       ((n > 10 && !memcmp(last, "NT_STATUS_", 10)) ||
			(n > 2 && !memcmp(last, "0x", 2)));
	}
	return false;
}
