/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The uring engine (-e uring): every op that io_uring has an opcode for
 * goes through the client's ring, one at a time, with the arguments the
 * posix engine passes to the system call; the ops without one issue
 * posix's system calls (uring_fallback[] names them). Each op counts as
 * inline when every submission of it completed within io_uring_enter(2)
 * (uringring.h says how that is told). vfsbench(1), "The uring engine".
 */
#include <config.h>
#include "engine/uring.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <linux/stat.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/compiler.h"
#include "engine/uringlanes.h"
#include "engine/uringring.h"
#include "lang/loadfile.h"

/* What posix issues with the same arguments, in --resolve's mode. */
static long uring_syscall(struct engine_ctx *c, const struct op *op,
			  const char *path, const char *path2)
{
	return engine_posix.op[op->id](c, op, path, path2);
}

static long uring_syscall_at(struct engine_ctx *c, const struct op *op,
			     const char *path, const char *path2)
{
	return engine_posix.op_at[op->id](c, op, path, path2);
}

/*
 * The next SQE: there is always one, a single op is ever in flight in
 * each lane, and the ring has an entry for each lane.
 */
static inline struct io_uring_sqe *sqe(struct engine_ctx *c)
{
	return uring_ring_sqe(c->ring);
}

/* An op's last submission is done: count it if none was punted. */
static inline long done(struct engine_ctx *c, const struct op *op, long ret)
{
	if (!c->ring->punted) {
		if (c->inl)
			c->inl[op->slot * c->inl_stride]++;
	} else {
		c->ring->punted = false;
	}
	return ret;
}

/* The op's SQE, submitted and reaped: in its lane with --uring-depth. */
static inline long run(struct engine_ctx *c)
{
	if (c->ring->lanes)
		return uring_lanes_wait(c->ring->lanes);
	return uring_ring_run(c->ring);
}

static long statx_at(struct engine_ctx *c, const struct op *op, int at,
		     const char *path, int flags)
{
	struct statx stx;

	io_uring_prep_statx(sqe(c), at, path, flags, STATX_BASIC_STATS, &stx);
	return done(c, op, run(c));
}

static long uring_stat(struct engine_ctx *c, const struct op *op,
		       const char *path, UNUSED const char *path2)
{
	return statx_at(c, op, c->at, path, 0);
}

static long uring_lstat(struct engine_ctx *c, const struct op *op,
			const char *path, UNUSED const char *path2)
{
	return statx_at(c, op, c->at, path, AT_SYMLINK_NOFOLLOW);
}

static long uring_fstat(struct engine_ctx *c, const struct op *op,
			UNUSED const char *path, UNUSED const char *path2)
{
	return statx_at(c, op, c->fd[op->handle], "", AT_EMPTY_PATH);
}

/* Is handle @h a direct descriptor (--uring-fixed)? */
static inline bool direct(const struct engine_ctx *c, unsigned int h)
{
	return c->ring->direct && c->ring->direct[h];
}

/* A handle's fd in @e is its slot in the ring's file table. */
static inline long fixed_run(struct engine_ctx *c, const struct op *op,
			     struct io_uring_sqe *e)
{
	if (direct(c, op->handle))
		e->flags |= IOSQE_FIXED_FILE;
	return done(c, op, run(c));
}

/*
 * --uring-fixed: open into slot @slot of the ring's file table, as
 * open_how() would: 0 or -errno.
 */
static long open_direct(struct engine_ctx *c, const char *path, int flags,
			unsigned int mode, unsigned long long resolve,
			unsigned int slot)
{
	struct open_how how = {
		.flags = (unsigned long long)flags,
		.mode = (flags & (O_CREAT | O_TMPFILE)) ? mode : 0,
		.resolve = resolve,
	};

	if (!resolve)
		io_uring_prep_openat_direct(sqe(c), c->at, path, flags, mode,
					    slot);
	else
		io_uring_prep_openat2_direct(sqe(c), c->at, path, &how, slot);
	return run(c);
}

