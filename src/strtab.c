/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A loadfile's strings: an obstack, and a direct-mapped cache of recent
 * strings that lets a repeated one be stored once.
 */
#include <config.h>
#include "strtab.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define obstack_chunk_alloc xmalloc
#define obstack_chunk_free  free
/* big chunks: a large loadfile's paths take few mallocs */
#define POOL_CHUNK (64u << 10)

void strtab_init(struct strtab *t)
{
	memset(t, 0, sizeof(*t));
	obstack_begin(&t->pool, POOL_CHUNK);
	/* strings need no alignment */
	obstack_alignment_mask(&t->pool) = 0;
}

/* FNV-1a, folded so that the index's low bits see every byte. */
static size_t hash(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ull;
	}
	return (size_t)(h ^ (h >> 29) ^ (h >> 47));
}

const char *strtab_intern(struct strtab *t, const char *s, size_t n)
{
	const char **slot = &t->recent[hash(s, n) & (STRTAB_RECENT - 1)];

	if (!*slot || strncmp(*slot, s, n) || (*slot)[n] != '\0')
		*slot = obstack_copy0(&t->pool, s, n);
	return *slot;
}

void strtab_release(struct strtab *t)
{
	obstack_free(&t->pool, NULL);
}
