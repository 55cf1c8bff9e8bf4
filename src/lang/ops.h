/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_LANG_OPS_H
#define VB_LANG_OPS_H

#include <stdbool.h>
#include <stdint.h>

/*
 * What a loadfile can say, independent of how it is executed: the op kinds,
 * their argument shapes, and one compiled loadfile line (struct op).
 * A new op is one enum entry, one op_table[] row, one function per engine
 * and its tests.
 */
enum op_id {
	OP_STAT,
	OP_LSTAT,
	OP_FSTAT,
	OP_ACCESS,
	OP_STATFS,
	OP_FSTATFS,
	OP_STATVFS,
	OP_FSTATVFS,
	OP_STATVFS_LEGACY,
	OP_OPEN,
	OP_CREATE,
	OP_CLOSE,
	OP_PREAD,
	OP_PWRITE,
	OP_FSYNC,
	OP_FDATASYNC,
	OP_FTRUNCATE,
	OP_UNLINK,
	OP_MKDIR,
	OP_RMDIR,
	OP_RENAME,
	OP_LINK,
	OP_SYMLINK,
	OP_READLINK,
	OP_READDIR,
	OP_UTIMENS,
	OP_PROBE, /* the RCU-walk probe: openat2(RESOLVE_CACHED) */
	/* will-it-scale's fd ops: read1/2, lseek1/2, dup1, lock1/2 */
	OP_READ,
	OP_LSEEK,
	OP_DUP,
	OP_LOCK,
	OP_UNLOCK,
	OP_GETDENTS, /* one getdents64 on a handle: a recorded directory read */
	OP_DATA, /* [setup]: the line's bytes written at offset 0 of a handle */
	/*
	 * dbench's ops, produced only by the dbench dialect translator
	 * (dbench.c): each is one loadfile line of dbench, timed as one op,
	 * issuing the system calls dbench's fileio backend issues for it.
	 */
	OP_DB_NTCREATEX,
	OP_DB_CLOSE,
	OP_DB_RENAME,
	OP_DB_UNLINK,
	OP_DB_DELTREE,
	OP_DB_RMDIR,
	OP_DB_MKDIR,
	OP_DB_QPATHINFO,
	OP_DB_QFILEINFO,
	OP_DB_QFSINFO,
	OP_DB_SFILEINFO,
	OP_DB_FIND,
	OP_DB_WRITEX,
	OP_DB_READX,
	OP_DB_LOCKX,
	OP_DB_UNLOCKX,
	OP_DB_FLUSH,
	OP_DB_SLEEP,
	/*
	 * Not a dbench line: -R's pacing after each ReadX and WriteX, timed
	 * apart so that the line's own latency stays the call's.
	 */
	OP_DB_PACE,
	OP_NR /* keep last */
};

#define OP_NATIVE_NR OP_DB_NTCREATEX /* ops a native loadfile can name */

/* Argument kinds, in the order they appear on a line. */
enum op_arg {
	ARG_NONE = 0,
	ARG_PATH, /* relative path, may hold ${client} */
	ARG_TARGET, /* symlink target: any string, stored verbatim */
	ARG_HANDLE, /* @N */
	ARG_FLAGS, /* open flags: rdonly,creat,... */
	ARG_MODE, /* octal permission bits (optional) */
	ARG_AMODE, /* access(2) mode: f or some of r, w, x (optional) */
	ARG_OFFSET, /* size with units */
	ARG_SIZE, /* size with units */
	ARG_WHENCE, /* lseek(2) whence: set, cur or end */
	ARG_HEX, /* bytes in hexadecimal, two digits each (data) */
};

#define OP_MAX_ARGS    4
#define OP_MAX_HANDLES 256 /* @1 .. @256; dbench's table has 200 */
#define OP_MAX_IO      (16u << 20) /* largest pread/pwrite size */
/* getdents: its largest buffer (the client's), and glibc's readdir's */
#define OP_MAX_GETDENTS	    (64u << 10)
#define OP_DEFAULT_GETDENTS (32u << 10)
/*
 * data: the bytes of one line, and of all the data lines of a loadfile;
 * bounds on what a recording of file contents may hold (doc/recording.md)
 */
