/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading a suite's index: which loadfiles vfsbench suite NAME runs, in
 * which cwd mode, and what a pass of each counts in the peer's works.
 */
#include <config.h>
#include "lang/suite.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/escape.h"
#include "base/msg.h"
#include "base/units.h"
#include "lang/builtin.h"

#define SUITE_MAX_BYTES	    (1u << 20) /* an index is a few lines */
#define SUITE_MAX_WORKLOADS 64 /* sweep variants (cli/variants.h) */

/* A loadfile named by the index of directory @dir: a file beside it. */
static char *workload_path(const char *dir, const char *file)
{
	char path[PATH_MAX];

	if (!dir || file[0] == '/')
		return xstrdup(file);
	if (snprintf(path, sizeof(path), "%s/%s", dir, file) <
		    (int)sizeof(path) &&
	    !access(path, F_OK))
		return xstrdup(path);
	return xstrdup(file);
}

/* One workload line, split in @tok (@col: their columns). */
static int parse_workload(struct suite *s, const char *source,
			  unsigned int line, char **tok,
			  const unsigned int *col, unsigned int ntok,
			  const char *dir)
{
	struct suite_workload *w;
	uint64_t works;
	char *shown;
	int ret;

	if (ntok < 4)
		return error_at(
			source, line, col[ntok - 1],
			"expected NAME LOADFILE CWD WORKS [DESCRIPTION]");
	if (strcmp(tok[2], "private") && strcmp(tok[2], "shared")) {
		shown = escape_shown(tok[2]);
		ret = error_at(source, line, col[2],
			       "bad cwd '%s' (expected private or shared)",
			       shown);
		free(shown);
		return ret;
	}
	if (units_parse_uint(tok[3], UINT_MAX, &works) || !works) {
		shown = escape_shown(tok[3]);
		ret = error_at(source, line, col[3],
			       "bad works '%s' (expected a count of 1 or more)",
			       shown);
		free(shown);
		return ret;
	}
	for (unsigned int i = 0; i < s->n; i++) {
		if (strcmp(s->w[i].name, tok[0]))
			continue;
		/* any byte of the index's: shown as \xNN where not text */
		shown = escape_shown(tok[0]);
		ret = error_at(source, line, col[0],
			       "workload '%s' given twice", shown);
		free(shown);
		return ret;
	}
	if (s->n == SUITE_MAX_WORKLOADS)
		return error_at(source, line, col[0], "more than %d workloads",
				SUITE_MAX_WORKLOADS);
	s->w = xrealloc(s->w, (s->n + 1) * sizeof(*s->w));
	w = &s->w[s->n++];
	w->name = xstrdup(tok[0]);
	w->loadfile = workload_path(dir, tok[1]);
	w->cwd =
		strcmp(tok[2], "shared") ? SUITE_CWD_PRIVATE : SUITE_CWD_SHARED;
	w->works = (unsigned int)works;
	w->description = xstrdup(ntok > 4 ? tok[4] : "");
	return 0;
}

int suite_parse(struct suite *s, const char *name, const char *source,
		const char *text, size_t len, const char *dir)
{
	char *copy = xstrndup(text, len), *l, *next;
	unsigned int line = 0;
	int ret = 0;

	memset(s, 0, sizeof(*s));
	s->name = xstrdup(name);
	s->source = xstrdup(source);
	for (l = copy; l && !ret; l = next) {
		char *tok[5], *c = l;
		unsigned int col[5], n = 0;

		next = strchr(l, '\n');
		if (next)
			*next++ = '\0';
		line++;
		if (strchr(l, '#'))
			*strchr(l, '#') = '\0';
		/* four words, then the description: the rest of the line */
		while (n < 5) {
			c += strspn(c, " \t\r");
			if (!*c)
				break;
			col[n] = (unsigned int)(c - l) + 1;
			tok[n++] = c;
			if (n == 5) {
				size_t e = strlen(c);

				while (e && strchr(" \t\r", c[e - 1]))
					c[--e] = '\0';
				break;
			}
			c += strcspn(c, " \t\r");
			if (*c)
				*c++ = '\0';
		}
		if (n)
			ret = parse_workload(s, source, line, tok, col, n,
					     dir) ?
				      -EINVAL :
				      0;
	}
	free(copy);
	if (!ret && !s->n) {
		error("%s: no workloads", source);
		ret = -EINVAL;
	}
	return ret;
}

/* Read @path whole, up to SUITE_MAX_BYTES: 0 or -errno. */
static int read_index(const char *path, char **buf, size_t *len)
{
	FILE *f = fopen(path, "re");
	int ret = 0;

	if (!f)
		return -errno;
	*buf = xmalloc(SUITE_MAX_BYTES + 1);
	*len = fread(*buf, 1, SUITE_MAX_BYTES + 1, f);
	if (ferror(f))
		ret = -EIO;
	else if (*len > SUITE_MAX_BYTES)
		ret = -EFBIG;
	fclose(f);
	if (ret)
		free(*buf);
	return ret;
}

/* The suite's name: @path's last component without ".suite". */
static char *name_of(const char *path)
{
	const char *b = strrchr(path, '/');
	size_t l;

	b = b ? b + 1 : path;
	l = strlen(b);
	if (l > 6 && !strcmp(b + l - 6, ".suite"))
		l -= 6;
	return xstrndup(b, l);
}

static int load_file(struct suite *s, const char *path)
{
	char *buf = NULL, *name, *dir, *slash;
	size_t len = 0;
	int ret = read_index(path, &buf, &len);

	if (ret)
		return ret;
	name = name_of(path);
	dir = xstrdup(path);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	else
		strcpy(dir, ".");
	ret = suite_parse(s, name, path, buf, len, dir);
	free(dir);
	free(name);
	free(buf);
	return ret;
}

int suite_load(struct suite *s, const char *spec)
{
	char path[PATH_MAX];
	const struct builtin_loadfile *b;
	size_t l = strlen(spec);
	int ret;

	memset(s, 0, sizeof(*s));
	/* a path to an index: the suite a user wrote */
	if (strchr(spec, '/') || (l > 6 && !strcmp(spec + l - 6, ".suite"))) {
		ret = load_file(s, spec);
		if (ret == -EINVAL)
			return ret;
		if (ret && strchr(spec, '/')) {
			error("cannot read suite '%s': %s", spec,
			      strerror(-ret));
			return ret;
		}
		if (!ret)
			return 0;
	}
	/* one dropped into the installed loadfiles */
	if (snprintf(path, sizeof(path), "%s/%s.suite", VB_PKGDATADIR, spec) <
	    (int)sizeof(path)) {
		ret = load_file(s, path);
		if (ret != -ENOENT)
			return ret;
	}
	b = builtin_find_suite(spec);
	if (b) {
		snprintf(path, sizeof(path), "%s (built-in)", b->name);
		return suite_parse(s, spec, path, b->text, strlen(b->text),
				   NULL);
	}
	error("no suite '%s': not an index file and not a suite of vfsbench (see vfsbench suite --list)",
	      spec);
	return -ENOENT;
}

void suite_release(struct suite *s)
{
	for (unsigned int i = 0; i < s->n; i++) {
		free(s->w[i].name);
		free(s->w[i].loadfile);
		free(s->w[i].description);
	}
	free(s->w);
	free(s->name);
	free(s->source);
	memset(s, 0, sizeof(*s));
}