/* openat2(2) through the ring: an fd or -errno */
static long open_how(struct engine_ctx *c, const char *path, int flags,
		     unsigned int mode, unsigned long long resolve)
{
	struct open_how how = {
		.flags = (unsigned long long)flags,
		.mode = (flags & (O_CREAT | O_TMPFILE)) ? mode : 0,
		.resolve = resolve,
	};

	if (!resolve) {
		io_uring_prep_openat(sqe(c), c->at, path, flags, mode);
		return run(c);
	}
	io_uring_prep_openat2(sqe(c), c->at, path, &how);
	return run(c);
}

static long close_fd(struct engine_ctx *c, int fd)
{
	io_uring_prep_close(sqe(c), fd);
	return run(c);
}

static long open_op(struct engine_ctx *c, const struct op *op, const char *path,
		    unsigned long long resolve)
{
	long fd;

	if (direct(c, op->handle)) {
		fd = open_direct(c, path, op->flags, op->mode, resolve,
				 op->handle);
		if (!fd)
			c->fd[op->handle] = op->handle;
		return done(c, op, fd);
	}
	fd = open_how(c, path, op->flags, op->mode, resolve);
	if (fd >= 0)
		c->fd[op->handle] = (int)fd;
	return done(c, op, fd < 0 ? fd : 0);
}

static long uring_open(struct engine_ctx *c, const struct op *op,
		       const char *path, UNUSED const char *path2)
{
	return open_op(c, op, path, 0);
}

static long uring_open_beneath(struct engine_ctx *c, const struct op *op,
			       const char *path, UNUSED const char *path2)
{
	return open_op(c, op, path, RESOLVE_BENEATH);
}

static long create_op(struct engine_ctx *c, const struct op *op,
		      const char *path, unsigned long long resolve)
{
	long fd = open_how(c, path, O_CREAT | O_WRONLY | O_TRUNC, op->mode,
			   resolve);

	if (fd < 0)
		return done(c, op, fd);
	return done(c, op, close_fd(c, (int)fd));
}

static long uring_create(struct engine_ctx *c, const struct op *op,
			 const char *path, UNUSED const char *path2)
{
	return create_op(c, op, path, 0);
}

static long uring_create_beneath(struct engine_ctx *c, const struct op *op,
				 const char *path, UNUSED const char *path2)
{
	return create_op(c, op, path, RESOLVE_BENEATH);
}

static long uring_close(struct engine_ctx *c, const struct op *op,
			UNUSED const char *path, UNUSED const char *path2)
{
	int fd = c->fd[op->handle];

	/* the fd is gone whatever close returns, as with close(2) */
	c->fd[op->handle] = -1;
	if (direct(c, op->handle)) {
		io_uring_prep_close_direct(sqe(c), (unsigned int)fd);
		return done(c, op, run(c));
	}
	return done(c, op, close_fd(c, fd));
}

static long uring_pread(struct engine_ctx *c, const struct op *op,
			UNUSED const char *path, UNUSED const char *path2)
{
	struct io_uring_sqe *e = sqe(c);

	io_uring_prep_read(e, c->fd[op->handle], c->buf, (unsigned int)op->size,
			   (uint64_t)engine_offset(c, op));
	return fixed_run(c, op, e);
}

/* offset -1: the read starts at the file's position, as read(2) does */
static long uring_read(struct engine_ctx *c, const struct op *op,
		       UNUSED const char *path, UNUSED const char *path2)
{
	struct io_uring_sqe *e = sqe(c);

	io_uring_prep_read(e, c->fd[op->handle], c->buf, (unsigned int)op->size,
			   (uint64_t)-1);
	return fixed_run(c, op, e);
}

static long uring_pwrite(struct engine_ctx *c, const struct op *op,
			 UNUSED const char *path, UNUSED const char *path2)
{
	struct io_uring_sqe *e = sqe(c);

	io_uring_prep_write(e, c->fd[op->handle], c->buf,
			    (unsigned int)op->size,
			    (uint64_t)engine_offset(c, op));
	return fixed_run(c, op, e);
}

static long uring_fsync(struct engine_ctx *c, const struct op *op,
			UNUSED const char *path, UNUSED const char *path2)
{
	struct io_uring_sqe *e = sqe(c);

	io_uring_prep_fsync(e, c->fd[op->handle], 0);
	return fixed_run(c, op, e);
}

