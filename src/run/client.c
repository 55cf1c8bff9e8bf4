/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The client thread: its setup (clientsetup.c), then the hot loop that
 * replays the [run] section, times every op and checks its result.
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

/*
 * An EINTR: interrupted, not unexpected, if the stop's kick caused it,
 * also on a line that takes any result (dbench's Sleep). Out of line: the
 * hot loop only compares err, and only where the op failed.
 */
static __attribute__((noinline)) void client_interrupted(struct client *c,
							 const struct op *op)
{
	if (client_stopped(c->rs)) {
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

	if (err == EINTR && client_stopped(rs)) {
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
	client_drop_unexpected_fd(c, op);
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
				client_close_handles(c);
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
	client_close_handles(c);
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
