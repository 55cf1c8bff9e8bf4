/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_LOADFILE_H
#define VB_LOADFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ops.h"

/*
 * struct loadfile: a native loadfile compiled once into an immutable array
 * of ops, shared read-only by every client. The language is specified in
 * vfsbench-loadfile(5).
 *
 * ops[0 .. nsetup) are the [setup] section, ops[nsetup .. nops) the [run]
 * section, each in file order. Every [run] op carries a statistics slot:
 * the index of its op kind among the kinds the [run] section uses, so a
 * client needs only nslots histograms.
 */
struct loadfile {
	char *name; /* for messages: the path, or "NAME (built-in)" */
	struct op *ops;
	unsigned int nops;
	unsigned int nsetup;
	unsigned int nslots;
	enum op_id slot_op[OP_NR]; /* slot -> op kind */
	unsigned int nhandles; /* handles used: @1 .. @nhandles */
	uint64_t max_io; /* largest pread/pwrite size */
	unsigned int nexpand; /* ops whose paths hold ${client} */
};

/*
 * Compile @len bytes of @buf (need not be NUL-terminated). @name is used
 * in messages. On error prints "NAME:LINE:COL: message" on stderr and
 * returns -EINVAL with @lf released; returns 0 on success.
 */
int loadfile_parse(struct loadfile *lf, const char *name, const char *buf,
		   size_t len);

/*
 * Find and compile a loadfile: @spec is a path to an existing file, or the
 * name of a built-in loadfile with or without ".load". Returns 0,
 * -EINVAL (bad loadfile, message printed) or -ENOENT / -errno (message
 * printed).
 */
int loadfile_load(struct loadfile *lf, const char *spec);

/* Free what @lf owns. */
void loadfile_release(struct loadfile *lf);

/* The [run] ops. */
static inline const struct op *loadfile_run_ops(const struct loadfile *lf)
{
	return lf->ops + lf->nsetup;
}

static inline unsigned int loadfile_run_nops(const struct loadfile *lf)
{
	return lf->nops - lf->nsetup;
}

/* Built-in loadfiles, generated from loadfiles/ at build time. */
struct builtin_loadfile {
	const char *name; /* "statfs.load" */
	const char *text;
};
extern const struct builtin_loadfile builtin_loadfiles[]; /* NULL-ended */

#define LOADFILE_DEFAULT "default.load"

#endif /* VB_LOADFILE_H */
