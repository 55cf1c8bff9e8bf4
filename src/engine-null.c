/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The null engine: no system calls. Every op returns what its line
 * expects (data ops report their full size), unless --null-fail injects an
 * errno for its op kind. It measures the harness's own ceiling and makes
 * tests deterministic.
 */
#include <config.h>
#include "engine.h"

#include <limits.h>

#include "client.h"
#include "options.h"
#include "run.h"
#include "util.h"

/*
 * A handle the null engine "opened". It is never a real fd: a close() of
 * it when a client drops its handles fails with EBADF and touches nothing.
 */
#define NULL_FD INT_MAX

static long null_op(struct client *c, const struct op *op,
		    UNUSED const char *path, UNUSED const char *path2)
{
	int fail = c->run->cfg->null_fail[op->id];

	if (fail)
		return -(long)fail;
	if (op->expect > 0)
		return -(long)op->expect;
	switch (op->id) {
	case OP_OPEN:
		c->fd[op->handle] = NULL_FD;
		return 0;
	case OP_CLOSE:
		c->fd[op->handle] = -1;
		return 0;
	case OP_PREAD:
	case OP_PWRITE:
		return (long)op->size;
	default:
		return 0;
	}
}

const struct engine engine_null = {
	.name = "null",
	.summary = "no system calls: the harness's own cost",
	.op = {
		[OP_STAT] = null_op,
		[OP_LSTAT] = null_op,
		[OP_FSTAT] = null_op,
		[OP_ACCESS] = null_op,
		[OP_STATFS] = null_op,
		[OP_FSTATFS] = null_op,
		[OP_STATVFS] = null_op,
		[OP_FSTATVFS] = null_op,
		[OP_STATVFS_LEGACY] = null_op,
		[OP_OPEN] = null_op,
		[OP_CREATE] = null_op,
		[OP_CLOSE] = null_op,
		[OP_PREAD] = null_op,
		[OP_PWRITE] = null_op,
		[OP_FSYNC] = null_op,
		[OP_FDATASYNC] = null_op,
		[OP_FTRUNCATE] = null_op,
		[OP_UNLINK] = null_op,
		[OP_MKDIR] = null_op,
		[OP_RMDIR] = null_op,
		[OP_RENAME] = null_op,
		[OP_LINK] = null_op,
		[OP_SYMLINK] = null_op,
		[OP_READLINK] = null_op,
		[OP_READDIR] = null_op,
		[OP_UTIMENS] = null_op,
	},
};
