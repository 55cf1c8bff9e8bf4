/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_LANG_DBENCHINT_H
#define VB_LANG_DBENCHINT_H

/*
 * The dbench dialect's translator, shared by dbench.c (lines, detection,
 * the file's end) and dbenchcmds.c (each command of dbench's). Not for
 * other files.
 */
#include <stdbool.h>
#include <stdint.h>

#include "base/compiler.h"
#include "lang/loadfile.h"
#include "lang/ops.h"

struct builder;

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

/* A dbench command: its name, its op, its arguments, its translation. */
struct db_desc {
	const char *name; /* matched case-insensitively, as dbench HEAD does */
	enum op_id id;
	unsigned int nargs;
	int (*translate)(struct translator *t, struct op *op,
			 const struct db_line *l);
};

/* An error at column @col of the current line: -EINVAL, printed. */
int translator_error(struct translator *t, unsigned int col, const char *fmt,
		     ...) PRINTF(3, 4);
/* A line's status: *@ok for NT_STATUS_OK or a 0x value of 0 (dbench's). */
int translator_status(struct translator *t, const struct db_token *tok,
		      bool *ok);
/* The command of that name (case-insensitive, as dbench), or NULL. */
const struct db_desc *dbench_lookup(const char *name);

#endif /* VB_LANG_DBENCHINT_H */
