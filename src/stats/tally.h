/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_STATS_TALLY_H
#define VB_STATS_TALLY_H

#include <stddef.h>
#include <stdint.h>

/*
 * struct tally: how many times each string was seen (a symbol, a call
 * chain, a folded stack), in a hash table of open addressing. Built
 * after a run from perf's output, never on a client's path.
 */
struct tally_entry {
	char *key;
	uint64_t n;
};

struct tally {
	struct tally_entry *e; /* [cap], key NULL: free */
	size_t cap, len;
};

/* Add @n to @key's count (the key is copied). */
void tally_add(struct tally *t, const char *key, uint64_t n);

/* @key's count, 0 when never added. */
uint64_t tally_get(const struct tally *t, const char *key);

/*
 * The entries, most counted first, ties by key (so the order is the
 * same on every machine): an array of len pointers into @t, to be freed.
 */
const struct tally_entry **tally_sorted(const struct tally *t);

void tally_release(struct tally *t);

#endif /* VB_STATS_TALLY_H */
