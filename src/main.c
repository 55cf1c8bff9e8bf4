/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * main(): options -> loadfile -> engine check -> work directory -> sweep
 * -> cleanup -> exit status. The only place besides die() that exits.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "loadfile.h"
#include "options.h"
#include "signals.h"
#include "sweep.h"
#include "util.h"
#include "workdir.h"

static int finish_workdir(const struct config *cfg, struct workdir *wd)
{
	int ret;

	if (cfg->skip_cleanup) {
		fprintf(stderr,
			"vfsbench: --skip-cleanup: files left in '%s'\n",
			wd->path);
		workdir_release(wd);
		return 0;
	}
	if (signals.abort_cleanup) {
		fprintf(stderr,
			"vfsbench: cleanup skipped after a second signal: files left in '%s'\n",
			wd->path);
		workdir_release(wd);
		return 0;
	}
	ret = workdir_remove(wd, &signals.abort_cleanup);
	if (ret == -EINTR) {
		fprintf(stderr,
			"vfsbench: cleanup interrupted by a second signal: files left in '%s'\n",
			wd->path);
		workdir_release(wd);
		return 0;
	}
	if (ret) {
		error("cleanup of '%s' failed: %s", wd->path, strerror(-ret));
		workdir_release(wd);
	}
	return ret;
}

int main(int argc, const char **argv)
{
	const struct engine *engine;
	struct loadfile lf;
	struct config cfg;
	struct workdir wd;
	struct sweep sw;
	int status, ret;

	signals_install();
	switch (options_parse(&cfg, argc, argv)) {
	case OPTIONS_RUN:
		break;
	case OPTIONS_EXIT_OK:
		config_release(&cfg);
		return VB_EXIT_OK;
	case OPTIONS_USAGE:
		config_release(&cfg);
		return VB_EXIT_USAGE;
	}
	if (loadfile_load(&lf, cfg.loadfile, &cfg.lopts)) {
		config_release(&cfg);
		return VB_EXIT_USAGE;
	}
	engine = engine_find(cfg.engine);
	if (engine_check(engine, &lf)) {
		status = VB_EXIT_USAGE;
		goto out_loadfile;
	}
	ret = workdir_create(&wd, cfg.directory);
	if (ret) {
		status = ret == -ENOENT || ret == -ENOTDIR || ret == -ELOOP ?
				 VB_EXIT_USAGE :
				 VB_EXIT_RUNTIME;
		goto out_loadfile;
	}
	status = sweep_execute(&sw, &cfg, &lf, engine, &wd);
	sweep_release(&sw);
	if (finish_workdir(&cfg, &wd) && status == VB_EXIT_OK)
		status = VB_EXIT_RUNTIME;
out_loadfile:
	loadfile_release(&lf);
	config_release(&cfg);
	return status;
}
