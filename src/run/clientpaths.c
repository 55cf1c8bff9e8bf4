/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The paths a client resolves, built once before its thread starts
 * (clientpaths.h says which and why).
 */
#include <config.h>
#include "run/clientpaths.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang/loadfile.h"

/* The length of @tmpl with ${client} replaced by the digits of @id. */
static size_t expanded_len(const char *tmpl, unsigned int id)
{
	char num[16];
	size_t n = 0, d = (size_t)snprintf(num, sizeof(num), "%u", id);

	for (const char *s = tmpl; *s; s++, n++)
		if (!strncmp(s, "${client}", 9)) {
			n += d - 1;
			s += 8;
		}
	return n;
}

/* @tmpl with ${client} replaced by @id, after @prefix, into @out. */
static char *expand_into(char *out, const char *prefix, const char *tmpl,
			 unsigned int id)
{
	char num[16];

	snprintf(num, sizeof(num), "%u", id);
	out = stpcpy(out, prefix);
	for (const char *s = tmpl; *s; s++) {
		if (!strncmp(s, "${client}", 9)) {
			out = stpcpy(out, num);
			s += 8;
		} else {
			*out++ = *s;
		}
	}
	*out++ = '\0';
	return out;
}

/* Does the op's path (@which 0) or path2 (1) get the prefix? */
static bool resolved(const struct op *op, int which)
{
	const char *s = which ? op->path2 : op->path;

	/*
	 * symlink's first argument is the target, stored, not resolved; an
	 * absolute path (--read-outside) names one file for every client
	 */
	return s && s[0] != '/' && !(which == 0 && op->id == OP_SYMLINK);
}

static int cmp_ptr(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t) * (const char *const *)a;
	uintptr_t y = (uintptr_t) * (const char *const *)b;

	return x < y ? -1 : x > y;
}

/*
 * The distinct paths without ${client} that get the prefix, sorted by
 * address (the loadfile stores a repeated path once, mostly): *@n of
 * them, or NULL when out of memory.
 */
static const char **shared_paths(const struct loadfile *lf, size_t *n)
{
	const char **v = malloc((2 * (size_t)lf->nops + 1) * sizeof(*v));
	size_t k = 0, u = 0;

	if (!v)
		return NULL;
	for (unsigned int i = 0; i < lf->nops; i++) {
		const struct op *op = &lf->ops[i];

		if (op->expand)
			continue;
		if (resolved(op, 0))
			v[k++] = op->path;
		if (resolved(op, 1))
			v[k++] = op->path2;
	}
	qsort(v, k, sizeof(*v), cmp_ptr);
	for (size_t i = 0; i < k; i++)
		if (!u || v[u - 1] != v[i])
			v[u++] = v[i];
	*n = u;
	return v;
}

/* The bytes of the prefixed strings, for @base's client. */
static size_t arena_bytes(const struct loadfile *lf, const char **uniq,
			  size_t nuniq, size_t plen, unsigned int top)
{
	size_t b = 0;

	for (size_t i = 0; i < nuniq; i++)
		b += plen + strlen(uniq[i]) + 1;
	for (unsigned int i = 0; i < lf->nops; i++) {
		const struct op *op = &lf->ops[i];

		if (!op->expand)
			continue;
		for (int w = 0; w < 2; w++) {
			const char *s = w ? op->path2 : op->path;

			if (s)
				b += (resolved(op, w) ? plen : 0) +
				     expanded_len(s, top) + 1;
		}
	}
	return b;
}

