/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The subcommands' command lines: compare, plot and fdscale, each with its
 * own popt table and --help, parsed by one helper.
 */
#include <config.h>
#include "cli/options.h"

#include <errno.h>
#include <popt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/compiler.h"
#include "base/msg.h"
#include "base/units.h"
#include "cli/help.h"
#include "cli/usage.h"
#include "fdscale/fdscale.h"

static int parse_metric(const char *arg, enum compare_metric *m)
{
	if (!strcmp(arg, "ops"))
		*m = CMP_OPS;
	else if (!strcmp(arg, "mbps"))
		*m = CMP_MBPS;
	else if (!strcmp(arg, "p99"))
		*m = CMP_P99;
	else
		return -1;
	return 0;
}

/* Leftover arguments: the result files. */
static char **take_files(poptContext pc, unsigned int *n)
{
	const char **rest = poptGetArgs(pc);
	char **files;

	*n = 0;
	while (rest && rest[*n])
		(*n)++;
	files = xcalloc(*n + 1, sizeof(*files));
	for (unsigned int i = 0; i < *n; i++)
		files[i] = xstrdup(rest[i]);
	return files;
}

enum {
	OPT_SUB_METRIC = 1,
	OPT_SUB_CONFIDENCE,
	OPT_SUB_OUTPUT,
	OPT_SUB_HELP,
	OPT_SUB_TEST,
	OPT_SUB_CORRECTION,
	OPT_SUB_THRESHOLD,
	OPT_SUB_PVALUE,
};

static const struct poptOption compare_options[] = {
	{ "metric", 'm', POPT_ARG_STRING, NULL, OPT_SUB_METRIC,
	  "what to compare: ops (ops/s), mbps (MB/s) or p99 (99th percentile latency of all ops) (default: ops)",
	  "ops|mbps|p99" },
	{ "test", '\0', POPT_ARG_STRING, NULL, OPT_SUB_TEST,
	  "mwu: Mann-Whitney U on the medians, with the Hodges-Lehmann interval; welch: Welch's t on the means (default: mwu; welch where a side ran in several boots, each boot one sample)",
	  "mwu|welch" },
	{ "correction", '\0', POPT_ARG_STRING, NULL, OPT_SUB_CORRECTION,
	  "over the table's tests: bh (Benjamini-Hochberg: false discovery rate), holm (family-wise error) or none (default: bh)",
	  "bh|holm|none" },
	{ "confidence", '\0', POPT_ARG_STRING, NULL, OPT_SUB_CONFIDENCE,
	  "confidence level of the tests and intervals, in percent (default: 95)",
	  "PCT" },
	{ "threshold", '\0', POPT_ARG_STRING, NULL, OPT_SUB_THRESHOLD,
	  "never mark a change smaller than PCT percent (default: 1)", "PCT" },
	{ "pvalue", 'p', POPT_ARG_NONE, NULL, OPT_SUB_PVALUE,
	  "print each cell's p-value", NULL },
	{ "help", 'h', POPT_ARG_NONE, NULL, OPT_SUB_HELP,
	  "show this help and exit", NULL },
	POPT_TABLEEND
};

static int plot_log_y, plot_linear_y, plot_profile;

static const struct poptOption plot_options[] = {
	{ "output", 'o', POPT_ARG_STRING, NULL, OPT_SUB_OUTPUT,
	  "the chart to write: a .svg or .png file", "FILE" },
	{ "metric", 'm', POPT_ARG_STRING, NULL, OPT_SUB_METRIC,
	  "what to plot: ops (ops/s), mbps (MB/s) or p99 (default: ops)",
	  "ops|mbps|p99" },
	{ "log-y", '\0', POPT_ARG_NONE, &plot_log_y, 0,
	  "logarithmic y axes (default: each axis whose values span more than a decade)",
	  NULL },
	{ "linear-y", '\0', POPT_ARG_NONE, &plot_linear_y, 0,
	  "linear y axes, whatever the values span", NULL },
	{ "profile", '\0', POPT_ARG_NONE, &plot_profile, 0,
	  "instead: one file's profiles (vfsbench --profile), each top symbol's share stacked against client count",
	  NULL },
	{ "help", 'h', POPT_ARG_NONE, NULL, OPT_SUB_HELP,
	  "show this help and exit", NULL },
	POPT_TABLEEND
};

