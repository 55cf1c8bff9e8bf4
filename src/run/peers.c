/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The meeting points of the ranks of an MPI job (peers.h): whether the
 * sweep goes on, a run's setup and readiness, the agreed start, the stop
 * notices and the merge of every rank's figures on rank 0. How they wait
 * and their exchanges through rank 0 are run/meet.c's.
 */
#include <config.h>
#include "run/peers.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/alloc.h"
#include "base/clock.h"
#include "base/exit.h"
#include "base/msg.h"
#include "run/runconfig.h"
#include "run/layout.h"
#include "run/meet.h"
#include "run/signals.h"
#include "run/state.h"

/* Message tags; run/meet.c's is 1, mpi/job.c's clock uses 100. */
#define TAG_RESULT 2
#define TAG_STOP   3

/* Ping-pongs per clock offset, and how long they may take. */
#define CLOCK_ROUNDS  16
#define CLOCK_WAIT_NS (10 * NSEC_PER_SEC)
/* How far ahead rank 0 sets the start: its broadcast must arrive first. */
#define START_AHEAD_NS (20 * NSEC_PER_MSEC)
/* A notice that was sent arrives: how long draining it may take. */
#define DRAIN_WAIT_NS (10 * NSEC_PER_SEC)

static bool single(const struct layout *l)
{
	return !l || l->nranks < 2;
}

struct go_on {
	int32_t status;
	int32_t sig;
};

bool peers_continue(const struct layout *l, int *status, bool more,
		    uint64_t stop_wait_ns)
{
	struct go_on mine, *all;

	/* stopped between two runs (or stdout closed at a report) */
	if (more && signals.count && *status == VB_EXIT_OK)
		*status = VB_EXIT_SIGNAL(signals.last);
	if (single(l) || meet_lost())
		return more && *status == VB_EXIT_OK;
	mine = (struct go_on){ .status = *status,
			       .sig = signals.count ? signals.last : 0 };
	all = xcalloc(l->nranks, sizeof(*all));
	if (meet_all(l, &mine, sizeof(mine), all, stop_wait_ns,
		     "the next run")) {
		free(all);
		if (*status == VB_EXIT_OK)
			*status = VB_EXIT_RUNTIME;
		return false;
	}
	for (unsigned int r = 0; r < l->nranks && *status == VB_EXIT_OK; r++) {
		*status = all[r].status;
		if (all[r].sig && !signals.count)
			signals_raise(all[r].sig);
	}
	free(all);
	return more && *status == VB_EXIT_OK;
}

void peers_init(struct peers *p, const struct layout *l, unsigned int index,
		unsigned int nlocal)
{
	memset(p, 0, sizeof(*p));
	p->layout = l;
	p->index = index;
	p->nlocal = nlocal;
	p->stopped_by = -1;
}

/* What rank 0's setup and each rank's readiness say. */
struct peer_ready {
	int32_t status; /* 0 or -errno; -EINTR, -ETIMEDOUT: a stop */
	int32_t sig; /* the signal that stopped it, or 0 */
};

static bool is_stop(int status)
{
	return status == -EINTR || status == -ETIMEDOUT;
}

/* A run stopped because of rank @from's @status. */
static void stop_as(struct run_state *rs, const struct peer_ready *from)
{
	if (is_stop(from->status)) {
		if (from->sig && !signals.count)
			signals_raise(from->sig);
		run_state_stop(rs, RUN_END_SIGNAL);
	} else {
		run_state_stop(rs, RUN_END_FAILED);
	}
}

static struct peer_ready ready_of(int status)
{
	return (struct peer_ready){ .status = status,
				    .sig = signals.count ? signals.last : 0 };
}

/* Rank 0's setup, broadcast: it is done (and how) before the others'. */
static int root_setup(struct peers *p, struct run_state *rs,
		      struct peer_ready *root)
{
	struct meet w = { .rs = rs, .stop_wait_ns = rs->cfg->stop_wait_ns };
	struct job_req q;
	int err;

	if (meet_lost())
		return -ETIMEDOUT;
	err = job_ibcast(&q, root, sizeof(*root));
	if (!err)
		err = meet_wait(&w, &q, 1);
	if (err) {
		char name[LAYOUT_HOST_MAX + 32], g[64];

		if (err == -ETIMEDOUT && p->layout->rank)
			error("%s did not finish its setup of run %u within %s",
			      layout_name(p->layout, 0, name, sizeof(name)),
			      p->index, meet_grace_str(&w, g, sizeof(g)));
		return meet_lose(err);
	}
	return 0;
}

