/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vfsbench compare, plot and fdscale: options in, a report or a chart out. */
#include <config.h>
#include "cli/submain.h"

#include "base/exit.h"
#include "base/msg.h"
#include "cli/outputs.h"
#include "compare/compareset.h"
#include "compare/lockdiff.h"
#include "compare/profdiff.h"
#include "fdscale/fdscale.h"
#include "report/lockcompare.h"
#include "report/plot.h"
#include "report/profcompare.h"
#include "report/report.h"
#include "run/signals.h"
#include "sys/env.h"

/* The profiles of the first two sides' first files, when both have. */
static int compare_profiles(const struct comparison *cmp,
			    const struct compare_config *cc)
{
	struct profdiff pd;
	struct lockdiff ld;

	if (cmp->nsides < 2)
		return VB_EXIT_OK;
	if (profdiff_build(&pd, cmp->sides[0].parts[0], cmp->sides[1].parts[0],
			   cc->correction, 1 - cc->confidence))
		return VB_EXIT_USAGE;
	report_profdiff(&pd);
	profdiff_release(&pd);
	lockdiff_build(&ld, cmp->sides[0].parts[0], cmp->sides[1].parts[0]);
	report_lockdiff(&ld);
	lockdiff_release(&ld);
	return VB_EXIT_OK;
}

int submain_compare(int argc, const char **argv)
{
	struct compare_config cc;
	enum options_action act = options_parse_compare(&cc, argc, argv);
	int status = act == OPTIONS_EXIT_OK ? VB_EXIT_OK : VB_EXIT_USAGE;
	struct compareset set;

	if (act == OPTIONS_RUN) {
		/* a stop while the files were read prints no table */
		if (!compareset_build(&set, &cc) && !signals.count) {
			report_compareset(&set);
			status = VB_EXIT_OK;
			for (unsigned int c = 0; c < set.ncmps && !status; c++)
				status = compare_profiles(&set.cmps[c], &cc);
		}
		compareset_release(&set);
	}
	compare_config_release(&cc);
	return signals.count ? VB_EXIT_SIGNAL(signals.last) : status;
}

int submain_plot(int argc, const char **argv)
{
	struct plot_config pc;
	enum options_action act = options_parse_plot(&pc, argc, argv);
	int status;

	/* no chart over a result file it reads */
	if (act == OPTIONS_RUN)
		act = outputs_check_plot(&pc);
	status = act == OPTIONS_EXIT_OK ? VB_EXIT_OK : VB_EXIT_USAGE;

	if (act == OPTIONS_RUN)
		status = plot_files(&pc);
	plot_config_release(&pc);
	return signals.count ? VB_EXIT_SIGNAL(signals.last) : status;
}

/*
 * @argc, @argv: fdscale's command line (argv[0] "fdscale"); @cmdc,
 * @cmdv: the whole one, recorded in the result file.
 */
int submain_fdscale(int argc, const char **argv, const struct global_config *g,
		    int cmdc, const char **cmdv)
{
	struct fdscale_config fc;
	enum options_action act = options_parse_fdscale(&fc, argc, argv);
	struct fdscale fs;
	struct env env;
	int status;

	if (act == OPTIONS_RUN)
		act = outputs_check_fdscale(&fc);
	status = act == OPTIONS_EXIT_OK ? VB_EXIT_OK : VB_EXIT_USAGE;
	if (act != OPTIONS_RUN)
		goto out;
	fc.quiet = fc.quiet || g->quiet;
	fc.argc = cmdc;
	fc.argv = cmdv;
	fc.stop = &signals.count;
	/* refused (io_uring disabled, an opcode missing): nothing run */
	status = VB_EXIT_USAGE;
	if (fdscale_usable(&fc))
		goto out;
	status = VB_EXIT_OK;
	if (fdscale_run(&fs, &fc) && !fs.stopped) {
		status = VB_EXIT_RUNTIME;
		goto out_release;
	}
	report_fdscale(&fs);
	/* no result file of a run cut short: nothing in it would say so */
	if (fs.stopped) {
		if (fc.json || fc.csv)
			warning("fdscale stopped by a signal: no result file written");
		goto out_release;
	}
	if (fc.json) {
		env_collect(&env, ".");
		if (report_fdscale_json(&fs, &env, fc.json))
			status = VB_EXIT_RUNTIME;
		env_release(&env);
	}
	if (fc.csv && report_fdscale_csv(&fs, fc.csv))
		status = VB_EXIT_RUNTIME;
out_release:
	fdscale_release(&fs);
out:
	fdscale_config_release(&fc);
	return signals.count ? VB_EXIT_SIGNAL(signals.last) : status;
}