/*
 * Parse a subcommand's options; argv[0] is the subcommand. Calls @fn for
 * each option with its argument.
 */
static enum options_action
parse_sub(const char *name, const struct poptOption *table, const char *usage,
	  int argc, const char **argv,
	  enum options_action (*fn)(void *ctx, int opt, const char *arg),
	  void *ctx, char ***files, unsigned int *nfiles)
{
	static char ctxname[32]; /* usage errors name it afterwards */
	enum options_action act = OPTIONS_RUN;
	const char **args;
	poptContext pc;
	int rc;

	snprintf(ctxname, sizeof(ctxname), "vfsbench %s", name);
	usage_set_command(ctxname);
	/* popt names the program after argv[0] in --help */
	args = xcalloc((size_t)argc + 1, sizeof(*args));
	memcpy(args, argv, (size_t)argc * sizeof(*args));
	args[0] = ctxname;
	pc = poptGetContext(ctxname, argc, args, table, 0);
	poptSetOtherOptionHelp(pc, usage);
	while (act == OPTIONS_RUN && (rc = poptGetNextOpt(pc)) > 0) {
		char *arg = poptGetOptArg(pc);

		if (rc == OPT_SUB_HELP) {
			help_print(stdout, ctxname, usage, table, NULL);
			act = OPTIONS_EXIT_OK;
		} else {
			act = fn(ctx, rc, arg);
		}
		free(arg);
	}
	if (act == OPTIONS_RUN && rc < -1)
		act = usage_error("%s: %s", poptBadOption(pc, 0),
				  poptStrerror(rc));
	if (act == OPTIONS_RUN)
		*files = take_files(pc, nfiles);
	poptFreeContext(pc);
	free(args);
	return act;
}

static enum options_action compare_opt(void *ctx, int opt, const char *arg)
{
	struct compare_config *cc = ctx;
	char *end;

	switch (opt) {
	case OPT_SUB_METRIC:
		if (parse_metric(arg, &cc->metric))
			return usage_error(
				"bad --metric '%s': expected ops, mbps or p99",
				arg);
		break;
	case OPT_SUB_TEST:
		if (!strcmp(arg, "mwu"))
			cc->test = TEST_MWU;
		else if (!strcmp(arg, "welch"))
			cc->test = TEST_WELCH;
		else
			return usage_error(
				"bad --test '%s': expected mwu or welch", arg);
		cc->test_given = true;
		break;
	case OPT_SUB_CORRECTION:
		if (!strcmp(arg, "bh"))
			cc->correction = PADJUST_BH;
		else if (!strcmp(arg, "holm"))
			cc->correction = PADJUST_HOLM;
		else if (!strcmp(arg, "none"))
			cc->correction = PADJUST_NONE;
		else
			return usage_error(
				"bad --correction '%s': expected bh, holm or none",
				arg);
		break;
	case OPT_SUB_THRESHOLD:
		errno = 0;
		cc->threshold = strtod(arg, &end) / 100;
		if (errno || *end || end == arg || !(cc->threshold >= 0) ||
		    !(cc->threshold < 10))
			return usage_error(
				"bad --threshold '%s': expected a percentage from 0 to 1000, such as 1",
				arg);
		break;
	case OPT_SUB_PVALUE:
		cc->pvalues = true;
		break;
	default:
		errno = 0;
		cc->confidence = strtod(arg, &end) / 100;
		if (errno || *end || end == arg || !(cc->confidence > 0.5) ||
		    !(cc->confidence < 1))
			return usage_error(
				"bad --confidence '%s': expected a percentage between 50 and 100, such as 95",
				arg);
	}
	return OPTIONS_RUN;
}