static long uring_fdatasync(struct engine_ctx *c, const struct op *op,
			    UNUSED const char *path, UNUSED const char *path2)
{
	struct io_uring_sqe *e = sqe(c);

	io_uring_prep_fsync(e, c->fd[op->handle], IORING_FSYNC_DATASYNC);
	return fixed_run(c, op, e);
}

static long uring_unlink(struct engine_ctx *c, const struct op *op,
			 const char *path, UNUSED const char *path2)
{
	io_uring_prep_unlinkat(sqe(c), c->at, path, 0);
	return done(c, op, run(c));
}

static long uring_rmdir(struct engine_ctx *c, const struct op *op,
			const char *path, UNUSED const char *path2)
{
	io_uring_prep_unlinkat(sqe(c), c->at, path, AT_REMOVEDIR);
	return done(c, op, run(c));
}

static long uring_mkdir(struct engine_ctx *c, const struct op *op,
			const char *path, UNUSED const char *path2)
{
	io_uring_prep_mkdirat(sqe(c), c->at, path, op->mode);
	return done(c, op, run(c));
}

static long uring_rename(struct engine_ctx *c, const struct op *op,
			 const char *path, const char *path2)
{
	io_uring_prep_renameat(sqe(c), c->at, path, c->at, path2, 0);
	return done(c, op, run(c));
}

static long uring_link(struct engine_ctx *c, const struct op *op,
		       const char *path, const char *path2)
{
	io_uring_prep_linkat(sqe(c), c->at, path, c->at, path2, 0);
	return done(c, op, run(c));
}

/* path is the target, stored verbatim; path2 the link to create */
static long uring_symlink(struct engine_ctx *c, const struct op *op,
			  const char *path, const char *path2)
{
	io_uring_prep_symlinkat(sqe(c), path, c->at, path2);
	return done(c, op, run(c));
}

/*
 * readdir: the open and the close through the ring, getdents64(2) as the
 * system call (io_uring has no opcode for it on liburing 2.3's kernels).
 */
static long readdir_op(struct engine_ctx *c, const struct op *op,
		       const char *path, unsigned long long resolve)
{
	long n, ret = 0,
		fd = open_how(c, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0,
			      resolve);

	if (fd < 0)
		return done(c, op, fd);
	do {
		n = syscall(SYS_getdents64, (int)fd, c->dirbuf, ENGINE_DIRBUF);
	} while (n > 0);
	if (n < 0)
		ret = -(long)errno;
	n = close_fd(c, (int)fd);
	return done(c, op, ret ? ret : n);
}

static long uring_readdir(struct engine_ctx *c, const struct op *op,
			  const char *path, UNUSED const char *path2)
{
	return readdir_op(c, op, path, 0);
}

static long uring_readdir_beneath(struct engine_ctx *c, const struct op *op,
				  const char *path, UNUSED const char *path2)
{
	return readdir_op(c, op, path, RESOLVE_BENEATH);
}

/* The RCU-walk probe: RESOLVE_CACHED's EAGAIN comes back as the result. */
static long probe_op(struct engine_ctx *c, const struct op *op,
		     const char *path, unsigned long long resolve)
{
	long fd = open_how(c, path, O_PATH | O_CLOEXEC, 0,
			   RESOLVE_CACHED | resolve);

	if (fd < 0)
		return done(c, op, fd);
	return done(c, op, close_fd(c, (int)fd));
}

static long uring_probe(struct engine_ctx *c, const struct op *op,
			const char *path, UNUSED const char *path2)
{
	return probe_op(c, op, path, 0);
}

static long uring_probe_beneath(struct engine_ctx *c, const struct op *op,
				const char *path, UNUSED const char *path2)
{
	return probe_op(c, op, path, RESOLVE_BENEATH);
}

static void uring_ctx_release(struct engine_ctx *c)
{
	if (!c->ring)
		return;
	uring_ring_release(c->ring);
	if (c->ring->pool) {
		uring_lanes_release(c->ring->pool);
		free(c->ring->pool);
	}
	free(c->ring->direct);
	free(c->ring);
	c->ring = NULL;
}

