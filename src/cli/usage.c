/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Usage errors, shared by the main command line and the subcommands.
 */
#include <config.h>
#include "cli/usage.h"

#include <stdarg.h>
#include <stdio.h>

static const char *usage_cmd = "vfsbench";

void usage_set_command(const char *cmd)
{
	usage_cmd = cmd;
}

enum options_action usage_error(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "vfsbench: %s\nTry '%s --help' for more information.\n",
		msg, usage_cmd);
	return OPTIONS_USAGE;
}
