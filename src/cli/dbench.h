/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_CLI_DBENCH_H
#define VB_CLI_DBENCH_H

#include "cli/options.h"
#include "report/report.h"

/*
 * The dbench personality's command line (`vfsbench dbench ... N`, or the
 * binary run as dbench): dbench's options into @cfg, as the main command
 * line fills it, and the output's settings into @dr. Prints its own help
 * and usage errors, as options_parse() does.
 */
enum options_action options_parse_dbench(struct config *cfg,
					 struct dbench_report *dr, int argc,
					 const char **argv);

/* Whether @argv0 names the personality: dbench or vfsbench-dbench. */
bool options_is_dbench(const char *argv0);

#endif /* VB_CLI_DBENCH_H */
