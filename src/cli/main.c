/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * main(): options -> loadfile -> engine check -> work directory -> sweep
 * -> cleanup -> exit status. The only place besides die() that exits.
 */
#include <config.h>

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/exit.h"
#include "base/msg.h"
#include "cli/clean.h"
#include "cli/dbenchmain.h"
#include "cli/dbench.h"
#include "cli/kernels.h"
#include "cli/options.h"
#include "cli/outputs.h"
#include "cli/profile.h"
#include "cli/ranks.h"
#include "cli/recorder.h"
#include "cli/steps.h"
#include "cli/submain.h"
#include "cli/suite.h"
#include "cli/walk.h"
#include "engine/engine.h"
#include "engine/uring.h"
#include "lang/loadfile.h"
#include "lang/reader.h"
#include "mpi/job.h"
#include "report/report.h"
#include "run/meet.h"
#include "run/run.h"
#include "run/signals.h"
#include "run/sweep.h"
#include "workdir/workdir.h"
#include "sys/env.h"
#include "sys/media.h"
#include "sys/pipe.h"

/*
 * The status with what was lost on the way out: a write to standard
 * output or error that failed, in any command. A pipe whose reader has
 * gone gives 141, quietly, as a report cut so does; anything else (a full
 * disk, /dev/full) an error and 3. Only where nothing else failed: a run
 * has said so for its report already.
 */
static int output_status(int status)
{
	bool out = fflush(stdout) == EOF || ferror(stdout);
	bool err = fflush(stderr) == EOF || ferror(stderr);

	if (status != VB_EXIT_OK || (!out && !err))
		return status;
	if (out && pipe_reader_gone(STDOUT_FILENO))
		return VB_EXIT_SIGPIPE;
	if (out) {
		error("cannot write to standard output");
		return VB_EXIT_RUNTIME;
	}
	/* no one to tell */
	return pipe_reader_gone(STDERR_FILENO) ? VB_EXIT_SIGPIPE :
						 VB_EXIT_RUNTIME;
}

/*
 * vfsbench [-q|-V|-h] SUBCOMMAND ...: the subcommand at argv[@at] gets its
 * own words, with -h before it turned into its --help.
 */
static int subcommand_main(int argc, const char **argv, int at)
{
	const char **sub = xcalloc((size_t)argc + 2, sizeof(*sub));
	struct global_config g;
	int n = 0, status;

	switch (options_parse_global(&g, at, argv)) {
	case OPTIONS_RUN:
		break;
	case OPTIONS_EXIT_OK:
		free(sub);
		return VB_EXIT_OK;
	case OPTIONS_USAGE:
		free(sub);
		return VB_EXIT_USAGE;
	}
	sub[n++] = argv[at];
	if (g.help)
		sub[n++] = "--help";
	for (int i = at + 1; i < argc; i++)
		sub[n++] = argv[i];
	if (!strcmp(argv[at], "compare"))
		status = submain_compare(n, sub);
	else if (!strcmp(argv[at], "dbench"))
		status = dbenchmain_run(n, sub);
	else if (!strcmp(argv[at], "plot"))
		status = submain_plot(n, sub);
	else if (!strcmp(argv[at], "clean"))
		status = clean_main(n, sub);
	else if (!strcmp(argv[at], "record"))
		status = recorder_main(n, sub);
	else if (!strcmp(argv[at], "kernels"))
		status = kernels_main(n, sub, g.quiet, argc, argv);
	else
		status = submain_fdscale(n, sub, &g, argc, argv);
	free(sub);
	return status;
}

/*
 * --json, --csv, --ministat: written even after an early stop, with the
 * environment as it was when vfsbench started.
 */
static int write_results(const struct config *cfg, const struct sweep *sw,
			 const struct env *env)
{
	int ret = 0;

	if (cfg->json)
		ret |= report_json(&cfg->report, sw, env, cfg->json);
	if (cfg->csv)
		ret |= report_csv(sw, cfg->csv);
	if (cfg->ministat)
		ret |= report_ministat(&cfg->report, sw, cfg->ministat);
	return ret;
}

