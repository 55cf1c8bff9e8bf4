/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A result file of runs ("vfsbench-result") read back: the settings of
 * each variant (options, loadfile, variants[]), one point per client
 * count and each complete run's figures in it, and what says whether a
 * run can be trusted. resultread.c hands it the parsed file once the
 * schema says it is one of these.
 */
#include <config.h>
#include "compare/resultsweep.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/msg.h"
#include "compare/envfields.h"
#include "compare/jsonfield.h"
#include "compare/resultlabel.h"

/* options.*: what every variant of a file shares. */
static int read_common(struct resultfile *rf, json_t *root)
{
	struct resultfile_settings *s = &rf->set;
	const char *f = rf->path;
	json_t *o, *w;

	o = jsonfield_object(f, root, "", "options");
	if (!o)
		return -EINVAL;
	w = jsonfield_object(f, o, "options", "warmup");
	if (!w)
		return -EINVAL;
	if (jsonfield_u64(f, o, "options", "time_ns", &s->time_ns) ||
	    jsonfield_u64(f, o, "options", "loops", &s->loops) ||
	    jsonfield_bool(f, o, "options", "strict", &s->strict) ||
	    jsonfield_u64(f, o, "options", "max_errors", &s->max_errors) ||
	    jsonfield_str(f, w, "options.warmup", "kind", &s->warmup_kind) ||
	    jsonfield_u64(f, w, "options.warmup", "value", &s->warmup))
		return -EINVAL;
	return 0;
}

/*
 * What a variant may change: its options @o (at @ow: "options" or
 * "variants[N].options") and its loadfile's identity @lf (at @lw).
 */
/* The string member @name of @o, or @absent in a file older than it. */
static int opt_str(const char *f, json_t *o, const char *ow, const char *name,
		   const char *absent, char **out)
{
	if (!json_object_get(o, name)) {
		*out = xstrdup(absent);
		return 0;
	}
	return jsonfield_str(f, o, ow, name, out);
}

static int read_variant(struct resultfile *rf, json_t *o, const char *ow,
			json_t *lf, const char *lw)
{
	struct resultfile_settings *s = &rf->set;
	const char *f = rf->path;
	char dw[64];
	uint64_t depth;
	json_t *d;

	snprintf(dw, sizeof(dw), "%s.dbench", ow);
	d = jsonfield_object(f, o, ow, "dbench");
	if (!d)
		return -EINVAL;
	if (jsonfield_str(f, lf, lw, "name", &rf->loadfile) ||
	    jsonfield_str(f, lf, lw, "sha256", &rf->sha256) ||
	    jsonfield_str(f, lf, lw, "dialect", &s->dialect) ||
	    jsonfield_str(f, o, ow, "engine", &s->engine) ||
	    jsonfield_str(f, o, ow, "cwd", &s->cwd) ||
	    jsonfield_str(f, o, ow, "fs_struct", &s->fs_struct) ||
	    jsonfield_str(f, o, ow, "fd_table", &s->fd_table) ||
	    jsonfield_u64(f, o, ow, "depth", &depth) ||
	    jsonfield_bool(f, d, dw, "sync_open", &s->sync_open) ||
	    jsonfield_bool(f, d, dw, "sync_dirs", &s->sync_dirs) ||
	    jsonfield_bool(f, d, dw, "fsync", &s->fsync) ||
	    jsonfield_bool(f, d, dw, "resolve", &s->resolve) ||
	    jsonfield_str(f, d, dw, "fsinfo", &s->fsinfo))
		return -EINVAL;
	if (depth > UINT32_MAX) {
		error("'%s': %s.depth: %" PRIu64 " is out of range", f, ow,
		      depth);
		return -EINVAL;
	}
	s->depth = (unsigned int)depth;
	/* before --uring-depth every client thread had one lane */
	depth = 1;
	if (json_object_get(o, "uring_depth") &&
	    jsonfield_u64(f, o, ow, "uring_depth", &depth))
		return -EINVAL;
	/* a lane is a client: a count times the depth stays a count */
	if (!depth || depth > RESULTFILE_MAX_LANES) {
		error("'%s': %s.uring_depth: %" PRIu64 " is out of range", f,
		      ow, depth);
		return -EINVAL;
	}
	s->uring_depth = (unsigned int)depth;
	s->uring_fixed = false;
	if (json_object_get(o, "uring_fixed") &&
	    jsonfield_bool(f, o, ow, "uring_fixed", &s->uring_fixed))
		return -EINVAL;
	/* before --resolve and --prefix every walk was cwd's and private,
	 * before --dcache every run warm */
	if (opt_str(f, o, ow, "resolve", "cwd", &s->walk_resolve) ||
	    opt_str(f, o, ow, "prefix", "private", &s->walk_prefix) ||
	    opt_str(f, o, ow, "dcache", "warm", &s->dcache))
		return -EINVAL;
	/* lanes resolve from a dirfd: older files said what was asked */
	if (s->uring_depth > 1 && !strcmp(s->walk_resolve, "cwd")) {
		free(s->walk_resolve);
		s->walk_resolve = xstrdup("dirfd");
	}
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

	a = jsonfield_member(rf->path, o, "options", "clients",
			     jsonfield_is_array, "an array");
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
		/* a thread's lanes are clients of their own */
		c = (unsigned int)json_integer_value(v) * rf->set.uring_depth;
		if (!point_of(rf, c))
			rf->points[rf->npoints++].clients = c;
	}
	return 0;
}

