/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_COMPARE_JSONFIELD_H
#define VB_COMPARE_JSONFIELD_H

#include <stdbool.h>
#include <stdint.h>

typedef struct json_t json_t;

/*
 * The members of a result file's JSON, each of the type the reader
 * expects (resultsweep.c, resultfdscale.c, resultread.c). @file names
 * the file in messages; @where is the JSON path of @obj ("" for the
 * root, "runs[2]"...), to which ".@key" is added. Each prints the error
 * ("'x.json': runs[2].ops_per_sec: missing" or ": expected ...") and
 * fails when the member is missing or of another type.
 */

/*
 * Member @key of @obj if @ok accepts it, else NULL; @type says what was
 * expected ("an array").
 */
json_t *jsonfield_member(const char *file, json_t *obj, const char *where,
			 const char *key, int (*ok)(const json_t *),
			 const char *type);

/* Tests for jsonfield_member(): jansson's are macros. */
int jsonfield_is_object(const json_t *v);
int jsonfield_is_array(const json_t *v);
int jsonfield_is_bool(const json_t *v);
int jsonfield_is_count(const json_t *v); /* an integer >= 0 */

/* Member @key as an object, or NULL. */
json_t *jsonfield_object(const char *file, json_t *obj, const char *where,
			 const char *key);

/*
 * Member @key into *@dst: 0 or -EINVAL. A string is allocated (kept as
 * its bytes when it is not UTF-8, base/jsonstr.h); a u64 is a
 * non-negative integer; a figure a finite non-negative number.
 */
int jsonfield_str(const char *file, json_t *obj, const char *where,
		  const char *key, char **dst);
int jsonfield_u64(const char *file, json_t *obj, const char *where,
		  const char *key, uint64_t *dst);
int jsonfield_bool(const char *file, json_t *obj, const char *where,
		   const char *key, bool *dst);
int jsonfield_figure(const char *file, json_t *obj, const char *where,
		     const char *key, double *dst);

#endif /* VB_COMPARE_JSONFIELD_H */
