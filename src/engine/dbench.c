/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The posix engine's dbench ops: for each line of a dbench loadfile, the
 * system calls dbench 4.0's fileio backend issues (its resolve step, its
 * directory reads through glibc's opendir/readdir, its flag mappings), as
 * measured with strace and written down in ../shared/reference/dbench.md
 * section 1.4. No allocation: paths are split in the client's path buffer
 * and directories are read into its directory buffer.
 */
#include <config.h>
#include "engine/dbench.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/compiler.h"
#include "engine/fsinfo.h"

/* glibc's readdir buffer for a directory whose st_blksize is small */
#define GLIBC_DIRBUF 32768
/* Deltree's recursion, on the client's 256 KiB stack */
#define DELTREE_MAX_DEPTH 128
/* -x: the attribute Samba keeps DOS attributes in, and dbench's size */
#define DOS_ATTRIB     "user.DosAttrib"
#define DOS_ATTRIB_LEN 44

struct linux_dirent64 {
	ino64_t d_ino;
	off64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

_Static_assert(GLIBC_DIRBUF <= ENGINE_DIRBUF, "directory buffer too small");

static bool dirents_have(const char *buf, long n, const char *name)
{
	for (long off = 0; off < n;) {
		const struct linux_dirent64 *d = (const void *)(buf + off);

		if (!strcasecmp(d->d_name, name))
			return true;
		off += d->d_reclen;
	}
	return false;
}

/*
 * opendir(), readdir() until @match (case-insensitive, NULL: to the end),
 * closedir(), as glibc 2.36 issues them: openat(O_NONBLOCK|O_DIRECTORY),
 * newfstatat(fd, ""), getdents64 of 32 KiB, close.
 */
static long read_dir(struct engine_ctx *c, const char *dir, const char *match)
{
	struct stat st;
	long n, ret = 0;
	int fd;

	fd = open(dir, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_DIRECTORY);
	if (fd < 0)
		return -(long)errno;
	if (fstat(fd, &st))
		ret = -(long)errno;
	while (!ret && (n = syscall(SYS_getdents64, fd, c->dirbuf,
				    GLIBC_DIRBUF)) != 0) {
		if (n < 0)
			ret = -(long)errno;
		else if (match && dirents_have(c->dirbuf, n, match))
			break;
	}
	close(fd);
	return ret;
}

/* Split @path into the client's path buffer: returns the directory. */
static const char *split(struct engine_ctx *c, const char *path,
			 const char **leaf)
{
	const char *slash = strrchr(path, '/');
	size_t n;

	if (!slash) {
		*leaf = path;
		return ".";
	}
	n = (size_t)(slash - path);
	memcpy(c->pathbuf, path, n);
	c->pathbuf[n] = '\0';
	*leaf = slash + 1;
	return c->pathbuf;
}

/*
 * dbench's resolve_name(), after Samba's pvfs_resolve_name: stat the
 * path; on a miss, unless --no-resolve, read the parent directory looking
 * for the name case-insensitively. Returns the stat's result.
 */
static long resolve(struct engine_ctx *c, const struct op *op, const char *path)
{
	char attr[DOS_ATTRIB_LEN];
	const char *dir, *leaf;
	struct stat st;
	long err;

	if (!stat(path, &st)) {
		/* -x: its result is not looked at, as in dbench */
		if (op->xflags & OPX_XATTR)
			getxattr(path, DOS_ATTRIB, attr, sizeof(attr));
		return 0;
	}
	err = -(long)errno;
	if (op->xflags & OPX_RESOLVE_SCAN) {
		dir = split(c, path, &leaf);
		read_dir(c, dir, leaf);
	}
	return err;
}

/* -S: open the parent directory, fdatasync it, close it. */
static void sync_parent(struct engine_ctx *c, const struct op *op,
			const char *path)
{
	const char *leaf, *dir;
	int fd;

	if (!(op->xflags & OPX_SYNC_DIRS))
		return;
	dir = split(c, path, &leaf);
	fd = open(dir, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		fdatasync(fd);
		close(fd);
	}
}

/* -x: read user.DosAttrib, ignoring the result (dbench's read hook). */
static void xattr_read(const struct op *op, int fd)
{
	char attr[DOS_ATTRIB_LEN];

	if (op->xflags & OPX_XATTR)
		fgetxattr(fd, DOS_ATTRIB, attr, sizeof(attr));
}

/*
 * -x on a file: read user.DosAttrib, then write 44 bytes that start with
 * the time of day (dbench's write hook). A failed write is dbench's fatal
 * "fsetxattr failed": here the line's error.
 */
static long xattr_write(const struct op *op, int fd)
{
	char attr[DOS_ATTRIB_LEN] = { 0 };
	struct timeval tv;

	if (!(op->xflags & OPX_XATTR))
		return 0;
	fgetxattr(fd, DOS_ATTRIB, attr, sizeof(attr));
	memset(attr, 0, sizeof(attr));
	gettimeofday(&tv, NULL);
	memcpy(attr, &tv, sizeof(tv));
	return ENGINE_RET(fsetxattr(fd, DOS_ATTRIB, attr, sizeof(attr), 0));
}

/* --stat-check: whether @path exists, by one more stat(). */
static bool exists(const char *path, struct stat *st)
{
	return !stat(path, st);
}

long posix_db_ntcreatex(struct engine_ctx *c, const struct op *op,
			const char *path, UNUSED const char *path2)
{
	int flags = op->flags;
	struct stat st;
	int fd;

	resolve(c, op, path);
	/* --stat-check: a create of a name that exists is an open */
	if ((op->xflags & OPX_STAT_CHECK) && (flags & O_CREAT) &&
	    !(flags & O_TRUNC) && exists(path, &st))
		flags &= ~O_CREAT;
	if (op->xflags & OPX_NT_DIRECTORY) {
		/* EEXIST ignored, as in dbench; --stat-check: only if missing
		 */
		if (!(op->xflags & OPX_STAT_CHECK) || !exists(path, &st))
			mkdir(path, 0700);
		fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	} else {
		fd = open(path, flags, op->mode);
		if (fd < 0 && errno == EISDIR)
			fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	}
	if (fd < 0)
		return -(long)errno;
	c->fd[op->handle] = fd;
	if (fstat(fd, &st) || S_ISDIR(st.st_mode))
		return 0;
	return xattr_write(op, fd);
}

long posix_db_close(struct engine_ctx *c, const struct op *op,
		    UNUSED const char *path, UNUSED const char *path2)
{
	int fd = c->fd[op->handle];

	c->fd[op->handle] = -1;
	return ENGINE_RET(close(fd));
}

long posix_db_rename(struct engine_ctx *c, const struct op *op,
		     const char *path, const char *path2)
{
	struct stat st;
	long ret;

	resolve(c, op, path);
	resolve(c, op, path2);
	/* --stat-check: a missing source fails the line without a rename */
	if ((op->xflags & OPX_STAT_CHECK) && op->expect == EXPECT_OK &&
	    !exists(path, &st))
		return -(long)errno;
	ret = ENGINE_RET(rename(path, path2));
	sync_parent(c, op, path2);
	return ret;
}

long posix_db_unlink(struct engine_ctx *c, const struct op *op,
		     const char *path, UNUSED const char *path2)
{
	long ret;

	resolve(c, op, path);
	ret = ENGINE_RET(unlink(path));
	sync_parent(c, op, path);
	return ret;
}

long posix_db_rmdir(struct engine_ctx *c, const struct op *op, const char *path,
		    UNUSED const char *path2)
{
	struct stat st;
	long ret;

	resolve(c, op, path);
	/* --stat-check: no rmdir of what is not a directory */
	if ((op->xflags & OPX_STAT_CHECK) &&
	    (!exists(path, &st) || !S_ISDIR(st.st_mode)))
		return 0;
	ret = ENGINE_RET(rmdir(path));
	sync_parent(c, op, path);
	return ret;
}

long posix_db_mkdir(struct engine_ctx *c, const struct op *op, const char *path,
		    UNUSED const char *path2)
{
	struct stat st;

	resolve(c, op, path);
	/* --stat-check: no mkdir of what exists */
	if ((op->xflags & OPX_STAT_CHECK) && exists(path, &st))
		return 0;
	return ENGINE_RET(mkdir(path, 0777));
}

/*
 * Empty the directory @dirfd: a stat of each entry (as dbench's deltree
 * does), unlink of everything but directories, which are emptied the same
 * way and removed (dbench leaves them behind). Symlinks are removed, never
 * followed; another filesystem is never entered. The directory buffer is
 * shared by every level, so after a subdirectory the level reads its
 * directory again from the start.
 */
static long empty_dir(struct engine_ctx *c, int dirfd, dev_t dev, int depth)
{
	char name[NAME_MAX + 1];
	long n, ret = 0;

	if (depth > DELTREE_MAX_DEPTH)
		return -ELOOP;
again:
	if (lseek(dirfd, 0, SEEK_SET) < 0)
		return -(long)errno;
	while ((n = syscall(SYS_getdents64, dirfd, c->dirbuf, GLIBC_DIRBUF)) >
	       0) {
		for (long off = 0; off < n;) {
			const struct linux_dirent64 *d =
				(const void *)(c->dirbuf + off);
			struct stat st;
			int sub;

			off += d->d_reclen;
			if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
				continue;
			if (fstatat(dirfd, d->d_name, &st, AT_SYMLINK_NOFOLLOW))
				continue;
			if (!S_ISDIR(st.st_mode)) {
				if (unlinkat(dirfd, d->d_name, 0) && !ret)
					ret = -(long)errno;
				continue;
			}
			if (st.st_dev != dev)
				return -EXDEV;
			memcpy(name, d->d_name, strlen(d->d_name) + 1);
			sub = openat(dirfd, name,
				     O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					     O_CLOEXEC);
			if (sub < 0)
				return -(long)errno;
			n = empty_dir(c, sub, dev, depth + 1);
			close(sub);
			if (n)
				return n;
			if (unlinkat(dirfd, name, AT_REMOVEDIR))
				return -(long)errno;
			goto again; /* the buffer now holds the child's */
		}
	}
	return n < 0 ? -(long)errno : ret;
}

/* "." or "d/d/." (--depth's prefix in front): the client's directory */
static bool is_client_dir(const char *path)
{
	size_t n = strlen(path);

	return !strcmp(path, ".") || (n >= 2 && !strcmp(path + n - 2, "/."));
}

/* Deltree of "." empties the client's own directory and keeps it. */
long posix_db_deltree(struct engine_ctx *c, UNUSED const struct op *op,
		      const char *path, UNUSED const char *path2)
{
	struct stat st;
	long ret;
	int fd;

	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -(long)errno;
	ret = fstat(fd, &st) ? -(long)errno : empty_dir(c, fd, st.st_dev, 0);
	close(fd);
	if (!ret && !is_client_dir(path))
		ret = ENGINE_RET(rmdir(path));
	return ret;
}

long posix_db_qpathinfo(struct engine_ctx *c, const struct op *op,
			const char *path, UNUSED const char *path2)
{
	return resolve(c, op, path);
}

long posix_db_qfileinfo(struct engine_ctx *c, const struct op *op,
			UNUSED const char *path, UNUSED const char *path2)
{
	struct stat st;
	long ret = ENGINE_RET(fstat(c->fd[op->handle], &st));

	xattr_read(op, c->fd[op->handle]);
	return ret;
}

/* statvfs(3) of the base directory, or the call --fsinfo names. */
long posix_db_qfsinfo(struct engine_ctx *c, const struct op *op,
		      const char *path, const char *path2)
{
	if (op->xflags & OPX_FSINFO_STATFS)
		return posix_statfs(c, op, path, path2);
	if (op->xflags & OPX_FSINFO_LEGACY)
		return posix_statvfs_legacy(c, op, path, path2);
	return posix_statvfs(c, op, path, path2);
}

/* fstat, then utime() through the name the handle was opened by. */
long posix_db_sfileinfo(struct engine_ctx *c, const struct op *op,
			const char *path, UNUSED const char *path2)
{
	int fd = c->fd[op->handle];
	struct timespec ts[2];
	struct stat st;
	long ret;

	xattr_read(op, fd);
	if (fstat(fd, &st))
		return -(long)errno;
	ts[0] = (struct timespec){ .tv_sec = st.st_atime - 10 };
	ts[1] = (struct timespec){ .tv_sec = st.st_mtime - 12 };
	ret = ENGINE_RET(utimensat(AT_FDCWD, path, ts, 0));
	if (!ret && !S_ISDIR(st.st_mode))
		ret = xattr_write(op, fd);
	return ret;
}

/*
 * The pattern's stat always misses, so resolve reads the directory once;
 * a wildcard pattern reads it again (dbench never matches the pattern).
 */
long posix_db_find(struct engine_ctx *c, const struct op *op, const char *path,
		   const char *path2)
{
	resolve(c, op, path);
	if (op->xflags & OPX_WILDCARD)
		return read_dir(c, path2, NULL);
	return 0;
}

/*
 * --one-byte-write-fix on a 1-byte write of a zero: when the file already
 * holds that byte (read back), or ends at or before the offset (extended
 * by ftruncate instead), no write is issued. True when it was done so.
 */
static bool one_byte_fixed(struct engine_ctx *c, const struct op *op, int fd)
{
	struct stat st;
	unsigned char b;

	if (!(op->xflags & OPX_ONE_BYTE_FIX) || op->size != 1 || fstat(fd, &st))
		return false;
	if ((uint64_t)st.st_size > op->offset)
		return pread(fd, &b, 1, (off_t)op->offset) == 1 &&
		       b == (unsigned char)c->buf[0];
	return !c->buf[0] && !ftruncate(fd, (off_t)op->offset + 1);
}

/* -R: the start of a ReadX or WriteX, for the pace op after it. */
static void pace_mark(struct engine_ctx *c, const struct op *op)
{
	if (op->xflags & OPX_PACED)
		c->pace_from = clock_now_ns();
}

/* dbench counts the requested size of every successful write. */
long posix_db_writex(struct engine_ctx *c, const struct op *op,
		     UNUSED const char *path, UNUSED const char *path2)
{
	int fd = c->fd[op->handle];

	pace_mark(c, op);
	if (op->xflags & OPX_FAKE_IO)
		return (long)op->size;
	if (one_byte_fixed(c, op, fd))
		return (long)op->size;
	if (pwrite(fd, c->buf, op->size, (off_t)op->offset) < 0)
		return -(long)errno;
	if (op->xflags & OPX_FSYNC)
		fsync(fd);
	return (long)op->size;
}

/* ... and of every read, even a short one. */
long posix_db_readx(struct engine_ctx *c, const struct op *op,
		    UNUSED const char *path, UNUSED const char *path2)
{
	pace_mark(c, op);
	if (op->xflags & OPX_FAKE_IO)
		return (long)op->size;
	if (pread(c->fd[op->handle], c->buf, op->size, (off_t)op->offset) < 0)
		return -(long)errno;
	return (long)op->size;
}

static long lock(struct engine_ctx *c, const struct op *op, short type)
{
	struct flock fl = {
		.l_type = type,
		.l_whence = SEEK_SET,
		.l_start = (off_t)op->offset,
		.l_len = (off_t)op->size,
	};

	return ENGINE_RET(fcntl(c->fd[op->handle], F_SETLKW, &fl));
}

long posix_db_lockx(struct engine_ctx *c, const struct op *op,
		    UNUSED const char *path, UNUSED const char *path2)
{
	return lock(c, op, F_WRLCK);
}

long posix_db_unlockx(struct engine_ctx *c, const struct op *op,
		      UNUSED const char *path, UNUSED const char *path2)
{
	return lock(c, op, F_UNLCK);
}

long posix_db_flush(struct engine_ctx *c, const struct op *op,
		    UNUSED const char *path, UNUSED const char *path2)
{
	return ENGINE_RET(fsync(c->fd[op->handle]));
}

long posix_db_sleep(UNUSED struct engine_ctx *c, const struct op *op,
		    UNUSED const char *path, UNUSED const char *path2)
{
	struct timespec ts = {
		.tv_sec = (time_t)(op->size / 1000000),
		.tv_nsec = (long)(op->size % 1000000) * 1000,
	};

	return ENGINE_RET(nanosleep(&ts, NULL));
}

/*
 * -R: dbench sleeps before a line until the bytes of the line before it
 * took at least their share of the rate; here after the ReadX or WriteX,
 * until its start plus op->size ns (worked out at load time).
 */
long posix_db_pace(struct engine_ctx *c, const struct op *op,
		   UNUSED const char *path, UNUSED const char *path2)
{
	uint64_t until = c->pace_from + op->size;
	struct timespec ts = {
		.tv_sec = (time_t)(until / NSEC_PER_SEC),
		.tv_nsec = (long)(until % NSEC_PER_SEC),
	};

	if (clock_now_ns() >= until)
		return 0;
	return -(long)clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts,
				      NULL);
}
