/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One run at one client count: the client directories, the fd table, the
 * client threads set up (runstart.c: client 0 first, the others in
 * parallel) and released together, the warmup and measurement phases
 * (watched by progressline.c, which prints the progress line on stderr),
 * the join and merge (runstart.c), and the removal of the run's tree.
 */
#include <config.h>
#include "run/run.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/clock.h"
#include "base/msg.h"
#include "base/units.h"
#include "engine/engine.h"
#include "lang/loadfile.h"
#include "lang/ops.h"
#include "run/client.h"
#include "run/clientdir.h"
#include "run/runconfig.h"
#include "run/runstart.h"
#include "run/layout.h"
#include "run/memory.h"
#include "run/peers.h"
#include "run/progressline.h"
#include "run/signals.h"
#include "run/sleep.h"
#include "workdir/workdir.h"
#include "stats/ticker.h"
#include "sys/cpulist.h"
#include "sys/dcache.h"
#include "sys/fdtable.h"
#include "sys/perfctl.h"
#include "sys/placement.h"

/* Clients in their setup at once (start_clients()) ... */
#define SETUP_INFLIGHT 16u
/* ... unless a client's [setup] holds more fds than this at once */
#define SETUP_FDS_MAX 8u

void run_init(struct run *run, const struct run_config *cfg,
	      const struct loadfile *lf, const struct engine *engine,
	      unsigned int nclients, unsigned int index, unsigned int repeat)
{
	/* lanes share their thread's cwd: theirs is a dirfd (client.c) */
	enum resolve_mode mode = run_config_resolve(cfg);

	memset(run, 0, sizeof(*run));
	run->state.cfg = cfg;
	run->state.lf = lf;
	run->state.engine = engine;
	for (unsigned int id = 0; id < OP_NR; id++) {
		run->state.opfn[id] = engine_op(engine, mode, id);
		run->state.opfn_setup[id] = engine_op(
			engine,
			mode == RESOLVE_MODE_BENEATH ? RESOLVE_DIRFD : mode,
			id);
	}
	run->nclients = nclients;
	run->nlocal = cfg->layout ? layout_place(cfg->layout, nclients,
						 cfg->layout->rank, NULL) :
				    nclients;
	run->index = index;
	run->repeat = repeat;
	atomic_init(&run->state.phase, PHASE_SETUP);
	atomic_init(&run->state.end, RUN_END_COMPLETE);
	atomic_init(&run->state.unexpected, 0);
	gate_init(&run->state.gate);
	run->state.measure_at = run->state.stop_at = UINT64_MAX;
	if (engine->opens_fds) {
		/* a thread's lanes hold theirs at once, and a directory
		 * fd each */
		run->state.setup_fds = lf->setup_fds;
		run->state.run_fds =
			run_config_lanes(cfg) > 1 ?
				(lf->run_fds + 1) * run_config_lanes(cfg) :
				lf->run_fds;
	}
	run->cpus = cfg->placement ? placement_cpus(cfg->placement, nclients) :
				     (double)sysconf(_SC_NPROCESSORS_ONLN);
	peers_init(&run->peers, cfg->layout, index, run->nlocal);
}

/* Where a phase that may end at @deadline (0: none) ended, seen at @now. */
static uint64_t ended_at(uint64_t deadline, const struct tick_sample *now)
{
	return deadline && deadline < now->ns ? deadline : now->ns;
}

/*
 * --profile, --perf-ctl: perf's events on, just before the measurement
 * starts, while every client waits at the gate (after its warmup, or
 * before any op). A perf that does not acknowledge fails the run: a
 * profile was asked for.
 */
static void perf_on(struct run *run)
{
	int ret;

	if (!run->perf)
		return;
	run->perf_on_ns = clock_now_ns();
	ret = perf_ctl_send(run->perf, "enable");
	/* a stop signal: the run stops for it, and says so */
	if (ret && ret != -EINTR) {
		error("perf control '%s': 'enable' for %u client%s: %s",
		      run->perf->name, run->nclients,
		      run->nclients == 1 ? "" : "s", perf_ctl_strerror(ret));
		run_state_stop(&run->state, RUN_END_FAILED);
	}
}

/* Their events off once every client has stopped. */
static void perf_off(struct run *run)
{
	int ret;

	if (!run->perf || !run->perf_on_ns)
		return;
	ret = perf_ctl_send(run->perf, "disable");
	run->perf_off_ns = clock_now_ns();
	if (ret && ret != -EINTR)
		warning("perf control '%s': 'disable' after %u client%s: %s",
			run->perf->name, run->nclients,
			run->nclients == 1 ? "" : "s", perf_ctl_strerror(ret));
}

