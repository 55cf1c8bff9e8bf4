/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_ENGINE_POSIXAT_H
#define VB_ENGINE_POSIXAT_H

#include "engine/engine.h"

/*
 * The posix engine's ops in --resolve dirfd and beneath (posixat.c): the
 * *at() calls and openat2(2) from the client's directory fd (ctx->at).
 */

/* struct engine's initialisers of op_at and op_beneath */
#define POSIXAT_TABLES \
	.op_at = {                                             \
		[OP_STAT] = posixat_stat,                      \
		[OP_LSTAT] = posixat_lstat,                    \
		[OP_ACCESS] = posixat_access,                  \
		[OP_STATFS] = posixat_statfs,                  \
		[OP_STATVFS] = posixat_statfs,                 \
		[OP_OPEN] = posixat_open,                      \
		[OP_CREATE] = posixat_create,                  \
		[OP_UNLINK] = posixat_unlink,                  \
		[OP_MKDIR] = posixat_mkdir,                    \
		[OP_RMDIR] = posixat_rmdir,                    \
		[OP_RENAME] = posixat_rename,                  \
		[OP_LINK] = posixat_link,                      \
		[OP_SYMLINK] = posixat_symlink,                \
		[OP_READLINK] = posixat_readlink,              \
		[OP_READDIR] = posixat_readdir,                \
		[OP_UTIMENS] = posixat_utimens,                \
		[OP_PROBE] = posixat_probe_at,                 \
	},                                                     \
	.op_beneath = {                                        \
		[OP_OPEN] = posixat_open_beneath,              \
		[OP_CREATE] = posixat_create_beneath,          \
		[OP_READDIR] = posixat_readdir_beneath,        \
		[OP_PROBE] = posixat_probe_beneath,            \
	}

engine_op_fn posixat_stat, posixat_lstat, posixat_access, posixat_statfs,
	posixat_open, posixat_create, posixat_unlink, posixat_mkdir,
	posixat_rmdir, posixat_rename, posixat_link, posixat_symlink,
	posixat_readlink, posixat_readdir, posixat_utimens, posixat_probe_at,
	posixat_open_beneath, posixat_create_beneath, posixat_readdir_beneath,
	posixat_probe_beneath;

/*
 * The RCU-walk probe: openat2(@at, @path, O_PATH, RESOLVE_CACHED | @resolve)
 * and close. 0: the lookup completed from the dcache in RCU-walk mode;
 * -EAGAIN: it could not; another -errno: the lookup failed.
 */
long posixat_probe(int at, const char *path, unsigned long long resolve);

/*
 * readdir's body: getdents64(2) of @fd (an open's result: -1 with errno
 * set fails) into ctx->dirbuf until the end, then close(2) it.
 */
long posixat_read_dir(struct engine_ctx *c, int fd);

/*
 * Can this kernel probe (openat2 with RESOLVE_CACHED, Linux 5.12)? 0, or
 * -ENOSYS (no openat2, before 5.6) or -EINVAL (no RESOLVE_CACHED).
 */
int posixat_probe_supported(void);

#endif /* VB_ENGINE_POSIXAT_H */
