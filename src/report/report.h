/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_REPORT_REPORT_H
#define VB_REPORT_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "report/unitcol.h"
#include "run/sweep.h"

struct comparison;
struct compareset;
struct fdscale;
struct env;
struct layout;
struct loadfile;
struct loadfile_opts;
struct run;
struct run_config;
struct sweep;
struct perf_profile;
struct lock_stat;
struct perf_counter;
struct workdir;

/* Which per-op tables the report prints. */
/* vfsbench suite --lines: the table's figures also in a peer's lines */
enum suite_lines { SUITE_LINES_NONE, SUITE_LINES_FXMARK, SUITE_LINES_LKP };

struct suite;

enum report_format {
	FORMAT_AUTO, /* native; both for a dbench loadfile */
	FORMAT_NATIVE,
	FORMAT_DBENCH, /* dbench's table only, for its parsers */
	FORMAT_BOTH,
};

/*
 * struct report_config: how to report, and what the result files record
 * of the command line as given (strings owned by the caller).
 */
struct report_config {
	enum metric metric; /* the sweep table's relative column */
	enum report_format format;
	double cv_warn; /* warn when a point's CV is above this */
	int argc;
	const char **argv;
	const char *loadfile; /* -c as given */
	const char *directory; /* -D as given */
	const char *engine;
	const struct loadfile_opts *lopts;
	/* --percentiles: ab's table after each run, when npercentiles */
	const double *percentiles;
	unsigned int npercentiles;
	/* --units: of the latency columns; LATENCY_UNIT_AUTO: per column */
	enum latency_unit units;
	/*
	 * [nvariants]: for each variant of the sweep, what the result
	 * files record of it: -c as given, the engine, the loadfile options
	 */
	const struct report_variant *variants;
	unsigned int nvariants;
	bool no_dbench_line; /* report_run() without its Throughput line */
	/* --json: a result is kept to be compared (the header says more) */
	bool json;
	/*
	 * An MPI job (doc/multi-host.md), or NULL: its ranks and hosts;
	 * which ranks work in rank 0's work directory ([nranks]); and each
	 * rank's environment as JSON text ([nranks], for report_json())
	 */
	const struct layout *layout;
	const bool *attached;
	char *const *envs;
	/* --profile (counts, or none) and --perf-ctl as given (or NULL) */
	const unsigned int *profile;
	unsigned int nprofile;
	const char *perf_ctl;
	const char *profile_event; /* --profile-event, or NULL */
	/* --profile's files read back, for the JSON; --knee's threshold */
	const struct report_profile *profiles;
	unsigned int nprofiles;
	double knee;
	/* --clock as given (auto, tsc or monotonic); why the TSC does not
	 * time the ops (NULL when it does): the JSON's clock record */
	const char *clock_option;
	const char *clock_why;
	/* --resolve abs: the components from / to the work directory and
	 * the mount points they cross (sys/mountwalk.h); 0 otherwise */
	unsigned int abs_components, abs_mounts;
	/* vfsbench suite: its index (NULL otherwise), --lines, the fs type
	 * and FxMark's media name of it (sys/media.h; NULL: not known) */
	const struct suite *suite;
	enum suite_lines suite_lines;
	const char *suite_fs, *suite_media;
};

/* What the result files record of one variant of the sweep. */
struct report_variant {
	const char *loadfile; /* -c as given */
	const char *engine;
	const struct loadfile_opts *lopts;
};

/*
 * The human report on stdout, the only place results are written. Each
 * run ends with dbench's final line,
 * "Throughput X MB/sec  N clients  N procs  max_latency=Y ms",
 * spaced exactly as dbench prints it, for existing harness parsers.
 */
void report_header(const struct report_config *rc, const struct run_config *cfg,
		   const struct sweep_variant *v, unsigned int nvariants,
		   const struct workdir *wd, const struct env *env);
/*
 * The header's lines on the machine (report/machine.c): the CPUs the
 * process may use, their topology and where the clients are pinned; the
 * environment that moves results (sys/env.h), in two lines (@json: why
 * what could not be read was not, where a result file keeps it).
 */
void report_machine(const struct sweep_variant *v, unsigned int nvariants,
		    const struct env *env, bool json);
/* The placement a variant's setup line names: none, compact, spread, list. */
const char *report_placement(const struct run_config *cfg);
/* --dcache as the setup line and the JSON name it: "warm", "cold",
 * "negative=N", into @buf of REPORT_DCACHE_LEN. */
/*
 * Whether a variant of engine @engine ran with --uring-fixed: the flag
 * changes nothing in another engine's variants.
 */
bool report_uring_fixed(const struct run_config *cfg, const char *engine);
#define REPORT_DCACHE_LEN 24
const char *report_dcache(const struct run_config *cfg, char *buf);
/*
 * After a run's CPU line: its clients' noise (CPU time, migrations,
 * involuntary switches), a warning for each pinned client that
 * migrated and for clients that shared a CPU, and its profile.
 */
void report_noise(const struct run *run);

/* One perf.data of --profile, once perf has written it, and read back. */
struct report_profile {
	const char *variant; /* the variant's label, NULL for one */
	unsigned int vindex; /* the variant's index */
	unsigned int clients;
	const char *file;
	bool ok; /* perf exited with status 0 */
	const char *folded; /* its folded stacks, NULL: none written */
	const struct perf_profile *prof; /* NULL: perf script failed */
	const char *event_asked; /* --profile-event, or NULL */
	/* perf stat's counters of the same windows, [PERF_STAT_NEVENTS]
	 * (sys/perfstat.h); NULL when it did not run: counters_absent why */
	const struct perf_counter *counters;
	const char *counters_absent;
	/* perf lock record's file, NULL: none kept; perf lock contention's
	 * top locks of the same windows or why none (locks->absent); NULL
	 * when perf record itself failed */
	const char *lock_file;
	const struct lock_stat *locks;
};

