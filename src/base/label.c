/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Column labels made unique by their position.
 */
#include <config.h>
#include "base/label.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

void label_number_repeats(char **label, unsigned int n)
{
	for (unsigned int j = 1; j < n; j++) {
		for (unsigned int i = 0; i < j; i++) {
			size_t len;
			char *l;

			if (strcmp(label[i], label[j]))
				continue;
			len = strlen(label[j]) + 16;
			l = xmalloc(len);
			snprintf(l, len, "%s#%u", label[j], j + 1);
			free(label[j]);
			label[j] = l;
			break;
		}
	}
}