/* Does @opt (as on the command line) take the next argument as its value? */
static bool takes_value(const struct poptOption *table, const char *opt)
{
	for (; table->longName || table->shortName; table++) {
		if (table->argInfo != POPT_ARG_STRING)
			continue;
		if ((opt[1] == '-' && !strcmp(opt + 2, table->longName)) ||
		    (opt[1] == table->shortName && !opt[2]))
			return true;
	}
	return false;
}

/*
 * The sides of "A1.json A2.json -- B1.json B2.json": popt drops the first
 * "--", so the command line is split here. Options (and their values)
 * go to @opts, the files in order to @files with group[i] the side of
 * each. A "--" before the first file only ends the options.
 */
static enum options_action split_sides(struct compare_config *cc, int argc,
				       const char **argv, const char **opts,
				       int *nopts)
{
	bool only_files = false, seps = false;
	unsigned int g = 0, in_group = 0;

	cc->files = xcalloc((size_t)argc + 1, sizeof(*cc->files));
	cc->group = xcalloc((size_t)argc + 1, sizeof(*cc->group));
	*nopts = 0;
	opts[(*nopts)++] = argv[0];
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			if (!cc->nfiles && !seps && !only_files) {
				only_files = true;
				continue;
			}
			if (!in_group)
				return usage_error(
					"an empty side: '--' separates the files of one side from the next, as in 'A1.json A2.json -- B1.json B2.json'");
			seps = true;
			g++;
			in_group = 0;
		} else if (!only_files && a[0] == '-' && a[1]) {
			opts[(*nopts)++] = a;
			if (takes_value(compare_options, a) && i + 1 < argc)
				opts[(*nopts)++] = argv[++i];
		} else {
			cc->group[cc->nfiles] = g;
			cc->files[cc->nfiles++] = xstrdup(a);
			in_group++;
		}
	}
	if (seps && !in_group)
		return usage_error(
			"an empty side: '--' separates the files of one side from the next, as in 'A1.json A2.json -- B1.json B2.json'");
	cc->ngroups = g + 1;
	if (!seps) {
		free(cc->group);
		cc->group = NULL;
		cc->ngroups = 0;
	}
	return OPTIONS_RUN;
}

enum options_action options_parse_compare(struct compare_config *cc, int argc,
					  const char **argv)
{
	const char **opts = xcalloc((size_t)argc + 1, sizeof(*opts));
	enum options_action act;
	unsigned int nrest = 0;
	char **rest = NULL;
	int nopts;

	memset(cc, 0, sizeof(*cc));
	cc->confidence = 0.95;
	cc->threshold = COMPARE_THRESHOLD;
	cc->correction = PADJUST_BH;
	act = split_sides(cc, argc, argv, opts, &nopts);
	if (act == OPTIONS_RUN)
		act = parse_sub(
			"compare", compare_options,
			"A.json [B.json...] | A1.json... -- B1.json... [-- C1.json...]",
			nopts, opts, compare_opt, cc, &rest, &nrest);
	/* options only: popt leaves nothing */
	for (unsigned int i = 0; i < nrest; i++)
		free(rest[i]);
	free(rest);
	free(opts);
	if (act == OPTIONS_RUN && !cc->nfiles)
		act = usage_error(
			"compare needs result files: A.json B.json, or one file of several variants (vfsbench --json FILE ...)");
	return act;
}

static enum options_action plot_opt(void *ctx, int opt, const char *arg)
{
	struct plot_config *pc = ctx;

	if (opt == OPT_SUB_METRIC) {
		if (parse_metric(arg, &pc->metric))
			return usage_error(
				"bad --metric '%s': expected ops, mbps or p99",
				arg);
		return OPTIONS_RUN;
	}
	free(pc->output);
	pc->output = xstrdup(arg);
	return OPTIONS_RUN;
}