#define OP_MAX_DATA	  (64u << 10)
#define OP_MAX_DATA_TOTAL (1u << 20)

enum op_desc_flags {
	OPF_OPENS = (1 << 0), /* fills its handle */
	OPF_CLOSES = (1 << 1), /* frees its handle */
	OPF_LAST_OPTIONAL = (1 << 2), /* last argument may be left out */
	OPF_DBENCH = (1 << 3), /* a dbench op: not in native loadfiles */
	OPF_OWN_FD = (1 << 4), /* opens and closes an fd of its own */
	OPF_SCRATCH = (1 << 5), /* uses the client's directory/path buffers */
	OPF_CHANGES = (1 << 6), /* creates, changes or removes something */
};

struct op_desc {
	const char *name; /* loadfile keyword, lower case; dbench's row name */
	enum op_arg args[OP_MAX_ARGS];
	enum op_desc_flags flags;
	const char *syscalls; /* what it issues, for docs and --list-ops */
	/*
	 * The same with --resolve dirfd, from the client's O_PATH directory
	 * fd, and with --resolve beneath (openat2(2) RESOLVE_BENEATH); NULL
	 * where the op has no such form (it is refused in that mode). An op
	 * that resolves no path (on a handle) issues the same in every mode.
	 */
	const char *syscalls_at;
	const char *syscalls_beneath;
};

/*
 * Does op @id resolve a path of the loadfile's (and so depend on --resolve
 * and --depth)? A symlink's target is stored, not resolved.
 */
bool op_resolves(enum op_id id);

extern const struct op_desc op_table[OP_NR];

/* The first ".." component of @path ("a/../b": "../b"), or NULL. */
const char *op_path_dotdot(const char *path);

/*
 * The ".." component at which @path leads out of the directory it is
 * resolved from, read lexically from left to right ("a/../../x": the
 * second ".."), or NULL if it stays inside: a depth that each name adds 1
 * to, "." and empty components 0 and ".." takes 1 from, never below 0.
 */
const char *op_path_leaves(const char *path);

/* Does @path have a component other than ".", "" and ".."? */
bool op_path_descends(const char *path);

/*
 * The depth at which @path ends, read lexically from the directory it is
 * resolved from (each name 1 down, ".." 1 up, "." and empty components
 * none), and in *@lowest the highest point it reaches on the way (0 or
 * less: -1 for "../x").
 */
int op_path_depth(const char *path, int *lowest);

/* op_path_depth() of @path's directory: every component but the last. */
int op_dir_depth(const char *path);

/*
 * Where symlink target @target, stored in a link at @link (relative,
 * without ".."), leads out of the client directory, read lexically from
 * the link's directory: the ".." component of @target that climbs above
 * it, or NULL when it stays inside. *@need: how many levels the target
 * climbs above the link's directory at most (0 without "..").
 */
const char *op_target_leaves(const char *link, const char *target,
			     unsigned int *need);

/* The descriptor called @name (exact, lower case), or NULL. */
const struct op_desc *op_lookup(const char *name, enum op_id *id);

/* Expectation on an op's result. */
#define EXPECT_OK   0
#define EXPECT_ANY  (-1)
#define EXPECT_FAIL (-2) /* any errno: dbench's rule for a non-OK status */

/* dbench ops: bits of struct op's xflags, fixed at load time. */
enum op_xflags {
	OPX_RESOLVE_SCAN = (1 << 0), /* on a stat miss, scan the parent */
	OPX_SYNC_DIRS = (1 << 1), /* -S: fdatasync the parent directory */
	OPX_FSYNC = (1 << 2), /* -F: fsync after every WriteX */
	OPX_NT_DIRECTORY = (1 << 3), /* NTCreateX of a directory */
	OPX_FSINFO_STATFS = (1 << 4), /* Qfsinfo issues statfs(2) */
	OPX_FSINFO_LEGACY = (1 << 5), /* Qfsinfo issues statvfs_legacy */
	OPX_WILDCARD = (1 << 6), /* Find's pattern has * ? < > or " */
	OPX_XATTR = (1 << 7), /* -x: the user.DosAttrib reads and writes */
	OPX_STAT_CHECK = (1 << 8), /* --stat-check: stat before mkdir, create */
	OPX_FAKE_IO = (1 << 9), /* --fake-io: ReadX/WriteX issue nothing */
	OPX_ONE_BYTE_FIX = (1 << 10), /* --one-byte-write-fix */
	OPX_PACED = (1 << 11), /* -R: a pace op follows; note the start */
	/* struct op's xflags holds 16 bits: a new one goes here and into
	 * the assertion after struct op */
};

