/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_CLI_SETTINGS_H
#define VB_CLI_SETTINGS_H

#include <stdbool.h>

#include "cli/cpuopts.h"
#include "cli/variants.h"
#include "lang/loadfile.h"
#include "lang/ops.h"
#include "report/report.h"
#include "run/runconfig.h"
#include "run/layout.h"

/* --clock: what times the ops (main() decides, base/clock.h converts). */
enum clock_choice {
	CLOCK_CHOICE_AUTO, /* the TSC where sys/tsc.h says it is usable */
	CLOCK_CHOICE_TSC, /* the TSC, or an error where it is not usable */
	CLOCK_CHOICE_MONOTONIC, /* clock_gettime(CLOCK_MONOTONIC) */
};

/*
 * struct config: every setting of a run, filled from the command line by
 * options_parse() and read-only afterwards. The popt tables live in
 * options.c (the main command) and subcommands.c, the main command's
 * handlers in optvalue.c and variantopts.c. Each layer below gets
 * its own part as plain data: run (the sweep, its runs and clients),
 * report and lopts (how to read the loadfile).
 */
struct config {
	struct run_config run;
	struct report_config report;
	struct loadfile_opts lopts; /* dialect and dbench translation */
	char *loadfile; /* path or built-in name: the first -c */
	char **loadfiles; /* every -c, in order */
	unsigned int nloadfiles;
	struct variant_axis *axes; /* --variant */
	unsigned int naxes;
	/* what main() runs: at least one, the first for the header */
	struct variant_config *variants;
	unsigned int nvariants;
	bool fsinfo_varies; /* --variant fsinfo=...: dbench loadfiles only */
	double *percentiles; /* --percentiles */
	char *directory; /* -D */
	char *engine;
	char *basedir; /* realpath of directory, owned; lopts.basedir */
	char *json; /* --json FILE */
	char *csv; /* --csv FILE */
	char *ministat; /* --ministat PREFIX */
	int null_fail[OP_NR]; /* null engine: errno to return per op kind */
	bool relative_set; /* --relative given */
	enum clock_choice clock; /* --clock */
	/* the dbench personality (cli/dbench.c) */
	bool dbench_adopt; /* --adopt-clients */
	bool dbench_own_report; /* --vfsbench-report */
	bool seed_set; /* --seed given: else rank 0's clock's, in MPI */
	enum distribute distribute; /* clients over an MPI job's hosts */
	char *placement; /* --placement as given, NULL: none */
	struct cpu_config cpus; /* affinity, topology, --profile */
	char *perf_ctl; /* --perf-ctl FIFO[,ACK] */
	char *profile_event; /* --profile-event */
	char *exec_before, *exec_after; /* --exec-before, --exec-after */
};

void config_release(struct config *cfg);

#endif /* VB_CLI_SETTINGS_H */
