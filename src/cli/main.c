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
#include "base/clock.h"
#include "base/exit.h"
#include "base/msg.h"
#include "cli/clean.h"
#include "cli/dbench.h"
#include "cli/options.h"
#include "cli/outputs.h"
#include "cli/profile.h"
#include "compare/lockdiff.h"
#include "compare/profdiff.h"
#include "report/profcompare.h"
#include "report/lockcompare.h"
#include "cli/ranks.h"
#include "cli/recorder.h"
#include "cli/suite.h"
#include "cli/walk.h"
#include "compare/compare.h"
#include "compare/compareset.h"
#include "engine/engine.h"
#include "engine/uring.h"
#include "fdscale/fdscale.h"
#include "lang/loadfile.h"
#include "lang/reader.h"
#include "mpi/job.h"
#include "report/plot.h"
#include "report/report.h"
#include "run/meet.h"
#include "run/run.h"
#include "run/signals.h"
#include "run/sweep.h"
#include "workdir/workdir.h"
#include "sys/env.h"
#include "sys/media.h"
#include "sys/pipe.h"
#include "sys/tsc.h"

/* The work directory for die()'s hook, while it exists. */
static struct workdir *die_wd;

/* An allocation failed in main()'s thread: remove what was created. */
static void die_cleanup(void)
{
	if (die_wd && workdir_remove(die_wd, NULL))
		fprintf(stderr, "vfsbench: files left in '%s'\n", die_wd->path);
}

