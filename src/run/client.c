/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The client thread: isolation setup (its own cwd and, on request, its own
 * fd table), the loadfile's [setup] section, then the hot loop that replays
 * the [run] section, times every op and checks its result.
 */
#include <config.h>
#include "run/client.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/clock.h"
#include "engine/engine.h"
#include "lang/loadfile.h"
#include "run/clientpaths.h"
#include "run/runconfig.h"
#include "run/signals.h"
#include "run/state.h"
#include "stats/histbatch.h"
#include "sys/cpulist.h"
#include "sys/dcache.h"
#include "sys/fdtable.h"
#include "sys/iowq.h"
#include "sys/placement.h"

/* Round @n up to whole cache lines, as calloc_aligned() allocates. */
static size_t lines(size_t n)
{
	return (n + CACHELINE - 1) & ~(size_t)(CACHELINE - 1);
}

static size_t data_buffer(const struct loadfile *lf)
{
	return lf->max_io ? (size_t)lf->max_io : 1;
}

static bool has_scratch(const struct loadfile *lf, const struct engine *e)
{
	return lf->scratch && e->opens_fds;
}

void client_memory(struct client_memory *m, const struct loadfile *lf,
		   const struct engine *e, size_t prefix_len)
{
	size_t paths = clientpaths_bytes(lf, prefix_len);

	m->data = lines(data_buffer(lf));
	m->scratch = has_scratch(lf, e) ? ENGINE_DIRBUF + PATH_MAX : 0;
	m->stats = lines(lf->nslots * sizeof(struct hist)) +
		   lines(lf->nslots * sizeof(uint64_t[ERR_NR]));
	m->other = lf->nslots * sizeof(uint32_t) + /* --latency-sample */
		   (lf->nhandles + 1) * sizeof(int) + paths;
}

unsigned int client_lane_number(const struct run_state *rs, unsigned int id,
				unsigned int lane)
{
	return (rs->ids ? rs->ids[id] : id) * run_config_lanes(rs->cfg) + lane;
}

/* Client @id's lane @lane: everything but the thread's state. */
static int client_init_lane(struct client *c, struct run_state *rs,
			    unsigned int id, unsigned int lane, int dirfd,
			    const char *prefix)
{
	static const int no_fail[OP_NR];
	const struct loadfile *lf = rs->lf;
	unsigned int per_thread = lf->per_thread ? lf->per_thread : 1;

	memset(c, 0, sizeof(*c));
	c->id = id;
	c->lane = lane;
	c->number = client_lane_number(rs, id, lane);
	c->rs = rs;
	c->engine = rs->engine;
	/* a loadfile of [run N] streams: this client's stream */
	c->ops = loadfile_client_ops(lf, c->number, &c->nops);
	c->dirfd = dirfd;
	c->cpu = placement_cpu(rs->cfg->placement, id);
	c->last_cpu = -1;
	c->progress = &rs->progress[id];
	c->nhandles = lf->nhandles;
	c->ctx.fail = rs->cfg->null_fail ? rs->cfg->null_fail : no_fail;
	c->ctx.at = AT_FDCWD;
	c->ctx.client = c->number * per_thread;
	c->opfn = rs->opfn;
	c->all_ops = lf->ops;
	c->ctx.fd = malloc((lf->nhandles + 1) * sizeof(*c->ctx.fd));
	if (!c->ctx.fd)
		return -ENOMEM;
	for (unsigned int h = 0; h < lf->nhandles; h++)
		c->ctx.fd[h] = -1;
	/* with several clients per thread, each line's copy is for one of
	 * them (op->sub); c->number is the job's */
	if (clientpaths_init(&c->paths, lf, c->number * per_thread, prefix))
		return -ENOMEM;
	if (*prefix && !(c->walkdir = strdup(prefix)))
		return -ENOMEM;
	if (rs->cfg->latency_sample > 1) {
		c->sample_left =
			calloc(lf->nslots ? lf->nslots : 1, sizeof(uint32_t));
		if (!c->sample_left)
			return -ENOMEM;
	}
	c->ctx.buf_len = data_buffer(lf);
	c->ctx.buf = calloc_aligned(1, c->ctx.buf_len);
	if (!c->ctx.buf)
		return -ENOMEM;
	/* dbench writes zeros; native writes a byte that does not compress
	 * to nothing */
	if (lf->dialect != DIALECT_DBENCH)
		memset(c->ctx.buf, 'v', c->ctx.buf_len);
	/* 68 KiB a client that most loadfiles never touch */
	if (has_scratch(lf, rs->engine)) {
		c->ctx.dirbuf = calloc_aligned(1, ENGINE_DIRBUF);
		c->ctx.pathbuf = calloc_aligned(1, PATH_MAX);
		if (!c->ctx.dirbuf || !c->ctx.pathbuf)
			return -ENOMEM;
	}
	return result_init(&c->res, lf->nslots);
}

