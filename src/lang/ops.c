/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The op descriptor table: each op's loadfile keyword, argument shape and
 * the system calls it issues, plus errno names for expectations.
 */
#include <config.h>
#include "lang/ops.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include "base/compiler.h"

#define A(...)              \
	{                   \
		__VA_ARGS__ \
	}

const struct op_desc op_table[OP_NR] = {
	[OP_STAT] = { "stat", A(ARG_PATH), 0, "stat(2)",
		      "newfstatat(2) dirfd, flags 0", NULL },
	[OP_LSTAT] = { "lstat", A(ARG_PATH), 0, "lstat(2)",
		       "newfstatat(2) dirfd, AT_SYMLINK_NOFOLLOW", NULL },
	[OP_FSTAT] = { "fstat", A(ARG_HANDLE), 0, "fstat(2)", NULL, NULL },
	[OP_ACCESS] = { "access", A(ARG_PATH, ARG_AMODE), OPF_LAST_OPTIONAL,
			"access(2)",
			"faccessat2(2) dirfd (glibc's faccessat())", NULL },
	[OP_STATFS] = { "statfs", A(ARG_PATH), 0, "statfs(2)",
			"openat(2) dirfd O_PATH, fstatfs(2), close(2): statfs has no *at() form",
			NULL },
	[OP_FSTATFS] = { "fstatfs", A(ARG_HANDLE), 0, "fstatfs(2)", NULL,
			 NULL },
	[OP_STATVFS] = { "statvfs", A(ARG_PATH), 0,
			 "statvfs(3): statfs(2) on glibc >= 2.13",
			 "openat(2) dirfd O_PATH, fstatfs(2), close(2): statvfs has no *at() form",
			 NULL },
	[OP_FSTATVFS] = { "fstatvfs", A(ARG_HANDLE), 0,
			  "fstatvfs(3): fstatfs(2) on glibc >= 2.13", NULL,
			  NULL },
	[OP_STATVFS_LEGACY] = { "statvfs_legacy", A(ARG_PATH),
				OPF_OWN_FD | OPF_SCRATCH,
				"statfs(2), stat(2), open(2)+read(2) of "
				"/proc/self/mounts, stat(2) per mount point "
				"until st_dev matches, close(2)",
				NULL, NULL },
	[OP_OPEN] = { "open", A(ARG_PATH, ARG_FLAGS, ARG_HANDLE, ARG_MODE),
		      OPF_OPENS | OPF_LAST_OPTIONAL, "open(2)",
		      "openat(2) dirfd", "openat2(2) dirfd, RESOLVE_BENEATH" },
	[OP_CREATE] = { "create", A(ARG_PATH, ARG_MODE),
			OPF_LAST_OPTIONAL | OPF_OWN_FD | OPF_CHANGES,
			"open(2) O_CREAT|O_WRONLY|O_TRUNC, close(2)",
			"openat(2) dirfd O_CREAT|O_WRONLY|O_TRUNC, close(2)",
			"openat2(2) dirfd O_CREAT|O_WRONLY|O_TRUNC, RESOLVE_BENEATH, close(2)" },
	[OP_CLOSE] = { "close", A(ARG_HANDLE), OPF_CLOSES, "close(2)", NULL,
		       NULL },
	[OP_PREAD] = { "pread", A(ARG_HANDLE, ARG_OFFSET, ARG_SIZE), 0,
		       "pread(2)", NULL, NULL },
	[OP_PWRITE] = { "pwrite", A(ARG_HANDLE, ARG_OFFSET, ARG_SIZE),
			OPF_CHANGES, "pwrite(2)", NULL, NULL },
	[OP_FSYNC] = { "fsync", A(ARG_HANDLE), OPF_CHANGES, "fsync(2)", NULL,
		       NULL },
	[OP_FDATASYNC] = { "fdatasync", A(ARG_HANDLE), OPF_CHANGES,
			   "fdatasync(2)", NULL, NULL },
	[OP_FTRUNCATE] = { "ftruncate", A(ARG_HANDLE, ARG_SIZE), OPF_CHANGES,
			   "ftruncate(2)", NULL, NULL },
	[OP_UNLINK] = { "unlink", A(ARG_PATH), OPF_CHANGES, "unlink(2)",
			"unlinkat(2) dirfd, flags 0", NULL },
	[OP_MKDIR] = { "mkdir", A(ARG_PATH, ARG_MODE),
		       OPF_LAST_OPTIONAL | OPF_CHANGES, "mkdir(2)",
		       "mkdirat(2) dirfd", NULL },
	[OP_RMDIR] = { "rmdir", A(ARG_PATH), OPF_CHANGES, "rmdir(2)",
		       "unlinkat(2) dirfd, AT_REMOVEDIR", NULL },
	[OP_RENAME] = { "rename", A(ARG_PATH, ARG_PATH), OPF_CHANGES,
			"rename(2)", "renameat(2) dirfd, dirfd", NULL },
	[OP_LINK] = { "link", A(ARG_PATH, ARG_PATH), OPF_CHANGES, "link(2)",
		      "linkat(2) dirfd, dirfd, flags 0", NULL },
	[OP_SYMLINK] = { "symlink", A(ARG_TARGET, ARG_PATH), OPF_CHANGES,
			 "symlink(2)", "symlinkat(2) target, dirfd", NULL },
	[OP_READLINK] = { "readlink", A(ARG_PATH), OPF_SCRATCH, "readlink(2)",
			  "readlinkat(2) dirfd", NULL },
	[OP_READDIR] = { "readdir", A(ARG_PATH), OPF_OWN_FD | OPF_SCRATCH,
			 "open(2) O_DIRECTORY, getdents64(2) until 0, "
			 "close(2)",
			 "openat(2) dirfd O_DIRECTORY, getdents64(2) until 0, close(2)",
			 "openat2(2) dirfd O_DIRECTORY, RESOLVE_BENEATH, getdents64(2) until 0, close(2)" },
	[OP_UTIMENS] = { "utimens", A(ARG_PATH), OPF_CHANGES,
			 "utimensat(2) AT_FDCWD, times NULL",
			 "utimensat(2) dirfd, times NULL", NULL },
	[OP_PROBE] = { "probe", A(ARG_PATH), OPF_OWN_FD,
		       "openat2(2) AT_FDCWD O_PATH, RESOLVE_CACHED, close(2) (EAGAIN: not completed in RCU-walk mode)",
		       "openat2(2) dirfd O_PATH, RESOLVE_CACHED, close(2)",
		       "openat2(2) dirfd O_PATH, RESOLVE_CACHED|RESOLVE_BENEATH, close(2)" },
	[OP_READ] = { "read", A(ARG_HANDLE, ARG_SIZE), 0,
		      "read(2) at the fd's position", NULL, NULL },
	[OP_LSEEK] = { "lseek", A(ARG_HANDLE, ARG_OFFSET, ARG_WHENCE), 0,
		       "lseek(2)", NULL, NULL },
	[OP_DUP] = { "dup", A(ARG_HANDLE), 0, "dup(2), close(2) of the copy",
		     NULL, NULL },
	[OP_LOCK] = { "lock", A(ARG_HANDLE, ARG_OFFSET, ARG_SIZE), 0,
		      "fcntl(2) F_SETLKW, F_WRLCK, SEEK_SET", NULL, NULL },
	[OP_UNLOCK] = { "unlock", A(ARG_HANDLE, ARG_OFFSET, ARG_SIZE), 0,
			"fcntl(2) F_SETLKW, F_UNLCK, SEEK_SET", NULL, NULL },
	[OP_GETDENTS] = { "getdents", A(ARG_HANDLE, ARG_SIZE),
			  OPF_LAST_OPTIONAL | OPF_SCRATCH,
			  "getdents64(2) once, at the fd's position", NULL,
			  NULL },
	[OP_DATA] = { "data", A(ARG_HANDLE, ARG_HEX), OPF_CHANGES,
		      "pwrite64(2) of the line's bytes at offset 0 ([setup] only)",
		      NULL, NULL },

#define DB(name, sys)                                    \
	{                                                \
		name, { 0 }, OPF_DBENCH, sys, NULL, NULL \
	}
/* may open a directory of its own: resolve's scan, -S, Deltree, Find,
 * Qfsinfo's statvfs_legacy */
#define DBP(name, sys)                                                         \
	{                                                                      \
		name, { 0 }, OPF_DBENCH | OPF_OWN_FD | OPF_SCRATCH, sys, NULL, \
			NULL                                                   \
	}
/* DB and DBP for the ops that create, change or remove something */
#define DBC(name, sys)                                                 \
	{                                                              \
		name, { 0 }, OPF_DBENCH | OPF_CHANGES, sys, NULL, NULL \
	}
#define DBPC(name, sys)                                                      \
	{                                                                    \
		name, { 0 },                                                 \
			OPF_DBENCH | OPF_OWN_FD | OPF_SCRATCH | OPF_CHANGES, \
			sys, NULL, NULL                                      \
	}
#define R \
	"R = newfstatat(path); on a miss, unless --no-resolve, glibc's opendir/readdir of the parent: openat(O_NONBLOCK|O_DIRECTORY), newfstatat(fd, \"\"), getdents64(32 KiB) until the name matches (case-insensitive) or 0, close; -x: getxattr(path, user.DosAttrib) when the stat finds it"
	[OP_DB_NTCREATEX] = { "NTCreateX",
			      { 0 },
			      OPF_DBENCH | OPF_OPENS | OPF_OWN_FD |
				      OPF_SCRATCH | OPF_CHANGES,
			      R
			      "; directory: mkdir(path, 0700), open(O_RDONLY|O_DIRECTORY); "
			      "file: open(O_RDWR[|O_CREAT|O_TRUNC per disposition][|O_SYNC with -s], 0600), "
			      "on EISDIR open(O_RDONLY|O_DIRECTORY); then fstat(fd) on success; "
			      "--stat-check: newfstatat(path) before a create (an open if it exists) and before a directory's mkdir (none if it exists); "
			      "-x on a file: fgetxattr + fsetxattr(user.DosAttrib, 44 bytes)",
			      NULL,
			      NULL },
	[OP_DB_CLOSE] = { "Close",
			  { 0 },
			  OPF_DBENCH | OPF_CLOSES,
			  "close(fd)",
			  NULL,
			  NULL },
	[OP_DB_RENAME] = DBPC(
		"Rename",
		"R(old), R(new), rename(old, new); -S: open(dirname(new)), fdatasync, close; --stat-check: newfstatat(old) first, no rename if it is missing"),
	[OP_DB_UNLINK] =
		DBPC("Unlink", "R, unlink; -S: open(parent), fdatasync, close"),
	[OP_DB_DELTREE] = DBPC(
		"Deltree",
		"openat(path, O_DIRECTORY|O_NOFOLLOW), newfstatat(fd, \"\"); per directory level: lseek(0), getdents64, newfstatat(AT_SYMLINK_NOFOLLOW) per entry, unlinkat of non-directories, openat + the same + unlinkat(AT_REMOVEDIR) of each subdirectory (then the level is read again); close; rmdir(path) unless path is the client directory (dbench leaves directories)"),
	[OP_DB_RMDIR] = DBPC(
		"Rmdir",
		"R, rmdir; -S: open(parent), fdatasync, close; --stat-check: newfstatat first, no rmdir unless a directory"),
	[OP_DB_MKDIR] = DBPC(
		"Mkdir",
		"R, mkdir(path, 0777); --stat-check: newfstatat first, no mkdir if it exists"),
	[OP_DB_QPATHINFO] = DBP("Qpathinfo", "R"),
	[OP_DB_QFILEINFO] =
		DB("Qfileinfo", "fstat(fd); -x: fgetxattr(user.DosAttrib)"),
	[OP_DB_QFSINFO] = DBP(
		"Qfsinfo",
		"statvfs(3) of the -D directory (one statfs(2)); --fsinfo statfs or statvfs_legacy"),
	[OP_DB_SFILEINFO] = DBC(
		"Sfileinfo",
		"-x: fgetxattr; fstat(fd), utimensat(AT_FDCWD, path opened, atime-10s, mtime-12s); -x on a file: fgetxattr + fsetxattr(user.DosAttrib, 44 bytes)"),
	[OP_DB_FIND] = DBP(
		"Find",
		"R(dir/pattern); if the pattern has a wildcard: open(dir, O_DIRECTORY), getdents64 until 0, close"),
	[OP_DB_WRITEX] = DBC(
		"WriteX",
		"pwrite(fd, size, offset); -F: fsync(fd); --fake-io: nothing; --one-byte-write-fix, 1 byte: fstat, then pread(1) (no write if the byte is there) or ftruncate(offset + 1) past the end"),
	[OP_DB_READX] =
		DB("ReadX", "pread(fd, size, offset); --fake-io: nothing"),
	[OP_DB_LOCKX] = DB("LockX", "fcntl(fd, F_SETLKW, F_WRLCK offset size)"),
	[OP_DB_UNLOCKX] =
		DB("UnlockX", "fcntl(fd, F_SETLKW, F_UNLCK offset size)"),
	[OP_DB_FLUSH] = DBC("Flush", "fsync(fd)"),
	[OP_DB_SLEEP] = DB("Sleep", "clock_nanosleep(usec)"),
	[OP_DB_PACE] = DB(
		"pace",
		"-R: clock_nanosleep(TIMER_ABSTIME) until the ReadX or WriteX before it started + its size / the rate"),
#undef R
#undef DBP
#undef DBC
#undef DBPC
#undef DB
};

