/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_LANG_PIDMAP_H
#define VB_LANG_PIDMAP_H

#include <stdbool.h>
#include <stddef.h>

/*
 * struct pidmap: a task's pid to its index in a table, for the strace
 * reader's and the recorder's tables of tasks. A linear search made
 * reading a log of 400,000 tasks quadratic (163 s here); this is a hash
 * table with open addressing, kept at most half full, so a lookup costs
 * a probe or two whatever the number of tasks.
 */
struct pidmap {
	long *pids; /* -1: a free slot */
	unsigned int *idx;
	size_t cap; /* a power of two, or 0 */
	size_t n;
};

void pidmap_init(struct pidmap *m);
void pidmap_release(struct pidmap *m);
/* The index of @pid (0 or more) in *@idx: true, or false when not there. */
bool pidmap_get(const struct pidmap *m, long pid, unsigned int *idx);
/* @pid (0 or more, not there yet) has index @idx from now on. */
void pidmap_put(struct pidmap *m, long pid, unsigned int idx);

#endif /* VB_LANG_PIDMAP_H */