int client_init(struct client *c, struct run_state *rs, unsigned int id,
		int dirfd, const char *prefix)
{
	unsigned int n = run_config_lanes(rs->cfg);
	int ret = client_init_lane(c, rs, id, 0, dirfd, prefix);

	if (ret || n == 1)
		return ret;
	c->nlanes = n;
	c->lanes = calloc_aligned(n - 1, sizeof(*c->lanes));
	c->lane_arg = calloc(n, sizeof(*c->lane_arg));
	c->tally = calloc(1, sizeof(*c->tally));
	if (!c->lanes || !c->lane_arg || !c->tally)
		return -ENOMEM;
	c->lane_arg[0] = c;
	return 0;
}

int client_add_lane(struct client *c, unsigned int lane, int dirfd,
		    const char *prefix)
{
	struct client *l = &c->lanes[lane - 1];
	int ret;

	ret = client_init_lane(l, c->rs, c->id, lane, dirfd, prefix);
	c->lanes_made = lane;
	if (ret)
		return ret;
	/* the thread's: its progress slot, its CPU */
	l->progress = c->progress;
	l->cpu = c->cpu;
	l->tally = c->tally;
	c->lane_arg[lane] = l;
	return 0;
}

void client_release(struct client *c)
{
	for (unsigned int k = 0; k < c->lanes_made; k++)
		client_release(&c->lanes[k]);
	c->lanes_made = 0;
	free(c->lanes);
	free(c->lane_arg);
	if (!c->lane) /* a lane's is its thread's */
		free(c->tally);
	c->lanes = NULL;
	c->lane_arg = NULL;
	c->tally = NULL;
	clientpaths_release(&c->paths);
	free(c->walkdir);
	free(c->ctx.fd);
	free(c->ctx.buf);
	free(c->ctx.dirbuf);
	free(c->ctx.pathbuf);
	free(c->pass);
	free(c->sample_left);
	result_release(&c->res);
	free(c->affinity);
	c->affinity = NULL;
	if (c->dirfd >= 0)
		close(c->dirfd);
	c->dirfd = -1;
	if (c->ctx.at >= 0)
		close(c->ctx.at);
	c->ctx.at = AT_FDCWD;
}

static inline long client_exec(struct client *c, const struct op *op)
{
	const char *p1 = op->path, *p2 = op->path2;
	const char *const *x;

	/* a walk's prefix gives every op its own paths (clientpaths.h) */
	if (c->paths.prefixed) {
		x = &c->paths.x[2 * (size_t)(op - c->all_ops)];
		p1 = x[0];
		p2 = x[1];
	} else if (op->expand) {
		x = &c->paths.x[2 * (size_t)op->xidx];
		if (x[0])
			p1 = x[0];
		if (x[1])
			p2 = x[1];
	}
	return c->opfn[op->id](&c->ctx, op, p1, p2);
}

