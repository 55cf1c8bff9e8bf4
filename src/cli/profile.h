/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_CLI_PROFILE_H
#define VB_CLI_PROFILE_H

#include "workdir/outfile.h"
#include "sys/perf.h"
#include "sys/perfctl.h"
#include "stats/lockstat.h"
#include "stats/perfprofile.h"
#include "report/report.h"

struct config;
struct sweep_variant;

/* The top locks perf lock contention is asked for, per point. */
#define PROFILING_LOCKS 10
struct sweep;

/*
 * struct profiling: the perf controls of a sweep (--profile,
 * --perf-ctl), set up by main() before anything is created: either the
 * user's perf behind --perf-ctl's FIFOs, or one perf record that
 * vfsbench starts on itself per variant and profiled client count. Each
 * variant's table (sweep_variant.perf, .perf_file) points into it.
 */
struct profiling {
	struct perf_ctl fifo; /* --perf-ctl */
	bool have_fifo;
	struct perf_record *rec; /* [nrec] --profile without --perf-ctl */
	unsigned int nrec;
	unsigned int *rec_variant, *rec_clients; /* [nrec] */
	struct outfile *out; /* [nrec] the temporary file perf writes */
	char **name; /* [nrec] the file it becomes */
	/* [nrec] perf lock record's the same way: "perf-4.lock.data" */
	struct outfile *lock_out;
	char **lock_name;
	const struct perf_ctl **ctl; /* [nvariants * nclients] */
	const char **file; /* [nvariants * nclients] */
	unsigned int nvariants;
	/* [nrec] once stopped: each file read back, and its folded stacks */
	struct perf_profile *prof;
	bool *read;
	char **folded;
	/* [nrec] perf lock contention of each lock file, or why none */
	struct lock_stat *locks;
	bool *lock_kept; /* [nrec] the lock file is in place */
	struct report_profile *rp;
};

/*
 * Open --perf-ctl's FIFOs or start --profile's perf records, and fill
 * each variant's perf and perf_file in @sv. Returns 0 (nothing to do
 * also), or -1 with a message, everything undone.
 */
int profiling_start(struct profiling *pf, const struct config *cfg,
		    struct sweep_variant *sv);

/*
 * Stop the perf records (they write their files), read each back with
 * perf script into shares and a PREFIX.folded file beside it, and report
 * them (the table after the sweep @sw, may be NULL). pf->rp[0..nrec)
 * holds them for the JSON until profiling_release(). Returns 0, or -1
 * when a perf failed or a file could not be read or written.
 */
int profiling_stop(struct profiling *pf, const struct config *cfg,
		   const struct sweep *sw);

void profiling_release(struct profiling *pf);

/*
 * The perf data file --profile writes for variant @v at @clients
 * ("perf-4.data"), to be freed; NULL when there is none (not a profiled
 * count, or --perf-ctl: the user's perf writes its own).
 */
char *profiling_file(const struct config *cfg, unsigned int v,
		     unsigned int clients);

/* The folded stacks beside perf.data file @data: "perf-4.folded". */
char *profiling_folded_name(const char *data);

/* The lock contention beside perf.data file @data: "perf-4.lock.data". */
char *profiling_lock_name(const char *data);

#endif /* VB_CLI_PROFILE_H */
