/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_CLI_SUBMAIN_H
#define VB_CLI_SUBMAIN_H

/*
 * The subcommands that run no sweep: compare, plot and fdscale. Each
 * takes its own command line (argv[0] its name) and returns the exit
 * status (base/exit.h).
 */
#include "cli/options.h"

int submain_compare(int argc, const char **argv);
int submain_plot(int argc, const char **argv);
/* @cmdc, @cmdv: the whole command line, recorded in the result file. */
int submain_fdscale(int argc, const char **argv, const struct global_config *g,
		    int cmdc, const char **cmdv);

#endif /* VB_CLI_SUBMAIN_H */
