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
#include "base/jsonstr.h"
#include "base/label.h"
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
	/* a name that is not UTF-8 comes back as its bytes */
	*dst = jsonstr_value(v);
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

/* Member @key of @obj (at @where) as an object, or NULL (message printed). */
static json_t *object_at(const char *file, json_t *obj, const char *where,
			 const char *key)
{
	return member(file, obj, where, key, is_object, "an object");
}

/* options.*: what every variant of a file shares. */
static int read_common(struct resultfile *rf, json_t *root)
{
	struct resultfile_settings *s = &rf->set;
	const char *f = rf->path;
	json_t *o, *w;

	o = object_at(f, root, "", "options");
	if (!o)
		return -EINVAL;
	w = object_at(f, o, "options", "warmup");
	if (!w)
		return -EINVAL;
	if (get_u64(f, o, "options", "time_ns", &s->time_ns) ||
	    get_u64(f, o, "options", "loops", &s->loops) ||
	    get_bool(f, o, "options", "strict", &s->strict) ||
	    get_u64(f, o, "options", "max_errors", &s->max_errors) ||
	    get_str(f, w, "options.warmup", "kind", &s->warmup_kind) ||
	    get_u64(f, w, "options.warmup", "value", &s->warmup))
		return -EINVAL;
	return 0;
}

/*
 * What a variant may change: its options @o (at @ow: "options" or
 * "variants[N].options") and its loadfile's identity @lf (at @lw).
 */
