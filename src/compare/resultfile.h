/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_COMPARE_RESULTFILE_H
#define VB_COMPARE_RESULTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * struct resultfile: a JSON result file (--json, doc/json-schema.md) read
 * back for vfsbench compare and plot: what was measured (the loadfile and
 * the settings that must match for a like-for-like comparison) and, per
 * client count, the figures of each run that completed.
 */

/* The schema version written (report/json.c) and read back here. */
#define RESULTFILE_VERSION 1

/* The most clients a run in a result file may have (run/config.h's MAX_CLIENTS,
 * checked by report/json.c). */
#define RESULTFILE_MAX_CLIENTS 100000

/* The figures of a run that compare and plot read: ops/s, MB/s, p99. */
enum compare_metric {
	CMP_OPS,
	CMP_MBPS,
	CMP_P99,
};

enum resultfile_kind {
	RESULTFILE_SWEEP, /* "vfsbench-result": one run or a sweep */
	/*
	 * "vfsbench-fdscale": vfsbench fdscale's steps (fdsteps) and the
	 * settings a chart names, read by resultfile_read_steps() only; the
	 * sweep members stay empty.
	 */
	RESULTFILE_FDSCALE,
};

/* One step of an fdscale result: steps[] of doc/json-schema.md. */
struct resultfile_fdstep {
	uint64_t num_fds; /* >= 1 */
	uint64_t best_ns, worst_ns;
	double mean_ns;
	uint64_t samples;
};

/* The runs of one client count that ended "complete", in run order. */
struct resultfile_point {
	unsigned int clients;
	unsigned int nruns;
	double *ops_s; /* [nruns] ops_per_sec */
	double *mb_s; /* [nruns] mb_per_sec */
	double *p99_ns; /* [nruns] p99_ns */
	unsigned int incomplete; /* runs left out: "end" not "complete" */
};

/*
 * What must be equal for two results to be compared like for like.
 * Strings are owned. time_ns is 0 when the runs were --loops ones.
 */
struct resultfile_settings {
	char *engine;
	char *cwd; /* "private" or "shared" */
	char *fs_struct;
	char *fd_table;
	unsigned int depth;
	uint64_t time_ns;
	uint64_t loops;
	char *warmup_kind; /* "ns" or "passes" */
	uint64_t warmup;
	char *dialect; /* the loadfile's, as detected: "native" or "dbench" */
	/* dbench translation flags (options.dbench) */
	bool sync_open, sync_dirs, fsync, resolve;
	char *fsinfo;
	/* recorded, not compared: they only decide when a run ends early */
	bool strict;
	uint64_t max_errors;
};

struct resultfile {
	char *path; /* as given */
	/*
	 * For tables and keys: the basename without ".json", control
	 * characters as '?'; see resultfile_labels().
	 */
	char *label;
	enum resultfile_kind kind;
	long long schema_version;
	char *loadfile; /* loadfile.name */
	char *sha256; /* loadfile.sha256 */
	struct resultfile_settings set;
	bool complete; /* false: the sweep stopped early */
	struct resultfile_point *points; /* options.clients order, unique */
	unsigned int npoints;
	unsigned int incomplete; /* runs left out, all points together */
	/* RESULTFILE_FDSCALE only: */
	struct resultfile_fdstep *fdsteps; /* in file order */
	unsigned int nfdsteps;
	bool cold; /* options.cold */
	unsigned int threads; /* options.threads */
	bool private_fd_table; /* options.private_fd_table */
};

/*
 * Read @path into @rf. A missing or mistyped member is an error that names
 * the file and the member's JSON path ("error: 'x.json':
 * runs[2].ops_per_sec: expected a number"). Returns 0, -errno when the
 * file cannot be opened, or -EINVAL when it is not a vfsbench result of a
 * schema version this program reads; the message is printed. An fdscale
 * result is recognised by its schema and version only: it returns 0 with
 * kind RESULTFILE_FDSCALE and nothing else read, and callers decide
 * whether they take it. @rf needs resultfile_release() only after success.
 */
int resultfile_read(struct resultfile *rf, const char *path);

/*
 * resultfile_read(), and of an fdscale result also options.cold,
 * options.threads, options.private_fd_table and steps[] (each step's
 * num_fds at least 1), checked alike: for vfsbench plot.
 */
int resultfile_read_steps(struct resultfile *rf, const char *path);
void resultfile_release(struct resultfile *rf);

/* The point of @clients, or NULL. */
const struct resultfile_point *resultfile_point(const struct resultfile *rf,
						unsigned int clients);

/* The runs' values of @metric at @pt: ops_s, mb_s or p99_ns. */
const double *resultfile_values(const struct resultfile_point *pt,
				enum compare_metric metric);

/*
 * Make the labels of @n files unique: where basenames collide, the label
 * becomes the path without ".json"; a path given twice gets "#N", N its
 * position (1-based), on its later copies.
 */
void resultfile_labels(struct resultfile *rf, unsigned int n);

/*
 * What keeps @a and @b from being compared like for like: the loadfile's
 * content (sha256), engine, isolation (cwd, fs_struct, fd_table), depth,
 * time or loops, warmup, the loadfile dialect and, for dbench loadfiles,
 * dbench's flags. Writes a comma-separated list into @buf ("engine null vs
 * posix, depth 0 vs 3"), truncated to fit @len, and returns the number of
 * differences: 0 when the two are alike (@buf is then "").
 */
int resultfile_differences(const struct resultfile *a,
			   const struct resultfile *b, char *buf, size_t len);

#endif /* VB_COMPARE_RESULTFILE_H */
