/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * struct builder: where the dialect parsers put their ops, and the
 * summary of a compiled loadfile that every dialect shares.
 */
#include <config.h>
#include "lang/builder.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/msg.h"
#include "lang/loadfile.h"

void builder_init(struct builder *b, struct loadfile *lf)
{
	memset(b, 0, sizeof(*b));
	b->lf = lf;
}

const char *builder_name(const struct builder *b)
{
	return b->lf->name;
}

struct op *builder_append(struct builder *b, enum section s)
{
	struct loadfile *lf = b->lf;
	struct op *op;

	if (s == SECTION_SETUP) {
		if (b->nsetup == b->setup_alloc) {
			b->setup_alloc =
				b->setup_alloc ? 2 * b->setup_alloc : 16;
			b->setup = xrealloc(b->setup,
					    b->setup_alloc * sizeof(*b->setup));
		}
		op = &b->setup[b->nsetup++];
	} else {
		if (lf->nops == lf->alloc) {
			lf->alloc = lf->alloc ? 2 * lf->alloc : 64;
			lf->ops =
				xrealloc(lf->ops, lf->alloc * sizeof(*lf->ops));
		}
		op = &lf->ops[lf->nops++];
	}
	memset(op, 0, sizeof(*op));
	return op;
}

unsigned int builder_count(const struct builder *b, enum section s)
{
	return s == SECTION_SETUP ? b->nsetup : b->lf->nops;
}

struct op *builder_op(struct builder *b, enum section s, unsigned int idx)
{
	return s == SECTION_SETUP ? &b->setup[idx] : &b->lf->ops[idx];
}

unsigned int builder_stream(struct builder *b)
{
	struct loadfile *lf = b->lf;

	/* room for the end that builder_finish() adds */
	lf->stream_start =
		xrealloc(lf->stream_start,
			 (lf->nstreams + 2) * sizeof(*lf->stream_start));
	lf->stream_start[lf->nstreams] = lf->nops; /* [run] ops so far */
	return lf->nstreams++;
}

void builder_use_handle(struct builder *b, unsigned int h)
{
	if (h + 1 > b->lf->nhandles)
		b->lf->nhandles = h + 1;
}

unsigned int builder_handles(const struct builder *b)
{
	return b->lf->nhandles;
}

void builder_left_open(struct builder *b, enum section s, unsigned int n,
		       unsigned int line, unsigned int col)
{
	const struct loadfile *lf = b->lf;

	if (!n)
		return;
	if (s == SECTION_RUN)
		b->lf->close_after_pass = true;
	warning("%s:%u:%u: %u handle%s still open at the end of %s, the first opened here; vfsbench closes %s %s, outside the timed ops",
		lf->name, line, col, n, n == 1 ? " is" : "s are",
		s == SECTION_RUN ? "a pass" : "[setup]", n == 1 ? "it" : "them",
		s == SECTION_RUN ? "after each pass" : "after [setup]");
}

const char *builder_strndup(struct builder *b, const char *s, size_t n)
{
	return strtab_intern(&b->lf->strings, s, n);
}

const char *builder_strdup(struct builder *b, const char *s)
{
	return builder_strndup(b, s, strlen(s));
}

static bool is_data_op(enum op_id id)
{
	return id == OP_PREAD || id == OP_PWRITE || id == OP_READ ||
	       id == OP_DB_READX || id == OP_DB_WRITEX;
}

/* Raise @depth to the components of @path ("a/b/c" has 3). */
static void note_depth(unsigned int *depth, const char *path)
{
	unsigned int n = 1;

	for (const char *s = path; s && *s; s++)
		n += *s == '/';
	if (n > *depth)
		*depth = n;
}

/* The fds a client can hold at once in the section ops[0 .. n). */
static unsigned int section_fds(const struct op *ops, unsigned int n,
				unsigned int deltree_fds)
{
	bool used[OP_MAX_HANDLES + 1] = { false };
	unsigned int handles = 0, own = 0;

	for (unsigned int i = 0; i < n; i++) {
		const struct op *op = &ops[i];
		unsigned int mine;

		if (op->has_handle && !used[op->handle]) {
			used[op->handle] = true;
			handles++;
		}
		mine = op->id == OP_DB_DELTREE ?
			       deltree_fds :
			       !!(op_table[op->id].flags & OPF_OWN_FD);
		if (mine > own)
			own = mine;
	}
	return handles + own;
}

static void seal(struct loadfile *lf)
{
	unsigned int depth = 0;
	bool deltree = false;
	int slot_of[OP_NR];

	for (unsigned int i = 0; i < lf->nops; i++) {
		struct op *op = &lf->ops[i];

		if (op->expand)
			op->xidx = lf->nexpand++;
		op->opens = op_table[op->id].flags & OPF_OPENS;
		if (is_data_op(op->id) && op->size > lf->max_io)
			lf->max_io = op->size;
		if (op_table[op->id].flags & OPF_SCRATCH)
			lf->scratch = true;
		deltree |= op->id == OP_DB_DELTREE;
	}
	/*
	 * Deltree holds the fd of each directory level it descends; Qfsinfo's
	 * path is the -D directory, outside the client's tree
	 */
	for (unsigned int i = 0; deltree && i < lf->nops; i++) {
		if (lf->ops[i].id == OP_DB_QFSINFO)
			continue;
		note_depth(&depth, lf->ops[i].path);
		note_depth(&depth, lf->ops[i].path2);
	}
	lf->setup_fds = section_fds(lf->ops, lf->nsetup, 1 + depth);
	lf->run_fds = section_fds(loadfile_run_ops(lf), loadfile_run_nops(lf),
				  1 + depth);
	for (unsigned int i = 0; i < OP_NR; i++)
		slot_of[i] = -1;
	for (unsigned int i = lf->nsetup; i < lf->nops; i++) {
		struct op *op = &lf->ops[i];

		if (slot_of[op->id] < 0) {
			slot_of[op->id] = (int)lf->nslots;
			lf->slot_op[lf->nslots++] = op->id;
		}
		op->slot = (unsigned int)slot_of[op->id];
	}
}

/*
 * Put the setup ops in front of the run ops and give back the spare room.
 * Without [setup] nothing is copied: a large array is mmap()ed by malloc
 * and realloc() shrinks it in place.
 */
void builder_finish(struct builder *b)
{
	struct loadfile *lf = b->lf;
	unsigned int n = lf->nops + b->nsetup;

	lf->ops = xrealloc(lf->ops, n * sizeof(*lf->ops));
	if (b->nsetup) {
		memmove(lf->ops + b->nsetup, lf->ops,
			lf->nops * sizeof(*lf->ops));
		memcpy(lf->ops, b->setup, b->nsetup * sizeof(*lf->ops));
	}
	if (lf->nstreams)
		lf->stream_start[lf->nstreams] = lf->nops;
	lf->nops = lf->alloc = n;
	lf->nsetup = b->nsetup;
	seal(lf);
}

void builder_release(struct builder *b)
{
	free(b->setup);
	memset(b, 0, sizeof(*b));
}