/*
 * --uring-fixed: a sparse file table of one slot per handle, and which
 * handles go there: those whose every op takes a direct descriptor.
 */
static int fixed_init(struct engine_ctx *c, const struct loadfile *lf)
{
	const struct op *why;
	int ret;

	if (!lf->nhandles)
		return 0;
	c->ring->direct = calloc(lf->nhandles, sizeof(*c->ring->direct));
	if (!c->ring->direct)
		return -ENOMEM;
	for (unsigned int h = 0; h < lf->nhandles; h++)
		c->ring->direct[h] = uring_handle_direct(lf, h, &why);
	ret = io_uring_register_files_sparse(&c->ring->ring, lf->nhandles);
	return ret < 0 ? ret : 0;
}

/* --uring-depth above 1: the lanes and their stacks, made before [setup]. */
static int lanes_init(struct engine_ctx *c, unsigned int depth)
{
	struct uring_lanes *l = calloc(1, sizeof(*l));
	int ret;

	if (!l)
		return -ENOMEM;
	ret = uring_lanes_init(l, c->ring, depth);
	if (ret) {
		free(l);
		return ret;
	}
	c->ring->pool = l;
	return 0;
}

static int uring_ctx_init(struct engine_ctx *c, const struct loadfile *lf,
			  bool fixed, unsigned int depth)
{
	int ret;

	c->ring = calloc(1, sizeof(*c->ring));
	if (!c->ring)
		return -ENOMEM;
	ret = uring_ring_init(c->ring, depth);
	if (ret) {
		free(c->ring);
		c->ring = NULL;
		return ret;
	}
	ret = fixed ? fixed_init(c, lf) : 0;
	if (!ret && depth > 1)
		ret = lanes_init(c, depth);
	if (ret)
		uring_ctx_release(c);
	return ret;
}

/* Run the lanes on the ring that ctx_init() made them for. */
static void uring_lanes(struct engine_ctx *c, void (*fn)(void *arg),
			void *const *arg)
{
	uring_lanes_run(c->ring->pool, fn, arg);
}

/* A handle closed outside the timed ops: a slot, or a plain fd. */
static void uring_drop(struct engine_ctx *c, unsigned int h)
{
	int fd = c->fd[h];

	c->fd[h] = -1;
	if (!c->ring || !direct(c, h)) {
		close(fd);
		return;
	}
	io_uring_prep_close_direct(sqe(c), (unsigned int)fd);
	c->ring->punted = false;
	run(c);
	c->ring->punted = false;
}

/* What each op issues, through the ring and outside it (--list-ops). */
static const char *const uring_queued[OP_NR] = {
	[OP_STAT] = "IORING_OP_STATX dirfd, flags 0",
	[OP_LSTAT] = "IORING_OP_STATX dirfd, AT_SYMLINK_NOFOLLOW",
	[OP_FSTAT] = "IORING_OP_STATX fd, \"\", AT_EMPTY_PATH",
	[OP_OPEN] =
		"IORING_OP_OPENAT dirfd (beneath: IORING_OP_OPENAT2 RESOLVE_BENEATH)",
	[OP_CREATE] =
		"IORING_OP_OPENAT O_CREAT|O_WRONLY|O_TRUNC, IORING_OP_CLOSE",
	[OP_CLOSE] = "IORING_OP_CLOSE",
	[OP_PREAD] = "IORING_OP_READ fd, offset",
	[OP_PWRITE] = "IORING_OP_WRITE fd, offset",
	[OP_READ] = "IORING_OP_READ fd, offset -1 (the fd's position)",
	[OP_FSYNC] = "IORING_OP_FSYNC",
	[OP_FDATASYNC] = "IORING_OP_FSYNC IORING_FSYNC_DATASYNC",
	[OP_UNLINK] = "IORING_OP_UNLINKAT flags 0",
	[OP_MKDIR] = "IORING_OP_MKDIRAT",
	[OP_RMDIR] = "IORING_OP_UNLINKAT AT_REMOVEDIR",
	[OP_RENAME] = "IORING_OP_RENAMEAT flags 0",
	[OP_LINK] = "IORING_OP_LINKAT flags 0",
	[OP_SYMLINK] = "IORING_OP_SYMLINKAT",
	[OP_READDIR] = "IORING_OP_OPENAT O_DIRECTORY, IORING_OP_CLOSE",
	[OP_PROBE] =
		"IORING_OP_OPENAT2 O_PATH, RESOLVE_CACHED, IORING_OP_CLOSE",
};

