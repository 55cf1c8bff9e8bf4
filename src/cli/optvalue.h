/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_CLI_OPTVALUE_H
#define VB_CLI_OPTVALUE_H

#include <stdbool.h>

#include "cli/settings.h"
#include "cli/usage.h"

/*
 * The value popt returns for each option of the main table (options.c)
 * that is not a plain flag; --variant names the ones it may vary
 * (variantopts.c).
 */
enum {
	OPT_LOADFILE = 1,
	OPT_DIRECTORY,
	OPT_TIME,
	OPT_WARMUP,
	OPT_LOOPS,
	OPT_ENGINE,
	OPT_CWD,
	OPT_FS,
	OPT_FDT,
	OPT_DEPTH,
	OPT_RESOLVE,
	OPT_PREFIX,
	OPT_DCACHE,
	OPT_MAX_ERRORS,
	OPT_STOP_TIMEOUT,
	OPT_CLOCK,
	OPT_LATENCY_SAMPLE,
	OPT_RELATIVE,
	OPT_NULL_FAIL,
	OPT_DIALECT,
	OPT_FSINFO,
	OPT_FORMAT,
	OPT_RUNS,
	OPT_ORDER,
	OPT_SEED,
	OPT_DISTRIBUTE,
	OPT_CV_WARN,
	OPT_JSON,
	OPT_CSV,
	OPT_MINISTAT,
	OPT_VARIANT,
	OPT_PERCENTILES,
	OPT_UNITS,
	OPT_PLACEMENT,
	OPT_PROFILE,
	OPT_PERF_CTL,
	OPT_PROFILE_EVENT,
	OPT_KNEE,
	OPT_EXEC_BEFORE,
	OPT_EXEC_AFTER,
	OPT_URING_DEPTH,
	OPT_URING_FIXED, /* --variant uring-fixed=0,1 only: the option is a flag
			  */
	OPT_LIST_LOADFILES,
	OPT_LIST_OPS,
	OPT_VERSION,
	OPT_HELP,
	OPT_HELP_ALL,
	OPT_USAGE,
	OPT_QUIET, /* global_options only: the main table stores &quiet */
};

/*
 * Apply option @opt with its argument @arg (NULL for one without) to
 * @cfg: parsed, checked (a usage error names the option and what it
 * expected) and stored. @warmup_set, @time_set and @seed_set are set when
 * the option is --warmup, --time or --seed. --list-*, --version print and
 * return OPTIONS_EXIT_OK. --variant, --help and --usage are options.c's.
 */
enum options_action optvalue_apply(struct config *cfg, int opt, const char *arg,
				   bool *warmup_set, bool *time_set,
				   bool *seed_set);

#endif /* VB_CLI_OPTVALUE_H */