/*
 * --dcache cold: every client is set up, or through its warmup, and
 * waits at the gate, and the clock has not started: the dentries and
 * inodes go now, so that the first lookups of the measurement miss (a
 * drop before the warmup would measure the cache the warmup filled).
 * The check that this can work (root, not tmpfs) was made before the
 * work directory was.
 */
static int drop_dcache(void)
{
	int ret = dcache_drop();

	if (ret)
		error("--dcache cold: cannot drop the caches through /proc/sys/vm/drop_caches: %s",
		      strerror(-ret));
	return ret;
}

static void measure(struct run *run)
{
	const struct run_config *cfg = run->state.cfg;
	const struct run_hooks *h = run->hooks;
	struct progress_line p;
	struct tick_sample now, at;
	unsigned int done;

	progress_line_init(&p, run, &run->state, &run->peers, run->nlocal,
			   h ? h->second : NULL, h ? h->ctx : NULL);
	if (run->place.of)
		p.place = &run->place;
	if (run->hooks && run->hooks->ready)
		run->hooks->ready(run, run->hooks->ctx);
	progress_line_read(&p, &now, &done);
	run->released_ns = now.ns;
	if (cfg->warmup && (cfg->warmup_kind == WARMUP_PASSES || run->perf ||
			    cfg->dcache == DCACHE_COLD)) {
		/*
		 * Warmup passes, and a profiled or --dcache cold run's
		 * warmup: every client arrives at the gate again after its
		 * passes (or at measure_at, or when stopped), and the
		 * measurement starts for all at once, once the caches the
		 * warmup filled are dropped and perf's events are on
		 */
		run->state.warm_gate = true;
		if (cfg->warmup_kind == WARMUP_TIME)
			run->state.measure_at = now.ns + cfg->warmup;
		run_state_advance(&run->state, PHASE_WARMUP);
		progress_line_phase(&p, PHASE_WARMUP, &now);
		gate_open(&run->state.gate);
		/* clients arrive again after their warmup (or when
		 * stopped): every one of them, before the gate opens again;
		 * after a stop, those blocked in a system call are kicked
		 * (or left behind, stuck) */
		progress_line_supervise(&p, 0, true, &now);
		run_await_clients(run, run->nlocal);
		progress_line_read(&p, &now, &done);
		progress_line_end(&p, &now, now.ns);
		if (cfg->dcache == DCACHE_COLD &&
		    atomic_load(&run->state.end) == RUN_END_COMPLETE &&
		    drop_dcache())
			run_state_stop(&run->state, RUN_END_FAILED);
		perf_on(run);
		/* every rank's clients are through their warmup: start
		 * together (the job is lost if that fails: stop) */
		if (peers_start(&run->peers, &run->state))
			run_state_stop(&run->state, RUN_END_FAILED);
		run_state_advance(&run->state, PHASE_MEASURE);
		progress_line_read(&p, &now, &done);
		progress_line_phase(&p, PHASE_MEASURE, &now);
		if (!cfg->loops)
			run->state.stop_at = now.ns + cfg->time_ns;
		gate_open(&run->state.gate);
	} else if (cfg->warmup) {
		run->state.measure_at = now.ns + cfg->warmup;
		if (!cfg->loops)
			run->state.stop_at =
				run->state.measure_at + cfg->time_ns;
		run_state_advance(&run->state, PHASE_WARMUP);
		progress_line_phase(&p, PHASE_WARMUP, &now);
		gate_open(&run->state.gate);
		if (progress_line_supervise(&p, run->state.measure_at, false,
					    &now) == WAKE_DEADLINE)
			run_state_advance(&run->state, PHASE_MEASURE);
		/* the clients switch at measure_at, even when this thread
		 * sees it late; after an early stop the warmup ended now */
		at = progress_line_end(&p, &now,
				       ended_at(run->state.measure_at, &now));
		progress_line_phase(&p, PHASE_MEASURE, &at);
	} else {
		/* the clients wait at the gate meanwhile */
		if (run->perf) {
			perf_on(run);
			progress_line_read(&p, &now, &done);
			run->released_ns = now.ns;
		}
		if (!cfg->loops)
			run->state.stop_at = now.ns + cfg->time_ns;
		run_state_advance(&run->state, PHASE_MEASURE);
		progress_line_phase(&p, PHASE_MEASURE, &now);
		gate_open(&run->state.gate);
	}
	progress_line_supervise(&p, cfg->loops ? 0 : run->state.stop_at, false,
				&now);
	run_state_advance(&run->state, PHASE_STOP);
	progress_line_end(&p, &now,
			  ended_at(cfg->loops ? 0 : run->state.stop_at, &now));
	progress_line_close(&p);
}

