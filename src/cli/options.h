/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_CLI_OPTIONS_H
#define VB_CLI_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "lang/loadfile.h"
#include "lang/ops.h"

/*
 * struct config: every setting of a run, filled from the command line by
 * options_parse() and read-only afterwards. The popt tables live in
 * options.c (the main command) and options-sub.c (the subcommands).
 */
enum cwd_mode {
	CWD_PRIVATE, /* clients/clientN per client (dbench's layout) */
	CWD_SHARED, /* one directory for all clients */
};

enum fs_mode {
	FS_PRIVATE, /* unshare(CLONE_FS) per client */
	FS_SHARED, /* the process's fs_struct, shared by all clients */
};

enum fdt_mode {
	FDT_SHARED, /* one fd table for the process (threads) */
	FDT_PRIVATE, /* unshare(CLONE_FILES) per client */
};

enum warmup_kind {
	WARMUP_TIME,
	WARMUP_PASSES,
};

enum metric {
	METRIC_OPS,
	METRIC_MBPS,
};

/* The order of a sweep's runs when --runs repeats each client count. */
enum run_order {
	ORDER_SEQUENTIAL, /* 1,1,1,2,2,2 */
	ORDER_INTERLEAVED, /* 1,2,1,2,1,2 */
	ORDER_RANDOM, /* a shuffle, seeded (--seed) */
};

/* Which per-op tables the report prints. */
enum report_format {
	FORMAT_AUTO, /* native; both for a dbench loadfile */
	FORMAT_NATIVE,
	FORMAT_DBENCH, /* dbench's table only, for its parsers */
	FORMAT_BOTH,
};

#define MAX_CLIENTS 100000

struct config {
	char *loadfile; /* path or built-in name */
	char *directory; /* -D */
	char *engine;
	uint64_t time_ns; /* measurement time; unused with loops */
	uint64_t loops; /* passes per client; 0: run for time_ns */
	enum warmup_kind warmup_kind;
	uint64_t warmup; /* ns or passes */
	enum cwd_mode cwd;
	enum fs_mode fs;
	enum fdt_mode fdt;
	unsigned int depth;
	bool skip_cleanup;
	bool strict;
	bool quiet;
	uint64_t max_errors; /* 0: no limit */
	enum metric metric; /* the sweep table's relative column */
	enum report_format format;
	struct loadfile_opts lopts; /* dialect and dbench translation */
	char *basedir; /* realpath of directory, owned; lopts.basedir */
	unsigned int runs; /* repeats per client count */
	enum run_order order;
	uint64_t seed; /* for ORDER_RANDOM */
	double cv_warn; /* warn when a point's CV is above this */
	char *json; /* --json FILE */
	char *csv; /* --csv FILE */
	char *ministat; /* --ministat PREFIX */
	int argc; /* the command line, recorded in results */
	const char **argv;
	int null_fail[OP_NR]; /* null engine: errno to return per op kind */
	unsigned int *clients; /* the sweep, in order */
	unsigned int nclients;
};

/* What main() should do after parsing. */
enum options_action {
	OPTIONS_RUN,
	OPTIONS_EXIT_OK, /* --help, --version, --list-* already printed */
	OPTIONS_USAGE, /* bad usage, message printed: exit 2 */
};

/*
 * Parse @argv into @cfg. Prints help, version and lists itself (on stdout)
 * and usage errors (on stderr, with a pointer to --help).
 */
enum options_action options_parse(struct config *cfg, int argc,
				  const char **argv);

/*
 * Parse a CLIENTS argument: "8", or a doubling range "1-64" (1 2 4 .. 64,
 * plus the upper bound if it is not a power-of-two step). Appends to @cfg.
 * Returns 0 or -EINVAL / -ERANGE.
 */
int options_parse_clients(struct config *cfg, const char *arg);

void config_release(struct config *cfg);

/* vfsbench compare A.json B.json [C.json ...] */
enum compare_metric {
	CMP_OPS,
	CMP_MBPS,
	CMP_P99,
};

struct compare_config {
	enum compare_metric metric;
	double confidence; /* 0.95 */
	char **files; /* owned */
	unsigned int nfiles;
};

enum options_action options_parse_compare(struct compare_config *cc, int argc,
					  const char **argv);

/* vfsbench plot FILE.json... -o chart.svg|png */
struct plot_config {
	enum compare_metric metric;
	char *output;
	char **files; /* owned */
	unsigned int nfiles;
};

enum options_action options_parse_plot(struct plot_config *pc, int argc,
				       const char **argv);
void plot_config_release(struct plot_config *pc);

/* vfsbench fdscale [OPTIONS]: struct fdscale_config is in fdscale.h */
struct fdscale_config;
enum options_action options_parse_fdscale(struct fdscale_config *fc, int argc,
					  const char **argv);
void fdscale_config_release(struct fdscale_config *fc);
void compare_config_release(struct compare_config *cc);

#endif /* VB_CLI_OPTIONS_H */
