/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_LANG_BUILDER_H
#define VB_LANG_BUILDER_H

#include <stddef.h>

#include "lang/ops.h"

struct loadfile;

/*
 * struct builder: a loadfile being compiled, the one interface between
 * the loadfile reader (reader.c) and the two dialect parsers (native.c,
 * dbench.c). A parser appends ops to the [setup] or [run] section, has
 * their strings interned and notes the handles it uses; the reader then
 * calls builder_finish(), which puts the sections together and works out
 * the summary every dialect shares (statistics slots, ${client} indexes,
 * fds per section, the largest data size).
 */
enum section {
	SECTION_SETUP,
	SECTION_RUN,
};

struct builder {
	struct loadfile *lf; /* name set; [run] ops grow in lf->ops */
	struct op *setup; /* [setup] ops, put in front by builder_finish() */
	unsigned int nsetup, setup_alloc;
};

/* Start building into @lf, fresh, with its name and strings set up. */
void builder_init(struct builder *b, struct loadfile *lf);

/* The loadfile's name, for messages. */
const char *builder_name(const struct builder *b);

/*
 * A new zeroed op at the end of @s. The pointer is valid until the next
 * append to the same section; builder_op() finds it again by its index.
 */
struct op *builder_append(struct builder *b, enum section s);
unsigned int builder_count(const struct builder *b, enum section s);
struct op *builder_op(struct builder *b, enum section s, unsigned int idx);

/*
 * A [run N] stream starts at the next [run] op; returns its number. The
 * last one ends with the [run] section.
 */
unsigned int builder_stream(struct builder *b);

/* Handles: @h (0-based) is used; the number used so far. */
void builder_use_handle(struct builder *b, unsigned int h);
unsigned int builder_handles(const struct builder *b);

/*
 * @n handles are still open at the end of section @s, the first opened
 * at @line, @col (a cut of a real loadfile): warn, once per section end,
 * and have them closed after each pass ([run]) or after the [setup]
 * section, outside the timed ops.
 */
void builder_left_open(struct builder *b, enum section s, unsigned int n,
		       unsigned int line, unsigned int col);

/*
 * A copy of @s (of @n bytes) that the loadfile owns, shared with other
 * ops that name the same string nearby.
 */
const char *builder_strdup(struct builder *b, const char *s);
const char *builder_strndup(struct builder *b, const char *s, size_t n);

/* The [setup] ops then the [run] ops in @lf, and the summary. */
void builder_finish(struct builder *b);

/* Free what the builder holds besides the loadfile. */
void builder_release(struct builder *b);

#endif /* VB_LANG_BUILDER_H */
