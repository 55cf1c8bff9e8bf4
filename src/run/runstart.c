/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A run's client threads: started (client 0 to the end of its [setup]
 * first, the others in parallel), awaited at the gate, kicked out of
 * their system calls after a stop, and joined with their results merged.
 * run.c drives the phases around them.
 */
#include <config.h>
#include "run/runstart.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>

#include "base/clock.h"
#include "base/msg.h"
#include "lang/loadfile.h"
#include "lang/ops.h"
#include "run/client.h"
#include "run/clientdir.h"
#include "run/memory.h"
#include "run/runconfig.h"
#include "run/runtype.h"
#include "run/signals.h"
#include "run/sleep.h"
#include "workdir/workdir.h"

/*
 * After a stop: how long the clients have to finish the op in flight
 * before those still in a system call are interrupted (SIGNAL_KICK), and
 * how often they are interrupted again (a kick may land just before the
 * call blocks); how often the main thread looks meanwhile.
 */
#define KICK_AFTER_NS (100 * NSEC_PER_MSEC)
#define KICK_EVERY_NS (100 * NSEC_PER_MSEC)
#define AWAIT_TICK_NS (10 * NSEC_PER_MSEC)

static bool client_done(const struct run *run, unsigned int i)
{
	return atomic_load_explicit(&run->state.progress[i].done,
				    memory_order_acquire);
}

static bool all_done(const struct run *run)
{
	for (unsigned int i = 0; i < run->started; i++)
		if (!client_done(run, i))
			return false;
	return true;
}

static void kick_clients(const struct run *run)
{
	for (unsigned int i = 0; i < run->started; i++)
		if (!client_done(run, i))
			pthread_kill(run->clients[i].thread, SIGNAL_KICK);
}

/*
 * Wait for the clients: until @arrivals have arrived at the gate, or with
 * @arrivals 0 until every client started is done. Once the run is
 * stopped (a signal, the clock, --strict, --max-errors), the clients still
 * at it are kicked out of their system calls, from KICK_AFTER_NS after the
 * stop, every KICK_EVERY_NS, until --stop-timeout after the stop. Returns
 * false if they are not there by then; waiting for all to be done, it
 * then marks stuck those that are not: they cannot be interrupted (in
 * uninterruptible sleep, on a dead NFS server say).
 */
bool run_await_clients(struct run *run, unsigned int arrivals)
{
	uint64_t start = clock_now_ns(), next_kick = 0, now, limit;

	for (;;) {
		now = clock_now_ns();
		if (arrivals ? gate_wait_until(&run->state.gate, arrivals,
					       now + AWAIT_TICK_NS) :
			       all_done(run))
			return true;
		if (!arrivals)
			sleep_until(now + AWAIT_TICK_NS);
		if (atomic_load(&run->state.phase) != PHASE_STOP)
			continue;
		now = clock_now_ns();
		if (!run->stopped_at)
			run->stopped_at = now;
		if (!next_kick)
			next_kick = run->stopped_at + KICK_AFTER_NS;
		/* a later wait still gives the clients it waits for a go */
		limit = run->stopped_at + run->state.cfg->stop_wait_ns;
		if (limit < start + KICK_AFTER_NS + KICK_EVERY_NS)
			limit = start + KICK_AFTER_NS + KICK_EVERY_NS;
		if (now >= limit)
			break;
		if (now >= next_kick) {
			kick_clients(run);
			next_kick = now + KICK_EVERY_NS;
		}
	}
	for (unsigned int i = 0; !arrivals && i < run->started; i++) {
		if (client_done(run, i))
			continue;
		client_sample_stuck(&run->samples[run->ids[i]],
				    &run->clients[i]);
		run->stuck++;
	}
	return false;
}

/*
 * A [setup] line whose result was not the expected one: the line, its op
 * and the errno by name (as --strict and --max-errors say in a run).
 */
static void setup_error(const struct run *run, const struct client *c, int ret)
{
	char name[32];

	if (ret == -EPROTO)
		error("%s:%u: [setup] of client %u: %s: unexpected result success",
		      run->state.lf->name, c->error_line, c->number,
		      op_table[c->error_op].name);
	else
		error("%s:%u: [setup] of client %u: %s: unexpected result %s (%s)",
		      run->state.lf->name, c->error_line, c->number,
		      op_table[c->error_op].name,
		      op_errno_name(-ret, name, sizeof(name)), strerror(-ret));
}

/*
 * Whether client @i, arrived at the gate, was set up: 0, or its error,
 * reported (-EINTR, unreported, when a stop interrupted its [setup]).
 */
static int client_ready(struct run *run, unsigned int i)
{
	struct client *c = &run->clients[i];
	int ret = c->error;

	if (!ret)
		return 0;
	if (ret == -EINTR && atomic_load(&run->state.phase) == PHASE_STOP)
		return -EINTR;
	if (c->error_line)
		setup_error(run, c, ret);
	else if (c->dcache_failed)
		error("client %u: --dcache negative=%u: '.vb-neg-%u' in its directory: %s (each name must be missing)",
		      c->number, run->state.cfg->dcache_negative, c->dcache_at,
		      strerror(-ret));
	else if (c->pin_failed)
		error("cannot pin client %u to CPU %d: %s", i, c->cpu,
		      strerror(-ret));
	else
		error("cannot set up client %u: %s", c->number, strerror(-ret));
	return ret;
}

