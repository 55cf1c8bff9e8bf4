/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The posix engine: each op is the system call(s) its name says, on paths
 * relative to the client's cwd. vfsbench-loadfile(5) lists them; keep that
 * table and this file in step.
 */
#include <config.h>
#include "engine/engine.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/compiler.h"
#include "engine/dbench.h"
#include "engine/fsinfo.h"
#include "engine/posixat.h"

static long posix_stat(UNUSED struct engine_ctx *c, UNUSED const struct op *op,
		       const char *path, UNUSED const char *path2)
{
	struct stat st;

	return ENGINE_RET(stat(path, &st));
}

static long posix_lstat(UNUSED struct engine_ctx *c, UNUSED const struct op *op,
			const char *path, UNUSED const char *path2)
{
	struct stat st;

	return ENGINE_RET(lstat(path, &st));
}

static long posix_fstat(struct engine_ctx *c, const struct op *op,
			UNUSED const char *path, UNUSED const char *path2)
{
	struct stat st;

	return ENGINE_RET(fstat(c->fd[op->handle], &st));
}

static long posix_access(UNUSED struct engine_ctx *c, const struct op *op,
			 const char *path, UNUSED const char *path2)
{
	return ENGINE_RET(access(path, op->flags));
}

static long posix_fstatfs(struct engine_ctx *c, const struct op *op,
			  UNUSED const char *path, UNUSED const char *path2)
{
	struct statfs sf;

	return ENGINE_RET(fstatfs(c->fd[op->handle], &sf));
}

static long posix_fstatvfs(struct engine_ctx *c, const struct op *op,
			   UNUSED const char *path, UNUSED const char *path2)
{
	struct statvfs sv;

	return ENGINE_RET(fstatvfs(c->fd[op->handle], &sv));
}

static long posix_open(struct engine_ctx *c, const struct op *op,
		       const char *path, UNUSED const char *path2)
{
	int fd = open(path, op->flags, op->mode);

	if (fd < 0)
		return -(long)errno;
	c->fd[op->handle] = fd;
	return 0;
}

static long posix_create(UNUSED struct engine_ctx *c, const struct op *op,
			 const char *path, UNUSED const char *path2)
{
	int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, op->mode);

	if (fd < 0)
		return -(long)errno;
	return ENGINE_RET(close(fd));
}

static long posix_close(struct engine_ctx *c, const struct op *op,
			UNUSED const char *path, UNUSED const char *path2)
{
	int fd = c->fd[op->handle];

	/* the fd is gone whatever close() returns (Linux semantics) */
	c->fd[op->handle] = -1;
	return ENGINE_RET(close(fd));
}

static long posix_pread(struct engine_ctx *c, const struct op *op,
			UNUSED const char *path, UNUSED const char *path2)
{
	ssize_t n = pread(c->fd[op->handle], c->buf, op->size,
			  engine_offset(c, op));

	return n < 0 ? -(long)errno : (long)n;
}

static long posix_pwrite(struct engine_ctx *c, const struct op *op,
			 UNUSED const char *path, UNUSED const char *path2)
{
	ssize_t n = pwrite(c->fd[op->handle], c->buf, op->size,
			   engine_offset(c, op));

	return n < 0 ? -(long)errno : (long)n;
}

/* data: a [setup] line's bytes, whole, at offset 0 */
static long posix_data(struct engine_ctx *c, const struct op *op,
		       UNUSED const char *path, UNUSED const char *path2)
{
	ssize_t n = pwrite(c->fd[op->handle], op->bytes, op->size, 0);

	if (n < 0)
		return -(long)errno;
	/* a file short of its bytes is not the tree the loadfile says */
	return (uint64_t)n == op->size ? n : -EIO;
}

/* read(2) at the fd's position: will-it-scale's read1/read2 */
static long posix_read(struct engine_ctx *c, const struct op *op,
		       UNUSED const char *path, UNUSED const char *path2)
{
	ssize_t n = read(c->fd[op->handle], c->buf, op->size);

	return n < 0 ? -(long)errno : (long)n;
}