size_t clientpaths_bytes(const struct loadfile *lf, size_t plen)
{
	size_t n = 0, b;
	const char **u;

	if (!plen) {
		/* the expanded copies, at most as long as their templates
		 * with a ten-digit number */
		b = (2 * (size_t)lf->nexpand + 1) * 2 * sizeof(char *);
		for (unsigned int i = 0; i < lf->nops; i++)
			if (lf->ops[i].expand)
				b += (lf->ops[i].path ?
					      expanded_len(lf->ops[i].path,
							   UINT32_MAX) +
						      1 :
					      0) +
				     (lf->ops[i].path2 ?
					      expanded_len(lf->ops[i].path2,
							   UINT32_MAX) +
						      1 :
					      0);
		return b;
	}
	u = shared_paths(lf, &n);
	if (!u)
		return SIZE_MAX; /* not even the count fits */
	b = (2 * (size_t)lf->nops + 1) * sizeof(char *) +
	    arena_bytes(lf, u, n, plen, UINT32_MAX);
	free(u);
	return b;
}

/* Without a prefix: the ${client} ops' copies, by xidx. */
static int init_expanded(struct clientpaths *p, const struct loadfile *lf,
			 unsigned int base)
{
	p->n = lf->nexpand;
	p->x = calloc(2 * (size_t)p->n + 1, sizeof(*p->x));
	p->own = calloc(2 * (size_t)p->n + 1, sizeof(*p->own));
	if (!p->x || !p->own)
		return -ENOMEM;
	for (unsigned int i = 0; i < lf->nops; i++) {
		const struct op *op = &lf->ops[i];
		unsigned int id = base + op->sub;

		if (!op->expand)
			continue;
		for (int w = 0; w < 2; w++) {
			const char *s = w ? op->path2 : op->path;
			size_t k = 2 * (size_t)op->xidx + (size_t)w;

			if (!s)
				continue;
			p->own[k] = malloc(expanded_len(s, id) + 1);
			if (!p->own[k])
				return -ENOMEM;
			expand_into(p->own[k], "", s, id);
			p->x[k] = p->own[k];
		}
	}
	return 0;
}

int clientpaths_init(struct clientpaths *p, const struct loadfile *lf,
		     unsigned int base, const char *prefix)
{
	size_t plen = strlen(prefix), nuniq = 0, *off = NULL;
	const char **uniq;
	char *w;
	int ret = -ENOMEM;

	memset(p, 0, sizeof(*p));
	if (!plen)
		return init_expanded(p, lf, base);
	p->prefixed = true;
	p->n = lf->nops;
	p->x = calloc(2 * (size_t)p->n + 1, sizeof(*p->x));
	uniq = shared_paths(lf, &nuniq);
	if (!p->x || !uniq)
		goto out;
	off = malloc((nuniq + 1) * sizeof(*off));
	p->arena = malloc(arena_bytes(lf, uniq, nuniq, plen, UINT32_MAX) + 1);
	if (!off || !p->arena)
		goto out;
	w = p->arena;
	for (size_t i = 0; i < nuniq; i++) {
		off[i] = (size_t)(w - p->arena);
		w = stpcpy(stpcpy(w, prefix), uniq[i]) + 1;
	}
	for (unsigned int i = 0; i < lf->nops; i++) {
		const struct op *op = &lf->ops[i];

		for (int wh = 0; wh < 2; wh++) {
			const char *s = wh ? op->path2 : op->path;
			const char **x = &p->x[2 * (size_t)i + (size_t)wh];
			const char **hit;

			if (!s)
				continue;
			if (op->expand) {
				*x = w;
				w = expand_into(w,
						resolved(op, wh) ? prefix : "",
						s, base + op->sub);
			} else if (!resolved(op, wh)) {
				*x = s;
			} else {
				hit = bsearch(&s, uniq, nuniq, sizeof(*uniq),
					      cmp_ptr);
				*x = p->arena + off[hit - uniq];
			}
		}
	}
	ret = 0;
out:
	free(uniq);
	free(off);
	return ret;
}

void clientpaths_release(struct clientpaths *p)
{
	for (unsigned int i = 0; p->own && i < 2 * p->n; i++)
		free(p->own[i]);
	free(p->own);
	free(p->x);
	free(p->arena);
	memset(p, 0, sizeof(*p));
}
