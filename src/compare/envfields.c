/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The environment of result files, flattened and compared field by
 * field: the kernel command line, sched features, governor, SMT and the
 * rest of what moves results (sys/env.c writes them).
 */
#include <config.h>
#include "compare/envfields.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/jsonstr.h"

/* A value shown in a line: long ones are cut. */
#define SHOW_VALUE 120

static void add(struct env_fields *f, const char *name, char *value, bool words)
{
	f->name = xrealloc(f->name, (f->n + 1) * sizeof(*f->name));
	f->value = xrealloc(f->value, (f->n + 1) * sizeof(*f->value));
	f->words = xrealloc(f->words, (f->n + 1) * sizeof(*f->words));
	f->name[f->n] = xstrdup(name);
	f->words[f->n] = words;
	f->value[f->n++] = value;
}

/*
 * Fields whose text is a list of words in which order does not matter
 * (the kernel command line, the scheduler's features): compared word by
 * word. Every other string is free text ("debugfs: permission denied",
 * a vulnerability's mitigation) and is compared as a whole value, since
 * its words mean nothing apart.
 */
static bool word_list(const char *name)
{
	return !strcmp(name, "cmdline") || !strcmp(name, "sched_features");
}

/* A scalar (or an array of scalars, words joined) as text. */
static char *text(json_t *v)
{
	char buf[64];

	if (json_is_string(v))
		return jsonstr_value(v);
	if (json_is_integer(v))
		snprintf(buf, sizeof(buf), "%lld",
			 (long long)json_integer_value(v));
	else if (json_is_real(v))
		snprintf(buf, sizeof(buf), "%g", json_real_value(v));
	else if (json_is_boolean(v))
		snprintf(buf, sizeof(buf), "%s",
			 json_is_true(v) ? "true" : "false");
	else
		snprintf(buf, sizeof(buf), "null");
	return xstrdup(buf);
}

/*
 * Fields measured again by every invocation, which differ between any
 * two files: the load average and the clock's calibration (its source
 * and why not the TSC stay, as settings do).
 */
static bool measured_anew(const char *name)
{
	static const char *const anew[] = {
		"loadavg",
		/* a boot's: compare counts boots by it (compare.h) */
		"boot_id",
		"clock.tsc_hz",
		"clock.calibration_ns",
		"clock.calibration_ticks",
		"clock.mult",
		"clock.shift",
		"clock.drift_ppm",
	};

	for (size_t i = 0; i < sizeof(anew) / sizeof(anew[0]); i++)
		if (!strcmp(name, anew[i]))
			return true;
	return false;
}

static void flatten(struct env_fields *f, const char *prefix, json_t *v)
{
	const char *key;
	json_t *m;
	size_t i;

	if (json_is_object(v)) {
		json_object_foreach(v, key, m)
		{
			size_t len = strlen(prefix) + strlen(key) + 2;
			char *name = xmalloc(len);

			snprintf(name, len, "%s%s%s", prefix,
				 *prefix ? "." : "", key);
			if (!measured_anew(name))
				flatten(f, name, m);
			free(name);
		}
		return;
	}
	if (json_is_array(v)) {
		char *joined = xstrdup("");

		json_array_foreach(v, i, m)
		{
			char *t = text(m);
			size_t len = strlen(joined) + strlen(t) + 2;
			char *next = xmalloc(len);

			snprintf(next, len, "%s%s%s", joined, i ? " " : "", t);
			free(joined);
			free(t);
			joined = next;
		}
		add(f, prefix, joined, true);
		return;
	}
	add(f, prefix, text(v), json_is_string(v) && word_list(prefix));
}

void env_fields_read(struct env_fields *f, json_t *env)
{
	memset(f, 0, sizeof(*f));
	if (json_is_object(env))
		flatten(f, "", env);
}

/* The index of field @name in @f, or -1. */
static int index_of(const struct env_fields *f, const char *name)
{
	for (unsigned int i = 0; i < f->n; i++)
		if (!strcmp(f->name[i], name))
			return (int)i;
	return -1;
}

/* Whether word @w (of @len bytes) is one of the words of @s. */
static bool has_word(const char *s, const char *w, size_t len)
{
	for (const char *p = s; *p;) {
		size_t l = strcspn(p, " ");

		if (l == len && !strncmp(p, w, len))
			return true;
		p += l + strspn(p + l, " ");
	}
	return false;
}

/* " -W" for each word of @from that @other lacks, appended to @out. */
static void words_only(const char *from, const char *other, char sign,
		       char *out, size_t len)
{
	for (const char *p = from; *p;) {
		size_t l = strcspn(p, " "), used = strlen(out);

		if (l && !has_word(other, p, l) && used < len)
			snprintf(out + used, len - used, " %c%.*s", sign,
				 (int)l, p);
		p += l + strspn(p + l, " ");
	}
}

static char *diff_line(const char *name, const char *a, const char *b,
		       bool words)
{
	char line[1024];

	if (words && a && b && strchr(a, ' ') && strchr(b, ' ')) {
		snprintf(line, sizeof(line), "%s:", name);
		words_only(a, b, '-', line, sizeof(line));
		words_only(b, a, '+', line, sizeof(line));
		/* the same words in another order */
		if (!strchr(line, ' '))
			snprintf(line, sizeof(line),
				 "%s: the same words in another order", name);
	} else {
		snprintf(line, sizeof(line), "%s: %.*s | %.*s", name,
			 SHOW_VALUE, a ? a : "(none)", SHOW_VALUE,
			 b ? b : "(none)");
	}
	return xstrdup(line);
}

unsigned int env_fields_diff(const struct env_fields *a,
			     const struct env_fields *b, char ***lines,
			     unsigned int *n)
{
	*lines = NULL;
	*n = 0;
	for (unsigned int pass = 0; pass < 2; pass++) {
		const struct env_fields *x = pass ? b : a, *y = pass ? a : b;

		for (unsigned int i = 0; i < x->n; i++) {
			int j = index_of(y, x->name[i]);
			const char *other = j < 0 ? NULL : y->value[j];
			/* words only where both sides hold a list of them */
			bool words = x->words[i] && j >= 0 && y->words[j];

			/* in both: listed once, from a's side */
			if ((other && (pass || !strcmp(other, x->value[i]))))
				continue;
			*lines = xrealloc(*lines, (*n + 1) * sizeof(**lines));
			(*lines)[(*n)++] =
				pass ? diff_line(x->name[i], NULL, x->value[i],
						 false) :
				       diff_line(x->name[i], x->value[i], other,
						 words);
		}
	}
	return *n;
}

void env_fields_release(struct env_fields *f)
{
	for (unsigned int i = 0; i < f->n; i++) {
		free(f->name[i]);
		free(f->value[i]);
	}
	free(f->name);
	free(f->value);
	free(f->words);
	memset(f, 0, sizeof(*f));
}