/* @say: print where --skip-cleanup left the files (dbench does not). */
static int finish_workdir(const struct config *cfg, struct workdir *wd,
			  bool stuck, bool say)
{
	int ret;

	/* rank 0's, in an MPI job: its to remove */
	if (wd->attached) {
		workdir_release(wd);
		return 0;
	}
	if (stuck) {
		fprintf(stderr,
			"vfsbench: cleanup skipped: a client could not be stopped: files left in '%s'\n",
			wd->path);
		workdir_release(wd);
		return -EBUSY;
	}
	if (cfg->run.skip_cleanup) {
		if (say)
			fprintf(stderr,
				"vfsbench: --skip-cleanup: files left in '%s'\n",
				wd->path);
		workdir_release(wd);
		return 0;
	}
	if (signals.abort_cleanup && !signals.cleanup_cut) {
		fprintf(stderr,
			"vfsbench: cleanup skipped after a second signal: files left in '%s'\n",
			wd->path);
		workdir_release(wd);
		return 0;
	}
	ret = signals.cleanup_cut ? -EINTR :
				    workdir_remove(wd, &signals.abort_cleanup);
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

/* How long the TSC's calibration sleeps between its two readings. */
#define CLOCK_CALIBRATION_NS (20 * NSEC_PER_MSEC)

/*
 * --clock: the TSC where sys/tsc.h finds it usable (auto) or where asked
 * for (tsc: an error, exit 2, where it is not), else CLOCK_MONOTONIC.
 * Before any thread starts (base/clock.h). What was chosen and why goes
 * to the result files through cfg->report.
 */
static int choose_clock(struct config *cfg)
{
	static const char *const names[] = {
		[CLOCK_CHOICE_AUTO] = "auto",
		[CLOCK_CHOICE_TSC] = "tsc",
		[CLOCK_CHOICE_MONOTONIC] = "monotonic",
	};
	static char why[256];

	cfg->report.clock_option = names[cfg->clock];
	cfg->report.clock_why = why;
	if (cfg->clock == CLOCK_CHOICE_MONOTONIC) {
		snprintf(why, sizeof(why), "--clock monotonic");
		return 0;
	}
	if (!tsc_usable(why, sizeof(why))) {
		if (!clock_use_tsc(CLOCK_CALIBRATION_NS)) {
			const char *skew = getenv("VFSBENCH_TEST_TSC_SKEW_PPM");

			/* tests of the end-of-run cross-check (vfsbench(1)) */
			if (skew)
				clock_tsc_skew(strtod(skew, NULL));
			cfg->report.clock_why = NULL;
			return 0;
		}
		snprintf(why, sizeof(why),
			 "the TSC did not advance during its calibration");
	}
	if (cfg->clock == CLOCK_CHOICE_TSC) {
		error("--clock tsc: %s", why);
		return -ENOTSUP;
	}
	return 0;
}

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

static int compare_main(int argc, const char **argv)
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

static int plot_main(int argc, const char **argv)
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
static int fdscale_main(int argc, const char **argv,
			const struct global_config *g, int cmdc,
			const char **cmdv)
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

static void check_stdout(void);

/* The dbench personality's hooks: dbench's lines as the run goes. */
static void db_ready(const struct run *run, void *ctx)
{
	report_dbench_ready(ctx, run);
}

static void db_second(const struct run *run, const struct run_second *sec,
		      void *ctx)
{
	report_dbench_second(ctx, run, sec);
	check_stdout();
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
	return finish_workdir(cfg, wd, stuck, false);
}

/*
 * vfsbench dbench [dbench's options] N: one run at N clients in DIR/clients,
 * reported as dbench reports it.
 */
static int dbench_main(int argc, const char **argv)
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
	if (choose_clock(&cfg)) {
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
		die_wd = &wd;
		die_set_hook(die_cleanup);
	}
	hooks.ctx = &dr;
	cfg.run.watch_stdout = !fstat(STDOUT_FILENO, &st) &&
			       (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
	report_dbench_header(&dr);
	check_stdout();
	status = sweep_execute(&sw, &cfg.run, &sv, 1, &wd, &hooks);
	/* a stuck client may still be in the tree: keep it, whatever fails */
	if (sw.stuck)
		die_set_hook(NULL);
	stuck = sw.stuck;
	/* dbench prints each failed op; here a count, before the table that
	 * harnesses cut out of the output */
	if (sw.nruns && sw.runs[0].total.unexpected)
		warning("%llu unexpected results (each op and errno: --vfsbench-report)",
			(unsigned long long)sw.runs[0].total.unexpected);
	report_dbench_cleanup(&dr, cfg.run.clients[0] * dr.per_proc);
	die_set_hook(NULL);
	if (dbench_cleanup(&cfg, &wd, stuck) && status == VB_EXIT_OK)
		status = VB_EXIT_RUNTIME;
	report_dbench_cleanup(&dr, 0);
	if (sw.nruns && atomic_load(&sw.runs[0].state.end) != RUN_END_FAILED) {
		report_dbench_end(&dr, &sw.runs[0]);
		if (cfg.dbench_own_report)
			report_dbench_own(&cfg.report, &sw.runs[0]);
	}
	sweep_release(&sw);
	if (signals.count && status == VB_EXIT_OK)
		status = VB_EXIT_SIGNAL(signals.last);
	/* the lines that did not reach a reader who is still there */
	if ((fflush(stdout) == EOF || ferror(stdout)) &&
	    !pipe_reader_gone(STDOUT_FILENO)) {
		error("cannot write the report to standard output");
		if (status == VB_EXIT_OK)
			status = VB_EXIT_RUNTIME;
	}
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
		status = compare_main(n, sub);
	else if (!strcmp(argv[at], "dbench"))
		status = dbench_main(n, sub);
	else if (!strcmp(argv[at], "plot"))
		status = plot_main(n, sub);
	else if (!strcmp(argv[at], "clean"))
		status = clean_main(n, sub);
	else if (!strcmp(argv[at], "record"))
		status = recorder_main(n, sub);
	else
		status = fdscale_main(n, sub, &g, argc, argv);
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

/*
 * A closed standard output (vfsbench | head) stops the sweep as a signal
 * does: SIGPIPE is ignored, so a write fails with EPIPE instead of
 * killing vfsbench before it cleans up and writes its result files.
 */
static void check_stdout(void)
{
	if ((fflush(stdout) == EOF || ferror(stdout)) &&
	    pipe_reader_gone(STDOUT_FILENO))
		signals_raise(SIGPIPE);
}

/* The sweep's hooks: each run's report as it ends, then the table. */
static void on_run(const struct run *run, const char *variant, void *ctx)
{
	report_run(ctx, run, variant);
	check_stdout();
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
		/* before anything is read or written */
		status = outputs_check(cfg) == OPTIONS_RUN ? VB_EXIT_OK :
							     VB_EXIT_USAGE;
		if (!status && in->suite.s.n)
			status = suite_cli_apply(&in->suite, cfg);
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
	if (choose_clock(cfg))
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
		die_wd = wd;
		die_set_hook(die_cleanup);
	}
	/*
	 * After the work directory, whose errors are the user's: perf
	 * writes its files (and moves an older one to .old) once started.
	 */
	status = profiling_start(&in->pf, cfg, in->sv) ? VB_EXIT_RUNTIME :
							 VB_EXIT_OK;
	status = ranks_agree(&in->rk, status, "starting perf");
	if (status) {
		die_set_hook(NULL);
		finish_workdir(cfg, wd, false, true);
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
		check_stdout();
	}
	status = sweep_execute(&sw, &cfg->run, in->sv, cfg->nvariants, wd,
			       &hooks);
	/* a stuck client may still be in the tree: keep it, whatever fails */
	if (sw.stuck)
		die_set_hook(NULL);
	/* every rank's, whether rank 0 writes JSON or not: a meeting */
	if (!meet_lost() &&
	    ranks_envs(&in->rk, cfg->directory, cfg->report.clock_why))
		status = status ? status : VB_EXIT_RUNTIME;
	cfg->report.envs = in->rk.envs;
	/* before the JSON, which summarises the profiles */
	if (profiling_stop(&in->pf, cfg, &sw) && status == VB_EXIT_OK)
		status = VB_EXIT_RUNTIME;
	cfg->report.profiles = in->pf.rp;
	cfg->report.nprofiles = in->pf.nrec;
	in->stuck = sw.stuck;
	die_set_hook(NULL);
	/* the others are done with a shared directory before rank 0 goes */
	if (!meet_lost())
		status = ranks_agree(&in->rk, status, "the sweep");
	if (finish_workdir(cfg, wd, in->stuck, true) && status == VB_EXIT_OK)
		status = VB_EXIT_RUNTIME;
	/*
	 * Once the tree is gone: a result file that is a FIFO waits for its
	 * reader, and a stop signal there gives the signal's status below.
	 */
	if (root && write_results(cfg, &sw, &in->env) && status == VB_EXIT_OK &&
	    !signals.count)
		status = VB_EXIT_RUNTIME;
	sweep_release(&sw);
	if (signals.count && status == VB_EXIT_OK)
		status = VB_EXIT_SIGNAL(signals.last);
	/* a report that did not reach a reader who is still there */
	if ((fflush(stdout) == EOF || ferror(stdout)) &&
	    !pipe_reader_gone(STDOUT_FILENO)) {
		error("cannot write the report to standard output");
		if (status == VB_EXIT_OK)
			status = VB_EXIT_RUNTIME;
	}
	return status;
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
		return output_status(dbench_main(argc, argv));
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
