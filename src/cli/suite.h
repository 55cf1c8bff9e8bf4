/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_CLI_SUITE_H
#define VB_CLI_SUITE_H

#include "lang/suite.h"
#include "report/report.h"

struct config;

/*
 * vfsbench suite NAME [options] [clients...]: a run of every workload of
 * the suite's index, as if each loadfile were given with -c (so every run
 * option applies and the JSON holds one variant per workload), each in
 * its cwd mode and labelled with its name.
 */
struct suite_cli {
	struct suite s;
	enum suite_lines lines; /* --lines */
	int argc; /* the run's words: vfsbench -c ... -c ... [options] */
	const char **argv;
	bool cwd_set, fs_set; /* --cwd, --fs-struct given */
};

/*
 * Read the suite's own words from @argv (argv[@at] is "suite") and make
 * sc->argv. 0, -1 when it printed what was asked (--list, --help), or an
 * exit status.
 */
int suite_cli_prepare(struct suite_cli *sc, int argc, const char **argv,
		      int at);

/* Give each variant its workload's name and cwd mode: 0 or an exit status. */
int suite_cli_apply(const struct suite_cli *sc, struct config *cfg);

/* The suites, @indent columns in: suite --list, --list-loadfiles. */
void suite_cli_list(int indent);

void suite_cli_release(struct suite_cli *sc);

#endif /* VB_CLI_SUITE_H */
