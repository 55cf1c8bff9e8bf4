/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Two files' top locks per client count, as perf lock contention gave
 * them, side by side (compare/lockdiff.h).
 */
#include <config.h>
#include "compare/lockdiff.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "compare/resultfile.h"

/* The profile of @clients in @profiles, NULL when none. */
static json_t *at(json_t *profiles, unsigned int clients)
{
	size_t i;
	json_t *p;

	for (i = 0; (p = json_array_get(profiles, i)); i++)
		if (json_integer_value(json_object_get(p, "clients")) ==
		    (json_int_t)clients)
			return p;
	return NULL;
}

static const char *str(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key)) ?: "?";
}

/* @caller of @type in the locks @list, NULL when not there. */
static json_t *find(json_t *list, const char *caller, const char *type)
{
	size_t i;
	json_t *e;

	for (i = 0; (e = json_array_get(list, i)); i++)
		if (!strcmp(str(e, "caller"), caller) &&
		    !strcmp(str(e, "type"), type))
			return e;
	return NULL;
}

static void add(struct lockdiff *ld, unsigned int clients, json_t *e,
		json_t *la, json_t *lb)
{
	const char *caller = str(e, "caller"), *type = str(e, "type");
	json_t *ea = find(la, caller, type), *eb = find(lb, caller, type);
	struct lockdiff_row *r;

	for (unsigned int i = 0; i < ld->nrows; i++)
		if (ld->rows[i].clients == clients &&
		    !strcmp(ld->rows[i].caller, caller) &&
		    !strcmp(ld->rows[i].type, type))
			return;
	ld->rows = xrealloc(ld->rows, (ld->nrows + 1) * sizeof(*ld->rows));
	r = &ld->rows[ld->nrows++];
	memset(r, 0, sizeof(*r));
	r->clients = clients;
	r->caller = xstrdup(caller);
	r->type = xstrdup(type);
	r->known_a = ea;
	r->known_b = eb;
	if (ea) {
		r->contended_a = (uint64_t)json_integer_value(
			json_object_get(ea, "contended"));
		r->wait_a =
			json_number_value(json_object_get(ea, "wait_total_ns"));
	}
	if (eb) {
		r->contended_b = (uint64_t)json_integer_value(
			json_object_get(eb, "contended"));
		r->wait_b =
			json_number_value(json_object_get(eb, "wait_total_ns"));
	}
}

int lockdiff_build(struct lockdiff *ld, const struct resultfile *a,
		   const struct resultfile *b)
{
	json_t *p;
	size_t i;

	memset(ld, 0, sizeof(*ld));
	ld->label_a = a->label;
	ld->label_b = b->label;
	if (!a->profiles || !b->profiles)
		return 0;
	for (i = 0; (p = json_array_get(a->profiles, i)); i++) {
		unsigned int c = (unsigned int)json_integer_value(
			json_object_get(p, "clients"));
		json_t *q = at(b->profiles, c);
		json_t *la = json_object_get(p, "locks");
		json_t *lb = q ? json_object_get(q, "locks") : NULL;
		const char *wa =
			json_string_value(json_object_get(p, "locks_absent"));
		const char *wb = q ? json_string_value(json_object_get(
					     q, "locks_absent")) :
				     NULL;
		json_t *e;

		/* not both profiled, or neither recorded locks at all */
		if (!q ||
		    (!json_is_array(la) && !wa && !json_is_array(lb) && !wb))
			continue;
		if (!json_is_array(la) || !json_is_array(lb)) {
			ld->notes =
				xrealloc(ld->notes,
					 (ld->nnotes + 1) * sizeof(*ld->notes));
			ld->notes[ld->nnotes++] = (struct lockdiff_note){
				.clients = c,
				.absent_a = json_is_array(la) ?
						    NULL :
						    (wa ?: "not recorded"),
				.absent_b = json_is_array(lb) ?
						    NULL :
						    (wb ?: "not recorded"),
			};
		}
		for (int s = 0; s < 2; s++) {
			json_t *list = s ? lb : la;

			for (size_t k = 0;
			     k < LOCKDIFF_TOP && (e = json_array_get(list, k));
			     k++)
				add(ld, c, e, la, lb);
		}
	}
	return 0;
}

void lockdiff_release(struct lockdiff *ld)
{
	for (unsigned int i = 0; i < ld->nrows; i++) {
		free(ld->rows[i].caller);
		free(ld->rows[i].type);
	}
	free(ld->rows);
	free(ld->notes);
	memset(ld, 0, sizeof(*ld));
}