enum options_action options_parse_plot(struct plot_config *pc, int argc,
				       const char **argv)
{
	enum options_action act;
	const char *dot;

	memset(pc, 0, sizeof(*pc));
	plot_log_y = plot_linear_y = plot_profile = 0;
	act = parse_sub("plot", plot_options, "FILE.json... -o CHART.svg|png",
			argc, argv, plot_opt, pc, &pc->files, &pc->nfiles);
	pc->yscale = plot_log_y	   ? PLOT_Y_LOG :
		     plot_linear_y ? PLOT_Y_LINEAR :
				     PLOT_Y_AUTO;
	pc->profile = plot_profile;
	if (act != OPTIONS_RUN)
		return act;
	if (plot_log_y && plot_linear_y)
		return usage_error("--log-y and --linear-y: choose one");
	if (!pc->nfiles)
		return usage_error("plot needs at least one result file");
	if (!pc->output)
		return usage_error("plot needs -o FILE.svg or -o FILE.png");
	dot = strrchr(pc->output, '.');
	if (!dot || (strcmp(dot, ".svg") && strcmp(dot, ".png")))
		return usage_error(
			"plot output '%s': expected a .svg or .png file",
			pc->output);
	return OPTIONS_RUN;
}

static void free_files(char **files, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		free(files[i]);
	free(files);
}

void compare_config_release(struct compare_config *cc)
{
	free_files(cc->files, cc->nfiles);
	free(cc->group);
	memset(cc, 0, sizeof(*cc));
}

void plot_config_release(struct plot_config *pc)
{
	free_files(pc->files, pc->nfiles);
	free(pc->output);
	memset(pc, 0, sizeof(*pc));
}

enum {
	OPT_FD_MAX = OPT_SUB_HELP + 1,
	OPT_FD_STEP,
	OPT_FD_LOOPS,
	OPT_FD_FREE,
	OPT_FD_EVICT,
	OPT_FD_THREADS,
	OPT_FD_FILE,
	OPT_FD_JSON,
	OPT_FD_CSV,
	OPT_FD_SEED,
	OPT_FD_ENGINE,
};

static int fd_cold, fd_private, fd_quiet, fd_fixed;
static bool evict_set; /* --evict given */

static const struct poptOption fdscale_options[] = {
	{ "max", '\0', POPT_ARG_STRING, NULL, OPT_FD_MAX,
	  "largest number of open fds (default: 1000000)", "N" },
	{ "step", '\0', POPT_ARG_STRING, NULL, OPT_FD_STEP,
	  "growth factor from one step to the next (default: 1.25)", "F" },
	{ "loops", '\0', POPT_ARG_STRING, NULL, OPT_FD_LOOPS,
	  "timed opens per freed position and step (default: 10)", "L" },
	{ "free", '\0', POPT_ARG_STRING, NULL, OPT_FD_FREE,
	  "which fds are freed and refilled: a comma list of low, middle, high, random (default: low,middle)",
	  "LIST" },
	{ "cold", '\0', POPT_ARG_NONE, &fd_cold, 0,
	  "evict the CPU caches before every timed open (cache-cold)", NULL },
	{ "evict", '\0', POPT_ARG_STRING, NULL, OPT_FD_EVICT,
	  "with --cold, what to evict: l2 (L1 and L2: a buffer of 2 x L2), llc (every level: 2 x the last-level cache) or the buffer's SIZE (default: l2)",
	  "l2|llc|SIZE" },
	{ "threads", '\0', POPT_ARG_STRING, NULL, OPT_FD_THREADS,
	  "threads freeing and refilling at the same time (default: 1)", "T" },
	{ "private-fd-table", '\0', POPT_ARG_NONE, &fd_private, 0,
	  "each thread gets its own fd table (unshare(CLONE_FILES)), for contrast",
	  NULL },
	{ "file", '\0', POPT_ARG_STRING, NULL, OPT_FD_FILE,
	  "what the timed open() opens (default: /dev/null)", "PATH" },
	{ "engine", 'e', POPT_ARG_STRING, NULL, OPT_FD_ENGINE,
	  "what the opens and closes go through: posix (open(2), close(2)) or uring (the thread's io_uring: openat and close) (default: posix)",
	  "posix|uring" },
	{ "uring-fixed", '\0', POPT_ARG_NONE, &fd_fixed, 0,
	  "with --engine uring, open into the ring's file table (direct descriptors) instead of the fd table",
	  NULL },
	{ "seed", '\0', POPT_ARG_STRING, NULL, OPT_FD_SEED,
	  "seed of --free random (default: 1)", "N" },
	{ "json", '\0', POPT_ARG_STRING, NULL, OPT_FD_JSON,
	  "write the steps, settings and environment to FILE as JSON", "FILE" },
	{ "quiet", 'q', POPT_ARG_NONE, &fd_quiet, 0,
	  "no progress lines on stderr", NULL },
	{ "csv", '\0', POPT_ARG_STRING, NULL, OPT_FD_CSV,
	  "write one CSV row per step to FILE", "FILE" },
	{ "help", 'h', POPT_ARG_NONE, NULL, OPT_SUB_HELP,
	  "show this help and exit", NULL },
	POPT_TABLEEND
};

