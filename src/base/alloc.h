/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_BASE_ALLOC_H
#define VB_BASE_ALLOC_H

#include <stddef.h>

/*
 * Allocation that dies on OOM ("fatal: out of memory ..."), for what is
 * small and bounded: the loadfile, the options, the report. die() first
 * runs the hook main() sets (msg.h), which removes the work directory.
 * What a run allocates per client (buffers, histograms, the client
 * arrays), which the memory check before the run has sized, uses
 * calloc_aligned() or plain malloc() and fails with -ENOMEM through the
 * run's own cleanup. The client hot loop allocates nothing.
 */
void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
char *xstrdup(const char *s);
/* The first @n bytes of @s (fewer if it ends first), NUL-terminated. */
char *xstrndup(const char *s, size_t n);
/* Allocation aligned to a cache line, zeroed; free() with free(). */
void *xcalloc_aligned(size_t nmemb, size_t size);
/* The same, NULL when out of memory (or on overflow). */
void *calloc_aligned(size_t nmemb, size_t size);

#endif /* VB_BASE_ALLOC_H */
