/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_CLI_HELP_H
#define VB_CLI_HELP_H

#include <popt.h>
#include <stdbool.h>
#include <stdio.h>

/*
 * The help of a command, laid out for 80 columns whatever the terminal
 * (COLUMNS is not read, so that it reads the same on a terminal, in a
 * pipe and in a test): "Usage: @prog @usage", wrapped, then one entry per
 * option of @table (short and long name, argument, then its description,
 * wrapped in a column of its own). @only: the long names to show, NULL
 * for all. No line is longer than HELP_WIDTH.
 */
#define HELP_WIDTH 79

void help_print(FILE *f, const char *prog, const char *usage,
		const struct poptOption *table, const char *const *only);

/*
 * vfsbench --help (@all false: the common options, and where the others
 * are) or --help-all (every option of @table), then the client counts,
 * the exit status and the subcommands.
 */
void help_main(FILE *f, const struct poptOption *table, bool all);

#endif /* VB_CLI_HELP_H */