/* The sweep's hooks: each run's report as it ends, then the table. */
static void on_run(const struct run *run, const char *variant, void *ctx)
{
	report_run(ctx, run, variant);
	steps_check_stdout();
}

static void on_done(const struct sweep *sw, void *ctx)
{
	report_sweep(ctx, sw);
}

/*
 * Each variant's loadfile and engine, checked; fills what the sweep and
 * the report are told of them. Returns 0, or -1 (message printed) when a
 * loadfile is bad, an engine lacks one of its ops or fsinfo varies on a
 * native loadfile. @lf[0..*nloaded) need loadfile_release() either way.
 */
static int load_variants(const struct config *cfg, struct loadfile *lf,
			 unsigned int *nloaded, struct sweep_variant *sv,
			 struct report_variant *rv)
{
	*nloaded = 0;
	for (unsigned int i = 0; i < cfg->nvariants; i++) {
		const struct variant_config *v = &cfg->variants[i];
		int ret = loadfile_load(&lf[i], v->loadfile, &v->lopts);

		/* -EINTR: a signal while it was read, from a FIFO */
		if (ret)
			return ret == -EINTR ? ret : -1;
		(*nloaded)++;
		sv[i] = (struct sweep_variant){ .label = v->label,
						.cfg = &v->run,
						.lf = &lf[i],
						.engine = engine_find(
							v->engine) };
		rv[i] = (struct report_variant){ .loadfile = v->loadfile,
						 .engine = v->engine,
						 .lopts = &v->lopts };
		if (walk_check(&v->run, sv[i].engine, &lf[i]))
			return -1;
		if (cfg->fsinfo_varies && lf[i].dialect != DIALECT_DBENCH)
			return error(
				"--variant fsinfo: '%s' is a native loadfile: fsinfo only chooses what a dbench loadfile's QUERY_FS_INFORMATION issues (give each native op's loadfile with -c)",
				lf[i].name);
	}
	return 0;
}

/* What main() holds of an invocation, for its steps and its exit. */
struct invocation {
	struct config cfg;
	struct ranks rk;
	struct loadfile *lf;
	struct sweep_variant *sv;
	struct report_variant *rv;
	unsigned int nloaded;
	struct env env; /* when vfsbench started */
	struct profiling pf;
	bool stuck;
	struct suite_cli suite; /* vfsbench suite (cli/suite.h) */
};

/* Parse, read and check the loadfiles, agree across ranks: a status. */
static int prepare(struct invocation *in, int argc, const char **argv)
{
	struct config *cfg = &in->cfg;
	int status, ret;

	switch (options_parse(cfg, argc, argv)) {
	case OPTIONS_RUN:
		/*
		 * A suite's variants take their workloads' names first: they
		 * name its --ministat and --profile files, which the check of
		 * the outputs must see (it saw the -c labels, and a --json
		 * named as a workload's ministat file overwrote it).
		 */
		status = in->suite.s.n ? suite_cli_apply(&in->suite, cfg) :
					 VB_EXIT_OK;
		/* before anything is read or written */
		if (!status && outputs_check(cfg) != OPTIONS_RUN)
			status = VB_EXIT_USAGE;
		break;
	case OPTIONS_EXIT_OK:
		return -1;
	case OPTIONS_USAGE:
	default:
		status = VB_EXIT_USAGE;
		break;
	}
	status = ranks_agree(&in->rk, status, "reading the options");
	if (status)
		return status;
	if (ranks_settle(&in->rk, cfg))
		return VB_EXIT_RUNTIME;
	in->lf = xcalloc(cfg->nvariants, sizeof(*in->lf));
	in->sv = xcalloc(cfg->nvariants, sizeof(*in->sv));
	in->rv = xcalloc(cfg->nvariants, sizeof(*in->rv));
	ret = load_variants(cfg, in->lf, &in->nloaded, in->sv, in->rv);
	/* a signal while a loadfile was read (a FIFO): its status */
	if (ret)
		status = ret == -EINTR && signals.count ?
				 VB_EXIT_SIGNAL(signals.last) :
				 VB_EXIT_USAGE;
	if (!status && walk_check_root(cfg))
		status = VB_EXIT_USAGE;
	status = ranks_agree(&in->rk, status, "reading the loadfile");
	if (status)
		return status;
	status = ranks_check(&in->rk, cfg, in->lf);
	if (status)
		return status;
	/* the sweep's metric follows the first variant's loadfile */
	options_loadfile_defaults(cfg, &in->lf[0]);
	cfg->report.variants = in->rv;
	cfg->report.nvariants = cfg->nvariants;
	cfg->report.layout = ranks_layout(&in->rk);
	if (sweep_check_memory(&cfg->run, in->sv, cfg->nvariants))
		status = VB_EXIT_RUNTIME;
	status = ranks_agree(&in->rk, status, "the memory check");
	if (status)
		return status;
	/* each rank its own clock: a TSC is calibrated where it runs */
	if (steps_choose_clock(cfg))
		status = VB_EXIT_USAGE;
	return ranks_agree(&in->rk, status, "the clock");
}