int peers_before_setup(struct peers *p, struct run_state *rs)
{
	struct peer_ready root = { 0 };
	int err;

	if (single(p->layout) || p->layout->rank == 0)
		return 0;
	err = root_setup(p, rs, &root);
	if (err) {
		run_state_stop(rs, RUN_END_FAILED);
		return err;
	}
	if (!root.status)
		return 0;
	stop_as(rs, &root);
	return -ECANCELED;
}

int peers_ready(struct peers *p, struct run_state *rs, int status)
{
	const struct layout *l = p->layout;
	struct meet w = { .rs = rs, .stop_wait_ns = rs->cfg->stop_wait_ns };
	struct peer_ready mine = ready_of(status), *all;
	char name[LAYOUT_HOST_MAX + 32];
	int first = -1, err;

	if (single(l))
		return status;
	if (l->rank == 0) {
		err = root_setup(p, rs, &mine);
		if (err)
			return err;
	}
	p->notice_out = xcalloc(l->nranks, sizeof(*p->notice_out));
	err = job_irecv(&p->notice_in, JOB_ANY, TAG_STOP, &p->in,
			sizeof(p->in));
	if (err)
		return meet_lose(err);
	all = xcalloc(l->nranks, sizeof(*all));
	err = meet_exchange(l, &mine, sizeof(mine), all, &w,
			    "the start of a run");
	if (err) {
		free(all);
		return err;
	}
	for (unsigned int r = 0; r < l->nranks; r++) {
		/* -ECANCELED: it did nothing, as rank 0 had failed */
		if (!all[r].status || all[r].status == -ECANCELED)
			continue;
		if (first < 0)
			first = (int)r;
		if (l->rank == 0 && !is_stop(all[r].status))
			error("%s: its setup of run %u failed (%s): the run is stopped on every rank",
			      layout_name(l, r, name, sizeof(name)), p->index,
			      strerror(-all[r].status));
	}
	if (first >= 0) {
		/* the same end on every rank: a failure over a stop */
		stop_as(rs, &all[first]);
		for (unsigned int r = 0; r < l->nranks; r++)
			if (all[r].status && !is_stop(all[r].status) &&
			    all[r].status != -ECANCELED)
				atomic_store(&rs->end, RUN_END_FAILED);
		job_cancel(&p->notice_in);
		p->stopped_by = first;
	}
	free(all);
	if (first < 0)
		return 0;
	return status ? status : -ECANCELED;
}

