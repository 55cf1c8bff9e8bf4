/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_CLI_USAGE_H
#define VB_CLI_USAGE_H

#include "base/compiler.h"

/* What main() should do after parsing a command line. */
enum options_action {
	OPTIONS_RUN,
	OPTIONS_EXIT_OK, /* --help, --version, --list-* already printed */
	OPTIONS_USAGE, /* bad usage, message printed: exit 2 */
};

/*
 * Usage errors of the command line: "vfsbench: <msg>" and a pointer to
 * the --help of the command being parsed, on stderr. Returns
 * OPTIONS_USAGE so parsers can return usage_error(...).
 */
enum options_action usage_error(const char *fmt, ...) PRINTF(1, 2);

/* The command usage errors point to; "vfsbench" until set. @cmd is kept. */
void usage_set_command(const char *cmd);

#endif /* VB_CLI_USAGE_H */