/* The work directory (rank 0's, shared where -D is): a status. */
static int make_workdir(struct invocation *in, struct workdir *wd)
{
	int ret = ranks_workdir(&in->rk, &in->cfg, wd);

	if (!ret)
		return VB_EXIT_OK;
	return ret == -ENOENT || ret == -ENOTDIR || ret == -ELOOP ?
		       VB_EXIT_USAGE :
		       VB_EXIT_RUNTIME;
}

/* The sweep, its result files and the cleanup: a status. */
static int sweep_and_report(struct invocation *in, struct workdir *wd)
{
	struct config *cfg = &in->cfg;
	struct sweep_hooks hooks = { .run = on_run, .done = on_done };
	bool watch_stdout,
		root = !cfg->report.layout || cfg->report.layout->rank == 0;
	struct sweep sw;
	struct stat st;
	int status;

	/* wd may be another rank's: only a rank's own is its to remove */
	if (!cfg->run.skip_cleanup && !wd->attached) {
		steps_guard_workdir(wd);
	}
	/*
	 * After the work directory, whose errors are the user's: perf
	 * writes its files (and moves an older one to .old) once started.
	 */
	status = profiling_start(&in->pf, cfg, in->sv) ? VB_EXIT_RUNTIME :
							 VB_EXIT_OK;
	status = ranks_agree(&in->rk, status, "starting perf");
	if (status) {
		steps_guard_workdir(NULL);
		steps_finish_workdir(cfg->run.skip_cleanup, wd, false, true);
		return status;
	}
	/* in an MPI job, rank 0 reports for every rank */
	if (!root)
		hooks = (struct sweep_hooks){ 0 };
	hooks.ctx = &cfg->report;
	cfg->report.attached = in->rk.attached;
	watch_stdout = !fstat(STDOUT_FILENO, &st) &&
		       (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
	for (unsigned int i = 0; i < cfg->nvariants; i++)
		cfg->variants[i].run.watch_stdout = watch_stdout;
	for (unsigned int i = 0; i < cfg->nvariants; i++)
		if (cfg->variants[i].run.resolve == RESOLVE_ABS) {
			walk_root(&cfg->report, wd);
			break;
		}
	if (root) {
		report_header(&cfg->report, &cfg->run, in->sv, cfg->nvariants,
			      wd, &in->env);
		steps_check_stdout();
	}
	status = sweep_execute(&sw, &cfg->run, in->sv, cfg->nvariants, wd,
			       &hooks);
	/* a stuck client may still be in the tree: keep it, whatever fails */
	if (sw.stuck)
		steps_guard_workdir(NULL);
	/* every rank's, whether rank 0 writes JSON or not: a meeting */
	if (!meet_lost() &&
	    ranks_envs(&in->rk, cfg->directory, cfg->report.clock_why))
		status = status ? status : VB_EXIT_RUNTIME;
	cfg->report.envs = in->rk.envs;
	/*
	 * Before the JSON, which summarises the profiles. A perf killed
	 * after a stop signal (sys/childwait.h) failed because of it: the
	 * signal's status below.
	 */
	if (profiling_stop(&in->pf, cfg, &sw) && status == VB_EXIT_OK &&
	    !signals.count)
		status = VB_EXIT_RUNTIME;
	cfg->report.profiles = in->pf.rp;
	cfg->report.nprofiles = in->pf.nrec;
	in->stuck = sw.stuck;
	steps_guard_workdir(NULL);
	/* the others are done with a shared directory before rank 0 goes */
	if (!meet_lost())
		status = ranks_agree(&in->rk, status, "the sweep");
	if (steps_finish_workdir(cfg->run.skip_cleanup, wd, in->stuck, true) &&
	    status == VB_EXIT_OK)
		status = VB_EXIT_RUNTIME;
	/*
	 * Once the tree is gone: a result file that is a FIFO waits for its
	 * reader, and a stop signal there gives the signal's status below.
	 */
	if (root && write_results(cfg, &sw, &in->env) && status == VB_EXIT_OK &&
	    !signals.count)
		status = VB_EXIT_RUNTIME;
	sweep_release(&sw);
	return steps_end_status(status);
}

int main(int argc, const char **argv)
{
	struct invocation in = { 0 };
	struct workdir wd;
	int status, at;

	/* a plain build under mpirun: before anything is read or made */
	status = ranks_refuse_plain();
	if (status)
		return status;
	signals_install();
	/* tests of io_uring's refusals (vfsbench(1), ENVIRONMENT) */
	if (getenv("VFSBENCH_TEST_URING_NO_OPCODES") &&
	    uring_test_mask(getenv("VFSBENCH_TEST_URING_NO_OPCODES")))
		return VB_EXIT_USAGE;
	if (argc > 0 && options_is_dbench(argv[0]))
		return output_status(dbenchmain_run(argc, argv));
	at = options_find_subcommand(argc, argv);
	/* a suite is a run of its loadfiles, with their settings */
	if (at && !strcmp(argv[at], "suite")) {
		status = suite_cli_prepare(&in.suite, argc, argv, at);
		if (status) {
			suite_cli_release(&in.suite);
			return output_status(status < 0 ? VB_EXIT_OK : status);
		}
		argc = in.suite.argc;
		argv = in.suite.argv;
		at = 0;
	}
	if (at)
		return output_status(subcommand_main(argc, argv, at));
	/* under mpirun: MPI, and the other ranks (cli/ranks.h) */
	status = ranks_join(&in.rk);
	if (!status)
		status = prepare(&in, argc, argv);
	if (status < 0) {
		status = VB_EXIT_OK; /* --help, --version, a listing */
		goto out;
	}
	/* before anything of ours runs: the load average is the machine's */
	if (!status)
		env_collect(&in.env, in.cfg.directory);
	in.cfg.report.suite_fs = in.env.fs_type;
	in.cfg.report.suite_media = media_of(in.env.fs_type, in.env.fs_source);
	if (!status)
		status = make_workdir(&in, &wd);
	if (!status)
		status = sweep_and_report(&in, &wd);
out:
	profiling_release(&in.pf);
	env_release(&in.env);
	/* a stuck client still reads the loadfiles' ops, until the exit */
	for (unsigned int i = 0; !in.stuck && i < in.nloaded; i++)
		loadfile_release(&in.lf[i]);
	if (!in.stuck) {
		free(in.lf);
		free(in.sv);
		free(in.rv);
	}
	config_release(&in.cfg);
	suite_cli_release(&in.suite);
	ranks_leave(&in.rk, status);
	return output_status(status);
}
