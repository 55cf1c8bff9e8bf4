/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vfsbench kernels: the guests' vfsbench arguments, checked on the host
 * by the main command's own parser and loadfile reader.
 */
#include <config.h>
#include "cli/kernelguest.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/alloc.h"
#include "cli/options.h"
#include "cli/settings.h"
#include "cli/usage.h"
#include "lang/loadfile.h"
#include "lang/reader.h"

/* What the guest cannot do, or vfsbench kernels does itself. */
static int refuse(const struct config *cfg)
{
	const char *what = NULL, *why = NULL;

	if (strcmp(cfg->directory, ".")) {
		what = "-D";
		why = "the guest's is its own: a tmpfs, or --fs's fresh disk";
	} else if (cfg->json || cfg->csv || cfg->ministat) {
		what = "--json, --csv and --ministat";
		why = "vfsbench kernels writes one result of every boot: give it --json, before '--'";
	} else if (cfg->cpus.profile || cfg->cpus.profile_all ||
		   cfg->perf_ctl) {
		what = "--profile and --perf-ctl";
		why = "the guest has no perf";
	} else if (cfg->lopts.read_outside || cfg->lopts.links_out) {
		what = "--read-outside and --links-out";
		why = "they reach the host's files, which the guest has none of";
	}
	if (!what)
		return 0;
	usage_error("%s in a guest's arguments: %s", what, why);
	return -EINVAL;
}

/* Carry @spec into the guest when it names a file here (not built in). */
static int carry(struct guest_plan *gp, const char *spec)
{
	struct stat st;

	if (stat(spec, &st))
		return 0;
	if (!S_ISREG(st.st_mode)) {
		usage_error(
			"loadfile '%s' is not a regular file: a pipe or a device cannot go into a guest",
			spec);
		return -EINVAL;
	}
	for (unsigned int i = 0; i < gp->nfiles; i++)
		if (!strcmp(gp->files[i], spec))
			return 0;
	gp->files = xrealloc(gp->files, (gp->nfiles + 1) * sizeof(*gp->files));
	gp->files[gp->nfiles++] = xstrdup(spec);
	return 0;
}

/* -t, its warmup and 10 s of setup per run, for every run asked. */
static unsigned long long estimate(const struct config *cfg)
{
	unsigned long long s = 0;

	for (unsigned int v = 0; v < cfg->nvariants; v++) {
		const struct run_config *r = &cfg->variants[v].run;
		unsigned long long per = r->time_ns / 1000000000ull + 10;

		if (r->loops || r->warmup_kind != WARMUP_TIME)
			return 0;
		per += r->warmup / 1000000000ull;
		s += per * r->runs * r->nclients;
	}
	return s;
}

int kernels_guest_check(struct guest_plan *gp, char *const *argv,
			unsigned int argc)
{
	const char **args = xcalloc(argc + 2, sizeof(*args));
	enum options_action act;
	struct config cfg;
	int ret = 0;

	memset(gp, 0, sizeof(*gp));
	/* not parsed: the parser would print them here */
	for (unsigned int i = 0; i < argc; i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help") ||
		    !strcmp(argv[i], "--help-all") ||
		    !strcmp(argv[i], "--usage") || !strcmp(argv[i], "-V") ||
		    !strcmp(argv[i], "--version") ||
		    !strncmp(argv[i], "--list-", 7)) {
			usage_error(
				"%s prints here, not in a guest: give a run after '--'",
				argv[i]);
			free(args);
			return -EINVAL;
		}
	args[0] = "vfsbench";
	for (unsigned int i = 0; i < argc; i++)
		args[i + 1] = argv[i];
	act = options_parse(&cfg, (int)argc + 1, args);
	usage_set_command("vfsbench kernels");
	if (act == OPTIONS_EXIT_OK)
		usage_error(
			"--help, --version and the listings print here, not in a guest: give a run after '--'");
	if (act != OPTIONS_RUN)
		ret = -EINVAL;
	if (!ret)
		ret = refuse(&cfg);
	for (unsigned int v = 0; !ret && v < cfg.nvariants; v++) {
		struct loadfile lf;

		ret = carry(gp, cfg.variants[v].loadfile);
		if (!ret && loadfile_load(&lf, cfg.variants[v].loadfile,
					  &cfg.variants[v].lopts))
			ret = -EINVAL;
		else if (!ret)
			loadfile_release(&lf);
	}
	if (!ret)
		gp->seconds = estimate(&cfg);
	config_release(&cfg);
	free(args);
	if (ret)
		guest_plan_release(gp);
	return ret;
}

void guest_plan_release(struct guest_plan *gp)
{
	for (unsigned int i = 0; i < gp->nfiles; i++)
		free(gp->files[i]);
	free(gp->files);
	memset(gp, 0, sizeof(*gp));
}
