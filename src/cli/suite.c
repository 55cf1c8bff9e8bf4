/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vfsbench suite: a suite's index turned into the run it stands for,
 * and the list of the suites there are.
 */
#include <config.h>
#include "cli/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/escape.h"
#include "base/exit.h"
#include "base/msg.h"
#include "cli/settings.h"
#include "lang/builtin.h"

/* The default -t: 19 workloads at a few counts stay within minutes. */
#define SUITE_TIME "2"

static void usage(void)
{
	printf("Usage: vfsbench suite NAME [--lines=fxmark|lkp] [run options] [clients...]\n"
	       "       vfsbench suite --list\n"
	       "Runs every workload of suite NAME (an index loadfiles/NAME.suite, or the\n"
	       "path of one) over the client counts, with any option of a run (--runs,\n"
	       "--json, --placement, --profile, -e, -t: 2 s by default...), and prints a\n"
	       "table: workloads as rows, client counts as columns, in ops/s, relative,\n"
	       "efficiency and linear views. --lines also prints the figures in FxMark's\n"
	       "line format or under LKP's fxmark names. See doc/suites.md.\n");
}

/* NAME, its summary, then its workloads, within 79 columns. */
static void list_one(const struct suite *s, const char *summary, int indent)
{
	int col = indent + 23;

	printf("%*s%-12s %s\n%*s%s", indent, "", s->name, summary, indent + 13,
	       "", "workloads:");
	for (unsigned int i = 0; i < s->n; i++) {
		int w = (int)strlen(s->w[i].name) + 1;

		if (col + w > 79) {
			printf("\n%*s", indent + 23, "");
			col = indent + 23;
		}
		printf(" %s", s->w[i].name);
		col += w;
	}
	putchar('\n');
}

void suite_cli_list(int indent)
{
	for (const struct builtin_loadfile *b = builtin_loadfiles; b->name;
	     b++) {
		struct suite s;
		char summary[512], name[256];
		size_t l = strlen(b->name);

		if (!builtin_is_suite(b))
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)(l - 6), b->name);
		builtin_summary(b->text, b->name, summary, sizeof(summary));
		if (suite_parse(&s, name, b->name, b->text, strlen(b->text),
				NULL))
			continue;
		list_one(&s, summary, indent);
		suite_release(&s);
	}
}

/* Is @arg an option of a run that takes the next word as its value? */
static bool takes_value(const char *arg)
{
	static const char *const with[] = {
		"-c",	      "-D",	     "-t",	    "-e",
		"--time",     "--engine",    "--json",	    "--csv",
		"--runs",     "--placement", "--cwd",	    "--fs-struct",
		"--fd-table", "--depth",     "--warmup",    "--loops",
		"--profile",  "--resolve",   "--prefix",    "--dcache",
		"--variant",  "--order",     "--directory", "--loadfile",
		"--ministat", "--metric",
	};

	for (size_t i = 0; i < sizeof(with) / sizeof(*with); i++)
		if (!strcmp(arg, with[i]))
			return true;
	return false;
}

/* Does the command line say how long to measure (-t, --loops)? */
static bool measure_given(int argc, const char **argv, int at)
{
	for (int i = at + 1; i < argc; i++)
		if (!strncmp(argv[i], "-t", 2) ||
		    !strncmp(argv[i], "--time", 6) ||
		    !strncmp(argv[i], "--loops", 7))
			return true;
	return false;
}

int suite_cli_prepare(struct suite_cli *sc, int argc, const char **argv, int at)
{
	const char *name = NULL;
	int n = 0;

	memset(sc, 0, sizeof(*sc));
	for (int i = at + 1; i < argc; i++) {
		if (!strcmp(argv[i], "--list")) {
			suite_cli_list(0);
			return -1;
		}
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage();
			return -1;
		}
	}
	if (at + 1 >= argc || argv[at + 1][0] == '-') {
		error("suite: give the suite's name first (vfsbench suite --list lists them)");
		return VB_EXIT_USAGE;
	}
	name = argv[at + 1];
	if (suite_load(&sc->s, name))
		return VB_EXIT_USAGE;
	sc->argv = xcalloc((size_t)argc + 2 * sc->s.n + 4, sizeof(*sc->argv));
	sc->argv[n++] = argv[0];
	for (int i = 1; i < at; i++)
		sc->argv[n++] = argv[i];
	for (unsigned int i = 0; i < sc->s.n; i++) {
		sc->argv[n++] = "-c";
		sc->argv[n++] = sc->s.w[i].loadfile;
	}
	if (!measure_given(argc, argv, at))
		sc->argv[n++] = "-t" SUITE_TIME;
	for (int i = at + 2; i < argc; i++) {
		const char *a = argv[i];

		if (!strncmp(a, "--lines", 7) && (a[7] == '=' || !a[7])) {
			const char *v = a[7]	     ? a + 8 :
					i + 1 < argc ? argv[++i] :
						       "";

			if (!strcmp(v, "fxmark"))
				sc->lines = SUITE_LINES_FXMARK;
			else if (!strcmp(v, "lkp"))
				sc->lines = SUITE_LINES_LKP;
			else {
				error("bad --lines '%s': expected fxmark or lkp",
				      v);
				return VB_EXIT_USAGE;
			}
			continue;
		}
		if (!strcmp(a, "-c") || !strncmp(a, "--loadfile", 10) ||
		    (!strncmp(a, "-c", 2) && a[2])) {
			error("suite: -c: the suite names its loadfiles (give an index of your own for others)");
			return VB_EXIT_USAGE;
		}
		if (!strncmp(a, "--variant", 9)) {
			error("suite: --variant: each workload is a variant already (run a suite of your own to vary one)");
			return VB_EXIT_USAGE;
		}
		sc->cwd_set |= !strncmp(a, "--cwd", 5);
		sc->fs_set |= !strncmp(a, "--fs-struct", 11);
		sc->argv[n++] = a;
		if (takes_value(a) && i + 1 < argc)
			sc->argv[n++] = argv[++i];
	}
	sc->argc = n;
	return 0;
}

int suite_cli_apply(const struct suite_cli *sc, struct config *cfg)
{
	if (cfg->nvariants != sc->s.n) {
		char *name = escape_shown(sc->s.name);

		error("suite %s: %u workloads but %u variants", name, sc->s.n,
		      cfg->nvariants);
		free(name);
		return VB_EXIT_USAGE;
	}
	for (unsigned int i = 0; i < sc->s.n; i++) {
		struct variant_config *v = &cfg->variants[i];

		free(v->label);
		/* shown as any --variant label is: control bytes as \xNN */
		v->label = escape_shown(sc->s.w[i].name);
		if (!sc->cwd_set)
			v->run.cwd = sc->s.w[i].cwd == SUITE_CWD_SHARED ?
					     CWD_SHARED :
					     CWD_PRIVATE;
		/* FxMark and will-it-scale run processes: a cwd each */
		if (!sc->fs_set)
			v->run.fs = FS_PRIVATE;
	}
	cfg->report.suite = &sc->s;
	cfg->report.suite_lines = sc->lines;
	return 0;
}

void suite_cli_release(struct suite_cli *sc)
{
	suite_release(&sc->s);
	free(sc->argv);
	memset(sc, 0, sizeof(*sc));
}
