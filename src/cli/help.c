/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --help for every command: popt's own (poptPrintHelp) squeezes every
 * description into the columns its longest option leaves, 25 of them for
 * the main command; this one caps the option column, so descriptions get
 * 47 columns or more, and never passes 80.
 */
#include <config.h>
#include "cli/help.h"

#include <stdbool.h>
#include <string.h>

/* Where descriptions start; a longer option column goes on a line alone. */
#define HELP_DESC_COL 32

/* The argument's name as popt shows it: argDescrip, else its type's. */
static const char *arg_name(const struct poptOption *o)
{
	switch (o->argInfo & POPT_ARG_MASK) {
	case POPT_ARG_NONE:
	case POPT_ARG_VAL:
		return NULL;
	case POPT_ARG_INT:
		return o->argDescrip ? o->argDescrip : "INT";
	case POPT_ARG_LONG:
		return o->argDescrip ? o->argDescrip : "LONG";
	case POPT_ARG_FLOAT:
		return o->argDescrip ? o->argDescrip : "FLOAT";
	case POPT_ARG_DOUBLE:
		return o->argDescrip ? o->argDescrip : "DOUBLE";
	default:
		return o->argDescrip ? o->argDescrip : "STRING";
	}
}

/*
 * @text from column @col (where the cursor is), words wrapped to lines
 * that start at column @indent; a newline in @text starts such a line
 * too (a usage of two forms); a word longer than a whole line is cut.
 * Ends the last line.
 */
static void wrap(FILE *f, const char *text, int col, int indent)
{
	const char *p = text;

	while (*p) {
		size_t n = strcspn(p, " \n");
		int room = HELP_WIDTH - col - (col > indent ? 1 : 0);

		if (*p == '\n') {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
			p++;
			continue;
		}
		if (!n) {
			p++;
			continue;
		}
		if ((int)n > room && col > indent) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
			continue;
		}
		if (col > indent) {
			fputc(' ', f);
			col++;
		}
		if ((int)n > HELP_WIDTH - col)
			n = (size_t)(HELP_WIDTH - col);
		fwrite(p, 1, n, f);
		col += (int)n;
		p += n;
	}
	fputc('\n', f);
}

static bool shown(const struct poptOption *o, const char *const *only)
{
	if (!only)
		return true;
	for (; *only; only++)
		if (o->longName && !strcmp(o->longName, *only))
			return true;
	return false;
}

void help_print(FILE *f, const char *prog, const char *usage,
		const struct poptOption *table, const char *const *only)
{
	int col;

	col = fprintf(f, "Usage: %s", prog);
	if (usage)
		wrap(f, usage, col, 7);
	else
		fputc('\n', f);
	for (const struct poptOption *o = table; o->longName || o->shortName;
	     o++) {
		const char *arg = arg_name(o);
		char left[256];
		int n;

		if (!shown(o, only))
			continue;
		if (o->shortName && o->longName)
			n = snprintf(left, sizeof(left), "  -%c, --%s%s%s",
				     o->shortName, o->longName, arg ? "=" : "",
				     arg ? arg : "");
		else if (o->longName)
			n = snprintf(left, sizeof(left), "      --%s%s%s",
				     o->longName, arg ? "=" : "",
				     arg ? arg : "");
		else
			n = snprintf(left, sizeof(left), "  -%c%s%s",
				     o->shortName, arg ? " " : "",
				     arg ? arg : "");
		if (n < 0)
			continue;
		if (!o->descrip || n > HELP_DESC_COL - 2 ||
		    n >= (int)sizeof(left)) {
			/* its indent kept: the option column is parsed */
			fprintf(f, "%.*s", 2 + (int)strspn(left + 2, " "),
				left);
			wrap(f, left + 2 + strspn(left + 2, " "),
			     2 + (int)strspn(left + 2, " "), 8);
			if (!o->descrip)
				continue;
			fprintf(f, "%*s", HELP_DESC_COL, "");
		} else {
			fprintf(f, "%s%*s", left, HELP_DESC_COL - n, "");
		}
		wrap(f, o->descrip, HELP_DESC_COL, HELP_DESC_COL);
	}
}

/*
 * What -h shows: what a first sweep, a comparison's inputs and a look at
 * the ops need. The rest is one --help-all away.
 */
static const char *const common[] = {
	"loadfile", "variant",	      "directory", "time", "warmup",   "loops",
	"engine",   "placement",      "runs",	   "json", "csv",      "quiet",
	"list-ops", "list-loadfiles", "version",   "help", "help-all", NULL,
};

void help_main(FILE *f, const struct poptOption *table, bool all)
{
	help_print(f, "vfsbench", "[OPTIONS] CLIENTS...", table,
		   all ? NULL : common);
	if (!all)
		fputs("\nThese are the common options: vfsbench --help-all lists all of them,\n"
		      "and vfsbench(1) describes each one.\n",
		      f);
	fputs("\nCLIENTS: one count (8), several (1 2 4 8) or a doubling range (1-64).\n"
	      "Exit status: 0 ok, 1 unexpected results under --strict or --max-errors,\n"
	      "2 bad usage or loadfile, 3 setup or run failure, 129/130/143 on\n"
	      "SIGHUP/SIGINT/SIGTERM, 141 when standard output is closed.\n"
	      "\nSubcommands: vfsbench [-q|-V|-h] SUBCOMMAND [OPTIONS] ...: compare,\n"
	      "plot, fdscale, suite, record, kernels, dbench or clean (vfsbench\n"
	      "SUBCOMMAND --help lists each one's options).\n",
	      f);
}
