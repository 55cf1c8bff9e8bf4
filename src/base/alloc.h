/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_BASE_ALLOC_H
#define VB_BASE_ALLOC_H

#include <stddef.h>

/*
 * Allocation that dies on OOM ("fatal: out of memory ..."). For setup
 * only: the client hot loop allocates nothing.
 */
void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
char *xstrdup(const char *s);
/* The first @n bytes of @s (fewer if it ends first), NUL-terminated. */
char *xstrndup(const char *s, size_t n);
/* Allocation aligned to a cache line, zeroed; free() with free(). */
void *xcalloc_aligned(size_t nmemb, size_t size);

#endif /* VB_BASE_ALLOC_H */
