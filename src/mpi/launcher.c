/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include "mpi/launcher.h"

#include <errno.h>
#include <stdlib.h>

#include "base/compiler.h"

/* The size's variables first: they say how many; a rank's only that. */
static const char *const size_vars[] = { "OMPI_COMM_WORLD_SIZE", "PMI_SIZE" };
static const char *const rank_vars[] = { "PMIX_RANK", "PMI_RANK" };

bool launcher_find(struct launcher *l)
{
	*l = (struct launcher){ 0 };
	for (unsigned int i = 0; i < ARRAY_SIZE(size_vars); i++) {
		const char *v = getenv(size_vars[i]);
		unsigned long n;
		char *end;

		if (!v)
			continue;
		errno = 0;
		n = strtoul(v, &end, 10);
		*l = (struct launcher){ .var = size_vars[i], .value = v };
		if (!errno && end != v && !*end && *v != '-')
			l->size = n;
		return true;
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(rank_vars); i++) {
		const char *v = getenv(rank_vars[i]);

		if (!v)
			continue;
		*l = (struct launcher){ .var = rank_vars[i], .value = v };
		return true;
	}
	return false;
}