/* Close handle @h, untimed: the engine's way (a direct descriptor). */
static void drop_handle(struct client *c, unsigned int h)
{
	if (c->engine->drop) {
		c->engine->drop(&c->ctx, h);
		return;
	}
	close(c->ctx.fd[h]);
	c->ctx.fd[h] = -1;
}

/* An open expected to fail that succeeded: its fd has no close op. */
static void drop_unexpected_fd(struct client *c, const struct op *op)
{
	if (op->opens && op->expect != EXPECT_OK && op->expect != EXPECT_ANY &&
	    c->ctx.fd[op->handle] >= 0)
		drop_handle(c, op->handle);
}

static void close_handles(struct client *c)
{
	for (unsigned int h = 0; h < c->nhandles; h++)
		if (c->ctx.fd[h] >= 0)
			drop_handle(c, h);
}

/* Has the run been stopped (a signal, the clock, --strict...)? */
static bool stopped(const struct run_state *rs)
{
	return atomic_load_explicit(&rs->phase, memory_order_relaxed) ==
	       PHASE_STOP;
}

/*
 * The loadfile's [setup] section, untimed. In a shared directory, lines
 * without ${client} are run once, by client 0, which the main thread sets
 * up before any other client (in an MPI job, rank 0 before the others).
 */
static int run_setup_ops(struct client *c)
{
	const struct run_state *rs = c->rs;
	const struct loadfile *lf = rs->lf;
	bool shared = rs->cfg->cwd == CWD_SHARED;

	c->opfn = rs->opfn_setup;
	for (unsigned int i = 0; i < lf->nsetup; i++) {
		const struct op *op = &lf->ops[i];
		long ret;
		int err;
		bool on_handle =
			op->has_handle && !(op_table[op->id].flags & OPF_OPENS);

		/* a handle op goes with the open that filled its handle */
		if (on_handle ? c->ctx.fd[op->handle] < 0 :
				shared && !op->expand && c->number != 0)
			continue;
		ret = client_exec(c, op);
		err = ret < 0 ? (int)-ret : 0;
		drop_unexpected_fd(c, op);
		if (!op_expect_matches(op, err)) {
			/* interrupted by a stop: not the line's fault */
			if (err == EINTR && stopped(rs))
				return -EINTR;
			c->error_line = op->line;
			c->error_op = op->id;
			return err ? -err : -EPROTO;
		}
	}
	c->opfn = rs->opfn;
	close_handles(c);
	return 0;
}

/*
 * --placement: the thread moves to its CPU before anything else, so its
 * [setup] (its memory, its dentries) happens there too; then it records
 * the mask it has, as the kernel sees it.
 */
static int client_pin(struct client *c)
{
	struct cpulist l = { 0 };
	int ret = 0;

	if (c->cpu >= 0) {
		cpulist_add(&l, (unsigned int)c->cpu);
		ret = cpulist_set_affinity(&l, 0);
		cpulist_release(&l);
		if (ret) {
			c->pin_failed = true;
			return ret;
		}
	}
	if (!cpulist_affinity(&l, 0)) {
		c->affinity = cpulist_string(&l);
		cpulist_release(&l);
	}
	return 0;
}

/*
 * --dcache negative=N: N missing names (.vb-neg-0...) looked up in the
 * client's directory, after its [setup] (which may make or remove
 * names), so that the clock starts with N negative dentries there. The
 * directory is the client's cwd by now in every mode (its own, the
 * shared one, dbench's), so no fd of it is kept for this: with a private
 * fd table it would be copied into the table and left in the shared one.
 * With --cwd shared the clients have one directory: client 0 makes
 * them, as it runs the [setup] lines without ${client}.
 */
