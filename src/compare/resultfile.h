/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_COMPARE_RESULTFILE_H
#define VB_COMPARE_RESULTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compare/envfields.h"

/*
 * struct resultfile: one variant of a JSON result file (--json,
 * doc/json-schema.md) read back for vfsbench compare and plot: what was
 * measured (the loadfile and the settings that must match for a
 * like-for-like comparison) and, per client count, the figures of each
 * run that completed. A file of version 1, or of one variant, is one
 * struct resultfile; a file of several variants (several -c or
 * --variant in one invocation) is one per variant.
 */

/* The schema version of a vfsbench kernels result (report/kernels.c). */
#define RESULTFILE_KERNELS_VERSION 1

/*
 * The schema version written (report/json.c) and read back here. 2 added
 * variants[] and runs[].variant; version 1 files are still read.
 */
#define RESULTFILE_VERSION 2
/* vfsbench-fdscale's version, written and read: its format did not change. */
#define RESULTFILE_FDSCALE_VERSION 1

/* The most clients a run in a result file may have (run/runconfig.h's
 * MAX_CLIENTS, checked by report/json.c). */
#define RESULTFILE_MAX_CLIENTS 100000
/* options.uring_depth: --uring-depth's 256, and room to grow */
#define RESULTFILE_MAX_LANES 4096

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
	 * settings a chart names, read by resultfile_read() with steps only;
	 * the sweep members stay empty.
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

/*
 * The runs of one client count that ended "complete", in run order, with
 * what says whether a run can be trusted: runs[].rusage.starved and
 * runs[].idle_clients (false and 0 where the file does not have them).
 */
struct resultfile_point {
	unsigned int clients;
	unsigned int nruns;
	double *ops_s; /* [nruns] ops_per_sec */
	double *mb_s; /* [nruns] mb_per_sec */
	double *p99_ns; /* [nruns] p99_ns */
	unsigned int *index; /* [nruns] runs[].index: the run order */
	bool *starved; /* [nruns] */
	unsigned int *idle; /* [nruns] clients that measured no op */
	/* [nruns] runs[].incomplete not empty: not the run asked for */
	bool *unasked;
	/* [nruns] what the run's flags could account for: resultfile_bound() */
	double *bound;
	unsigned int incomplete; /* runs left out: "end" not "complete" */
};

/* What a run's record says about how far its figures can be trusted. */
struct resultfile_flags {
	bool starved;
	double cpu_share; /* -1: not recorded */
	double wait_share; /* -1: not recorded */
	unsigned int clients, idle;
	bool unasked;
	double stretch; /* window / -t (1: none, or --loops) */
};

/*
 * The factor by which a run's flags could have pulled its ops/s (or MB/s)
 * down, and its p99 up: 1 for a run with no flag; for a starved one, 1 /
 * its CPU share and 1 / (1 - its run-queue wait share), whichever is
 * larger; with clients that measured nothing, clients / those that did;
 * for one whose window overran or whose rank was late, window / -t.
 * INFINITY where nothing recorded bounds it. compare keeps a '*' that
 * the flagged runs' largest factor cannot explain (doc/compare.md).
 */
