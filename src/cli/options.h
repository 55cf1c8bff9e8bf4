/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_CLI_OPTIONS_H
#define VB_CLI_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/settings.h"
#include "cli/usage.h"
#include "compare/compare.h"
#include "lang/loadfile.h"
#include "report/plot.h"

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
