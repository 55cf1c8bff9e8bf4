/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_COMPARE_ENVFIELDS_H
#define VB_COMPARE_ENVFIELDS_H

#include <stdbool.h>

typedef struct json_t json_t;

/*
 * struct env_fields: a result file's "environment" object flattened to
 * NAME VALUE pairs, names the JSON path ("kernel.release",
 * "cpu_vulnerabilities.mds", "smt.control"), values as text (arrays
 * joined by ' ', null as "null"), in the file's order. loadavg is left
 * out: it differs between any two runs. What compare lists when two
 * files were measured in different environments.
 */
struct env_fields {
	char **name, **value; /* [n], owned */
	bool *words; /* [n]: a list of words (an array, the command line) */
	unsigned int n;
};

/* Flatten @env (an object; anything else gives no fields). */
void env_fields_read(struct env_fields *f, json_t *env);

/*
 * The fields in which @b differs from @a, one line each ("NAME: A | B";
 * for two lists of words (arrays, the kernel command line, the sched
 * features), the words only in one side, "-W" and "+W"; free text is
 * shown whole;
 * "(none)" for a field one side lacks), into *@lines (allocated, of
 * *@n). Returns *@n.
 */
unsigned int env_fields_diff(const struct env_fields *a,
			     const struct env_fields *b, char ***lines,
			     unsigned int *n);

void env_fields_release(struct env_fields *f);

#endif /* VB_COMPARE_ENVFIELDS_H */
