/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The null engine: no system calls. Every op returns what its line
 * expects (data ops report their full size; "must fail" returns ENOENT),
 * unless --null-fail injects an errno for its op kind. Ops on a handle
 * that never opened (dbench's unknown handles) still succeed here. It measures
 * the harness's own ceiling and makes tests deterministic.
 */
#include <config.h>
#include "engine/engine.h"

#include <errno.h>
#include <limits.h>

#include "base/compiler.h"

/*
 * A handle the null engine "opened". It is never a real fd: a close() of
 * it when a client drops its handles fails with EBADF and touches nothing.
 */
#define NULL_FD INT_MAX

static long null_op(struct engine_ctx *c, const struct op *op,
		    UNUSED const char *path, UNUSED const char *path2)
{
	int fail = c->fail[op->id];

	if (fail)
		return -(long)fail;
	if (op->expect > 0)
		return -(long)op->expect;
	if (op->expect == EXPECT_FAIL)
		return -(long)ENOENT;
	if (op->opens)
		c->fd[op->handle] = NULL_FD;
	else if (op_table[op->id].flags & OPF_CLOSES)
		c->fd[op->handle] = -1;
	switch (op->id) {
	case OP_PREAD:
	case OP_PWRITE:
	case OP_READ:
	case OP_DB_READX:
	case OP_DB_WRITEX:
		return (long)op->size;
	default:
		return 0;
	}
}

const struct engine engine_null = {
	.name = "null",
	.summary = "no system calls: the harness's own cost",
	.modes_alike = true,
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
		[OP_PROBE] = null_op,
		[OP_READ] = null_op,
		[OP_LSEEK] = null_op, [OP_GETDENTS] = null_op,
		[OP_DATA] = null_op,
		[OP_DUP] = null_op,
		[OP_LOCK] = null_op,
		[OP_UNLOCK] = null_op,
		[OP_DB_NTCREATEX] = null_op,
		[OP_DB_CLOSE] = null_op,
		[OP_DB_RENAME] = null_op,
		[OP_DB_UNLINK] = null_op,
		[OP_DB_DELTREE] = null_op,
		[OP_DB_RMDIR] = null_op,
		[OP_DB_MKDIR] = null_op,
		[OP_DB_QPATHINFO] = null_op,
		[OP_DB_QFILEINFO] = null_op,
		[OP_DB_QFSINFO] = null_op,
		[OP_DB_SFILEINFO] = null_op,
		[OP_DB_FIND] = null_op,
		[OP_DB_WRITEX] = null_op,
		[OP_DB_READX] = null_op,
		[OP_DB_LOCKX] = null_op,
		[OP_DB_UNLOCKX] = null_op,
		[OP_DB_FLUSH] = null_op,
		[OP_DB_SLEEP] = null_op,
		[OP_DB_PACE] = null_op,
	},
};
