/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The members of a result file read with their type checked: a member
 * that is missing or of another type is an error naming the file and the
 * member's JSON path ("'x.json': runs[2].ops_per_sec: expected a
 * non-negative number"). Shared by the readers of runs (resultsweep.c)
 * and of fdscale steps (resultfdscale.c), so that every message has the
 * one form.
 */
#include <config.h>
#include "compare/jsonfield.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdint.h>

#include "base/jsonstr.h"
#include "base/msg.h"

/*
 * A member of @obj, whose own JSON path is @where ("" for the root), of
 * the JSON type @type ("a string"...) that @ok accepts. Prints the error
 * and returns NULL when it is missing or of another type.
 */
json_t *jsonfield_member(const char *file, json_t *obj, const char *where,
			 const char *key, int (*ok)(const json_t *),
			 const char *type)
{
	json_t *v = json_object_get(obj, key);
	const char *dot = *where ? "." : "";

	if (!v)
		error("'%s': %s%s%s: missing", file, where, dot, key);
	else if (!ok(v))
		error("'%s': %s%s%s: expected %s", file, where, dot, key, type);
	else
		return v;
	return NULL;
}

/* jansson's type tests are macros: functions for jsonfield_member(). */
int jsonfield_is_object(const json_t *v)
{
	return json_is_object(v);
}

int jsonfield_is_array(const json_t *v)
{
	return json_is_array(v);
}

static int is_string(const json_t *v)
{
	return json_is_string(v);
}

int jsonfield_is_bool(const json_t *v)
{
	return json_is_boolean(v);
}

int jsonfield_is_count(const json_t *v)
{
	return json_is_integer(v) && json_integer_value(v) >= 0;
}

static int is_figure(const json_t *v)
{
	return json_is_number(v) && isfinite(json_number_value(v)) &&
	       json_number_value(v) >= 0;
}

int jsonfield_str(const char *file, json_t *obj, const char *where,
		  const char *key, char **dst)
{
	json_t *v =
		jsonfield_member(file, obj, where, key, is_string, "a string");

	if (!v)
		return -EINVAL;
	/* a name that is not UTF-8 comes back as its bytes */
	*dst = jsonstr_value(v);
	return 0;
}

int jsonfield_u64(const char *file, json_t *obj, const char *where,
		  const char *key, uint64_t *dst)
{
	json_t *v = jsonfield_member(file, obj, where, key, jsonfield_is_count,
				     "a non-negative integer");

	if (!v)
		return -EINVAL;
	*dst = (uint64_t)json_integer_value(v);
	return 0;
}

int jsonfield_bool(const char *file, json_t *obj, const char *where,
		   const char *key, bool *dst)
{
	json_t *v = jsonfield_member(file, obj, where, key, jsonfield_is_bool,
				     "true or false");

	if (!v)
		return -EINVAL;
	*dst = json_is_true(v);
	return 0;
}

int jsonfield_figure(const char *file, json_t *obj, const char *where,
		     const char *key, double *dst)
{
	json_t *v = jsonfield_member(file, obj, where, key, is_figure,
				     "a non-negative number");

	if (!v)
		return -EINVAL;
	*dst = json_number_value(v);
	return 0;
}

/* Member @key of @obj (at @where) as an object, or NULL (message printed). */
json_t *jsonfield_object(const char *file, json_t *obj, const char *where,
			 const char *key)
{
	return jsonfield_member(file, obj, where, key, jsonfield_is_object,
				"an object");
}