/* Join the clients (those not stuck) and merge their results. */

/*
 * --placement: the main thread leaves the clients' CPUs where others are
 * allowed, so that its progress line, its wakeups and the run's setup
 * do not take a pinned client's CPU; the clients it creates then pin
 * themselves. Back where it was after the run.
 */
static void main_away(struct run *run)
{
	const struct placement *pl = run->state.cfg->placement;
	struct cpulist away;
	int ret;

	if (!placement_main(pl, run->nlocal, &away))
		return;
	ret = cpulist_set_affinity(&away, 0);
	if (ret)
		warning("cannot move the main thread off the clients' CPUs: %s",
			strerror(-ret));
	else
		run->main_affinity = cpulist_string(&away);
	cpulist_release(&away);
}

static void main_back(struct run *run)
{
	const struct placement *pl = run->state.cfg->placement;
	char cpus[256];
	int ret;

	if (!run->main_affinity)
		return;
	ret = cpulist_set_affinity(pl->allowed, 0);
	if (ret)
		warning("cannot move the main thread back to CPUs %s: %s",
			cpulist_format(pl->allowed, cpus, sizeof(cpus)),
			strerror(-ret));
}

/*
 * Allocate and prepare the run, and set its clients up (each one's
 * [setup] included): 0, or -errno with a message (-EINTR: stopped). *@cwd
 * and *@shared_fd are what the cleanup closes.
 */
static int run_setup(struct run *run, struct workdir *wd, int *cwd,
		     int *shared_fd)
{
	const struct run_config *cfg = run->state.cfg;
	unsigned int n = run->nlocal, inflight, setting_up;
	struct rlimit rl;
	int low;
	int ret;

	/* sized by sweep_check_memory(); a failure is a failed run, cleaned
	 * up like any other (a rank may have no client at this count) */
	run->clients = calloc_aligned(n + 1, sizeof(*run->clients));
	run->state.progress =
		calloc_aligned(n + 1, sizeof(*run->state.progress));
	run->samples = calloc(run->nclients + 1, sizeof(*run->samples));
	run->ids = calloc(n + 1, sizeof(*run->ids));
	if (!run->clients || !run->state.progress || !run->samples ||
	    !run->ids || result_init(&run->total, run->state.lf->nslots))
		return error("cannot set up a run of %u clients: %s", n,
			     strerror(ENOMEM));
	if (cfg->layout)
		layout_place(cfg->layout, run->nclients, cfg->layout->rank,
			     run->ids);
	else
		for (unsigned int i = 0; i < n; i++)
			run->ids[i] = i;
	run->state.ids = run->ids;
	if (cfg->depth > (CLIENTDIR_MAX - 64) / 2)
		return error("--depth %u is too deep", cfg->depth);
	if (cfg->resolve == RESOLVE_ABS) {
		run->abs_root = malloc(PATH_MAX);
		if (!run->abs_root)
			return error("cannot set up a run of %u clients: %s", n,
				     strerror(ENOMEM));
		ret = clientdir_abs_root(wd, run->abs_root, PATH_MAX);
		if (ret)
			return error("cannot name '%s' from the root: %s",
				     wd->path, strerror(-ret));
	}
	/*
	 * One client setting up at a time where each would copy the
	 * others' open directory fds into its private table, or where
	 * [setup] holds many fds; else up to SETUP_INFLIGHT.
	 */
	inflight = n < SETUP_INFLIGHT ? n : SETUP_INFLIGHT;
	if (cfg->fdt == FDT_PRIVATE || run->state.setup_fds > SETUP_FDS_MAX)
		inflight = 1;
	/*
	 * Fewer at once where the hard descriptor limit would not hold them
	 * all (fdtable_reserve() counts from the lowest free slot): a sweep
	 * that fitted one setup at a time must still fit.
	 */
	low = open("/", O_PATH | O_CLOEXEC);
	if (low >= 0 && cfg->fdt == FDT_SHARED &&
	    !getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_max != RLIM_INFINITY)
		while (inflight > 1 &&
		       (uint64_t)low + (uint64_t)n * run->state.run_fds + 16 +
				       (uint64_t)inflight *
					       (run->state.setup_fds + 1) >=
			       rl.rlim_max)
			inflight--;
	if (low >= 0)
		close(low);
	run->setup_inflight = inflight ? inflight : 1;
	/*
	 * A shared table holds every client's [run] fds, and the [setup]
	 * fds and directory fd of each client setting up; a private one
	 * only the client directories being handed over.
	 */
	setting_up = inflight * (run->state.setup_fds + 1);
	ret = fdtable_reserve(cfg->fdt == FDT_SHARED ?
				      n * run->state.run_fds + setting_up + 16 :
				      inflight + 16);
	if (ret)
		return ret;
	if (cfg->dbench_tree && run->state.lf->per_thread > 1) {
		/* several clients per thread: the thread works in
		 * DIR/clients, its clients' directories below it */
		ret = clientdir_make_per_thread(wd, run->ids, n,
						run->state.lf->per_thread);
		if (ret)
			return ret;
		*shared_fd = fcntl(wd->fd, F_DUPFD_CLOEXEC, 0);
		if (*shared_fd < 0)
			return error("cannot duplicate a directory fd: %s",
				     strerror(errno));
	} else if (cfg->cwd == CWD_SHARED && n) {
		ret = clientdir_open(cfg, run->index, wd, run->ids[0], -1,
				     shared_fd);
		if (ret)
			return ret;
	}
	if (cfg->fs == FS_SHARED && n) {
		*cwd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (*cwd < 0 || fchdir(*shared_fd))
			return error("cannot enter the shared directory: %s",
				     strerror(errno));
	}
	signals.phase = &run->state.phase;
	/* a signal before the phase was published */
	if (signals.count)
		run_state_stop(&run->state, RUN_END_SIGNAL);
	main_away(run);
	run->start_ns = clock_now_ns();
	ret = run_start_clients(run, wd, *shared_fd);
	run->start_ns = clock_now_ns() - run->start_ns;
	/* with a warmup, after it, at the gate (measure()) */
	if (!ret && cfg->dcache == DCACHE_COLD && !cfg->warmup)
		ret = drop_dcache();
	return ret;
}

