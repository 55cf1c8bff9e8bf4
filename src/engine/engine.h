/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_ENGINE_ENGINE_H
#define VB_ENGINE_ENGINE_H

#include <stdbool.h>

#include "lang/ops.h"

struct client;
struct loadfile;

/*
 * struct engine: how ops are executed. An engine fills op[] for the op
 * kinds it supports; a NULL entry is rejected by engine_check() before
 * anything is created. An op function runs in the client's thread, inside
 * the timed region, and returns the bytes it transferred (>= 0) or -errno.
 * It must not allocate, lock or format strings.
 *
 * @path and @path2 are the op's paths, with ${client} already expanded.
 */
typedef long engine_op_fn(struct client *c, const struct op *op,
			  const char *path, const char *path2);

struct engine {
	const char *name;
	const char *summary; /* one line, for --help */
	bool opens_fds; /* false: no op holds a real fd (null engine) */
	engine_op_fn *op[OP_NR];
};

extern const struct engine engine_posix;
extern const struct engine engine_null;

/* The engine called @name, or NULL. */
const struct engine *engine_find(const char *name);

/*
 * Reject a loadfile that uses an op the engine lacks: prints
 * "FILE:LINE:1: op 'X' is not supported by engine 'Y'" and returns
 * -EINVAL, or 0.
 */
int engine_check(const struct engine *e, const struct loadfile *lf);

#endif /* VB_ENGINE_ENGINE_H */
