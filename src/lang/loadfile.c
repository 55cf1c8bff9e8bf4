/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * struct loadfile: a compiled loadfile, and what it owns.
 */
#include <config.h>
#include "lang/loadfile.h"

#include <stdlib.h>
#include <string.h>

void loadfile_release(struct loadfile *lf)
{
	if (lf->name) /* set with the strings, by loadfile_parse() */
		strtab_release(&lf->strings);
	free(lf->ops);
	free(lf->stream_start);
	free(lf->name);
	memset(lf, 0, sizeof(*lf));
}