/* One complete run's figures, appended to its point. */
struct run_figures {
	double ops_s, mb_s, p99_ns;
	unsigned int index;
	struct resultfile_flags fl;
	uint64_t elapsed_ns;
	bool timing; /* incomplete by its window or a rank, not its clients */
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
	pt->unasked = xrealloc(pt->unasked, n * sizeof(*pt->unasked));
	pt->bound = xrealloc(pt->bound, n * sizeof(*pt->bound));
	pt->ops_s[pt->nruns] = r->ops_s;
	pt->mb_s[pt->nruns] = r->mb_s;
	pt->p99_ns[pt->nruns] = r->p99_ns;
	pt->index[pt->nruns] = r->index;
	pt->starved[pt->nruns] = r->fl.starved;
	pt->idle[pt->nruns] = r->fl.idle;
	pt->unasked[pt->nruns] = r->fl.unasked;
	pt->bound[pt->nruns] = resultfile_bound(&r->fl);
	pt->nruns++;
}

/* @name of @obj, a number >= 0 where present: -1 where absent or null. */
static int read_share(const char *f, json_t *obj, const char *where,
		      const char *name, double *v)
{
	json_t *m = json_object_get(obj, name);

	*v = -1;
	if (!m || json_is_null(m))
		return 0;
	return jsonfield_figure(f, obj, where, name, v);
}

/*
 * runs[].incomplete: an array of reasons, not empty when the run was not
 * the run asked for (absent from older files).
 */
static int read_incomplete(const char *f, json_t *run, const char *where,
			   bool *unasked, bool *timing)
{
	json_t *a = json_object_get(run, "incomplete"), *v;
	size_t i;

	*unasked = *timing = false;
	if (!a)
		return 0;
	if (!json_is_array(a)) {
		error("'%s': %s.incomplete: expected an array", f, where);
		return -EINVAL;
	}
	*unasked = json_array_size(a) > 0;
	/* an overrun, a late rank: the window's length bounds them;
	 * unmeasured clients are idle_clients' */
	json_array_foreach(a, i, v)
	{
		if (!json_is_string(v) ||
		    strcmp(json_string_value(v), "unmeasured_clients"))
			*timing = true;
	}
	return 0;
}

/*
 * What says whether a run can be trusted, where the file has it (files
 * written before these members were added lack them): index,
 * idle_clients, incomplete, elapsed_ns and rusage's starved, cpu_share
 * and wait_share.
 */
static int read_trust(const char *f, json_t *run, const char *where,
		      struct run_figures *r, size_t i)
{
	json_t *ru = json_object_get(run, "rusage");
	char rw[48];
	uint64_t v;