/* 0, not the new position: a positive result counts as bytes moved */
static long posix_lseek(struct engine_ctx *c, const struct op *op,
			UNUSED const char *path, UNUSED const char *path2)
{
	return ENGINE_RET(
		lseek(c->fd[op->handle], engine_offset(c, op), op->flags));
}

/*
 * One getdents64 of op->size bytes at the fd's position, as the program
 * recorded made it: 0 once it returned, whether entries or the end, since
 * directory entries are no data a run's MB/s counts.
 */
static long posix_getdents(struct engine_ctx *c, const struct op *op,
			   UNUSED const char *path, UNUSED const char *path2)
{
	static_assert(OP_MAX_GETDENTS <= ENGINE_DIRBUF,
		      "getdents reads into the client's directory buffer");
	long n = syscall(SYS_getdents64, c->fd[op->handle], c->dirbuf,
			 (size_t)op->size);

	return n < 0 ? -(long)errno : 0;
}

static long posix_dup(struct engine_ctx *c, const struct op *op,
		      UNUSED const char *path, UNUSED const char *path2)
{
	int fd = dup(c->fd[op->handle]);

	if (fd < 0)
		return -(long)errno;
	return ENGINE_RET(close(fd));
}

/* A record lock as will-it-scale's lock1/lock2 take it: F_SETLKW. */
static long posix_setlkw(struct engine_ctx *c, const struct op *op, short type)
{
	struct flock fl = {
		.l_type = type,
		.l_whence = SEEK_SET,
		.l_start = engine_offset(c, op),
		.l_len = (off_t)op->size,
	};

	return ENGINE_RET(fcntl(c->fd[op->handle], F_SETLKW, &fl));
}

static long posix_lock(struct engine_ctx *c, const struct op *op,
		       UNUSED const char *path, UNUSED const char *path2)
{
	return posix_setlkw(c, op, F_WRLCK);
}

static long posix_unlock(struct engine_ctx *c, const struct op *op,
			 UNUSED const char *path, UNUSED const char *path2)
{
	return posix_setlkw(c, op, F_UNLCK);
}

static long posix_fsync(struct engine_ctx *c, const struct op *op,
			UNUSED const char *path, UNUSED const char *path2)
{
	return ENGINE_RET(fsync(c->fd[op->handle]));
}

static long posix_fdatasync(struct engine_ctx *c, const struct op *op,
			    UNUSED const char *path, UNUSED const char *path2)
{
	return ENGINE_RET(fdatasync(c->fd[op->handle]));
}

static long posix_ftruncate(struct engine_ctx *c, const struct op *op,
			    UNUSED const char *path, UNUSED const char *path2)
{
	return ENGINE_RET(ftruncate(c->fd[op->handle], (off_t)op->size));
}

static long posix_unlink(UNUSED struct engine_ctx *c,
			 UNUSED const struct op *op, const char *path,
			 UNUSED const char *path2)
{
	return ENGINE_RET(unlink(path));
}

static long posix_mkdir(UNUSED struct engine_ctx *c, const struct op *op,
			const char *path, UNUSED const char *path2)
{
	return ENGINE_RET(mkdir(path, op->mode));
}

static long posix_rmdir(UNUSED struct engine_ctx *c, UNUSED const struct op *op,
			const char *path, UNUSED const char *path2)
{
	return ENGINE_RET(rmdir(path));
}

static long posix_rename(UNUSED struct engine_ctx *c,
			 UNUSED const struct op *op, const char *path,
			 const char *path2)
{
	return ENGINE_RET(rename(path, path2));
}

static long posix_link(UNUSED struct engine_ctx *c, UNUSED const struct op *op,
		       const char *path, const char *path2)
{
	return ENGINE_RET(link(path, path2));
}

/* path is the target, stored verbatim; path2 the link to create */
static long posix_symlink(UNUSED struct engine_ctx *c,
			  UNUSED const struct op *op, const char *path,
			  const char *path2)
{
	return ENGINE_RET(symlink(path, path2));
}

