/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_ENGINE_ENGINE_H
#define VB_ENGINE_ENGINE_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lang/ops.h"

struct loadfile;
struct uring_ring;

/*
 * --resolve: where an op's lookup starts (vfsbench(1), "Path walks").
 * cwd and abs issue the plain calls (stat(2), open(2)...), on a path
 * relative to the client's cwd or absolute; dirfd the *at() calls from
 * the client's O_PATH directory fd; beneath openat2(2) RESOLVE_BENEATH
 * from it, for the ops that have that form.
 */
enum resolve_mode {
	RESOLVE_CWD,
	RESOLVE_DIRFD,
	RESOLVE_ABS,
	RESOLVE_MODE_BENEATH, /* RESOLVE_BENEATH is openat2's flag */
	RESOLVE_NR
};

/* The size of engine_ctx.dirbuf. */
#define ENGINE_DIRBUF (64u << 10)

/*
 * struct engine_ctx: what an op may use of the client that runs it: its
 * handles and buffers, allocated by the client (run/client.c) before its
 * thread starts and private to that thread.
 */
struct engine_ctx {
	int *fd; /* [nhandles]: open handles, -1 when closed or dead */
	char *buf; /* data for pread/pwrite */
	size_t buf_len;
	/* NULL unless an op of the loadfile uses them (OPF_SCRATCH): */
	char *dirbuf; /* [ENGINE_DIRBUF]: getdents64, mount table, readlink */
	char *pathbuf; /* [PATH_MAX]: paths split by the dbench ops */
	const int *fail; /* null engine: errno to return per op kind [OP_NR] */
	uint64_t pace_from; /* -R: when the last ReadX or WriteX started */
	/* where lookups start: AT_FDCWD, or the client's O_PATH directory
	 * fd with --resolve dirfd and beneath */
	int at;
	/* -e uring: the client's ring (uringring.h), made by ctx_init */
	struct uring_ring *ring;
	/*
	 * -e uring: where the ops that completed inline are counted, the
	 * op's statistics slot times @inl_stride on (the client's result);
	 * NULL in [setup], whose ops have no slot.
	 */
	uint64_t *inl;
	unsigned int inl_stride;
	/* ${client} of the thread's first client, for per-client offsets */
	unsigned int client;
};

/*
 * struct engine: how ops are executed. An engine fills op[] for the op
 * kinds it supports; a NULL entry is rejected by engine_check() before
 * anything is created. An op function runs in the client's thread, inside
 * the timed region, and returns the bytes it transferred (>= 0) or -errno.
 * It must not allocate, lock or format strings.
 *
 * @path and @path2 are the op's paths, with ${client} already expanded.
 */
typedef long engine_op_fn(struct engine_ctx *c, const struct op *op,
			  const char *path, const char *path2);

/*
 * The file offset op @op reads or writes at: its own region of the file
 * for each client when the loadfile gives a stride (${client}*SIZE).
 */
static inline off_t engine_offset(const struct engine_ctx *c,
				  const struct op *op)
{
	return (off_t)(op->offset +
		       (uint64_t)(c->client + op->sub) * op->stride);
}

/* An op's result from a call that returns -1 and sets errno: 0 or -errno. */
#define ENGINE_RET(x) ((x) < 0 ? -(long)errno : 0)

struct engine {
	const char *name;
	const char *summary; /* one line, for --help */
	bool opens_fds; /* false: no op holds a real fd (null engine) */
	/* --resolve cwd and abs: the plain calls */
	engine_op_fn *op[OP_NR];
	/*
	 * --resolve dirfd and beneath, for the ops that resolve a path (the
	 * others come from op[]); NULL: the op has no such form. An engine
	 * whose ops issue nothing sets modes_alike and leaves them empty.
	 */
	engine_op_fn *op_at[OP_NR];
	engine_op_fn *op_beneath[OP_NR];
	bool modes_alike;
	/*
	 * An engine that submits ops through a queue (-e uring): what each op
	 * issues there (NULL: op_table's calls), and the system calls it
	 * issues outside the queue for want of an opcode (NULL: none).
	 */
	const char *const *queued;
	const char *const *fallback;
	/*
	 * Can this kernel run @lf's ops on the engine, with @strict refusing
	 * an op that falls back to a system call, and @fixed (--uring-fixed)
	 * direct descriptors? Prints why not and returns -errno; 0. Called
	 * before anything is created; NULL: always.
	 */
	int (*usable)(const struct engine *e, const struct loadfile *lf,
		      bool strict, bool fixed);
	/*
	 * The client thread's own state (a ring), made before its [setup]
	 * for the ops of @lf, with --uring-fixed's @fixed and room for
	 * --uring-depth's @depth ops in flight, and released when its loop
	 * ends, in the thread: 0 or -errno.
	 */
	int (*ctx_init)(struct engine_ctx *c, const struct loadfile *lf,
			bool fixed, unsigned int depth);
	void (*ctx_release)(struct engine_ctx *c);
	/*
	 * --uring-depth above 1: run @fn(@arg[k]) for each of the depth
	 * lanes ctx_init() made, each with its op in flight, on @c's queue,
	 * until all have returned. A lane's engine_ctx shares @c's ring.
	 * NULL: the engine has no lanes.
	 */
	void (*lanes)(struct engine_ctx *c, void (*fn)(void *arg),
		      void *const *arg);
	/*
	 * Close handle @h outside the timed ops (a cut of a trace, an open
	 * that should have failed, the end): for a handle that is no fd of
	 * the process (--uring-fixed's direct descriptors). NULL: close(2).
	 */
	void (*drop)(struct engine_ctx *c, unsigned int h);
};

extern const struct engine engine_posix;
extern const struct engine engine_null;
extern const struct engine engine_uring;

/* The engine called @name, or NULL. */
const struct engine *engine_find(const char *name);

/* The function that runs op @id with --resolve @mode, or NULL. */
engine_op_fn *engine_op(const struct engine *e, enum resolve_mode mode,
			enum op_id id);

/*
 * Reject a loadfile that uses an op the engine lacks, or one that has no
 * form in --resolve @mode: prints "FILE:LINE:1: op 'X' is not supported
 * by engine 'Y'" (or says which mode) and returns -EINVAL, or 0. With
 * --resolve beneath, the [setup] section runs in dirfd's form (its ops
 * are untimed) and only the [run] section must have openat2's.
 */
int engine_check(const struct engine *e, const struct loadfile *lf,
		 enum resolve_mode mode);

#endif /* VB_ENGINE_ENGINE_H */
