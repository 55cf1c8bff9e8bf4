/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The result files of each command and what it reads, for the check
 * that no result file is another, or an input (workdir/outfile.h).
 */
#include <config.h>
#include "cli/outputs.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "cli/settings.h"
#include "cli/profile.h"
#include "fdscale/fdscale.h"
#include "workdir/outfile.h"
#include "report/plot.h"
#include "report/report.h"

/* The names of one invocation, and the strings made for them. */
struct names {
	struct outfile_name *n;
	size_t count;
	char **owned;
	size_t nowned;
};

static void add(struct names *ns, const char *opt, const char *path, bool input)
{
	if (!path)
		return;
	ns->n = xrealloc(ns->n, (ns->count + 1) * sizeof(*ns->n));
	ns->n[ns->count++] = (struct outfile_name){ .opt = opt,
						    .path = path,
						    .input = input };
}

/* add() of a name made here (@path, freed with @ns). */
static void add_owned(struct names *ns, const char *opt, char *path)
{
	if (!path)
		return;
	ns->owned = xrealloc(ns->owned, (ns->nowned + 1) * sizeof(char *));
	ns->owned[ns->nowned++] = path;
	add(ns, opt, path, false);
}

/* Check and free @ns. */
static enum options_action check(struct names *ns)
{
	enum options_action act = OPTIONS_RUN;
	char msg[8192 + 512];

	if (outfile_check(ns->n, ns->count, msg, sizeof(msg)))
		act = usage_error("%s", msg);
	for (size_t i = 0; i < ns->nowned; i++)
		free(ns->owned[i]);
	free(ns->owned);
	free(ns->n);
	return act;
}

enum options_action outputs_check(const struct config *cfg)
{
	struct names ns = { 0 };
	enum options_action act;
	char *ctl = NULL;

	add(&ns, "--json", cfg->json, false);
	add(&ns, "--csv", cfg->csv, false);
	for (unsigned int v = 0; v < cfg->nvariants; v++)
		for (unsigned int p = 0; p < cfg->run.nclients; p++) {
			unsigned int clients = cfg->run.clients[p];
			char *data = profiling_file(cfg, v, clients);
			char path[4096];

			/* each profile writes perf-N.data, perf-N.folded
			 * and perf lock record's perf-N.lock.data */
			if (data) {
				add_owned(&ns, "--profile",
					  profiling_folded_name(data));
				add_owned(&ns, "--profile",
					  profiling_lock_name(data));
			}
			add_owned(&ns, "--profile", data);
			if (!cfg->ministat)
				continue;
			report_ministat_path(path, sizeof(path), cfg->ministat,
					     cfg->nvariants > 1 ?
						     cfg->variants[v].label :
						     NULL,
					     clients);
			add_owned(&ns, "--ministat", xstrdup(path));
		}
	for (unsigned int v = 0; v < cfg->nvariants; v++)
		add(&ns, "-c", cfg->variants[v].loadfile, true);
	/* FIFO[,ACK]: both are perf's, not a result file's */
	if (cfg->perf_ctl) {
		char *comma;

		ctl = xstrdup(cfg->perf_ctl);
		comma = strchr(ctl, ',');
		if (comma) {
			*comma = '\0';
			add(&ns, "--perf-ctl", comma + 1, true);
		}
		add(&ns, "--perf-ctl", ctl, true);
	}
	act = check(&ns);
	free(ctl);
	return act;
}

enum options_action outputs_check_plot(const struct plot_config *pc)
{
	struct names ns = { 0 };

	add(&ns, "-o", pc->output, false);
	for (unsigned int i = 0; i < pc->nfiles; i++)
		add(&ns, "", pc->files[i], true);
	return check(&ns);
}

enum options_action outputs_check_record(const char *output, const char *log)
{
	struct names ns = { 0 };

	add(&ns, "-o", output, false);
	add(&ns, "--from-trace", log, true);
	return check(&ns);
}

enum options_action outputs_check_fdscale(const struct fdscale_config *fc)
{
	struct names ns = { 0 };

	add(&ns, "--json", fc->json, false);
	add(&ns, "--csv", fc->csv, false);
	return check(&ns);
}