/*
 * In an MPI job, rank 0 clears a run's tree in a shared work directory
 * (after every rank is done with it) and each rank one it made alone.
 */
static bool owns_tree(const struct workdir *wd)
{
	return !wd->attached;
}

/* The meeting at the end (peers.h): the job's figures, on rank 0. */
static int run_finish(struct run *run)
{
	struct peer_counts c = {
		.start_ns = run->start_ns,
		.started = run->started,
		.ready = run->ready,
		.stuck = run->stuck,
	};
	int ret = peers_finish(&run->peers, &run->state, &run->total,
			       run->samples, run->nclients, run->ids, &c);

	/* rank 0: a client stuck on any rank keeps the shared tree */
	if (!ret && run->peers.nranks) {
		run->start_ns = c.start_ns;
		run->started = c.started;
		run->ready = c.ready;
		run->stuck = c.stuck;
	}
	return ret;
}

/*
 * The TSC against CLOCK_MONOTONIC at the run's end (base/clock.h): where
 * they disagree beyond the tolerance, the run's times are not to be
 * trusted, so it fails (exit 3) and is not reported.
 */
static int check_clock(struct run *run)
{
	struct clock_check chk;

	if (!clock_tsc_check(&chk))
		return 0;
	error("the TSC and CLOCK_MONOTONIC disagree by %.1f us over %.3f s since the TSC's calibration (%+.0f ppm; tolerance %d ppm + %d us): this run's times are not trusted; --clock monotonic does not use the TSC",
	      (double)chk.offset_ns / 1e3, (double)chk.since_ns / 1e9, chk.ppm,
	      CLOCK_TSC_TOLERANCE_PPM, CLOCK_TSC_SLACK_NS / 1000);
	run_state_stop(&run->state, RUN_END_FAILED);
	return -ERANGE;
}

