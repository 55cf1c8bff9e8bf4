/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The engine registry: an explicit list, no constructors.
 */
#include <config.h>
#include "engine/engine.h"

#include <errno.h>
#include <string.h>

#include "base/compiler.h"
#include "base/msg.h"
#include "lang/loadfile.h"

static const struct engine *const engines[] = {
	&engine_posix,
	&engine_null,
	&engine_uring,
};

const struct engine *engine_find(const char *name)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(engines); i++)
		if (!strcmp(engines[i]->name, name))
			return engines[i];
	return NULL;
}

engine_op_fn *engine_op(const struct engine *e, enum resolve_mode mode,
			enum op_id id)
{
	if (e->modes_alike || mode == RESOLVE_CWD || mode == RESOLVE_ABS)
		return e->op[id];
	/* dbench's ops resolve from the cwd, as dbench does */
	if (op_table[id].flags & OPF_DBENCH)
		return NULL;
	if (!op_resolves(id))
		return e->op[id];
	return mode == RESOLVE_DIRFD ? e->op_at[id] : e->op_beneath[id];
}

int engine_check(const struct engine *e, const struct loadfile *lf,
		 enum resolve_mode mode)
{
	for (unsigned int i = 0; i < lf->nops; i++) {
		const struct op *op = &lf->ops[i];
		/* beneath: [setup] takes dirfd's form */
		enum resolve_mode m =
			mode == RESOLVE_MODE_BENEATH && i < lf->nsetup ?
				RESOLVE_DIRFD :
				mode;

		if (!e->op[op->id]) {
			error_at(lf->name, op->line, 1,
				 "op '%s' is not supported by engine '%s'",
				 op_table[op->id].name, e->name);
			return -EINVAL;
		}
		if (engine_op(e, m, op->id))
			continue;
		if (m == RESOLVE_MODE_BENEATH)
			error_at(
				lf->name, op->line, 1,
				"op '%s' has no openat2() form: --resolve beneath takes open, create, readdir, probe and the ops on handles",
				op_table[op->id].name);
		else
			error_at(
				lf->name, op->line, 1,
				"op '%s' has no form that resolves from a directory fd (--resolve dirfd)",
				op_table[op->id].name);
		return -EINVAL;
	}
	return 0;
}
