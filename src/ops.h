/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_OPS_H
#define VB_OPS_H

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
	OP_NR /* keep last */
};

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
};

#define OP_MAX_ARGS    4
#define OP_MAX_HANDLES 64 /* @1 .. @64 */
#define OP_MAX_IO      (16u << 20) /* largest pread/pwrite size */

enum op_desc_flags {
	OPF_OPENS = (1 << 0), /* fills its handle */
	OPF_CLOSES = (1 << 1), /* frees its handle */
	OPF_LAST_OPTIONAL = (1 << 2), /* last argument may be left out */
};

struct op_desc {
	const char *name; /* loadfile keyword, lower case */
	enum op_arg args[OP_MAX_ARGS];
	enum op_desc_flags flags;
	const char *syscalls; /* what it issues, for docs and --list-ops */
};

extern const struct op_desc op_table[OP_NR];

/* The descriptor called @name (exact, lower case), or NULL. */
const struct op_desc *op_lookup(const char *name, enum op_id *id);

/* Expectation on an op's result. */
#define EXPECT_OK  0
#define EXPECT_ANY (-1)

/*
 * One compiled loadfile line. Paths are owned by the loadfile. An op is
 * immutable once compiled and shared read-only by every client.
 */
struct op {
	enum op_id id;
	int expect; /* EXPECT_OK, EXPECT_ANY or a positive errno */
	unsigned int slot; /* statistics slot: index among the ops used */
	unsigned int handle; /* 0-based handle slot, for handle ops */
	int flags; /* O_* for open, F_OK.. for access */
	unsigned int mode; /* mkdir/open/create permission bits */
	uint64_t offset; /* pread/pwrite */
	uint64_t size; /* pread/pwrite/ftruncate */
	const char *path; /* relative to the client's directory */
	const char *path2; /* rename/link new path, symlink link path */
	bool has_handle; /* runs on handle @(handle + 1) */
	bool expand; /* path or path2 holds ${client} */
	unsigned int xidx; /* index among expanding ops, if expand */
	unsigned int line; /* loadfile line, for messages */
};

/* True when the op's result is checked against @expect. */
static inline bool op_expect_matches(const struct op *op, int err)
{
	return op->expect == EXPECT_ANY || op->expect == err;
}

/*
 * Errno names: "ENOENT" <-> 2. Returns 0 and sets *err, or -EINVAL for a
 * name this libc does not know.
 */
int op_errno_parse(const char *name, int *err);
/* "ENOENT" for 2; "E123" style for numbers without a name. */
const char *op_errno_name(int err, char *buf, unsigned int len);

#endif /* VB_OPS_H */
