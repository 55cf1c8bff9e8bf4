/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A loadfile's strings: a bump allocator over large chunks, and a
 * direct-mapped cache of recent strings that lets a repeated one be
 * stored once.
 */
#include <config.h>
#include "lang/strtab.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

/* big chunks: a large loadfile's paths take few mallocs */
#define CHUNK_SIZE (64u << 10)

struct strtab_chunk {
	struct strtab_chunk *next;
	char data[];
};

void strtab_init(struct strtab *t)
{
	memset(t, 0, sizeof(*t));
}

/* A copy of @s (@n bytes) and a NUL; strings need no alignment. */
static char *store(struct strtab *t, const char *s, size_t n)
{
	char *p;

	if (n + 1 > t->left) {
		size_t size = n + 1 > CHUNK_SIZE ? n + 1 : CHUNK_SIZE;
		struct strtab_chunk *c = xmalloc(sizeof(*c) + size);

		c->next = t->chunks;
		t->chunks = c;
		t->free = c->data;
		t->left = size;
	}
	p = t->free;
	memcpy(p, s, n);
	p[n] = '\0';
	t->free += n + 1;
	t->left -= n + 1;
	return p;
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
		*slot = store(t, s, n);
	return *slot;
}

const char *strtab_store(struct strtab *t, const char *s, size_t n)
{
	return store(t, s, n);
}

void strtab_release(struct strtab *t)
{
	while (t->chunks) {
		struct strtab_chunk *c = t->chunks;

		t->chunks = c->next;
		free(c);
	}
	memset(t, 0, sizeof(*t));
}
