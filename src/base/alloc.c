/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Allocation that dies on OOM, for setup code: the client hot loop
 * allocates nothing.
 */
#include <config.h>
#include "base/alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/compiler.h"
#include "base/msg.h"

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		die("out of memory allocating %zu bytes", size);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		die("out of memory allocating %zu x %zu bytes", nmemb, size);
	return p;
}

void *xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);

	if (!p)
		die("out of memory allocating %zu bytes", size);
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		die("out of memory duplicating a string");
	return p;
}

char *xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (!p)
		die("out of memory duplicating a string");
	return p;
}

void *calloc_aligned(size_t nmemb, size_t size)
{
	void *p;
	size_t bytes;

	if (size && nmemb > (SIZE_MAX - CACHELINE) / size)
		return NULL;
	bytes = nmemb * size;
	bytes = (bytes + CACHELINE - 1) & ~(size_t)(CACHELINE - 1);
	if (posix_memalign(&p, CACHELINE, bytes ? bytes : CACHELINE))
		return NULL;
	memset(p, 0, bytes ? bytes : CACHELINE);
	return p;
}

void *xcalloc_aligned(size_t nmemb, size_t size)
{
	void *p = calloc_aligned(nmemb, size);

	if (!p)
		die("out of memory allocating %zu x %zu bytes", nmemb, size);
	return p;
}