static enum options_action parse_free(struct fdscale_config *fc,
				      const char *arg)
{
	static const struct {
		const char *name;
		unsigned int bit;
	} names[] = { { "low", FDPOS_LOW },
		      { "middle", FDPOS_MIDDLE },
		      { "high", FDPOS_HIGH },
		      { "random", FDPOS_RANDOM } };
	const char *s = arg;
	size_t l = strlen(arg);

	fc->positions = 0;
	if (!l || arg[l - 1] == ',')
		return usage_error(
			"bad --free '%s': expected a comma list of low, middle, high, random",
			arg);
	while (*s) {
		size_t len = strcspn(s, ",");
		unsigned int i;

		for (i = 0; i < ARRAY_SIZE(names); i++)
			if (strlen(names[i].name) == len &&
			    !strncmp(names[i].name, s, len))
				break;
		if (i == ARRAY_SIZE(names))
			return usage_error(
				"bad --free '%s': expected a comma list of low, middle, high, random",
				arg);
		fc->positions |= names[i].bit;
		s += len + (s[len] == ',');
	}
	if (!fc->positions)
		return usage_error(
			"bad --free '%s': expected a comma list of low, middle, high, random",
			arg);
	return OPTIONS_RUN;
}

static enum options_action fdscale_opt(struct fdscale_config *fc, int opt,
				       const char *arg)
{
	uint64_t v;
	char *end;

	switch (opt) {
	case OPT_FD_MAX:
		if (units_parse_uint(arg, 100000000, &fc->max) || !fc->max)
			return usage_error(
				"bad --max '%s': expected 1 to 100000000", arg);
		break;
	case OPT_FD_STEP:
		errno = 0;
		fc->step = strtod(arg, &end);
		if (errno || *end || end == arg || !(fc->step >= 1.01) ||
		    !(fc->step <= 100))
			return usage_error(
				"bad --step '%s': expected a factor from 1.01 to 100, such as 1.25",
				arg);
		break;
	case OPT_FD_LOOPS:
		if (units_parse_uint(arg, 1000000, &v) || !v)
			return usage_error(
				"bad --loops '%s': expected a positive number",
				arg);
		fc->loops = (unsigned int)v;
		break;
	case OPT_FD_FREE:
		return parse_free(fc, arg);
	case OPT_FD_EVICT:
		evict_set = true;
		if (!strcmp(arg, "l2")) {
			fc->evict = FDEVICT_L2;
		} else if (!strcmp(arg, "llc")) {
			fc->evict = FDEVICT_LLC;
		} else if (units_parse_size(arg, &fc->evict_bytes) ||
			   fc->evict_bytes < 4096 ||
			   fc->evict_bytes > (16ull << 30)) {
			return usage_error(
				"bad --evict '%s': expected l2, llc or a size from 4k to 16g",
				arg);
		} else {
			fc->evict = FDEVICT_SIZE;
		}
		break;
	case OPT_FD_THREADS:
		if (units_parse_uint(arg, 1024, &v) || !v)
			return usage_error(
				"bad --threads '%s': expected 1 to 1024", arg);
		fc->threads = (unsigned int)v;
		break;
	case OPT_FD_ENGINE:
		if (!strcmp(arg, "posix"))
			fc->engine = FDENGINE_POSIX;
		else if (!strcmp(arg, "uring"))
			fc->engine = FDENGINE_URING;
		else
			return usage_error(
				"bad --engine '%s': expected posix or uring",
				arg);
		break;
	case OPT_FD_FILE:
		free((char *)fc->file);
		fc->file = xstrdup(arg);
		break;
	case OPT_FD_SEED:
		if (units_parse_uint(arg, INT64_MAX, &fc->seed))
			return usage_error(
				"bad --seed '%s': expected a number below 2^63",
				arg);
		break;
	case OPT_FD_JSON:
		free(fc->json);
		fc->json = xstrdup(arg);
		break;
	case OPT_FD_CSV:
		free(fc->csv);
		fc->csv = xstrdup(arg);
		break;
	default:
		BUG("unhandled fdscale option %d", opt);
	}
	return OPTIONS_RUN;
}

