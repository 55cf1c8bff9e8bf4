/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_CLI_OUTPUTS_H
#define VB_CLI_OUTPUTS_H

#include "cli/usage.h"

struct config;
struct fdscale_config;
struct plot_config;

/*
 * The files an invocation writes and reads, checked before anything runs
 * (outfile_check(), workdir/outfile.h): no two outputs the same file, no
 * output an input. The main command's outputs are --json, --csv, every
 * --ministat PREFIX-N.txt and every --profile perf-N.data, perf-N.folded
 * and perf-N.lock.data it may write (with the variants' labels: a
 * suite's are its workloads' names, given before the check),
 * its inputs the loadfiles (every -c) and --perf-ctl's FIFOs; plot's
 * output is -o, its inputs the result files; fdscale's outputs are --json
 * and --csv; record's output is -o, its input --from-trace's log (or
 * none: NULL). OPTIONS_RUN, or OPTIONS_USAGE with the message printed.
 */
enum options_action outputs_check(const struct config *cfg);
enum options_action outputs_check_plot(const struct plot_config *pc);
enum options_action outputs_check_fdscale(const struct fdscale_config *fc);
enum options_action outputs_check_record(const char *output, const char *log);

#endif /* VB_CLI_OUTPUTS_H */