int run_execute(struct run *run, struct workdir *wd)
{
	const struct run_config *cfg = run->state.cfg;
	int ret, check, cwd = -1, shared_fd = -1;
	bool allocated;
	char path[64];

	/* in an MPI job, rank 0 sets its clients up first */
	ret = peers_before_setup(&run->peers, &run->state);
	if (!ret)
		ret = run_setup(run, wd, &cwd, &shared_fd);
	allocated = run->samples && run->ids;
	ret = peers_ready(&run->peers, &run->state, ret);
	if (ret) {
		run_state_stop(&run->state, ret == -EINTR || ret == -ETIMEDOUT ?
						    RUN_END_SIGNAL :
						    RUN_END_FAILED);
		gate_open(&run->state.gate);
		if (allocated)
			run_join_clients(run);
		/* a stop in the setup is reported, with every rank's count */
		if (allocated &&
		    atomic_load(&run->state.end) != RUN_END_FAILED &&
		    !run_finish(run))
			goto out_cleanup;
		goto out_fail;
	}
	if (signals.count)
		run_state_stop(&run->state, RUN_END_SIGNAL);
	/* the job is lost: stop (main() says why) */
	if (peers_start(&run->peers, &run->state))
		run_state_stop(&run->state, RUN_END_FAILED);
	measure(run);
	run_join_clients(run);
	perf_off(run);
	if (signals.count)
		run_state_stop(&run->state, RUN_END_SIGNAL);
	if (run->stuck)
		run_state_stop(&run->state, RUN_END_STUCK);
	check = check_clock(run);
	ret = run_finish(run);
	if (!ret)
		ret = check;
	goto out_cleanup;

out_fail:
	if (atomic_load(&run->state.end) == RUN_END_COMPLETE)
		run_state_stop(&run->state, RUN_END_FAILED);
	if (!ret)
		ret = -EIO;
out_cleanup:
	signals.phase = NULL;
	main_back(run);
	if (cwd >= 0) {
		if (fchdir(cwd))
			warning("cannot return to the starting directory: %s",
				strerror(errno));
		close(cwd);
	}
	if (shared_fd >= 0)
		close(shared_fd);
	/*
	 * Not with a stuck client, which may still be in the tree (and
	 * rmtree would hang on the same dead server), nor after a second
	 * signal before the cleanup began: main says where the files are;
	 * nor in dbench's tree, the work directory itself: the caller's
	 */
	if (!cfg->skip_cleanup && !cfg->dbench_tree && !run->stuck &&
	    !signals.abort_cleanup && owns_tree(wd)) {
		int rm;

		snprintf(path, sizeof(path), "run%u", run->index);
		rm = workdir_clear(wd, path, &signals.abort_cleanup);
		if (rm == -EINTR)
			signals.cleanup_cut = 1;
		if (rm && rm != -EINTR && rm != -ENOENT && !ret)
			ret = rm;
	}
	return ret;
}

double run_ops_per_sec(const struct run *run)
{
	uint64_t el = result_elapsed(&run->total);

	return el ? (double)run->total.ops * 1e9 / (double)el : 0;
}

double run_mb_per_sec(const struct run *run)
{
	uint64_t el = result_elapsed(&run->total);

	return el ? (double)run->total.bytes * 1e3 / (double)el : 0;
}

double run_p99_ns(const struct run *run)
{
	struct hist *all = xmalloc(sizeof(*all));
	double p99;

	result_all_ops(&run->total, all);
	p99 = (double)hist_percentile(all, 99);
	free(all);
	return p99;
}

unsigned int run_idle_clients(const struct run *run)
{
	unsigned int idle = 0;

	/* those never started measured nothing either */
	for (unsigned int i = 0; i < run->nclients; i++)
		idle += !run->samples[i].ops;
	return idle;
}

unsigned int run_clients(const struct run *run)
{
	return run->nclients * run_config_lanes(run->state.cfg);
}

void run_release(struct run *run)
{
	/* a stuck client may wake up and touch all of it before the exit */
	if (run->stuck)
		return;
	/*
	 * By client number, over the job: run->started is the job's count
	 * on rank 0 of an MPI job, run->ids this rank's; what other ranks'
	 * samples hold is NULL here
	 */
	for (unsigned int i = 0; run->samples && i < run->nclients; i++) {
		free(run->samples[i].brief);
		free(run->samples[i].pass);
		free(run->samples[i].affinity);
	}
	free(run->main_affinity);
	free(run->abs_root);
	free(run->clients);
	free(run->state.progress);
	free(run->samples);
	free(run->ids);
	peers_release(&run->peers);
	result_release(&run->total);
	gate_release(&run->state.gate);
}