_Static_assert(ARRAY_SIZE(op_table) == OP_NR, "op_table must cover OP_NR");

const char *op_path_dotdot(const char *path)
{
	for (const char *c = path; *c; c++)
		if (c[0] == '.' && c[1] == '.' && (c == path || c[-1] == '/') &&
		    (c[2] == '/' || !c[2]))
			return c;
	return NULL;
}

bool op_resolves(enum op_id id)
{
	for (unsigned int i = 0; i < OP_MAX_ARGS; i++)
		if (op_table[id].args[i] == ARG_PATH)
			return true;
	return false;
}

/* Length of the component at @c, up to the next '/' or the end. */
static size_t component_len(const char *c)
{
	const char *e = strchr(c, '/');

	return e ? (size_t)(e - c) : strlen(c);
}

/*
 * The ".." of @c that goes above where @c starts, @depth directories
 * below that start; NULL where none does.
 */
static const char *leaves_from(const char *c, long depth)
{
	for (;;) {
		size_t len = component_len(c);

		if (len == 2 && c[0] == '.' && c[1] == '.') {
			if (!depth)
				return c;
			depth--;
		} else if (len && !(len == 1 && c[0] == '.')) {
			depth++;
		}
		if (!c[len])
			return NULL;
		c += len + 1;
	}
}

