/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_LANG_NATIVEINT_H
#define VB_LANG_NATIVEINT_H

/*
 * The native parser's own state and tokens, shared by native.c (lines,
 * sections, ops, handles) and nativeargs.c (each argument of an op). Not
 * for other files.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/compiler.h"
#include "lang/ops.h"

struct builder;

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
	/*
	 * The first symlink target with ".." (0: none) and the most levels
	 * such targets climb above their links' directories; the rename or
	 * link that puts a name highest: its line, column, path and the
	 * depth of its directory. Together they could lead out: see
	 * parser_check_link().
	 */
	unsigned int updir_line, updir_col, updir_need;
	const char *updir_target;
	unsigned int move_line, move_col;
	const char *move_path;
	int move_depth;
	bool dialect_forced; /* --dialect native, not detected */
	/* [run N] streams: the current one's header line and first op */
	unsigned int stream_line, stream_first;
	size_t data_bytes; /* of every data line so far */
};

/* An error at column @col of the current line: -EINVAL, printed. */
int parser_error(struct parser *p, unsigned int col, const char *fmt, ...)
	PRINTF(3, 4);
/*
 * Column of byte @off of a token's text, counting the opening quote and
 * escapes of a quoted token. Offset 0 is the token itself, quote included.
 */
unsigned int token_col(const struct token *t, size_t off);
/* Column just after a token. */
unsigned int token_end_col(const struct token *t);
/* "ok", "any" or an errno name (E and capitals or digits). */
bool token_is_expectation(const char *s);
/* An expectation token into *@expect: 0, -1 for any, or an errno. */
int parser_expect(struct parser *p, const struct token *t, int *expect);
/* No op may make a file named as vfsbench's marker (base/reserved.h). */
int parser_check_marker(struct parser *p, const struct op *op,
			const struct token *tok);
/* ".." in a path, and what it could lead out of: see nativeargs.c. */
int parser_check_dotdot(struct parser *p, const struct op_desc *d,
			const struct op *op, const struct token *tok,
			unsigned int ntok);
/* A symlink target with "..", a rename or link: see nativelinks.c. */
int parser_check_link(struct parser *p, const struct op *op,
		      const struct token *tok);
/* The loadfile's ".." targets against its renames and links, at its end. */
int parser_check_links(struct parser *p);
/* Argument @argi of @op, of kind @kind, from token @t. */
int parser_arg(struct parser *p, struct op *op, enum op_arg kind,
	       const struct token *t, unsigned int argi);

#endif /* VB_LANG_NATIVEINT_H */
