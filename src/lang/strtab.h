/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_LANG_STRTAB_H
#define VB_LANG_STRTAB_H

#include <stddef.h>

#define STRTAB_RECENT 4096 /* power of two */

/*
 * struct strtab: the strings of a compiled loadfile, packed end to end in
 * large chunks (no malloc header per string; glibc's obstack would do the
 * same, but its macros do arithmetic on a null pointer, which UBSan
 * rejects), with a repeated string stored once when it repeats soon.
 * A loadfile names the same path on nearby lines (a file is created,
 * written, stat'ed and renamed by name), so a small direct-mapped cache of
 * recent strings, indexed by hash, finds most repeats while staying in
 * the CPU's caches; a full hash table of every string finds a few more
 * but costs a cache miss or two per string (0.28 -> 0.42 s for a
 * 458,344-line loadfile, against 0.29 s for this).
 */
struct strtab_chunk;

struct strtab {
	struct strtab_chunk *chunks; /* the newest first */
	char *free; /* unused room of the newest chunk */
	size_t left;
	const char *recent[STRTAB_RECENT]; /* NULL: empty */
};

void strtab_init(struct strtab *t);
/* A stored copy of @s (@n bytes, no NUL among them): the same pointer for
 * a string still in the recent cache. */
const char *strtab_intern(struct strtab *t, const char *s, size_t n);
/* A stored copy of @n bytes of any value, NUL among them: never shared. */
const char *strtab_store(struct strtab *t, const char *s, size_t n);
void strtab_release(struct strtab *t);

#endif /* VB_LANG_STRTAB_H */