/*
 * One compiled loadfile line. Paths are owned by the loadfile. An op is
 * immutable once compiled and shared read-only by every client. Fields
 * are ordered and sized so that an op fits one 64-byte cache line: the
 * hot loop reads one line per op, and a 458,344-line loadfile compiles
 * to 29 MB of ops instead of 37 MB.
 */
struct op {
	const char *path; /* relative to the client's directory */
	const char *path2; /* rename/link new path, symlink link path */
	union {
		uint64_t offset; /* pread/pwrite/lseek/lock */
		/* data: its bytes (size of them), owned by the loadfile; not
		 * in path, which every op's path handling reads as a string */
		const char *bytes;
	};
	uint64_t size; /* pread/pwrite/read/ftruncate/lock length */
	int expect; /* EXPECT_OK, EXPECT_ANY, EXPECT_FAIL or an errno */
	int flags; /* O_* for open, F_OK.. for access, SEEK_* for lseek */
	unsigned int xidx; /* index among expanding ops, if expand */
	unsigned int line; /* loadfile line, for messages */
	uint16_t mode; /* mkdir/open/create permission bits, <= 07777 */
	uint16_t handle; /* 0-based handle slot, for handle ops */
	uint8_t id; /* enum op_id */
	uint8_t slot; /* statistics slot: index among the ops used */
	uint16_t xflags; /* enum op_xflags, dbench ops */
	/* --clients-per-process: which of its thread's clients the op is
	 * for; ${client} expands to thread * clients per thread + sub */
	uint8_t sub;
	bool has_handle; /* runs on handle @(handle + 1) */
	bool opens; /* fills its handle (OPF_OPENS), set by loadfile_seal() */
	bool expand; /* path or path2 holds ${client} */
	/* pread/pwrite: the offset is offset + ${client} * stride, so each
	 * client has its own region of a shared file (FxMark's DRBM) */
	uint32_t stride;
};

_Static_assert(OP_NR <= UINT8_MAX, "op ids must fit struct op's id");
/* OPX_PACED: the highest op_xflags bit */
_Static_assert(OPX_PACED <= UINT16_MAX, "op_xflags must fit struct op");
_Static_assert(OP_MAX_HANDLES < UINT16_MAX, "handles must fit struct op");
_Static_assert(sizeof(struct op) <= 64, "struct op must fit a cache line");

/*
 * True when the op's result is checked against @expect. The common case
 * first: an op that did what its line expects (0 == EXPECT_OK).
 */
static inline bool op_expect_matches(const struct op *op, int err)
{
	return op->expect == err || op->expect == EXPECT_ANY ||
	       (op->expect == EXPECT_FAIL && err);
}

/*
 * Can @op create, change or remove anything? The ops with OPF_CHANGES,
 * and an open with write access, O_CREAT or O_TRUNC (O_TRUNC truncates
 * even with O_RDONLY on Linux).
 */
bool op_changes(const struct op *op);

/*
 * May @op be in a loadfile read with --links-out, where a path may lead
 * anywhere through a link: an op that changes nothing, or a mkdir or a
 * symlink of a name directly in the client directory (one component: the
 * client directory is a real directory of vfsbench's, and neither call
 * follows a link in its last component).
 */
bool op_links_out_ok(const struct op *op);

/*
 * Errno names: "ENOENT" <-> 2. Returns 0 and sets *err, or -EINVAL for a
 * name this libc does not know.
 */
int op_errno_parse(const char *name, int *err);
/* "ENOENT" for 2; "E123" style for numbers without a name. */
const char *op_errno_name(int err, char *buf, unsigned int len);

#endif /* VB_LANG_OPS_H */