static enum options_action fdscale_opt_ctx(void *ctx, int opt, const char *arg)
{
	return fdscale_opt(ctx, opt, arg);
}

enum options_action options_parse_fdscale(struct fdscale_config *fc, int argc,
					  const char **argv)
{
	enum options_action act;
	unsigned int nargs = 0;
	char **args = NULL;

	memset(fc, 0, sizeof(*fc));
	fc->max = 1000000;
	fc->step = 1.25;
	fc->loops = 10;
	fc->positions = FDPOS_LOW | FDPOS_MIDDLE;
	fc->threads = 1;
	fc->seed = 1;
	fd_cold = fd_private = fd_quiet = fd_fixed = 0;
	evict_set = false;
	act = parse_sub("fdscale", fdscale_options, "[OPTIONS]", argc, argv,
			fdscale_opt_ctx, fc, &args, &nargs);
	if (act == OPTIONS_RUN && nargs)
		act = usage_error("fdscale takes no arguments ('%s')", args[0]);
	free_files(args, nargs);
	fc->cold = fd_cold;
	fc->private_table = fd_private;
	fc->quiet = fd_quiet;
	fc->uring_fixed = fd_fixed;
	if (act == OPTIONS_RUN && evict_set && !fc->cold)
		act = usage_error("--evict needs --cold");
	if (act == OPTIONS_RUN && fc->uring_fixed &&
	    fc->engine != FDENGINE_URING)
		act = usage_error("--uring-fixed needs --engine uring");
	/* a ring's file table is its thread's own already */
	if (act == OPTIONS_RUN && fc->uring_fixed && fc->private_table)
		act = usage_error(
			"--uring-fixed measures each ring's own file table: --private-fd-table has no table to give it");
	/* every thread writes its own buffer in cold mode */
	if (act == OPTIONS_RUN && fc->cold &&
	    (fc->evict == FDEVICT_SIZE ? fc->evict_bytes :
					 fdscale_evict_default(fc->evict)) *
			    fc->threads >
		    (8ull << 30))
		act = usage_error(
			"--cold with %u threads would write more than 8 GiB of eviction buffers; use fewer threads or a smaller --evict",
			fc->threads);
	if (!fc->file)
		fc->file = xstrdup("/dev/null");
	return act;
}

void fdscale_config_release(struct fdscale_config *fc)
{
	free((char *)fc->file);
	free(fc->json);
	free(fc->csv);
	memset(fc, 0, sizeof(*fc));
}
