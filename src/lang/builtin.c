/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Finding a built-in loadfile by name.
 */
#include <config.h>
#include "lang/builtin.h"

#include <string.h>

const struct builtin_loadfile *builtin_find(const char *spec)
{
	size_t l = strlen(spec);

	for (const struct builtin_loadfile *b = builtin_loadfiles; b->name;
	     b++) {
		if (!strcmp(b->name, spec))
			return b;
		if (strlen(b->name) == l + 5 && !strncmp(b->name, spec, l) &&
		    !strcmp(b->name + l, ".load"))
			return b;
	}
	return NULL;
}