/*
 * Lane @lane of client @i (0: the client itself): its directory and its
 * state. With --uring-depth N, lane k of the thread numbered t in the
 * job is client t * N + k in everything but its thread.
 */
static int start_lane(struct run *run, struct workdir *wd, int shared_fd,
		      unsigned int i, unsigned int lane)
{
	struct client *c = &run->clients[i];
	unsigned int number = client_lane_number(&run->state, i, lane);
	char prefix[PATH_MAX];
	int ret, dirfd;

	ret = clientdir_prefix(run->state.cfg, run->index, run->abs_root,
			       number, prefix, sizeof(prefix));
	if (ret < 0) {
		error("the paths of client %u: %s", number, strerror(-ret));
		return ret;
	}
	ret = clientdir_open(run->state.cfg, run->index, wd, number, shared_fd,
			     &dirfd);
	if (ret) {
		if (lane)
			client_release(c);
		return ret;
	}
	ret = lane ? client_add_lane(c, lane, dirfd, prefix) :
		     client_init(c, &run->state, i, dirfd, prefix);
	if (ret) {
		client_release(c);
		error("cannot set up client %u: %s", number, strerror(-ret));
	}
	return ret;
}

/* Create client @i's directory, its state and its thread. */
static int start_client(struct run *run, struct workdir *wd, int shared_fd,
			unsigned int i, const pthread_attr_t *attr)
{
	struct client *c = &run->clients[i];
	sigset_t old;
	int ret;

	for (unsigned int k = 0; k < run_config_lanes(run->state.cfg); k++) {
		ret = start_lane(run, wd, shared_fd, i, k);
		if (ret)
			return ret;
	}
	signals_block(&old);
	ret = -pthread_create(&c->thread, attr, client_main, c);
	signals_restore(&old);
	if (ret) {
		client_release(c);
		error("cannot start client %u: %s", c->number, strerror(-ret));
		return ret;
	}
	run->started++;
	return 0;
}

/*
 * Start the clients: the first alone, to the end of its setup, since in
 * a shared directory client 0 runs the [setup] lines that the others
 * rely on; then the others without waiting for each, each setting itself
 * up (isolation, [setup]) while the main thread creates the next, so that
 * the setup time per client does not grow with the count
 * (doc/performance.md, "Parallel setup"). At most run->setup_inflight of
 * them are in their setup at once: each holds its directory's fd, and its
 * [setup] fds, in the process's table until its setup ends, and the table
 * is sized for that many. A signal starts no more clients, but every
 * client started is waited for at the gate (one that
 * arrived after the gate opened would wait there for ever); the first
 * failure in client order is the one reported.
 */
int run_start_clients(struct run *run, struct workdir *wd, int shared_fd)
{
	pthread_attr_t attr;
	int ret = 0;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, CLIENT_STACK);
	for (unsigned int i = 0; i < run->nlocal; i++) {
		/* checked before each start, not after: a signal during
		 * client 0's [setup] leaves the others unstarted */
		if (signals.count) {
			ret = -EINTR;
			break;
		}
		/* at most setup_inflight in their setup after this start */
		if (i > run->setup_inflight &&
		    !run_await_clients(run, i + 1 - run->setup_inflight)) {
			ret = -ETIMEDOUT;
			break;
		}
		ret = start_client(run, wd, shared_fd, i, &attr);
		if (ret)
			break;
		if (i)
			continue;
		if (!run_await_clients(run, 1)) {
			ret = -ETIMEDOUT;
			break;
		}
		ret = client_ready(run, 0);
		if (ret)
			break;
		run->ready++;
	}
	pthread_attr_destroy(&attr);
	if (run->started > 1 && !run_await_clients(run, run->started))
		return ret ? ret : -ETIMEDOUT;
	/* client 0 was counted, or its failure reported, above */
	for (unsigned int i = 1; i < run->started; i++) {
		int err = ret ? run->clients[i].error : client_ready(run, i);

		if (!err)
			run->ready++;
		else if (!ret)
			ret = err;
	}
	if (!ret && signals.count)
		ret = -EINTR;
	return ret;
}

void run_join_clients(struct run *run)
{
	run_await_clients(run, 0);
	for (unsigned int i = 0; i < run->started; i++) {
		struct client_sample *cs = &run->samples[run->ids[i]];
		struct client *c = &run->clients[i];

		if (cs->stuck) {
			client_sample_report_stuck(
				cs, run->ids[i], run->state.cfg->stop_wait_ns);
			continue;
		}
		pthread_join(c->thread, NULL);
		if (!c->error)
			result_merge(&run->total, &c->res);
		client_sample_take(cs, c, run->state.cfg->per_client);
		client_release(c);
	}
}
