/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A string tally: FNV-1a hashing, linear probing, doubled at half full.
 */
#include <config.h>
#include "stats/tally.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

static size_t hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ull;
	}
	return (size_t)h;
}

static struct tally_entry *slot(struct tally_entry *e, size_t cap,
				const char *key)
{
	size_t i = hash(key) & (cap - 1);

	while (e[i].key && strcmp(e[i].key, key))
		i = (i + 1) & (cap - 1);
	return &e[i];
}

static void grow(struct tally *t)
{
	size_t cap = t->cap ? t->cap * 2 : 64;
	struct tally_entry *e = xcalloc(cap, sizeof(*e));

	for (size_t i = 0; i < t->cap; i++)
		if (t->e[i].key)
			*slot(e, cap, t->e[i].key) = t->e[i];
	free(t->e);
	t->e = e;
	t->cap = cap;
}

void tally_add(struct tally *t, const char *key, uint64_t n)
{
	struct tally_entry *s;

	if (2 * (t->len + 1) > t->cap)
		grow(t);
	s = slot(t->e, t->cap, key);
	if (!s->key) {
		s->key = xstrdup(key);
		t->len++;
	}
	s->n += n;
}

uint64_t tally_get(const struct tally *t, const char *key)
{
	if (!t->cap)
		return 0;
	return slot(t->e, t->cap, key)->n;
}

static int by_count(const void *a, const void *b)
{
	const struct tally_entry *x = *(const struct tally_entry *const *)a;
	const struct tally_entry *y = *(const struct tally_entry *const *)b;

	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return strcmp(x->key, y->key);
}

const struct tally_entry **tally_sorted(const struct tally *t)
{
	const struct tally_entry **v = xcalloc(t->len + 1, sizeof(*v));
	size_t n = 0;

	for (size_t i = 0; i < t->cap; i++)
		if (t->e[i].key)
			v[n++] = &t->e[i];
	qsort(v, n, sizeof(*v), by_count);
	return v;
}

void tally_release(struct tally *t)
{
	for (size_t i = 0; i < t->cap; i++)
		free(t->e[i].key);
	free(t->e);
	memset(t, 0, sizeof(*t));
}
