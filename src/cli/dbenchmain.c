/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The dbench personality: dbench's options, its one run, its report. */
#include <config.h>
#include "cli/dbenchmain.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/compiler.h"
#include "base/exit.h"
#include "base/msg.h"
#include "cli/dbench.h"
#include "cli/options.h"
#include "cli/steps.h"
#include "cli/walk.h"
#include "engine/engine.h"
#include "lang/loadfile.h"
#include "lang/reader.h"
#include "mpi/job.h"
#include "report/report.h"
#include "run/run.h"
#include "run/signals.h"
#include "run/sweep.h"
#include "sys/pipe.h"
#include "workdir/workdir.h"

/* The dbench personality's hooks: dbench's lines as the run goes. */
static void db_ready(const struct run *run, void *ctx)
{
	report_dbench_ready(ctx, run);
}

static void db_second(const struct run *run, const struct run_second *sec,
		      void *ctx)
{
	report_dbench_second(ctx, run, sec);
	steps_check_stdout();
}

static void db_run(const struct run *run, UNUSED const char *variant, void *ctx)
{
	report_dbench_passes(ctx, run);
}

/*
 * dbench's cleanup: DIR/clients goes unless --skip-cleanup keeps it for
 * the next run, or it is not vfsbench's (--adopt-clients).
 */
static int dbench_cleanup(const struct config *cfg, struct workdir *wd,
			  bool stuck)
{
	if (wd->foreign) {
		fprintf(stderr,
			"vfsbench: '%s' was not made by vfsbench: left in place\n",
			wd->path);
		workdir_release(wd);
		return 0;
	}
	return steps_finish_workdir(cfg->run.skip_cleanup, wd, stuck, false);
}

int dbenchmain_run(int argc, const char **argv)
{
	struct sweep_hooks hooks = {
		.run = db_run,
		.ready = db_ready,
		.second = db_second,
	};
	const struct engine *engine = engine_find("posix");
	struct loadfile *lf = xcalloc(1, sizeof(*lf));
	bool loaded = false, stuck = false;
	struct dbench_report dr;
	struct sweep_variant sv;
	struct config cfg;
	struct workdir wd;
	struct sweep sw;
	struct stat st;
	int status, ret;

	/* every rank would replay into the one DIR/clients */
	if (job_launched()) {
		error("the dbench personality runs as one process, not under mpirun: give the ranks vfsbench's own options (-c client.txt; MANY HOSTS in vfsbench(1))");
		free(lf);
		return VB_EXIT_USAGE;
	}
	switch (options_parse_dbench(&cfg, &dr, argc, argv)) {
	case OPTIONS_RUN:
		break;
	case OPTIONS_EXIT_OK:
		status = VB_EXIT_OK;
		goto out;
	case OPTIONS_USAGE:
		status = VB_EXIT_USAGE;
		goto out;
	}
	ret = loadfile_load(lf, cfg.loadfile, &cfg.lopts);
	if (ret) {
		/* a signal while a loadfile was read (a FIFO): its status */
		status = ret == -EINTR && signals.count ?
				 VB_EXIT_SIGNAL(signals.last) :
				 VB_EXIT_USAGE;
		goto out;
	}
	loaded = true;
	sv = (struct sweep_variant){
		.cfg = &cfg.run,
		.lf = lf,
		.engine = engine,
	};
	if (walk_check(&cfg.run, engine, lf)) {
		status = VB_EXIT_USAGE;
		goto out;
	}
	if (sweep_check_memory(&cfg.run, &sv, 1)) {
		status = VB_EXIT_RUNTIME;
		goto out;
	}
	if (steps_choose_clock(&cfg)) {
		status = VB_EXIT_USAGE;
		goto out;
	}
	ret = workdir_open_named(&wd, cfg.directory, "clients",
				 cfg.dbench_adopt);
	if (ret) {
		/* -EEXIST: not made by vfsbench; -EPERM: not provably ours */
		status = ret == -ENOENT || ret == -ENOTDIR || ret == -ELOOP ||
					 ret == -EEXIST || ret == -EPERM ?
				 VB_EXIT_USAGE :
				 VB_EXIT_RUNTIME;
		goto out;
	}
	if (!cfg.run.skip_cleanup && !wd.foreign) {
		steps_guard_workdir(&wd);
	}
	hooks.ctx = &dr;
	cfg.run.watch_stdout = !fstat(STDOUT_FILENO, &st) &&
			       (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
	report_dbench_header(&dr);
	steps_check_stdout();
	status = sweep_execute(&sw, &cfg.run, &sv, 1, &wd, &hooks);
	/* a stuck client may still be in the tree: keep it, whatever fails */
	if (sw.stuck)
		steps_guard_workdir(NULL);
	stuck = sw.stuck;
	/* dbench prints each failed op; here a count, before the table that
	 * harnesses cut out of the output */
	if (sw.nruns && sw.runs[0].total.unexpected)
		warning("%llu unexpected results (each op and errno: --vfsbench-report)",
			(unsigned long long)sw.runs[0].total.unexpected);
	report_dbench_cleanup(&dr, cfg.run.clients[0] * dr.per_proc);
	steps_guard_workdir(NULL);
	if (dbench_cleanup(&cfg, &wd, stuck) && status == VB_EXIT_OK)
		status = VB_EXIT_RUNTIME;
	report_dbench_cleanup(&dr, 0);
	if (sw.nruns && atomic_load(&sw.runs[0].state.end) != RUN_END_FAILED) {
		report_dbench_end(&dr, &sw.runs[0]);
		if (cfg.dbench_own_report)
			report_dbench_own(&cfg.report, &sw.runs[0]);
	}
	sweep_release(&sw);
	status = steps_end_status(status);
out:
	/* a stuck client still reads the loadfile's ops, until the exit */
	if (!stuck) {
		if (loaded)
			loadfile_release(lf);
		free(lf);
	}
	config_release(&cfg);
	return status;
}