static void sleep_until(uint64_t deadline)
{
	struct timespec ts = {
		.tv_sec = (time_t)(deadline / NSEC_PER_SEC),
		.tv_nsec = (long)(deadline % NSEC_PER_SEC),
	};

	/* a signal ends the sleep: the run then stops at once anyway */
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

int peers_start(struct peers *p, struct run_state *rs)
{
	struct meet w = { .rs = rs, .stop_wait_ns = rs->cfg->stop_wait_ns };
	uint64_t start = 0;
	struct job_req q;
	int err;

	if (single(p->layout)) {
		p->gate_at = clock_now_ns();
		return 0;
	}
	if (meet_lost())
		return -ETIMEDOUT;
	err = job_clock_offset(CLOCK_ROUNDS, clock_now_ns() + CLOCK_WAIT_NS,
			       &p->offset_ns, &p->offset_err_ns);
	if (err) {
		error("cannot agree on a start time with the other ranks: %s",
		      strerror(-err));
		return meet_lose(err);
	}
	if (p->layout->rank == 0)
		start = clock_now_ns() + START_AHEAD_NS;
	err = job_ibcast(&q, &start, sizeof(start));
	if (!err)
		err = meet_wait(&w, &q, 1);
	if (err)
		return meet_lose(err);
	p->start_at = (uint64_t)((int64_t)start + p->offset_ns);
	sleep_until(p->start_at);
	p->gate_at = clock_now_ns();
	return 0;
}

void peers_tick(struct peers *p, struct run_state *rs)
{
	const struct layout *l = p->layout;
	int end = atomic_load(&rs->end);

	if (single(l) || meet_lost())
		return;
	/* the handler only stops the phase: the end is set after the join */
	if (signals.count && end == RUN_END_COMPLETE)
		end = RUN_END_SIGNAL;
	/* not once this rank's end was told: no notice may be left over */
	if (!p->notified && !p->noticed && !p->ended &&
	    (end == RUN_END_STRICT || end == RUN_END_MAX_ERRORS ||
	     end == RUN_END_SIGNAL)) {
		p->out = (struct peer_notice){
			.end = end,
			.sig = end == RUN_END_SIGNAL ? signals.last : 0,
		};
		for (unsigned int r = 0; r < l->nranks; r++)
			if (r != l->rank &&
			    job_isend(&p->notice_out[r], r, TAG_STOP, &p->out,
				      sizeof(p->out)))
				meet_lose(-EIO);
		p->notified = true;
	}
	if (p->noticed || !p->notice_in.active || job_test(&p->notice_in) != 1)
		return;
	p->noticed = true;
	if (p->in.end == RUN_END_SIGNAL && p->in.sig && !signals.count)
		signals_raise(p->in.sig);
	run_state_stop(rs, (enum run_end)p->in.end);
}

/* What every rank tells every other at the end of a run. */
struct peer_end {
	int32_t end;
	int32_t sig;
	int32_t notified, noticed;
	uint32_t started, ready, stuck, pad;
	uint64_t start_ns;
	int64_t gate_rel; /* gate_at - start_at */
	int64_t offset_ns;
	uint64_t offset_err_ns;
};

/* The job's end of a run, from every rank's: the gravest. */
static int job_end(const struct peer_end *all, unsigned int n)
{
	static const int rank_of[] = {
		[RUN_END_COMPLETE] = 0,	  [RUN_END_STRICT] = 1,
		[RUN_END_MAX_ERRORS] = 2, [RUN_END_SIGNAL] = 3,
		[RUN_END_STUCK] = 4,	  [RUN_END_FAILED] = 5,
	};
	int end = RUN_END_COMPLETE;

	for (unsigned int r = 0; r < n; r++)
		if (rank_of[all[r].end] > rank_of[end])
			end = all[r].end;
	return end;
}

/*
 * Receive the stop notices the others sent this rank (the exchange says
 * which did), and finish sending this rank's own: nothing is left in
 * flight for the next run.
 */
static void drain_notices(struct peers *p, const struct peer_end *all)
{
	const struct layout *l = p->layout;
	struct meet w = { .deadline = clock_now_ns() + DRAIN_WAIT_NS };
	unsigned int matched = JOB_ANY, notifiers = 0;
	struct peer_notice junk;
	struct job_req q;

	for (unsigned int r = 0; r < l->nranks; r++)
		notifiers += r != l->rank && all[r].notified;
	/* the posted receive takes the first notice to come */
	if (notifiers && (p->noticed || !meet_wait(&w, &p->notice_in, 1)))
		matched = p->notice_in.source;
	job_cancel(&p->notice_in);
	for (unsigned int r = 0; r < l->nranks; r++) {
		if (r == l->rank || !all[r].notified || r == matched)
			continue;
		if (job_irecv(&q, r, TAG_STOP, &junk, sizeof(junk)) ||
		    meet_wait(&w, &q, 1)) {
			job_cancel(&q);
			meet_lose(-EIO);
		}
	}
	if (p->notified && meet_wait(&w, p->notice_out, l->nranks))
		meet_lose(-EIO);
}

/*
 * One client's sample as sent: passes, ops, elapsed, stuck, where it ran
 * (cpu, last_cpu) and what it used (struct usage; doubles as their bits).
 */
#define SAMPLE_WORDS 14

static uint64_t double_bits(double d)
{
	uint64_t w;

	memcpy(&w, &d, sizeof(w));
	return w;
}

static double bits_double(uint64_t w)
{
	double d;

	memcpy(&d, &w, sizeof(d));
	return d;
}

static size_t part_size(unsigned int nslots, unsigned int nclients)
{
	return result_packed_size(nslots) +
	       (size_t)nclients * SAMPLE_WORDS * sizeof(uint64_t);
}

static void pack_part(void *buf, const struct result *total,
		      const struct client_sample *samples,
		      const unsigned int *ids, unsigned int nlocal)
{
	uint64_t *w =
		(uint64_t *)((char *)buf + result_packed_size(total->nslots));

	result_pack(total, buf);
	for (unsigned int i = 0; i < nlocal; i++) {
		const struct client_sample *s = &samples[ids[i]];

		*w++ = s->passes;
		*w++ = s->ops;
		*w++ = s->elapsed_ns;
		*w++ = s->stuck;
		*w++ = (uint64_t)(int64_t)s->cpu;
		*w++ = (uint64_t)(int64_t)s->last_cpu;
		*w++ = double_bits(s->usage.user_s);
		*w++ = double_bits(s->usage.sys_s);
		*w++ = s->usage.voluntary;
		*w++ = s->usage.involuntary;
		*w++ = s->usage.run_delay_ns;
		*w++ = s->usage.run_delay_known;
		*w++ = s->usage.migrations;
		*w++ = s->usage.migrations_known;
	}
}

/* Rank 0: rank @r's part into its share and the samples. */
static int unpack_part(struct rank_share *sh, const void *buf,
		       const struct layout *l, unsigned int r,
		       unsigned int nslots, unsigned int nclients,
		       struct client_sample *samples, int64_t offset)
{
	const uint64_t *w = (const uint64_t *)((const char *)buf +
					       result_packed_size(nslots));
	unsigned int *ids = calloc(sh->clients + 1, sizeof(*ids));

	if (!ids || result_init(&sh->res, nslots)) {
		free(ids);
		return -ENOMEM;
	}
	result_unpack(&sh->res, buf);
	/* into rank 0's clock */
	if (sh->res.t_end) {
		sh->res.t_start = (uint64_t)((int64_t)sh->res.t_start - offset);
		sh->res.t_end = (uint64_t)((int64_t)sh->res.t_end - offset);
	}
	layout_place(l, nclients, r, ids);
	/* rank 0's own samples are there already, with their thread ids */
	for (unsigned int i = 0; r && i < sh->clients; i++) {
		struct client_sample *s = &samples[ids[i]];

		s->passes = *w++;
		s->ops = *w++;
		s->elapsed_ns = *w++;
		s->stuck = *w++ != 0;
		s->tid = 0;
		s->host = l->host_of[r];
		s->cpu = (int)(int64_t)*w++;
		s->last_cpu = (int)(int64_t)*w++;
		s->usage.user_s = bits_double(*w++);
		s->usage.sys_s = bits_double(*w++);
		s->usage.voluntary = *w++;
		s->usage.involuntary = *w++;
		s->usage.run_delay_ns = *w++;
		s->usage.run_delay_known = *w++ != 0;
		s->usage.migrations = *w++;
		s->usage.migrations_known = *w++ != 0;
	}
	free(ids);
	return 0;
}

/* Every rank's figures to rank 0, merged there into @total. */
static int collect(struct peers *p, struct run_state *rs, struct result *total,
		   struct client_sample *samples, unsigned int nclients,
		   const unsigned int *ids, const struct peer_end *all)
{
	const struct layout *l = p->layout;
	struct meet w = { .rs = rs, .stop_wait_ns = rs->cfg->stop_wait_ns };
	unsigned int n = l->nranks, nslots = total->nslots;
	char name[LAYOUT_HOST_MAX + 32], g[64];
	struct job_req *q = xcalloc(n, sizeof(*q));
	void **buf = xcalloc(n, sizeof(*buf));
	int err = 0;

	if (l->rank) {
		buf[0] = malloc(part_size(nslots, p->nlocal));
		if (!buf[0]) {
			err = -ENOMEM;
			goto out;
		}
		pack_part(buf[0], total, samples, ids, p->nlocal);
		err = job_isend(&q[0], 0, TAG_RESULT, buf[0],
				part_size(nslots, p->nlocal));
		if (!err)
			err = meet_wait(&w, q, 1);
		goto out;
	}
	p->nranks = n;
	p->ranks = xcalloc(n, sizeof(*p->ranks));
	for (unsigned int r = 0; r < n && !err; r++) {
		p->ranks[r].clients = layout_place(l, nclients, r, NULL);
		p->ranks[r].end = all[r].end;
		p->ranks[r].start_ns = all[r].gate_rel;
		p->ranks[r].clock_err_ns = all[r].offset_err_ns;
		if (r == 0)
			continue;
		buf[r] = malloc(part_size(nslots, p->ranks[r].clients));
		err = buf[r] ? job_irecv(
				       &q[r], r, TAG_RESULT, buf[r],
				       part_size(nslots, p->ranks[r].clients)) :
			       -ENOMEM;
	}
	if (!err)
		err = meet_wait(&w, q + 1, n - 1);
	for (unsigned int r = 1; r < n; r++) {
		if (q[r].active && err == -ETIMEDOUT)
			error("%s did not send its figures of run %u within %s",
			      layout_name(l, r, name, sizeof(name)), p->index,
			      meet_grace_str(&w, g, sizeof(g)));
		job_cancel(&q[r]);
	}
	if (err)
		goto out;
	/* rank 0's own part, then the merge of all */
	buf[0] = malloc(part_size(nslots, p->ranks[0].clients));
	if (!buf[0]) {
		err = -ENOMEM;
		goto out;
	}
	pack_part(buf[0], total, samples, ids, p->nlocal);
	for (unsigned int r = 0; r < n && !err; r++)
		err = unpack_part(&p->ranks[r], buf[r], l, r, nslots, nclients,
				  samples, all[r].offset_ns);
	if (err)
		goto out;
	result_reset(total);
	for (unsigned int r = 0; r < n; r++)
		result_merge(total, &p->ranks[r].res);
out:
	if (err == -ENOMEM)
		error("cannot merge the figures of %u ranks: %s", n,
		      strerror(ENOMEM));
	for (unsigned int r = 0; r < n; r++)
		free(buf[r]);
	free(buf);
	free(q);
	return err;
}

int peers_finish(struct peers *p, struct run_state *rs, struct result *total,
		 struct client_sample *samples, unsigned int nclients,
		 const unsigned int *ids, struct peer_counts *counts)
{
	const struct layout *l = p->layout;
	struct meet w = { .rs = rs,
			  .tick = peers_tick,
			  .p = p,
			  .stop_wait_ns = rs->cfg->stop_wait_ns };
	struct peer_end mine, *all;
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	int end, err;

	if (single(l))
		return 0;
	mine = (struct peer_end){
		.end = atomic_load(&rs->end),
		.sig = signals.count ? signals.last : 0,
		.notified = p->notified,
		.noticed = p->noticed,
		.started = counts->started,
		.ready = counts->ready,
		.stuck = counts->stuck,
		.start_ns = counts->start_ns,
		.gate_rel = (int64_t)(p->gate_at - p->start_at),
		.offset_ns = p->offset_ns,
		.offset_err_ns = p->offset_err_ns,
	};
	all = xcalloc(l->nranks, sizeof(*all));
	p->ended = true;
	err = meet_exchange(l, &mine, sizeof(mine), all, &w,
			    "the end of a run");
	if (err) {
		free(all);
		atomic_store(&rs->end, RUN_END_FAILED);
		return err;
	}
	end = job_end(all, l->nranks);
	for (unsigned int r = 0; r < l->nranks; r++) {
		/* the one rank that stopped by itself, not by a notice
		 * (mpirun's SIGTERM stops every rank by itself: none) */
		if (all[r].end != RUN_END_COMPLETE && !all[r].noticed)
			p->stopped_by = p->stopped_by == -1 ? (int)r : -2;
		if (end == RUN_END_SIGNAL && all[r].sig && !signals.count)
			signals_raise(all[r].sig);
	}
	if (p->stopped_by < 0)
		p->stopped_by = -1;
	atomic_store(&rs->end, end);
	drain_notices(p, all);
	err = collect(p, rs, total, samples, nclients, ids, all);
	if (err) {
		free(all);
		atomic_store(&rs->end, RUN_END_FAILED);
		return meet_lose(err);
	}
	if (l->rank == 0) {
		*counts = (struct peer_counts){ 0 };
		for (unsigned int r = 0; r < l->nranks; r++) {
			if (all[r].start_ns > counts->start_ns)
				counts->start_ns = all[r].start_ns;
			counts->started += all[r].started;
			counts->ready += all[r].ready;
			counts->stuck += all[r].stuck;
			if (all[r].gate_rel < lo)
				lo = all[r].gate_rel;
			if (all[r].gate_rel > hi)
				hi = all[r].gate_rel;
			if (all[r].offset_err_ns > p->sync_err_ns)
				p->sync_err_ns = all[r].offset_err_ns;
		}
		p->skew_ns = (uint64_t)(hi - lo);
	}
	free(all);
	return 0;
}

void peers_release(struct peers *p)
{
	for (unsigned int r = 0; r < p->nranks; r++)
		result_release(&p->ranks[r].res);
	free(p->ranks);
	free(p->notice_out);
	p->ranks = NULL;
	p->notice_out = NULL;
	p->nranks = 0;
}