static int read_variant(struct resultfile *rf, json_t *o, const char *ow,
			json_t *lf, const char *lw)
{
	struct resultfile_settings *s = &rf->set;
	const char *f = rf->path;
	char dw[64];
	uint64_t depth;
	json_t *d;

	snprintf(dw, sizeof(dw), "%s.dbench", ow);
	d = object_at(f, o, ow, "dbench");
	if (!d)
		return -EINVAL;
	if (get_str(f, lf, lw, "name", &rf->loadfile) ||
	    get_str(f, lf, lw, "sha256", &rf->sha256) ||
	    get_str(f, lf, lw, "dialect", &s->dialect) ||
	    get_str(f, o, ow, "engine", &s->engine) ||
	    get_str(f, o, ow, "cwd", &s->cwd) ||
	    get_str(f, o, ow, "fs_struct", &s->fs_struct) ||
	    get_str(f, o, ow, "fd_table", &s->fd_table) ||
	    get_u64(f, o, ow, "depth", &depth) ||
	    get_bool(f, d, dw, "sync_open", &s->sync_open) ||
	    get_bool(f, d, dw, "sync_dirs", &s->sync_dirs) ||
	    get_bool(f, d, dw, "fsync", &s->fsync) ||
	    get_bool(f, d, dw, "resolve", &s->resolve) ||
	    get_str(f, d, dw, "fsinfo", &s->fsinfo))
		return -EINVAL;
	if (depth > UINT32_MAX) {
		error("'%s': %s.depth: %" PRIu64 " is out of range", f, ow,
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

/* One complete run's figures, appended to its point. */
struct run_figures {
	double ops_s, mb_s, p99_ns;
	unsigned int index, idle;
	bool starved;
};

static void point_add(struct resultfile_point *pt, const struct run_figures *r)
{
	size_t n = pt->nruns + 1;

	pt->ops_s = xrealloc(pt->ops_s, n * sizeof(*pt->ops_s));
	pt->mb_s = xrealloc(pt->mb_s, n * sizeof(*pt->mb_s));
	pt->p99_ns = xrealloc(pt->p99_ns, n * sizeof(*pt->p99_ns));
	pt->index = xrealloc(pt->index, n * sizeof(*pt->index));
	pt->starved = xrealloc(pt->starved, n * sizeof(*pt->starved));
	pt->idle = xrealloc(pt->idle, n * sizeof(*pt->idle));
	pt->ops_s[pt->nruns] = r->ops_s;
	pt->mb_s[pt->nruns] = r->mb_s;
	pt->p99_ns[pt->nruns] = r->p99_ns;
	pt->index[pt->nruns] = r->index;
	pt->starved[pt->nruns] = r->starved;
	pt->idle[pt->nruns] = r->idle;
	pt->nruns++;
}

/*
 * What says whether a run can be trusted, where the file has it (files
 * written before these members were added lack them): index,
 * idle_clients and rusage.starved.
 */
static int read_trust(const char *f, json_t *run, const char *where,
		      struct run_figures *r, size_t i)
{
	json_t *ru = json_object_get(run, "rusage");
	char rw[48];
	uint64_t v;

	r->index = (unsigned int)i;
	r->idle = 0;
	r->starved = false;
	if (json_object_get(run, "index")) {
		if (get_u64(f, run, where, "index", &v))
			return -EINVAL;
		r->index = (unsigned int)(v > UINT32_MAX ? UINT32_MAX : v);
	}
	if (json_object_get(run, "idle_clients")) {
		if (get_u64(f, run, where, "idle_clients", &v))
			return -EINVAL;
		r->idle = (unsigned int)(v > UINT32_MAX ? UINT32_MAX : v);
	}
	if (ru) {
		snprintf(rw, sizeof(rw), "%s.rusage", where);
		if (!json_is_object(ru)) {
			error("'%s': %s: expected an object", f, rw);
			return -EINVAL;
		}
		if (json_object_get(ru, "starved") &&
		    get_bool(f, ru, rw, "starved", &r->starved))
			return -EINVAL;
	}
	return 0;
}

/* runs[].variant: which of the @n variants (0 in a version 1 file). */
static int run_variant(const char *f, json_t *run, const char *where,
		       unsigned int n, unsigned int *variant)
{
	uint64_t v;

	*variant = 0;
	if (n == 1 && !json_object_get(run, "variant"))
		return 0;
	if (get_u64(f, run, where, "variant", &v))
		return -EINVAL;
	if (v >= n) {
		error("'%s': %s.variant: %" PRIu64 " is not in variants[]", f,
		      where, v);
		return -EINVAL;
	}
	*variant = (unsigned int)v;
	return 0;
}

/* runs[]: each run's figures into the point of its variant and count. */
static int read_runs(struct resultfile *rf, unsigned int n, json_t *root)
{
	json_t *a = member(rf->path, root, "", "runs", is_array, "an array");
	const char *f = rf->path;
	json_t *run;
	size_t i;

	if (!a)
		return -EINVAL;
	json_array_foreach(a, i, run)
	{
		struct resultfile_point *pt;
		struct run_figures r;
		unsigned int variant;
		char where[32];
		uint64_t c;
		char *end;

		snprintf(where, sizeof(where), "runs[%zu]", i);
		if (!json_is_object(run)) {
			error("'%s': %s: expected an object", f, where);
			return -EINVAL;
		}
		if (run_variant(f, run, where, n, &variant) ||
		    get_u64(f, run, where, "clients", &c) ||
		    get_figure(f, run, where, "ops_per_sec", &r.ops_s) ||
		    get_figure(f, run, where, "mb_per_sec", &r.mb_s) ||
		    get_figure(f, run, where, "p99_ns", &r.p99_ns) ||
		    read_trust(f, run, where, &r, i) ||
		    get_str(f, run, where, "end", &end))
			return -EINVAL;
		pt = c > RESULTFILE_MAX_CLIENTS ?
			     NULL :
			     point_of(&rf[variant], (unsigned int)c);
		if (!pt) {
			error("'%s': %s.clients: %" PRIu64
			      " is not in options.clients",
			      f, where, c);
			free(end);
			return -EINVAL;
		}
		if (strcmp(end, "complete")) {
			pt->incomplete++;
			rf[variant].incomplete++;
		} else {
			point_add(pt, &r);
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
	int max;

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
	max = rf->kind == RESULTFILE_FDSCALE ? RESULTFILE_FDSCALE_VERSION :
					       RESULTFILE_VERSION;
	if (rf->schema_version > max) {
		error("'%s': schema_version %lld is newer than this vfsbench reads (%d): use a newer vfsbench",
		      rf->path, rf->schema_version, max);
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

/* The basename of @path without ".json". */
static char *base_label(const char *path)
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

/*
 * variants[]: the label, options and loadfile of each, into @rf[0..n);
 * rf[0] already holds the common settings, copied into the others.
 */
static int read_variants(struct resultfile *rf, unsigned int n, json_t *arr)
{
	const char *f = rf->path;

	for (unsigned int v = 0; v < n; v++) {
		json_t *var = json_array_get(arr, v), *o, *lf;
		char where[32], ow[48], lw[48];

		snprintf(where, sizeof(where), "variants[%u]", v);
		snprintf(ow, sizeof(ow), "%s.options", where);
		snprintf(lw, sizeof(lw), "%s.loadfile", where);
		if (!json_is_object(var)) {
			error("'%s': %s: expected an object", f, where);
			return -EINVAL;
		}
		if (v) {
			rf[v].set.time_ns = rf[0].set.time_ns;
			rf[v].set.loops = rf[0].set.loops;
			rf[v].set.strict = rf[0].set.strict;
			rf[v].set.max_errors = rf[0].set.max_errors;
			rf[v].set.warmup = rf[0].set.warmup;
			rf[v].set.warmup_kind = xstrdup(rf[0].set.warmup_kind);
		}
		o = object_at(f, var, where, "options");
		lf = object_at(f, var, where, "loadfile");
		if (!o || !lf ||
		    get_str(f, var, where, "label", &rf[v].variant_label) ||
		    read_variant(&rf[v], o, ow, lf, lw))
			return -EINVAL;
		if (n > 1) {
			free(rf[v].label);
			rf[v].label = sanitize(xstrdup(rf[v].variant_label));
		}
	}
	return 0;
}

/*
 * A result of runs: version 1 has one variant, described by options and
 * loadfile; version 2 lists them in variants[]. Fills @rf[0..*n).
 */
static int read_sweep(struct resultfile **rfp, unsigned int *n, json_t *root)
{
	struct resultfile *rf = *rfp;
	json_t *complete, *arr = NULL;
	unsigned int nv = 1;
	int ret;

	complete = member(rf->path, root, "", "complete", is_bool,
			  "true or false");
	if (!complete)
		return -EINVAL;
	if (rf->schema_version >= 2) {
		arr = member(rf->path, root, "", "variants", is_array,
			     "an array");
		if (!arr)
			return -EINVAL;
		if (!json_array_size(arr) || json_array_size(arr) > 1000) {
			error("'%s': variants: expected 1 to 1000 variants",
			      rf->path);
			return -EINVAL;
		}
		nv = (unsigned int)json_array_size(arr);
	}
	rf = *rfp = xrealloc(rf, nv * sizeof(*rf));
	memset(rf + 1, 0, (nv - 1) * sizeof(*rf));
	*n = nv;
	for (unsigned int v = 0; v < nv; v++) {
		rf[v].complete = json_is_true(complete);
		rf[v].variant = v;
		rf[v].nvariants = nv;
		if (v) {
			rf[v].path = xstrdup(rf[0].path);
			rf[v].label = xstrdup(rf[0].label);
			rf[v].kind = rf[0].kind;
			rf[v].schema_version = rf[0].schema_version;
			rf[v].file = rf[0].file;
		}
	}
	ret = read_common(rf, root);
	if (!ret && arr) {
		ret = read_variants(rf, nv, arr);
	} else if (!ret) {
		json_t *lf = object_at(rf->path, root, "", "loadfile");

		ret = lf ? read_variant(rf, json_object_get(root, "options"),
					"options", lf, "loadfile") :
			   -EINVAL;
	}
	for (unsigned int v = 0; !ret && v < nv; v++) {
		ret = read_clients(&rf[v], root);
		env_fields_read(&rf[v].env,
				json_object_get(root, "environment"));
	}
	if (!ret)
		ret = read_runs(rf, nv, root);
	return ret;
}

int resultfile_read(const char *path, unsigned int file, bool steps,
		    struct resultfile **out, unsigned int *nout)
{
	struct resultfile *rf;
	unsigned int n = 1;
	json_error_t jerr;
	json_t *root;
	FILE *f;
	int ret;

	f = fopen(path, "re");
	if (!f) {
		ret = -errno;
		error("cannot open '%s': %s", path, strerror(errno));
		return ret;
	}
	/* JSON_ALLOW_NUL: the marker of a string kept as bytes (jsonstr.h) */
	root = json_loadf(f, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &jerr);
	fclose(f);
	if (!root) {
		error("'%s': line %d, column %d: not valid JSON: %s", path,
		      jerr.line, jerr.column, jerr.text);
		return -EINVAL;
	}
	rf = xcalloc(1, sizeof(*rf));
	rf->path = xstrdup(path);
	rf->label = base_label(path);
	rf->file = file;
	rf->nvariants = 1;
	ret = read_schema(rf, root);
	if (!ret && rf->kind == RESULTFILE_FDSCALE && steps)
		ret = read_fdscale(rf, root);
	else if (!ret && rf->kind == RESULTFILE_SWEEP)
		ret = read_sweep(&rf, &n, root);
	json_decref(root);
	if (ret) {
		resultfile_release_all(rf, n);
		return ret;
	}
	*out = xrealloc(*out, (*nout + n) * sizeof(**out));
	memcpy(*out + *nout, rf, n * sizeof(*rf));
	*nout += n;
	free(rf);
	return 0;
}

void resultfile_release(struct resultfile *rf)
{
	struct resultfile_settings *s = &rf->set;

	for (unsigned int i = 0; i < rf->npoints; i++) {
		free(rf->points[i].ops_s);
		free(rf->points[i].mb_s);
		free(rf->points[i].p99_ns);
		free(rf->points[i].index);
		free(rf->points[i].starved);
		free(rf->points[i].idle);
	}
	free(rf->points);
	free(rf->fdsteps);
	env_fields_release(&rf->env);
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
	free(rf->variant_label);
	free(rf->path);
	memset(rf, 0, sizeof(*rf));
}

void resultfile_release_all(struct resultfile *rf, unsigned int n)
{
	for (unsigned int i = 0; rf && i < n; i++)
		resultfile_release(&rf[i]);
	free(rf);
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

/*
 * The label of @rf at @level: 0, the variant's label (of a file of
 * several) or the basename; 1, "BASENAME:VARIANT"; 2, the same with the
 * path, less ".json", for the basename.
 */
static char *label_at(const struct resultfile *rf, int level)
{
	char *file = level >= 2 ? xstrdup(rf->path) : base_label(rf->path);
	size_t len = strlen(file);
	char *label;

	if (level >= 2 && len > 5 && !strcmp(file + len - 5, ".json"))
		file[len - 5] = '\0';
	if (!rf->variant_label || rf->nvariants < 2)
		return sanitize(file);
	if (!level) {
		free(file);
		return sanitize(xstrdup(rf->variant_label));
	}
	len = strlen(file) + strlen(rf->variant_label) + 2;
	label = xmalloc(len);
	snprintf(label, len, "%s:%s", file, rf->variant_label);
	free(file);
	return sanitize(label);
}

void resultfile_labels(struct resultfile *rf, unsigned int n)
{
	int *level = xcalloc(n + 1, sizeof(*level));
	bool again = true;
	char **labels;

	for (unsigned int i = 0; i < n; i++) {
		free(rf[i].label);
		rf[i].label = label_at(&rf[i], 0);
	}
	/* raise the level of every label that clashes, until none does */
	while (again) {
		bool *clash = xcalloc(n + 1, sizeof(*clash));

		again = false;
		for (unsigned int i = 0; i < n; i++)
			for (unsigned int j = i + 1; j < n; j++)
				if (!strcmp(rf[i].label, rf[j].label))
					clash[i] = clash[j] = true;
		for (unsigned int i = 0; i < n; i++) {
			if (!clash[i] || level[i] >= 2)
				continue;
			level[i]++;
			free(rf[i].label);
			rf[i].label = label_at(&rf[i], level[i]);
			again = true;
		}
		free(clash);
	}
	/* the same file twice: number the later ones by their position */
	labels = xcalloc(n + 1, sizeof(*labels));
	for (unsigned int i = 0; i < n; i++)
		labels[i] = rf[i].label;
	label_number_repeats(labels, n);
	for (unsigned int i = 0; i < n; i++)
		rf[i].label = labels[i];
	free(labels);
	free(level);
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