static const char *const uring_fallback[OP_NR] = {
	[OP_ACCESS] = "access(2)",
	[OP_STATFS] = "statfs(2)",
	[OP_FSTATFS] = "fstatfs(2)",
	[OP_STATVFS] = "statfs(2)",
	[OP_FSTATVFS] = "fstatfs(2)",
	[OP_STATVFS_LEGACY] = "statvfs_legacy's calls",
	[OP_FTRUNCATE] = "ftruncate(2)",
	[OP_READLINK] = "readlink(2)",
	[OP_READDIR] = "getdents64(2)",
	[OP_UTIMENS] = "utimensat(2)",
	[OP_LSEEK] = "lseek(2)",
	[OP_GETDENTS] = "getdents64(2)",
	[OP_DATA] = "pwrite64(2)",
	[OP_DUP] = "dup(2), close(2)",
	[OP_LOCK] = "fcntl(2) F_SETLKW",
	[OP_UNLOCK] = "fcntl(2) F_SETLKW",
};

/*
 * op and op_at alike: the ring's ops take c->at, AT_FDCWD outside dirfd;
 * @legacy is statvfs_legacy's, which has no dirfd form (NULL in op_at,
 * where engine_check() refuses it; posix's op_at has none to call).
 */
#define URING_OPS(sys, legacy)                                              \
	{                                                                   \
		[OP_STAT] = uring_stat, [OP_LSTAT] = uring_lstat,           \
		[OP_FSTAT] = uring_fstat, [OP_ACCESS] = sys,                \
		[OP_STATFS] = sys, [OP_FSTATFS] = uring_syscall,            \
		[OP_STATVFS] = sys, [OP_FSTATVFS] = uring_syscall,          \
		[OP_STATVFS_LEGACY] = legacy, [OP_OPEN] = uring_open,       \
		[OP_CREATE] = uring_create, [OP_CLOSE] = uring_close,       \
		[OP_PREAD] = uring_pread, [OP_PWRITE] = uring_pwrite,       \
		[OP_FSYNC] = uring_fsync, [OP_FDATASYNC] = uring_fdatasync, \
		[OP_FTRUNCATE] = uring_syscall, [OP_UNLINK] = uring_unlink, \
		[OP_MKDIR] = uring_mkdir, [OP_RMDIR] = uring_rmdir,         \
		[OP_RENAME] = uring_rename, [OP_LINK] = uring_link,         \
		[OP_SYMLINK] = uring_symlink, [OP_READLINK] = sys,          \
		[OP_READDIR] = uring_readdir, [OP_UTIMENS] = sys,           \
		[OP_PROBE] = uring_probe, [OP_READ] = uring_read,           \
		[OP_LSEEK] = uring_syscall, [OP_DUP] = uring_syscall,       \
		[OP_LOCK] = uring_syscall, [OP_UNLOCK] = uring_syscall,     \
		[OP_GETDENTS] = uring_syscall, [OP_DATA] = uring_syscall,   \
	}

const struct engine engine_uring = {
	.name = "uring",
	.summary = "the same ops through the client's io_uring, one at a time",
	.opens_fds = true,
	.op = URING_OPS(uring_syscall, uring_syscall),
	.op_at = URING_OPS(uring_syscall_at, NULL),
	.op_beneath = {
		[OP_OPEN] = uring_open_beneath,
		[OP_CREATE] = uring_create_beneath,
		[OP_READDIR] = uring_readdir_beneath,
		[OP_PROBE] = uring_probe_beneath,
	},
	.queued = uring_queued,
	.fallback = uring_fallback,
	.usable = uring_usable,
	.ctx_init = uring_ctx_init,
	.ctx_release = uring_ctx_release,
	.lanes = uring_lanes,
	.drop = uring_drop,
};