static int client_negative(struct client *c)
{
	const struct run_config *cfg = c->rs->cfg;
	int ret, dir = AT_FDCWD;

	if (cfg->dcache != DCACHE_NEGATIVE ||
	    (cfg->cwd == CWD_SHARED && c->number != 0))
		return 0;
	/* where the loadfile's names are: below the walk's prefix */
	if (c->walkdir) {
		dir = open(c->walkdir, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (dir < 0)
			return -errno;
	}
	ret = dcache_make_negative(dir, cfg->dcache_negative, &c->dcache_at);
	if (dir >= 0)
		close(dir);
	c->dcache_failed = ret != 0;
	return ret;
}

/* Lane @k of @c's thread: @c itself for lane 0. */
static struct client *lane_of(struct client *c, unsigned int k)
{
	return k ? &c->lanes[k - 1] : c;
}

/*
 * --resolve dirfd and beneath: lookups start at an O_PATH fd of the
 * client's directory, held for the whole run. So do a thread's lanes in
 * every mode: a thread has one cwd, and each lane its own directory.
 */
static int client_open_at(struct client *c, bool lanes)
{
	const struct run_config *cfg = c->rs->cfg;

	if (lanes || cfg->resolve == RESOLVE_DIRFD ||
	    cfg->resolve == RESOLVE_MODE_BENEATH) {
		c->ctx.at =
			openat(c->dirfd, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (c->ctx.at < 0)
			return -errno;
	}
	if (c->dirfd >= 0) {
		close(c->dirfd);
		c->dirfd = -1;
	}
	return 0;
}

/*
 * A lane's [setup] on its thread's ring (before the lanes start, one
 * op at a time); a failure ends the thread's setup.
 */
static int lane_setup(struct client *c, struct client *l)
{
	int ret;

	l->ctx.ring = c->ctx.ring;
	ret = run_setup_ops(l);
	if (ret) {
		/* told as the lane's: the run ends with this error, and the
		 * message names the client whose [setup] failed */
		c->error_line = l->error_line;
		c->error_op = l->error_op;
		c->number = l->number;
		return ret;
	}
	l->ctx.inl = &l->res.err[0][ERR_INLINE];
	l->ctx.inl_stride = ERR_NR;
	return 0;
}

static int client_setup(struct client *c)
{
	const struct run_state *rs = c->rs;
	const struct run_config *cfg = rs->cfg;
	unsigned int n = c->nlanes ? c->nlanes : 1, fds;
	int ret;

	ret = client_pin(c);
	if (ret)
		return ret;
	if (cfg->fs == FS_PRIVATE) {
		if (unshare(CLONE_FS) || fchdir(c->dirfd))
			return -errno;
	}
	for (unsigned int k = 0; k < n; k++) {
		ret = client_open_at(lane_of(c, k), n > 1);
		if (ret)
			return ret;
	}
	if (cfg->fdt == FDT_PRIVATE) {
		if (unshare(CLONE_FILES))
			return -errno;
		/* run_fds counts every lane's (run.c) */
		fds = rs->setup_fds > rs->run_fds ? rs->setup_fds : rs->run_fds;
		ret = fdtable_reserve(fds);
		if (ret)
			return ret;
	}
	/* -e uring: the ring, in the client's fd table, before [setup] */
	if (c->engine->ctx_init) {
		ret = c->engine->ctx_init(&c->ctx, rs->lf, cfg->uring_fixed, n);
		if (ret)
			return ret;
	}
	ret = run_setup_ops(c);
	if (ret)
		return ret;
	/* the [run] ops' inline completions, in their slots' outcomes */
	c->ctx.inl = &c->res.err[0][ERR_INLINE];
	c->ctx.inl_stride = ERR_NR;
	for (unsigned int k = 1; k < n; k++) {
		ret = lane_setup(c, lane_of(c, k));
		if (ret)
			return ret;
	}
	return client_negative(c);
}

/*
 * An EINTR: interrupted, not unexpected, if the stop's kick caused it,
 * also on a line that takes any result (dbench's Sleep). Out of line: the
 * hot loop only compares err, and only where the op failed.
 */
static __attribute__((noinline)) void client_interrupted(struct client *c,
							 const struct op *op)
{
	if (stopped(c->rs)) {
		c->res.interrupted++;
		c->res.err[op->slot][ERR_INTERRUPTED]++;
	}
}

/*
 * The slow path of a result that differs from the op's expectation. An
 * EINTR that the stop caused (SIGNAL_KICK) is not unexpected: it is
 * counted as interrupted, and stops nothing.
 */
static void client_unexpected(struct client *c, const struct op *op, int err)
{
	struct run_state *rs = c->rs;
	const struct run_config *cfg = rs->cfg;
	unsigned int idx = err >= ERR_ERRNO_MAX ? ERR_OTHER : (unsigned int)err;

	if (err == EINTR && stopped(rs)) {
		client_interrupted(c, op);
		return;
	}
	/* the probe's answer, not an error: counted apart */
	if (err == EAGAIN && op->id == OP_PROBE) {
		c->res.err[op->slot][ERR_UNCACHED]++;
		return;
	}
	c->res.err[op->slot][idx]++;
	c->res.unexpected++;
	drop_unexpected_fd(c, op);
	if (cfg->strict)
		run_state_trip(rs, RUN_END_STRICT, op, err, c->number);
	if (cfg->max_errors && atomic_fetch_add_explicit(&rs->unexpected, 1,
							 memory_order_relaxed) +
					       1 >=
				       cfg->max_errors)
		run_state_trip(rs, RUN_END_MAX_ERRORS, op, err, c->number);
}

/*
 * --show-execute-time: a pass ended at @end; it began at the end of the
 * one before (c->pass_mark). Out of line: the hot loop pays a test of
 * the setting per pass, nothing per op.
 */
static NOINLINE void note_pass(struct client *c, uint64_t end)
{
	if (c->npass == c->pass_alloc) {
		unsigned int n = c->pass_alloc ? 2 * c->pass_alloc : 64;
		struct pass_time *p = realloc(c->pass, n * sizeof(*p));

		if (!p)
			return; /* out of memory: the passes after go unrecorded
				 */
		c->pass = p;
		c->pass_alloc = n;
	}
	c->pass[c->npass++] = (struct pass_time){ end, end - c->pass_mark };
	c->pass_mark = end;
}

/* When the phase @phase ends by the clock: UINT64_MAX if not by time. */
static uint64_t phase_end(const struct run_state *rs, int phase)
{
	if (phase == PHASE_WARMUP)
		return rs->measure_at;
	if (phase == PHASE_MEASURE)
		return rs->stop_at;
	return UINT64_MAX;
}

/*
 * -e uring: the CPU time of the client's io-wq workers (iou-wrk-<tid>) at
 * the measurement's start, and what they used by its end. Out of line,
 * like usage_mark(): at phase boundaries only.
 */
static NOINLINE void iowq_mark(struct client *c, uint64_t *ns)
{
	if (c->ctx.ring &&
	    iowq_cpu_ns(atomic_load_explicit(&c->tid, memory_order_relaxed),
			ns))
		*ns = UINT64_MAX;
}

static NOINLINE void iowq_add(struct client *c, uint64_t start)
{
	uint64_t end;

	if (!c->ctx.ring || start == UINT64_MAX)
		return;
	iowq_mark(c, &end);
	if (end == UINT64_MAX)
		return;
	/* a worker that exited took its time with it: never below 0 */
	c->res.usage.iowq_ns += end > start ? end - start : 0;
	c->res.usage.iowq_known = true;
}

/*
 * --latency-sample: the measurement starts each kind's countdown at 1, so
 * that its first op is timed, then every Nth.
 */
static void sample_restart(struct client *c)
{
	for (unsigned int s = 0; s < c->res.nslots; s++)
		c->sample_left[s] = 1;
}

/*
 * Each kind's op count, at the loop's end: the histogram's when every op
 * is timed. Sampling one in N from the first, t timed ops and a countdown
 * at l (1 to N) mean t * N + 1 - l ops: the first op timed, N - 1
 * between two timed ones, N - l since the last.
 */
static void count_ops(struct client *c, bool sampled)
{
	struct result *res = &c->res;
	uint64_t every = c->rs->cfg->latency_sample;

	for (unsigned int s = 0; s < res->nslots; s++)
		res->count[s] = sampled ? res->lat[s].count * every + 1 -
						  c->sample_left[s] :
					  res->lat[s].count;
}

/*
 * The hot loop. Timing every op (@sampled false), it reads the clock once
 * per op boundary: the end of one op is the start of the next, so an
 * op's latency also holds the few ns of bookkeeping after the previous op
 * (the latency's store, result check, progress store); two reads per op
 * would cost a clock read more on every op. With --latency-sample N
 * (@sampled true) it times one op in N of each kind (op->slot), reading
 * the clock just before and after that op, and only counts the others.
 *
 * Phase changes are seen at op boundaries. With --loops the switch from
 * warmup to measurement waits for a pass boundary, so that a measured pass
 * is always a whole pass and op counts are exact. A phase that ends by
 * the clock is ended by the first client to read a time past its end
 * (the main thread does the same when it wakes): one compare with the
 * time just read, so the run stops on time however busy the CPUs are;
 * sampling, a client reads the time only around the ops it times.
 *
 * Counts stay in registers: the op count, bytes and the end of the last
 * op go into the result when the loop ends (the main thread reads the
 * progress slot while it runs, the result only after the join).
 *
 * Always inlined into client_loop()'s and lane_main()'s calls, so that
 * each loop is compiled with @sampled and @laned constants: a loop
 * without lanes is the same code as before they existed.
 *
 * @laned: the loop of one of the thread's lanes (--uring-depth). It
 * keeps its own counts and result, but stores the thread's counts in the
 * progress slot (c->tally), leaves the warmup gate, the thread's usage
 * and its io-wq time to lane 0, and its latencies run from its previous
 * op's completion to this one's: what the lane waited for the thread is
 * in them.
 */
static inline __attribute__((always_inline)) void
client_run(struct client *c, const bool sampled, const bool laned)
{
	struct run_state *rs = c->rs;
	const struct run_config *cfg = rs->cfg;
	const struct op *ops = c->ops;
	struct result *res = &c->res;
	struct progress *prog = c->progress;
	uint32_t *left = c->sample_left, every = cfg->latency_sample;
	unsigned int nops = c->nops;
	uint64_t warm_passes = 0, done = 0, done_bytes = 0, t0, end_at;
	uint64_t done_from = 0, bytes_from = 0; /* at the measurement's start */
	int seen = atomic_load_explicit(&rs->phase, memory_order_relaxed);
	bool measuring = seen == PHASE_MEASURE, partial = false;
	bool close_after_pass = rs->lf->close_after_pass;
	/* the end of a pass has work beyond counting it: one test a pass */
	bool pass_work = !measuring || close_after_pass || cfg->pass_times;
	/* lane 0 alone stands for the thread at the gate and in usage */
	const bool thread_lane = !laned || !c->lane;
	bool owe_gate = rs->warm_gate && thread_lane;
	/* the latencies not yet in res->lat, on this thread's stack beside
	 * the loop's other locals (doc/performance.md, "The histogram's
	 * store"), and how many */
	struct hist_batch batch;
	unsigned int batched = 0;
	struct usage_mark own_start, u_end;
	struct usage_mark *u_start = laned ? &c->tally->u_start : &own_start;
	uint64_t own_iowq = 0;
	uint64_t *iowq_start = laned ? &c->tally->iowq_start : &own_iowq;

	/*
	 * A client that owes the warmup gate arrives even when stopped, or
	 * the main thread would wait for it forever; and one that finds the
	 * run stopped already must not replay ops waiting for a change.
	 */
	if (owe_gate && cfg->warmup_kind == WARMUP_PASSES)
		warm_passes = cfg->warmup;
	if (seen == PHASE_STOP)
		goto out;
	end_at = phase_end(rs, seen);
	if (sampled)
		sample_restart(c);
	if (thread_lane) {
		usage_mark(u_start);
		iowq_mark(c, iowq_start);
	}
	t0 = clock_now_ns();
	res->t_start = t0;
	c->pass_mark = t0;
	for (;;) {
		for (unsigned int i = 0; i < nops; i++) {
			const struct op *op = &ops[i];
			int phase = atomic_load_explicit(&rs->phase,
							 memory_order_relaxed);
			long ret;
			uint64_t t1, lat;
			int err;

			if (__builtin_expect(phase != seen, 0)) {
				if (phase == PHASE_STOP)
					goto out;
				if (phase == PHASE_MEASURE &&
				    (!cfg->loops || i == 0)) {
					result_reset(res);
					batched = 0; /* the warmup's */
					done_from = done;
					bytes_from = done_bytes;
					if (sampled)
						sample_restart(c);
					if (thread_lane) {
						usage_mark(u_start);
						iowq_mark(c, iowq_start);
					}
					t0 = clock_now_ns();
					res->t_start = t0;
					measuring = true;
					pass_work = close_after_pass ||
						    cfg->pass_times;
					partial = i != 0;
					seen = phase;
					end_at = rs->stop_at;
				}
			}
			if (op->has_handle && c->ctx.fd[op->handle] < 0 &&
			    !op->opens) {
				res->skipped++;
				res->err[op->slot][ERR_SKIPPED]++;
				continue;
			}
			if (sampled) {
				if (--left[op->slot]) {
					ret = client_exec(c, op);
					goto counted;
				}
				left[op->slot] = every;
				t0 = clock_now_ns();
			}
			ret = client_exec(c, op);
			t1 = clock_now_ns();
			lat = t1 - t0;
			batched = hist_batch_add(&batch, batched, res->lat,
						 op->slot, lat);
			/* -R's pacing is a wait, not an op's latency */
			if (__builtin_expect(
				    lat > atomic_load_explicit(
						  &prog->max_ns,
						  memory_order_relaxed),
				    0) &&
			    op->id != OP_DB_PACE)
				atomic_store_explicit(&prog->max_ns, lat,
						      memory_order_relaxed);
			t0 = t1;
			if (__builtin_expect(t1 >= end_at, 0)) {
				end_at = UINT64_MAX;
				/* a profiled run's warmup ends at the gate (the
				 * op is counted as the warmup's after it) */
				if (owe_gate) {
					owe_gate = false;
					gate_arrive(&rs->gate);
					t0 = clock_now_ns();
				} else if (thread_lane || !rs->warm_gate ||
					   seen == PHASE_MEASURE) {
					/* a gated warmup ends at lane 0's
					 * arrival */
					run_state_advance(
						rs, seen == PHASE_MEASURE ?
							    PHASE_STOP :
							    PHASE_MEASURE);
				}
			}
		counted:
			err = ret < 0 ? (int)-ret : 0;
			if (ret > 0) {
				done_bytes += (uint64_t)ret;
				atomic_store_explicit(&prog->bytes,
						      laned ? c->tally->bytes +=
							      (uint64_t)ret :
							      done_bytes,
						      memory_order_relaxed);
			}
			if (__builtin_expect(!op_expect_matches(op, err), 0))
				client_unexpected(c, op, err);
			else if (__builtin_expect(err == EINTR, 0))
				client_interrupted(c, op);
			++done;
			atomic_store_explicit(&prog->ops,
					      laned ? ++c->tally->ops : done,
					      memory_order_relaxed);
		}
		if (__builtin_expect(pass_work, 0)) {
			if (cfg->pass_times)
				note_pass(c, sampled ? clock_now_ns() : t0);
			/* what a cut of a trace leaves open: untimed */
			if (close_after_pass) {
				close_handles(c);
				t0 = clock_now_ns();
			}
			if (!measuring) {
				if (warm_passes && !--warm_passes) {
					/* the main thread starts the
					 * measurement once every client
					 * is here */
					owe_gate = false;
					gate_arrive(&rs->gate);
					t0 = clock_now_ns();
					c->pass_mark = t0;
				}
				continue;
			}
		}
		/* a pass counts if it was measured from its first op */
		res->passes += !partial;
		partial = false;
		if (cfg->loops && res->passes == cfg->loops)
			break;
	}
out:
	/* stopped before the measurement began: nothing to report */
	if (!measuring) {
		result_reset(res);
	} else {
		/* lanes: the thread's, when all its lanes are done */
		if (!laned) {
			usage_mark(&u_end);
			result_add_usage(res, u_start, &u_end);
			iowq_add(c, *iowq_start);
			c->last_cpu = u_end.cpu;
		} else if (thread_lane) {
			c->tally->measuring = true;
		}
		hist_batch_flush(&batch, batched, res->lat);
		count_ops(c, sampled);
		res->ops = done - done_from;
		res->bytes = done_bytes - bytes_from;
		/*
		 * The window ends when the client leaves it, not at its last
		 * op's end: a process stopped (SIGSTOP, a frozen VM) after an
		 * op and continued past the deadline would otherwise show a
		 * window that ended at the stop, short and not overrun. In a
		 * run that goes as asked the two are the same to a few ns.
		 * None without an op.
		 */
		if (res->ops)
			res->t_end = clock_now_ns();
	}
	close_handles(c);
	if (owe_gate)
		gate_arrive(&rs->gate);
}

/* One lane of the thread (--uring-depth), on its own stack. */
static void lane_main(void *arg)
{
	struct client *c = arg;

	if (c->sample_left)
		client_run(c, true, true);
	else
		client_run(c, false, true);
}

/*
 * The thread's lanes, until each has ended; then their results in lane
 * 0's (the thread's), with the thread's usage from lane 0's start of the
 * measurement to the end of the last lane.
 */
static void client_lanes(struct client *c)
{
	struct lane_tally *t = c->tally;
	struct usage_mark u_end;

	c->engine->lanes(&c->ctx, lane_main, c->lane_arg);
	for (unsigned int k = 1; k < c->nlanes; k++)
		result_merge(&c->res, &c->lanes[k - 1].res);
	if (t->measuring) {
		usage_mark(&u_end);
		result_add_usage(&c->res, &t->u_start, &u_end);
		iowq_add(c, t->iowq_start);
		c->last_cpu = u_end.cpu;
	}
}

static void client_loop(struct client *c)
{
	if (c->nlanes > 1)
		client_lanes(c);
	else if (c->sample_left)
		client_run(c, true, false);
	else
		client_run(c, false, false);
}

void *client_main(void *arg)
{
	struct client *c = arg;
	struct run_state *rs = c->rs;

	atomic_store_explicit(&c->tid, (int)gettid(), memory_order_relaxed);
	/*
	 * No client is ever cancelled (a stop interrupts one with
	 * SIGNAL_KICK, see signals.h). With glibc's default, deferred type
	 * every cancellable call (open, close, pread, pwrite, fsync,
	 * clock_nanosleep...) of a multi-threaded process switches the type
	 * to asynchronous and back around its system call, two lock cmpxchg;
	 * with the type already asynchronous both are skipped. A
	 * single-threaded dbench never pays them. doc/design.md, "Timing".
	 */
	pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, NULL);
	signals_accept_kick();
	c->error = client_setup(c);
	gate_arrive(&rs->gate);
	if (!c->error)
		client_loop(c);
	/* in the thread: the ring is in its fd table */
	if (c->engine->ctx_release)
		c->engine->ctx_release(&c->ctx);
	atomic_store_explicit(&c->progress->done, 1, memory_order_release);
	return NULL;
}
