// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The pid map (lang/pidmap.h): linear probing in a table of a power of
 * two, doubled when it would be more than half full. Nothing is removed:
 * a log's tasks are kept to its end.
 */
#include <config.h>
#include "lang/pidmap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

void pidmap_init(struct pidmap *m)
{
	memset(m, 0, sizeof(*m));
}

void pidmap_release(struct pidmap *m)
{
	free(m->pids);
	free(m->idx);
	memset(m, 0, sizeof(*m));
}

/* Fibonacci hashing: consecutive pids, the usual case, spread out. */
static size_t slot(const struct pidmap *m, long pid)
{
	return (size_t)(((uint64_t)pid * 0x9e3779b97f4a7c15ull) >> 32) &
	       (m->cap - 1);
}

bool pidmap_get(const struct pidmap *m, long pid, unsigned int *idx)
{
	if (!m->cap)
		return false;
	for (size_t i = slot(m, pid);; i = (i + 1) & (m->cap - 1)) {
		if (m->pids[i] == pid) {
			*idx = m->idx[i];
			return true;
		}
		if (m->pids[i] < 0)
			return false;
	}
}

static void insert(struct pidmap *m, long pid, unsigned int idx)
{
	size_t i = slot(m, pid);

	while (m->pids[i] >= 0)
		i = (i + 1) & (m->cap - 1);
	m->pids[i] = pid;
	m->idx[i] = idx;
}

void pidmap_put(struct pidmap *m, long pid, unsigned int idx)
{
	if (2 * (m->n + 1) > m->cap) {
		struct pidmap old = *m;

		m->cap = old.cap ? 2 * old.cap : 64;
		m->pids = xmalloc(m->cap * sizeof(*m->pids));
		m->idx = xmalloc(m->cap * sizeof(*m->idx));
		memset(m->pids, 0xff, m->cap * sizeof(*m->pids));
		for (size_t i = 0; i < old.cap; i++)
			if (old.pids[i] >= 0)
				insert(m, old.pids[i], old.idx[i]);
		free(old.pids);
		free(old.idx);
	}
	insert(m, pid, idx);
	m->n++;
}