const char *op_path_leaves(const char *path)
{
	return leaves_from(path, 0);
}

bool op_path_descends(const char *path)
{
	const char *c = path;

	for (;;) {
		size_t len = component_len(c);

		if (len && !(len == 1 && c[0] == '.') &&
		    !(len == 2 && c[0] == '.' && c[1] == '.'))
			return true;
		if (!c[len])
			return false;
		c += len + 1;
	}
}

int op_path_depth(const char *path, int *lowest)
{
	const char *c = path;
	int depth = 0;

	*lowest = 0;
	for (;;) {
		size_t len = component_len(c);

		if (len == 2 && c[0] == '.' && c[1] == '.')
			depth--;
		else if (len && !(len == 1 && c[0] == '.'))
			depth++;
		if (depth < *lowest)
			*lowest = depth;
		if (!c[len])
			return depth;
		c += len + 1;
	}
}

int op_dir_depth(const char *path)
{
	const char *c = path;
	int depth = 0;

	for (size_t len = component_len(c); c[len]; len = component_len(c)) {
		if (len == 2 && c[0] == '.' && c[1] == '.')
			depth--;
		else if (len && !(len == 1 && c[0] == '.'))
			depth++;
		c += len + 1;
	}
	return depth;
}

const char *op_target_leaves(const char *link, const char *target,
			     unsigned int *need)
{
	int lowest;

	op_path_depth(target, &lowest);
	*need = (unsigned int)-lowest;
	return leaves_from(target, op_dir_depth(link));
}