/*
 * The perf.data files of --profile, after the sweep, and where the time
 * went (report/profile.c): a table per variant, the knee's verdict.
 */
void report_profiles(const struct report_config *rc, const struct sweep *sw,
		     const struct report_profile *p, unsigned int n);
/* One run's report; @variant: its variant's label, or NULL. */
void report_run(const struct report_config *rc, const struct run *run,
		const char *variant);
/*
 * ab's "Percentage of the requests served within a certain time": for
 * each of rc->percentiles, the latency within which that share of the
 * run's ops was served, per op kind and over all ops, from the merged
 * histograms (report/percentiles.c).
 */
void report_percentiles(const struct report_config *rc, const struct run *run);
/* ab's Connection Times block: min, mean, sd, median, max per op, in all. */
void report_conntimes(const struct report_config *rc, const struct run *run);
/*
 * The sweep table of each variant (printed when two or more runs were
 * measured) and, with several variants, the table of all of them, each
 * against the first, as vfsbench compare prints it.
 */
void report_sweep(const struct report_config *rc, const struct sweep *sw);

/*
 * Every table (a sweep's, a suite's, compare's and so a run's variants)
 * marks a cell of starved runs '!' and says why after it: "! starved:
 * COUNTS: " and this.
 */
#define REPORT_STARVED_WHY \
	"their clients waited for a CPU, so ops/s is too low and latency too high"

/* vfsbench suite's table (report/suite.c), after its sweep. */
void report_suite_table(const struct report_config *rc, const struct sweep *sw);
void report_variants(const struct report_config *rc, const struct sweep *sw);

/*
 * Files (written beside their target and renamed into place, so nothing
 * is half-written; 0 or -1 with a message):
 * report_json(): everything, in the schema of doc/json-schema.md;
 * report_csv(): one row per run and op kind, plus one "all" row per run;
 * report_ministat(): PREFIX-N.txt per client count N, one value of the
 * sweep's metric (ops/s or MB/s) per run per line, for ministat(1).
 */
int report_json(const struct report_config *rc, const struct sweep *sw,
		const struct env *env, const char *path);
int report_csv(const struct sweep *sw, const char *path);
int report_ministat(const struct report_config *rc, const struct sweep *sw,
		    const char *prefix);
/*
 * The name of --ministat's file for @clients: PREFIX-N.txt, or
 * PREFIX-LABEL-N.txt (@label not NULL: one of several variants).
 */
void report_ministat_path(char *buf, size_t len, const char *prefix,
			  const char *label, unsigned int clients);

/*
 * vfsbench fdscale: one line per step in fd-scale-bench's format,
 * "num_fds: N, best cost: X us, worst cost: Y us", after a header saying
 * cache-hot or cache-cold; and the JSON (schema "vfsbench-fdscale",
 * doc/json-schema.md) and CSV files.
 */
void report_fdscale(const struct fdscale *fs);
int report_fdscale_json(const struct fdscale *fs, const struct env *env,
			const char *path);
int report_fdscale_csv(const struct fdscale *fs, const char *path);

/* The table of vfsbench compare (struct comparison: compare.h). */
void report_compare(const struct comparison *cmp);

/*
 * Where the boots are the unit (comparison.by_boot): each side's spread
 * between its boots beside the spread of the runs within a boot, per
 * client count, and what their ratio says of how many boots a
 * comparison needs. Part of report_compare()'s output.
 */
void report_boot_spread(const struct comparison *cmp);

/*
 * vfsbench compare's whole output (struct compareset: compareset.h): the
 * one table, or a table per workload ("Workload NAME" before each) and
 * a line per workload that some files lack.
 */
void report_compareset(const struct compareset *set);

/*
 * The dbench personality's output (report/dbench.c), line for line as
 * dbench prints it: the settings (filled by cli/dbench.c), and what the
 * run's seconds leave for the last lines (the Throughput line takes the
 * last execute line's MB/s and the worst of their latencies, as dbench's
 * does).
 */
struct run_second;
struct dbench_report {
	unsigned int procs; /* threads: dbench's processes */
	unsigned int per_proc; /* --clients-per-process */
	unsigned int timelimit, warmup; /* s, for the "Running for" line */
	const char *loadfile;
	bool upstream_names; /* the table with upstream's names and order */
	bool machine_readable, per_client, show_execute_time;
	bool sync_open, sync_dirs; /* the Throughput line's notes */
	bool timed; /* the phases end by time (not --run-once) */
	/* from the seconds so far */
	double throughput, max_latency_ms, execute_s;
	unsigned int lines, last_label;
	bool executed, last_warm;
};

void report_dbench_header(const struct dbench_report *dr);
void report_dbench_ready(struct dbench_report *dr, const struct run *run);
void report_dbench_second(struct dbench_report *dr, const struct run *run,
			  const struct run_second *s);
void report_dbench_passes(const struct dbench_report *dr,
			  const struct run *run);
/* "N  cleanup T sec": @left clients still cleaning up. */
void report_dbench_cleanup(const struct dbench_report *dr, unsigned int left);
void report_dbench_end(const struct dbench_report *dr, const struct run *run);
/* --vfsbench-report: the native report of the run, below a line of its own. */
void report_dbench_own(const struct report_config *rc, const struct run *run);

#endif /* VB_REPORT_REPORT_H */
