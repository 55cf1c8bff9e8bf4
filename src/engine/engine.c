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
};

const struct engine *engine_find(const char *name)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(engines); i++)
		if (!strcmp(engines[i]->name, name))
			return engines[i];
	return NULL;
}

int engine_check(const struct engine *e, const struct loadfile *lf)
{
	for (unsigned int i = 0; i < lf->nops; i++) {
		const struct op *op = &lf->ops[i];

		if (!e->op[op->id]) {
			error_at(lf->name, op->line, 1,
				 "op '%s' is not supported by engine '%s'",
				 op_table[op->id].name, e->name);
			return -EINVAL;
		}
	}
	return 0;
}