static long posix_readlink(struct engine_ctx *c, UNUSED const struct op *op,
			   const char *path, UNUSED const char *path2)
{
	return ENGINE_RET(readlink(path, c->dirbuf, ENGINE_DIRBUF));
}

/* getdents64 straight into the client's buffer: no opendir() malloc. */
static long posix_readdir(struct engine_ctx *c, UNUSED const struct op *op,
			  const char *path, UNUSED const char *path2)
{
	return posixat_read_dir(c,
				open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC));
}

static long posix_utimens(UNUSED struct engine_ctx *c,
			  UNUSED const struct op *op, const char *path,
			  UNUSED const char *path2)
{
	return ENGINE_RET(utimensat(AT_FDCWD, path, NULL, 0));
}
static long posix_probe(struct engine_ctx *c, UNUSED const struct op *op,
			const char *path, UNUSED const char *path2)
{
	return posixat_probe(c->at, path, 0);
}

const struct engine engine_posix = {
	.name = "posix",
	.summary = "the system calls themselves",
	.opens_fds = true,
	.op = {
		[OP_STAT] = posix_stat,
		[OP_LSTAT] = posix_lstat,
		[OP_FSTAT] = posix_fstat,
		[OP_ACCESS] = posix_access,
		[OP_STATFS] = posix_statfs,
		[OP_FSTATFS] = posix_fstatfs,
		[OP_STATVFS] = posix_statvfs,
		[OP_FSTATVFS] = posix_fstatvfs,
		[OP_STATVFS_LEGACY] = posix_statvfs_legacy,
		[OP_OPEN] = posix_open,
		[OP_CREATE] = posix_create,
		[OP_CLOSE] = posix_close,
		[OP_PREAD] = posix_pread,
		[OP_PWRITE] = posix_pwrite,
		[OP_FSYNC] = posix_fsync,
		[OP_FDATASYNC] = posix_fdatasync,
		[OP_FTRUNCATE] = posix_ftruncate,
		[OP_UNLINK] = posix_unlink,
		[OP_MKDIR] = posix_mkdir,
		[OP_RMDIR] = posix_rmdir,
		[OP_RENAME] = posix_rename,
		[OP_LINK] = posix_link,
		[OP_SYMLINK] = posix_symlink,
		[OP_READLINK] = posix_readlink,
		[OP_READDIR] = posix_readdir,
		[OP_UTIMENS] = posix_utimens,
		[OP_PROBE] = posix_probe,
		[OP_READ] = posix_read,
		[OP_LSEEK] = posix_lseek, [OP_GETDENTS] = posix_getdents,
		[OP_DATA] = posix_data,
		[OP_DUP] = posix_dup,
		[OP_LOCK] = posix_lock,
		[OP_UNLOCK] = posix_unlock,
		[OP_DB_NTCREATEX] = posix_db_ntcreatex,
		[OP_DB_CLOSE] = posix_db_close,
		[OP_DB_RENAME] = posix_db_rename,
		[OP_DB_UNLINK] = posix_db_unlink,
		[OP_DB_DELTREE] = posix_db_deltree,
		[OP_DB_RMDIR] = posix_db_rmdir,
		[OP_DB_MKDIR] = posix_db_mkdir,
		[OP_DB_QPATHINFO] = posix_db_qpathinfo,
		[OP_DB_QFILEINFO] = posix_db_qfileinfo,
		[OP_DB_QFSINFO] = posix_db_qfsinfo,
		[OP_DB_SFILEINFO] = posix_db_sfileinfo,
		[OP_DB_FIND] = posix_db_find,
		[OP_DB_WRITEX] = posix_db_writex,
		[OP_DB_READX] = posix_db_readx,
		[OP_DB_LOCKX] = posix_db_lockx,
		[OP_DB_UNLOCKX] = posix_db_unlockx,
		[OP_DB_FLUSH] = posix_db_flush,
		[OP_DB_SLEEP] = posix_db_sleep,
		[OP_DB_PACE] = posix_db_pace,
	},
	POSIXAT_TABLES,
};
