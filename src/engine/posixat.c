/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The posix engine with --resolve dirfd and beneath: every op that
 * resolves a path starts from the client's O_PATH directory fd (ctx->at),
 * through the *at() call of its plain one, or openat2(2) RESOLVE_BENEATH.
 * Ops on handles are posix.c's. vfsbench-loadfile(5) lists each op's calls
 * in each mode (op_table's syscalls_at and syscalls_beneath); keep them
 * and this file in step.
 */
#include <config.h>
#include "engine/posixat.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/compiler.h"

/* glibc 2.36 has no wrapper for openat2(2) */
static int sys_openat2(int at, const char *path, int flags, unsigned int mode,
		       unsigned long long resolve)
{
	struct open_how how = {
		.flags = (unsigned long long)flags,
		.mode = (flags & (O_CREAT | O_TMPFILE)) ? mode : 0,
		.resolve = resolve,
	};

	return (int)syscall(SYS_openat2, at, path, &how, sizeof(how));
}

long posixat_stat(struct engine_ctx *c, UNUSED const struct op *op,
		  const char *path, UNUSED const char *path2)
{
	struct stat st;

	return ENGINE_RET(fstatat(c->at, path, &st, 0));
}

long posixat_lstat(struct engine_ctx *c, UNUSED const struct op *op,
		   const char *path, UNUSED const char *path2)
{
	struct stat st;

	return ENGINE_RET(fstatat(c->at, path, &st, AT_SYMLINK_NOFOLLOW));
}

long posixat_access(struct engine_ctx *c, const struct op *op, const char *path,
		    UNUSED const char *path2)
{
	return ENGINE_RET(faccessat(c->at, path, op->flags, 0));
}

/* statfs(2) has no *at() form: an O_PATH open of the name, fstatfs(2) */
long posixat_statfs(struct engine_ctx *c, UNUSED const struct op *op,
		    const char *path, UNUSED const char *path2)
{
	struct statfs sf;
	long ret;
	int fd = openat(c->at, path, O_PATH | O_CLOEXEC);

	if (fd < 0)
		return -(long)errno;
	ret = ENGINE_RET(fstatfs(fd, &sf));
	close(fd);
	return ret;
}

long posixat_open(struct engine_ctx *c, const struct op *op, const char *path,
		  UNUSED const char *path2)
{
	int fd = openat(c->at, path, op->flags, op->mode);

	if (fd < 0)
		return -(long)errno;
	c->fd[op->handle] = fd;
	return 0;
}

long posixat_create(struct engine_ctx *c, const struct op *op, const char *path,
		    UNUSED const char *path2)
{
	int fd = openat(c->at, path, O_CREAT | O_WRONLY | O_TRUNC, op->mode);

	if (fd < 0)
		return -(long)errno;
	return ENGINE_RET(close(fd));
}

long posixat_unlink(struct engine_ctx *c, UNUSED const struct op *op,
		    const char *path, UNUSED const char *path2)
{
	return ENGINE_RET(unlinkat(c->at, path, 0));
}

long posixat_mkdir(struct engine_ctx *c, const struct op *op, const char *path,
		   UNUSED const char *path2)
{
	return ENGINE_RET(mkdirat(c->at, path, op->mode));
}

long posixat_rmdir(struct engine_ctx *c, UNUSED const struct op *op,
		   const char *path, UNUSED const char *path2)
{
	return ENGINE_RET(unlinkat(c->at, path, AT_REMOVEDIR));
}

long posixat_rename(struct engine_ctx *c, UNUSED const struct op *op,
		    const char *path, const char *path2)
{
	return ENGINE_RET(renameat(c->at, path, c->at, path2));
}

long posixat_link(struct engine_ctx *c, UNUSED const struct op *op,
		  const char *path, const char *path2)
{
	return ENGINE_RET(linkat(c->at, path, c->at, path2, 0));
}

/* path is the target, stored verbatim; path2 the link to create */
long posixat_symlink(struct engine_ctx *c, UNUSED const struct op *op,
		     const char *path, const char *path2)
{
	return ENGINE_RET(symlinkat(path, c->at, path2));
}

long posixat_readlink(struct engine_ctx *c, UNUSED const struct op *op,
		      const char *path, UNUSED const char *path2)
{
	return ENGINE_RET(readlinkat(c->at, path, c->dirbuf, ENGINE_DIRBUF));
}

long posixat_read_dir(struct engine_ctx *c, int fd)
{
	long n, ret = 0;

	if (fd < 0)
		return -(long)errno;
	do {
		n = syscall(SYS_getdents64, fd, c->dirbuf, ENGINE_DIRBUF);
	} while (n > 0);
	if (n < 0)
		ret = -(long)errno;
	close(fd);
	return ret;
}

long posixat_readdir(struct engine_ctx *c, UNUSED const struct op *op,
		     const char *path, UNUSED const char *path2)
{
	return posixat_read_dir(
		c, openat(c->at, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC));
}

long posixat_utimens(struct engine_ctx *c, UNUSED const struct op *op,
		     const char *path, UNUSED const char *path2)
{
	return ENGINE_RET(utimensat(c->at, path, NULL, 0));
}

long posixat_probe(int at, const char *path, unsigned long long resolve)
{
	int fd = sys_openat2(at, path, O_PATH | O_CLOEXEC, 0,
			     RESOLVE_CACHED | resolve);

	if (fd < 0)
		return -(long)errno;
	close(fd);
	return 0;
}

long posixat_probe_at(struct engine_ctx *c, UNUSED const struct op *op,
		      const char *path, UNUSED const char *path2)
{
	return posixat_probe(c->at, path, 0);
}

long posixat_open_beneath(struct engine_ctx *c, const struct op *op,
			  const char *path, UNUSED const char *path2)
{
	int fd = sys_openat2(c->at, path, op->flags, op->mode, RESOLVE_BENEATH);

	if (fd < 0)
		return -(long)errno;
	c->fd[op->handle] = fd;
	return 0;
}

long posixat_create_beneath(struct engine_ctx *c, const struct op *op,
			    const char *path, UNUSED const char *path2)
{
	int fd = sys_openat2(c->at, path, O_CREAT | O_WRONLY | O_TRUNC,
			     op->mode, RESOLVE_BENEATH);

	if (fd < 0)
		return -(long)errno;
	return ENGINE_RET(close(fd));
}

long posixat_readdir_beneath(struct engine_ctx *c, UNUSED const struct op *op,
			     const char *path, UNUSED const char *path2)
{
	return posixat_read_dir(
		c, sys_openat2(c->at, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC,
			       0, RESOLVE_BENEATH));
}

long posixat_probe_beneath(struct engine_ctx *c, UNUSED const struct op *op,
			   const char *path, UNUSED const char *path2)
{
	return posixat_probe(c->at, path, RESOLVE_BENEATH);
}

int posixat_probe_supported(void)
{
	long ret = posixat_probe(AT_FDCWD, "/", 0);

	/* "/" is always in the dcache: 0, or EAGAIN at worst */
	return ret == -ENOSYS || ret == -EINVAL ? (int)ret : 0;
}
