/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The clean subcommand: its command line, and what it says it removed.
 */
#include <config.h>
#include "cli/clean.h"

#include <errno.h>
#include <popt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/escape.h"
#include "base/exit.h"
#include "cli/options.h"
#include "cli/usage.h"
#include "run/signals.h"
#include "workdir/stale.h"

enum { OPT_CLEAN_DIR = 1, OPT_CLEAN_HELP, OPT_CLEAN_ASSUME_GONE };

static const struct poptOption clean_options[] = {
	{ "directory", 'D', POPT_ARG_STRING, NULL, OPT_CLEAN_DIR,
	  "the -D directory whose left-behind work directories to remove",
	  "DIR" },
	{ "assume-gone", '\0', POPT_ARG_NONE, NULL, OPT_CLEAN_ASSUME_GONE,
	  "remove trees made in another PID namespace or on another boot or host too: you know their vfsbench has ended",
	  NULL },
	{ "help", 'h', POPT_ARG_NONE, NULL, OPT_CLEAN_HELP,
	  "show this help and exit", NULL },
	POPT_TABLEEND
};

/*
 * -D DIR into *@dir (caller frees), --assume-gone into *@assume; an
 * options_action.
 */
static enum options_action parse(int argc, const char **argv, char **dir,
				 bool *assume)
{
	enum options_action act = OPTIONS_RUN;
	const char **args;
	poptContext pc;
	int rc;

	*dir = NULL;
	*assume = false;
	usage_set_command("vfsbench clean");
	/* popt names the program after argv[0] in --help */
	args = xcalloc((size_t)argc + 1, sizeof(*args));
	memcpy(args, argv, (size_t)argc * sizeof(*args));
	args[0] = "vfsbench clean";
	pc = poptGetContext("vfsbench clean", argc, args, clean_options, 0);
	poptSetOtherOptionHelp(pc, "-D DIR [--assume-gone]");
	while (act == OPTIONS_RUN && (rc = poptGetNextOpt(pc)) > 0) {
		char *arg = poptGetOptArg(pc);

		if (rc == OPT_CLEAN_HELP) {
			poptPrintHelp(pc, stdout, 0);
			act = OPTIONS_EXIT_OK;
		} else if (rc == OPT_CLEAN_ASSUME_GONE) {
			*assume = true;
		} else {
			free(*dir);
			*dir = arg;
			arg = NULL;
		}
		free(arg);
	}
	if (act == OPTIONS_RUN && rc < -1)
		act = usage_error("%s: %s", poptBadOption(pc, 0),
				  poptStrerror(rc));
	if (act == OPTIONS_RUN && poptPeekArg(pc))
		act = usage_error("unexpected argument '%s'", poptPeekArg(pc));
	if (act == OPTIONS_RUN && !*dir)
		act = usage_error("clean needs -D DIR");
	poptFreeContext(pc);
	free(args);
	return act;
}

int clean_main(int argc, const char **argv)
{
	enum options_action act;
	struct stale s;
	bool assume;
	char *dir;
	int ret, status;

	act = parse(argc, argv, &dir, &assume);
	if (act != OPTIONS_RUN) {
		free(dir);
		return act == OPTIONS_EXIT_OK ? VB_EXIT_OK : VB_EXIT_USAGE;
	}
	ret = stale_scan(&s, dir);
	if (ret == -ENOENT || ret == -ENOTDIR || ret == -ELOOP) {
		status = VB_EXIT_USAGE;
		goto out;
	}
	if (ret) {
		status = VB_EXIT_RUNTIME;
		goto out;
	}
	s.assume_gone = assume;
	ret = stale_remove(&s, &signals.count);
	for (unsigned int i = 0; i < s.n; i++) {
		char *name;

		if (s.tree[i].kind != STALE_REMOVED)
			continue;
		name = escape_shown(dir);
		fprintf(stderr,
			"vfsbench clean: removed '%s/%s' (left by pid %ld%s)\n",
			name, s.tree[i].name, s.tree[i].pid,
			s.tree[i].elsewhere ?
				" of another PID namespace or boot, assumed gone" :
				"");
		free(name);
	}
	status = ret ? VB_EXIT_RUNTIME : VB_EXIT_OK;
out:
	stale_release(&s);
	free(dir);
	return signals.count ? VB_EXIT_SIGNAL(signals.last) : status;
}