bool op_changes(const struct op *op)
{
	if (op->id == OP_OPEN)
		return (op->flags & O_ACCMODE) != O_RDONLY ||
		       (op->flags & (O_CREAT | O_TRUNC));
	return op_table[op->id].flags & OPF_CHANGES;
}

bool op_links_out_ok(const struct op *op)
{
	if (op->id == OP_MKDIR)
		return !strchr(op->path, '/');
	if (op->id == OP_SYMLINK)
		return !strchr(op->path2, '/');
	return !op_changes(op);
}

const struct op_desc *op_lookup(const char *name, enum op_id *id)
{
	/* the first letter rules out most names: once per loadfile line */
	for (unsigned int i = 0; i < OP_NATIVE_NR; i++) {
		if (op_table[i].name && op_table[i].name[0] == name[0] &&
		    !strcmp(op_table[i].name, name)) {
			if (id)
				*id = (enum op_id)i;
			return &op_table[i];
		}
	}
	return NULL;
}

/*
 * glibc knows the names (strerrorname_np, 2.32+), so we do not keep a
 * table of our own. Errno values on Linux stay below 134.
 */
#define ERRNO_LIMIT 4096

/* Second names glibc's strerrorname_np() does not return. */
static const struct {
	const char *name;
	int err;
} errno_aliases[] = {
	{ "EWOULDBLOCK", EWOULDBLOCK },
	{ "EDEADLOCK", EDEADLOCK },
	{ "ENOTSUP", ENOTSUP },
};

int op_errno_parse(const char *name, int *err)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(errno_aliases); i++)
		if (!strcmp(errno_aliases[i].name, name)) {
			*err = errno_aliases[i].err;
			return 0;
		}
	for (int e = 1; e < ERRNO_LIMIT; e++) {
		const char *n = strerrorname_np(e);

		if (n && !strcmp(n, name)) {
			*err = e;
			return 0;
		}
	}
	return -EINVAL;
}

const char *op_errno_name(int err, char *buf, unsigned int len)
{
	const char *n = err > 0 ? strerrorname_np(err) : NULL;

	if (n)
		return n;
	snprintf(buf, len, "E%d", err);
	return buf;
}