	r->index = (unsigned int)i;
	r->elapsed_ns = 0;
	r->fl = (struct resultfile_flags){ .cpu_share = -1,
					   .wait_share = -1,
					   .stretch = 1 };
	if (json_object_get(run, "index")) {
		if (jsonfield_u64(f, run, where, "index", &v))
			return -EINVAL;
		r->index = (unsigned int)(v > UINT32_MAX ? UINT32_MAX : v);
	}
	if (json_object_get(run, "idle_clients")) {
		if (jsonfield_u64(f, run, where, "idle_clients", &v))
			return -EINVAL;
		r->fl.idle = (unsigned int)(v > UINT32_MAX ? UINT32_MAX : v);
	}
	if ((json_object_get(run, "elapsed_ns") &&
	     jsonfield_u64(f, run, where, "elapsed_ns", &r->elapsed_ns)) ||
	    read_incomplete(f, run, where, &r->fl.unasked, &r->timing))
		return -EINVAL;
	if (ru) {
		snprintf(rw, sizeof(rw), "%s.rusage", where);
		if (!json_is_object(ru)) {
			error("'%s': %s: expected an object", f, rw);
			return -EINVAL;
		}
		if ((json_object_get(ru, "starved") &&
		     jsonfield_bool(f, ru, rw, "starved", &r->fl.starved)) ||
		    read_share(f, ru, rw, "cpu_share", &r->fl.cpu_share) ||
		    read_share(f, ru, rw, "wait_share", &r->fl.wait_share))
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
	if (jsonfield_u64(f, run, where, "variant", &v))
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
	json_t *a = jsonfield_member(rf->path, root, "", "runs",
				     jsonfield_is_array, "an array");
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
		    jsonfield_u64(f, run, where, "clients", &c) ||
		    jsonfield_figure(f, run, where, "ops_per_sec", &r.ops_s) ||
		    jsonfield_figure(f, run, where, "mb_per_sec", &r.mb_s) ||
		    jsonfield_figure(f, run, where, "p99_ns", &r.p99_ns) ||
		    read_trust(f, run, where, &r, i) ||
		    jsonfield_str(f, run, where, "end", &end))
			return -EINVAL;
		pt = c > RESULTFILE_MAX_CLIENTS ?
			     NULL :
			     point_of(&rf[variant],
				      (unsigned int)c *
					      rf[variant].set.uring_depth);
		if (!pt) {
			error("'%s': %s.clients: %" PRIu64
			      " is not in options.clients",
			      f, where, c);
			free(end);
			return -EINVAL;
		}
		r.fl.clients = (unsigned int)c;
		/* the window against -t, for what an overrun explains;
		 * nothing bounds it without -t */
		if (r.timing)
			r.fl.stretch =
				!rf[variant].set.loops &&
						rf[variant].set.time_ns &&
						r.elapsed_ns ?
					(double)r.elapsed_ns /
						(double)rf[variant]
							.set.time_ns :
					INFINITY;
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
		o = jsonfield_object(f, var, where, "options");
		lf = jsonfield_object(f, var, where, "loadfile");
		if (!o || !lf ||
		    jsonfield_str(f, var, where, "label",
				  &rf[v].variant_label) ||
		    read_variant(&rf[v], o, ow, lf, lw))
			return -EINVAL;
		if (n > 1) {
			free(rf[v].label);
			rf[v].label = resultlabel_sanitize(
				xstrdup(rf[v].variant_label));
		}
	}
	return 0;
}

/*
 * A result of runs: version 1 has one variant, described by options and
 * loadfile; version 2 lists them in variants[]. Fills @rf[0..*n).
 */
int resultsweep_read(struct resultfile **rfp, unsigned int *n, json_t *root)
{
	struct resultfile *rf = *rfp;
	json_t *complete, *arr = NULL;
	unsigned int nv = 1;
	int ret;

	complete = jsonfield_member(rf->path, root, "", "complete",
				    jsonfield_is_bool, "true or false");
	if (!complete)
		return -EINVAL;
	if (rf->schema_version >= 2) {
		arr = jsonfield_member(rf->path, root, "", "variants",
				       jsonfield_is_array, "an array");
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
			rf[v].kernel = rf[0].kernel;
			rf[v].boot = rf[0].boot;
			if (rf[0].kernel_label)
				rf[v].kernel_label =
					xstrdup(rf[0].kernel_label);
		}
	}
	ret = read_common(rf, root);
	if (!ret && arr) {
		ret = read_variants(rf, nv, arr);
	} else if (!ret) {
		json_t *lf = jsonfield_object(rf->path, root, "", "loadfile");

		ret = lf ? read_variant(rf, json_object_get(root, "options"),
					"options", lf, "loadfile") :
			   -EINVAL;
	}
	for (unsigned int v = 0; !ret && v < nv; v++) {
		json_t *env = json_object_get(root, "environment");
		json_t *boot = json_object_get(env, "boot_id");

		ret = read_clients(&rf[v], root);
		env_fields_read(&rf[v].env, env);
		if (json_is_string(boot))
			rf[v].boot_id = xstrdup(json_string_value(boot));
	}
	if (!ret)
		ret = read_runs(rf, nv, root);
	return ret;
}

const struct resultfile_point *resultfile_point(const struct resultfile *rf,
						unsigned int clients)
{
	return point_of((struct resultfile *)rf, clients);
}