double resultfile_bound(const struct resultfile_flags *fl);

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
	unsigned int uring_depth; /* --uring-depth's lanes: 1 when absent */
	bool uring_fixed; /* --uring-fixed with -e uring: false when absent */
	char *dcache; /* "warm" (also when absent), "cold", "negative=N" */
	/* --resolve and --prefix: "cwd" and "private" when absent */
	char *walk_resolve, *walk_prefix;
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
	 * For tables and keys: the basename without ".json" or, in a file
	 * of several variants, the variant's label, control characters as
	 * '?'; see resultfile_labels().
	 */
	char *label;
	char *variant_label; /* variants[].label; NULL for one variant */
	unsigned int variant, nvariants; /* which of the file's variants */
	unsigned int file; /* the file's position among those read */
	/*
	 * environment.boot_id: the boot it ran in (NULL in files before it),
	 * compare's unit of sampling (compare.h)
	 */
	char *boot_id;
	/*
	 * A boot of a "vfsbench-kernels" file (vfsbench kernels --json):
	 * its kernel's index and label there, and the boot's position in
	 * the file; kernel_label NULL (and both 0) in any other file.
	 */
	unsigned int kernel;
	char *kernel_label;
	unsigned int boot;
	enum resultfile_kind kind;
	long long schema_version;
	char *loadfile; /* loadfile.name */
	char *sha256; /* loadfile.sha256 */
	struct resultfile_settings set;
	bool complete; /* false: the sweep stopped early */
	struct resultfile_point *points; /* options.clients order, unique */
	unsigned int npoints;
	unsigned int incomplete; /* runs left out, all points together */
	struct env_fields env; /* "environment", flattened */
	/* RESULTFILE_FDSCALE only: */
	struct resultfile_fdstep *fdsteps; /* in file order */
	unsigned int nfdsteps;
	bool cold; /* options.cold */
	unsigned int threads; /* options.threads */
	bool private_fd_table; /* options.private_fd_table */
	bool uring_fixed; /* options.uring_fixed (set.engine: options.engine) */
	/* "profiles" (--profile's summaries), this variant's; NULL: none */
	struct json_t *profiles;
};

/*
 * Read @path and append one struct resultfile per variant to *@rf (of
 * *@n, grown with realloc), each with file = @file. A missing or
 * mistyped member is an error that names the file and the member's JSON
 * path ("error: 'x.json': runs[2].ops_per_sec: expected a number").
 * Returns 0, -errno when the file cannot be opened or read, or -EINVAL
 * when it is not a vfsbench result of a schema version this program
 * reads; the message is printed and nothing is appended. -EINTR (a
 * signal while a FIFO's open or read blocked) comes without a message:
 * the caller stops. An fdscale result is
 * recognised by its schema and version only (one entry of kind
 * RESULTFILE_FDSCALE), unless @steps: then options.cold,
 * options.threads, options.private_fd_table and steps[] (each step's
 * num_fds at least 1) are read and checked alike, for vfsbench plot.
 * Callers decide whether they take it.
 */
int resultfile_read(const char *path, unsigned int file, bool steps,
		    struct resultfile **rf, unsigned int *n);
void resultfile_release(struct resultfile *rf);

/* Release @n entries and the array. */
void resultfile_release_all(struct resultfile *rf, unsigned int n);

/* The point of @clients, or NULL. */
const struct resultfile_point *resultfile_point(const struct resultfile *rf,
						unsigned int clients);

/* The runs' values of @metric at @pt: ops_s, mb_s or p99_ns. */
const double *resultfile_values(const struct resultfile_point *pt,
				enum compare_metric metric);

/*
 * Make the labels of @n entries unique: where a variant's label collides
 * with another label it becomes "BASENAME:VARIANT"; where basenames
 * collide, the label is made of the path without ".json" instead; an
 * entry read twice gets "#N", N its position (1-based), on its later
 * copies.
 */
void resultfile_labels(struct resultfile *rf, unsigned int n);

/*
 * What keeps @a and @b from being compared like for like: the loadfile's
 * content (sha256), engine, lanes (uring_depth), isolation (cwd,
 * fs_struct, fd_table), depth, dcache, time or loops, warmup, the loadfile
 * dialect and, for dbench loadfiles, dbench's flags. Writes a comma-separated
 * list into @buf ("engine null vs posix, depth 0 vs 3"), truncated to fit @len,
 * and returns the number of differences: 0 when the two are alike (@buf is then
 * "").
 */
int resultfile_differences(const struct resultfile *a,
			   const struct resultfile *b, char *buf, size_t len);

#endif /* VB_COMPARE_RESULTFILE_H */
