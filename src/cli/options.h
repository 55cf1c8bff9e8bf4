/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_CLI_OPTIONS_H
#define VB_CLI_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/cpuopts.h"
#include "cli/usage.h"
#include "cli/variants.h"
#include "compare/compare.h"
#include "lang/loadfile.h"
#include "lang/ops.h"
#include "report/plot.h"
#include "report/report.h"
#include "run/config.h"
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
 * options.c (the main command) and subcommands.c. Each layer below gets
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

/*
 * Parse @argv into @cfg. Prints help, version and lists itself (on stdout)
 * and usage errors (on stderr, with a pointer to --help).
 */
enum options_action options_parse(struct config *cfg, int argc,
				  const char **argv);

/*
 * vfsbench [GLOBAL OPTIONS] SUBCOMMAND [ITS OPTIONS]: the index in @argv
 * of the subcommand (compare, plot, fdscale), the first word that is
 * neither an option of vfsbench nor an option's argument; 0 when there is
 * none, for a run.
 */
int options_find_subcommand(int argc, const char **argv);

/* What vfsbench takes before a subcommand. */
struct global_config {
	bool quiet; /* -q: no progress lines (fdscale's) */
	bool help; /* -h: the subcommand's --help */
};

/*
 * Parse the words of @argv before the subcommand at @at: -q, -h, and -V,
 * which prints the version (OPTIONS_EXIT_OK). Any other option there is
 * a usage error.
 */
enum options_action options_parse_global(struct global_config *g, int at,
					 const char **argv);

/*
 * Parse a CLIENTS argument: "8", or a doubling range "1-64" (1 2 4 .. 64,
 * plus the upper bound if it is not a power-of-two step). Appends to @cfg.
 * Returns 0 or -EINVAL / -ERANGE. ("topology" is handled by the caller:
 * cpuopts_topology_clients().)
 */
int options_parse_clients(struct config *cfg, const char *arg);

/*
 * The defaults that depend on the loadfile, once it is loaded: the sweep's
 * relative column is by MB/s (dbench's metric) for a dbench loadfile,
 * unless --relative says otherwise.
 */
void options_loadfile_defaults(struct config *cfg, const struct loadfile *lf);

void config_release(struct config *cfg);

enum options_action options_parse_compare(struct compare_config *cc, int argc,
					  const char **argv);
void compare_config_release(struct compare_config *cc);

enum options_action options_parse_plot(struct plot_config *pc, int argc,
				       const char **argv);
void plot_config_release(struct plot_config *pc);

/* vfsbench fdscale [OPTIONS]: struct fdscale_config is in fdscale.h */
struct fdscale_config;
enum options_action options_parse_fdscale(struct fdscale_config *fc, int argc,
					  const char **argv);
void fdscale_config_release(struct fdscale_config *fc);

#endif /* VB_CLI_OPTIONS_H */
