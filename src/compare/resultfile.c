/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading JSON result files back (jansson) for compare and plot: the
 * schema check, every member's type checked with its JSON path in the
 * message, runs grouped by client count, and the list of settings in which
 * two results differ.
 */
#include <config.h>
#include "compare/resultfile.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/compiler.h"
#include "base/msg.h"
#include "base/units.h"

/*
 * A member of @obj, whose own JSON path is @where ("" for the root), of
 * the JSON type @type ("a string"...) that @ok accepts. Prints the error
 * and returns NULL when it is missing or of another type.
 */
static json_t *member(const char *file, json_t *obj, const char *where,
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

/* jansson's type tests are macros: functions for member(). */
static int is_object(const json_t *v)
{
	return json_is_object(v);
}

static int is_array(const json_t *v)
{
	return json_is_array(v);
}

static int is_string(const json_t *v)
{
	return json_is_string(v);
}

static int is_bool(const json_t *v)
{
	return json_is_boolean(v);
}

static int is_count(const json_t *v)
{
	return json_is_integer(v) && json_integer_value(v) >= 0;
}

static int is_figure(const json_t *v)
{
	return json_is_number(v) && isfinite(json_number_value(v)) &&
	       json_number_value(v) >= 0;
}

static int get_str(const char *file, json_t *obj, const char *where,
		   const char *key, char **dst)
{
	json_t *v = member(file, obj, where, key, is_string, "a string");

	if (!v)
		return -EINVAL;
	*dst = xstrdup(json_string_value(v));
	return 0;
}

static int get_u64(const char *file, json_t *obj, const char *where,
		   const char *key, uint64_t *dst)
{
	json_t *v = member(file, obj, where, key, is_count,
			   "a non-negative integer");

	if (!v)
		return -EINVAL;
	*dst = (uint64_t)json_integer_value(v);
	return 0;
}

static int get_bool(const char *file, json_t *obj, const char *where,
		    const char *key, bool *dst)
{
	json_t *v = member(file, obj, where, key, is_bool, "true or false");

	if (!v)
		return -EINVAL;
	*dst = json_is_true(v);
	return 0;
}

static int get_figure(const char *file, json_t *obj, const char *where,
		      const char *key, double *dst)
{
	json_t *v = member(file, obj, where, key, is_figure,
			   "a non-negative number");

	if (!v)
		return -EINVAL;
	*dst = json_number_value(v);
	return 0;
}

/* options.* and loadfile.*: the settings and the loadfile's identity. */
static int read_settings(struct resultfile *rf, json_t *root)
{
	struct resultfile_settings *s = &rf->set;
	const char *f = rf->path;
	json_t *o, *w, *d, *lf;
	uint64_t depth;

	o = member(f, root, "", "options", is_object, "an object");
	lf = member(f, root, "", "loadfile", is_object, "an object");
	if (!o || !lf)
		return -EINVAL;
	w = member(f, o, "options", "warmup", is_object, "an object");
	d = member(f, o, "options", "dbench", is_object, "an object");
	if (!w || !d)
		return -EINVAL;
	if (get_str(f, lf, "loadfile", "name", &rf->loadfile) ||
	    get_str(f, lf, "loadfile", "sha256", &rf->sha256) ||
	    get_str(f, lf, "loadfile", "dialect", &s->dialect) ||
	    get_str(f, o, "options", "engine", &s->engine) ||
	    get_str(f, o, "options", "cwd", &s->cwd) ||
	    get_str(f, o, "options", "fs_struct", &s->fs_struct) ||
	    get_str(f, o, "options", "fd_table", &s->fd_table) ||
	    get_u64(f, o, "options", "depth", &depth) ||
	    get_u64(f, o, "options", "time_ns", &s->time_ns) ||
	    get_u64(f, o, "options", "loops", &s->loops) ||
	    get_bool(f, o, "options", "strict", &s->strict) ||
	    get_u64(f, o, "options", "max_errors", &s->max_errors) ||
	    get_str(f, w, "options.warmup", "kind", &s->warmup_kind) ||
	    get_u64(f, w, "options.warmup", "value", &s->warmup) ||
	    get_bool(f, d, "options.dbench", "sync_open", &s->sync_open) ||
	    get_bool(f, d, "options.dbench", "sync_dirs", &s->sync_dirs) ||
	    get_bool(f, d, "options.dbench", "fsync", &s->fsync) ||
	    get_bool(f, d, "options.dbench", "resolve", &s->resolve) ||
	    get_str(f, d, "options.dbench", "fsinfo", &s->fsinfo))
		return -EINVAL;
	if (depth > UINT32_MAX) {
		error("'%s': options.depth: %" PRIu64 " is out of range", f,
		      depth);
		return -EINVAL;
	}
	s->depth = (unsigned int)depth;
	return 0;
}

static struct resultfile_point *point_of(struct resultfile *rf,
					 unsigned int clients)
{
	for (unsigned int i = 0; i < rf->npoints; i++)
		if (rf->points[i].clients == clients)
			return &rf->points[i];
	return NULL;
}

/* options.clients: one point per distinct count, in command-line order. */
static int read_clients(struct resultfile *rf, json_t *root)
{
	json_t *o = json_object_get(root, "options"), *a, *v;
	size_t i;

	a = member(rf->path, o, "options", "clients", is_array, "an array");
	if (!a)
		return -EINVAL;
	if (!json_array_size(a)) {
		error("'%s': options.clients: empty", rf->path);
		return -EINVAL;
	}
	rf->points = xcalloc(json_array_size(a), sizeof(*rf->points));
	json_array_foreach(a, i, v)
	{
		unsigned int c;

		if (!json_is_integer(v) || json_integer_value(v) < 1 ||
		    json_integer_value(v) > RESULTFILE_MAX_CLIENTS) {
			error("'%s': options.clients[%zu]: expected a client count (1 to %d)",
			      rf->path, i, RESULTFILE_MAX_CLIENTS);
			return -EINVAL;
		}
		c = (unsigned int)json_integer_value(v);
		if (!point_of(rf, c))
			rf->points[rf->npoints++].clients = c;
	}
	return 0;
}

static void point_add(struct resultfile_point *pt, double ops_s, double mb_s,
		      double p99_ns)
{
	size_t n = pt->nruns + 1;

	pt->ops_s = xrealloc(pt->ops_s, n * sizeof(*pt->ops_s));
	pt->mb_s = xrealloc(pt->mb_s, n * sizeof(*pt->mb_s));
	pt->p99_ns = xrealloc(pt->p99_ns, n * sizeof(*pt->p99_ns));
	pt->ops_s[pt->nruns] = ops_s;
	pt->mb_s[pt->nruns] = mb_s;
	pt->p99_ns[pt->nruns] = p99_ns;
	pt->nruns++;
}

/* runs[]: each run's figures into the point of its client count. */
static int read_runs(struct resultfile *rf, json_t *root)
{
	json_t *a = member(rf->path, root, "", "runs", is_array, "an array");
	json_t *run;
	size_t i;

	if (!a)
		return -EINVAL;
	json_array_foreach(a, i, run)
	{
		struct resultfile_point *pt;
		double ops_s, mb_s, p99;
		char where[32];
		uint64_t c;
		char *end;

		snprintf(where, sizeof(where), "runs[%zu]", i);
		if (!json_is_object(run)) {
			error("'%s': %s: expected an object", rf->path, where);
			return -EINVAL;
		}
		if (get_u64(rf->path, run, where, "clients", &c) ||
		    get_figure(rf->path, run, where, "ops_per_sec", &ops_s) ||
		    get_figure(rf->path, run, where, "mb_per_sec", &mb_s) ||
		    get_figure(rf->path, run, where, "p99_ns", &p99) ||
		    get_str(rf->path, run, where, "end", &end))
			return -EINVAL;
		pt = c > RESULTFILE_MAX_CLIENTS ? NULL :
						  point_of(rf, (unsigned int)c);
		if (!pt) {
			error("'%s': %s.clients: %" PRIu64
			      " is not in options.clients",
			      rf->path, where, c);
			free(end);
			return -EINVAL;
		}
		if (strcmp(end, "complete")) {
			pt->incomplete++;
			rf->incomplete++;
		} else {
			point_add(pt, ops_s, mb_s, p99);
		}
		free(end);
	}
	return 0;
}

/* "schema" and "schema_version": which kind of file this is. */
static int read_schema(struct resultfile *rf, json_t *root)
{
	json_t *schema = json_object_get(root, "schema"), *version;
	const char *name;

	if (!json_is_object(root) || !json_is_string(schema)) {
		error("'%s': not a vfsbench result file (no \"schema\" member)",
		      rf->path);
		return -EINVAL;
	}
	name = json_string_value(schema);
	if (!strcmp(name, "vfsbench-result"))
		rf->kind = RESULTFILE_SWEEP;
	else if (!strcmp(name, "vfsbench-fdscale"))
		rf->kind = RESULTFILE_FDSCALE;
	else {
		error("'%s': not a vfsbench result file (schema '%s')",
		      rf->path, name);
		return -EINVAL;
	}
	version = member(rf->path, root, "", "schema_version", is_count,
			 "a non-negative integer");
	if (!version)
		return -EINVAL;
	rf->schema_version = json_integer_value(version);
	if (rf->schema_version < 1) {
		error("'%s': schema_version: %lld is not a version", rf->path,
		      rf->schema_version);
		return -EINVAL;
	}
	if (rf->schema_version > RESULTFILE_VERSION) {
		error("'%s': schema_version %lld is newer than this vfsbench reads (%d): use a newer vfsbench",
		      rf->path, rf->schema_version, RESULTFILE_VERSION);
		return -EINVAL;
	}
	return 0;
}

/*
 * An fdscale result: the settings a chart names (options.cold, threads,
 * private_fd_table) and steps[], each with num_fds >= 1 (a log axis).
 */
static int read_fdscale(struct resultfile *rf, json_t *root)
{
	const char *f = rf->path;
	json_t *o, *a, *step;
	uint64_t threads;
	size_t i;

	o = member(f, root, "", "options", is_object, "an object");
	if (!o || get_bool(f, o, "options", "cold", &rf->cold) ||
	    get_u64(f, o, "options", "threads", &threads) ||
	    get_bool(f, o, "options", "private_fd_table",
		     &rf->private_fd_table))
		return -EINVAL;
	if (threads > UINT32_MAX) {
		error("'%s': options.threads: %" PRIu64 " is out of range", f,
		      threads);
		return -EINVAL;
	}
	rf->threads = (unsigned int)threads;
	a = member(f, root, "", "steps", is_array, "an array");
	if (!a)
		return -EINVAL;
	rf->fdsteps = xcalloc(json_array_size(a) + 1, sizeof(*rf->fdsteps));
	json_array_foreach(a, i, step)
	{
		struct resultfile_fdstep *s = &rf->fdsteps[i];
		char where[32];

		snprintf(where, sizeof(where), "steps[%zu]", i);
		if (!json_is_object(step)) {
			error("'%s': %s: expected an object", f, where);
			return -EINVAL;
		}
		if (get_u64(f, step, where, "num_fds", &s->num_fds) ||
		    get_u64(f, step, where, "best_ns", &s->best_ns) ||
		    get_u64(f, step, where, "worst_ns", &s->worst_ns) ||
		    get_figure(f, step, where, "mean_ns", &s->mean_ns) ||
		    get_u64(f, step, where, "samples", &s->samples))
			return -EINVAL;
		if (!s->num_fds) {
			error("'%s': %s.num_fds: expected a positive integer",
			      f, where);
			return -EINVAL;
		}
		rf->nfdsteps++;
	}
	return 0;
}

/* Control characters in a label become '?': one line of a table. */
static char *sanitize(char *label)
{
	for (char *p = label; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return label;
}

static char *make_label(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t n;
	char *label;

	base = base ? base + 1 : path;
	n = strlen(base);
	if (n > 5 && !strcmp(base + n - 5, ".json"))
		n -= 5;
	label = xmalloc(n + 1);
	memcpy(label, base, n);
	label[n] = '\0';
	return sanitize(label);
}

static int read_root(struct resultfile *rf, json_t *root, bool fdscale)
{
	json_t *complete;
	int ret;

	ret = read_schema(rf, root);
	if (ret)
		return ret;
	if (rf->kind == RESULTFILE_FDSCALE)
		return fdscale ? read_fdscale(rf, root) : 0;
	complete = member(rf->path, root, "", "complete", is_bool,
			  "true or false");
	if (!complete)
		return -EINVAL;
	rf->complete = json_is_true(complete);
	ret = read_settings(rf, root);
	if (!ret)
		ret = read_clients(rf, root);
	if (!ret)
		ret = read_runs(rf, root);
	return ret;
}

static int read_file(struct resultfile *rf, const char *path, bool fdscale)
{
	json_error_t jerr;
	json_t *root;
	FILE *f;
	int ret;

	memset(rf, 0, sizeof(*rf));
	f = fopen(path, "re");
	if (!f) {
		ret = -errno;
		error("cannot open '%s': %s", path, strerror(errno));
		return ret;
	}
	root = json_loadf(f, JSON_REJECT_DUPLICATES, &jerr);
	fclose(f);
	if (!root) {
		error("'%s': line %d, column %d: not valid JSON: %s", path,
		      jerr.line, jerr.column, jerr.text);
		return -EINVAL;
	}
	rf->path = xstrdup(path);
	rf->label = make_label(path);
	ret = read_root(rf, root, fdscale);
	json_decref(root);
	if (ret)
		resultfile_release(rf);
	return ret;
}

int resultfile_read(struct resultfile *rf, const char *path)
{
	return read_file(rf, path, false);
}

int resultfile_read_steps(struct resultfile *rf, const char *path)
{
	return read_file(rf, path, true);
}

void resultfile_release(struct resultfile *rf)
{
	struct resultfile_settings *s = &rf->set;

	for (unsigned int i = 0; i < rf->npoints; i++) {
		free(rf->points[i].ops_s);
		free(rf->points[i].mb_s);
		free(rf->points[i].p99_ns);
	}
	free(rf->points);
	free(rf->fdsteps);
	free(s->engine);
	free(s->cwd);
	free(s->fs_struct);
	free(s->fd_table);
	free(s->warmup_kind);
	free(s->dialect);
	free(s->fsinfo);
	free(rf->loadfile);
	free(rf->sha256);
	free(rf->label);
	free(rf->path);
	memset(rf, 0, sizeof(*rf));
}

const struct resultfile_point *resultfile_point(const struct resultfile *rf,
						unsigned int clients)
{
	return point_of((struct resultfile *)rf, clients);
}

const double *resultfile_values(const struct resultfile_point *pt,
				enum compare_metric metric)
{
	switch (metric) {
	case CMP_MBPS:
		return pt->mb_s;
	case CMP_P99:
		return pt->p99_ns;
	case CMP_OPS:
		break;
	}
	return pt->ops_s;
}

void resultfile_labels(struct resultfile *rf, unsigned int n)
{
	bool *clash = xcalloc(n + 1, sizeof(*clash));

	for (unsigned int i = 0; i < n; i++)
		for (unsigned int j = i + 1; j < n; j++)
			if (!strcmp(rf[i].label, rf[j].label))
				clash[i] = clash[j] = true;
	for (unsigned int i = 0; i < n; i++) {
		size_t len = strlen(rf[i].path);

		if (!clash[i])
			continue;
		free(rf[i].label);
		rf[i].label = sanitize(xstrdup(rf[i].path));
		if (len > 5 && !strcmp(rf[i].label + len - 5, ".json"))
			rf[i].label[len - 5] = '\0';
	}
	/* the same path twice: number the later ones by their position */
	for (unsigned int j = 1; j < n; j++) {
		for (unsigned int i = 0; i < j; i++) {
			char *label;
			size_t len;

			if (strcmp(rf[i].label, rf[j].label))
				continue;
			len = strlen(rf[j].label) + 16;
			label = xmalloc(len);
			snprintf(label, len, "%s#%u", rf[j].label, j + 1);
			free(rf[j].label);
			rf[j].label = label;
			break;
		}
	}
	free(clash);
}

/* Append ", " and a formatted item to @buf, truncating; counts in @n. */
static void diff_add(char *buf, size_t len, int *n, const char *fmt, ...)
	PRINTF(4, 5);

static void diff_add(char *buf, size_t len, int *n, const char *fmt, ...)
{
	size_t used = strnlen(buf, len);
	va_list ap;

	if (*n && used < len)
		used += (size_t)snprintf(buf + used, len - used, ", ");
	if (used < len) {
		va_start(ap, fmt);
		vsnprintf(buf + used, len - used, fmt, ap);
		va_end(ap);
	}
	(*n)++;
}

/* How long each client ran: "50 loops" or "time 300ms". */
static const char *length_str(const struct resultfile_settings *s, char *buf,
			      size_t len)
{
	char t[16];

	if (s->loops)
		snprintf(buf, len, "loops %" PRIu64, s->loops);
	else
		snprintf(buf, len, "time %s",
			 units_format_ns(t, sizeof(t), s->time_ns));
	return buf;
}

static const char *warmup_str(const struct resultfile_settings *s, char *buf,
			      size_t len)
{
	if (!strcmp(s->warmup_kind, "passes"))
		snprintf(buf, len, "%" PRIu64 " pass%s", s->warmup,
			 s->warmup == 1 ? "" : "es");
	else if (!s->warmup)
		snprintf(buf, len, "none");
	else
		units_format_ns(buf, len, s->warmup);
	return buf;
}

static const char *on_off(bool b)
{
	return b ? "on" : "off";
}

/* options.dbench, which matters only when both loadfiles are dbench's. */
static void dbench_differences(const struct resultfile_settings *a,
			       const struct resultfile_settings *b, char *buf,
			       size_t len, int *n)
{
	char f[256] = "";
	int nf = 0;

	if (a->sync_open != b->sync_open)
		diff_add(f, sizeof(f), &nf, "sync_open %s vs %s",
			 on_off(a->sync_open), on_off(b->sync_open));
	if (a->sync_dirs != b->sync_dirs)
		diff_add(f, sizeof(f), &nf, "sync_dirs %s vs %s",
			 on_off(a->sync_dirs), on_off(b->sync_dirs));
	if (a->fsync != b->fsync)
		diff_add(f, sizeof(f), &nf, "fsync %s vs %s", on_off(a->fsync),
			 on_off(b->fsync));
	if (a->resolve != b->resolve)
		diff_add(f, sizeof(f), &nf, "resolve %s vs %s",
			 on_off(a->resolve), on_off(b->resolve));
	if (strcmp(a->fsinfo, b->fsinfo))
		diff_add(f, sizeof(f), &nf, "fsinfo %s vs %s", a->fsinfo,
			 b->fsinfo);
	if (nf)
		diff_add(buf, len, n, "dbench flags (%s)", f);
}

int resultfile_differences(const struct resultfile *a,
			   const struct resultfile *b, char *buf, size_t len)
{
	const struct resultfile_settings *sa = &a->set, *sb = &b->set;
	char x[64], y[64];
	int n = 0;

	if (len)
		buf[0] = '\0';
	if (strcmp(a->sha256, b->sha256)) {
		if (strcmp(a->loadfile, b->loadfile))
			diff_add(buf, len, &n, "loadfile sha256 ('%s' vs '%s')",
				 a->loadfile, b->loadfile);
		else
			diff_add(buf, len, &n,
				 "loadfile sha256 ('%s' changed: %.8s vs %.8s)",
				 a->loadfile, a->sha256, b->sha256);
	}
	if (strcmp(sa->engine, sb->engine))
		diff_add(buf, len, &n, "engine %s vs %s", sa->engine,
			 sb->engine);
	if (strcmp(sa->cwd, sb->cwd))
		diff_add(buf, len, &n, "cwd %s vs %s", sa->cwd, sb->cwd);
	if (strcmp(sa->fs_struct, sb->fs_struct))
		diff_add(buf, len, &n, "fs_struct %s vs %s", sa->fs_struct,
			 sb->fs_struct);
	if (strcmp(sa->fd_table, sb->fd_table))
		diff_add(buf, len, &n, "fd_table %s vs %s", sa->fd_table,
			 sb->fd_table);
	if (sa->depth != sb->depth)
		diff_add(buf, len, &n, "depth %u vs %u", sa->depth, sb->depth);
	length_str(sa, x, sizeof(x));
	length_str(sb, y, sizeof(y));
	if (strcmp(x, y))
		diff_add(buf, len, &n, "%s vs %s", x,
			 (sa->loops != 0) == (sb->loops != 0) ?
				 strchr(y, ' ') + 1 :
				 y);
	warmup_str(sa, x, sizeof(x));
	warmup_str(sb, y, sizeof(y));
	if (strcmp(x, y))
		diff_add(buf, len, &n, "warmup %s vs %s", x, y);
	if (strcmp(sa->dialect, sb->dialect))
		diff_add(buf, len, &n, "dialect %s vs %s", sa->dialect,
			 sb->dialect);
	else if (!strcmp(sa->dialect, "dbench"))
		dbench_differences(sa, sb, buf, len, &n);
	return n;
}
