/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The main thread while a run's clients work: it reads their counters,
 * hands each second of the warmup and the measurement to the run's
 * second() hook and prints it as a progress line, and looks out for a
 * stop meanwhile (another rank's, a closed stdout). Apart from run.c,
 * which decides when each phase starts and ends; this file only watches.
 */
#include <config.h>
#include "run/progressline.h"

#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/clock.h"
#include "run/client.h"
#include "run/runconfig.h"
#include "run/peers.h"
#include "run/signals.h"
#include "run/sleep.h"
#include "run/state.h"
#include "sys/pipe.h"

/*
 * How often the main thread looks at the clients: from 1 ms, doubling to
 * 100 ms, so a short --loops run ends promptly and a long one costs ten
 * wakeups a second.
 */
#define TICK_MIN_NS NSEC_PER_MSEC
#define TICK_MAX_NS (100 * NSEC_PER_MSEC)

void progress_line_init(struct progress_line *p, const struct run *run,
			struct run_state *state, struct peers *peers,
			unsigned int nlocal,
			void (*second)(const struct run *run,
				       const struct run_second *sec, void *ctx),
			void *ctx)
{
	*p = (struct progress_line){
		.run = run,
		.state = state,
		.peers = peers,
		.nlocal = nlocal,
		.second = second,
		.ctx = ctx,
		.tty = isatty(STDERR_FILENO),
		.quiet = state->cfg->quiet,
	};
	if (second) {
		p->seen_ops = xcalloc(nlocal, sizeof(*p->seen_ops));
		p->seen_at = xcalloc(nlocal, sizeof(*p->seen_at));
	}
}

void progress_line_close(struct progress_line *p)
{
	if (p->printed && p->tty)
		fputc('\n', stderr);
	free(p->seen_ops);
	free(p->seen_at);
}

static uint64_t sum_progress(const struct progress_line *pl, uint64_t *bytes,
			     unsigned int *done)
{
	uint64_t ops = 0;

	*bytes = 0;
	*done = 0;
	for (unsigned int i = 0; i < pl->nlocal; i++) {
		const struct progress *p = &pl->state->progress[i];

		ops += atomic_load_explicit(&p->ops, memory_order_relaxed);
		*bytes += atomic_load_explicit(&p->bytes, memory_order_relaxed);
		*done += (unsigned int)atomic_load_explicit(
			&p->done, memory_order_acquire);
	}
	return ops;
}

/*
 * The longest op of each client since the last reading (taken with an
 * exchange), and of the ops still running: a client whose count has not
 * moved since the reading at seen_at has been inside one op since then.
 */
static void read_latency(struct progress_line *p, uint64_t now)
{
	for (unsigned int i = 0; i < p->nlocal; i++) {
		struct progress *pr = &p->state->progress[i];
		uint64_t m = atomic_exchange_explicit(&pr->max_ns, 0,
						      memory_order_relaxed);
		uint64_t ops =
			atomic_load_explicit(&pr->ops, memory_order_relaxed);

		if (m > p->max_ns)
			p->max_ns = m;
		if (ops != p->seen_ops[i] || !p->seen_at[i]) {
			p->seen_ops[i] = ops;
			p->seen_at[i] = now;
		} else if (!atomic_load_explicit(&pr->done,
						 memory_order_relaxed) &&
			   now - p->seen_at[i] > p->max_ns) {
			p->max_ns = now - p->seen_at[i];
		}
	}
}

void progress_line_read(struct progress_line *p, struct tick_sample *s,
			unsigned int *done)
{
	s->ns = clock_now_ns();
	s->ops = sum_progress(p, &s->bytes, done);
	if (p->seen_ops)
		read_latency(p, s->ns);
}

/* The second to the run's second() hook. */
static void hand_second(struct progress_line *p, const struct tick_second *sec,
			bool last)
{
	struct run_second rs;

	p->phase_ns += sec->ns;
	p->phase_bytes += sec->bytes;
	if (!p->second)
		return;
	rs = (struct run_second){
		.phase = p->phase_id,
		.second = sec->second,
		.phase_ns = p->phase_ns,
		.phase_bytes = p->phase_bytes,
		.lines = p->ticker.mark.ops,
		.max_ns = p->max_ns,
		.last = last,
	};
	p->second(p->run, &rs, p->ctx);
}

/*
 * The time the invocation has left at the end of @sec: the rest of this
 * run as planned (reckoned from the seconds' labels, not the clock) and
 * the runs after it. UINT64_MAX: not known (--loops before any run ended).
 */
static uint64_t time_left(const struct progress_line *p,
			  const struct tick_second *sec)
{
	const struct run_place *r = p->place;
	uint64_t done = (p->phase_id == PHASE_MEASURE ? p->before_ns : 0) +
			(uint64_t)sec->second * NSEC_PER_SEC;

	if (!r->planned_ns || r->after_ns == UINT64_MAX)
		return UINT64_MAX;
	return r->after_ns + (r->planned_ns > done ? r->planned_ns - done : 0);
}

/* @ns as "42s", "3m05s" or "2h07m", to the nearest second; "?": unknown. */
static void format_left(char *buf, size_t len, uint64_t ns)
{
	uint64_t s = (ns + NSEC_PER_SEC / 2) / NSEC_PER_SEC;

	if (ns == UINT64_MAX)
		snprintf(buf, len, "?");
	else if (s < 60)
		snprintf(buf, len, "%" PRIu64 "s", s);
	else if (s < 3600)
		snprintf(buf, len, "%" PRIu64 "m%02" PRIu64 "s", s / 60,
			 s % 60);
	else
		snprintf(buf, len, "%" PRIu64 "h%02" PRIu64 "m", s / 3600,
			 s / 60 % 60);
}

/* The variant's label, a control character as '?' (a tty obeys them). */
static void print_variant(const char *label)
{
	fputs("  ", stderr);
	for (const unsigned char *c = (const unsigned char *)label; *c; c++)
		fputc(*c < 0x20 || *c == 0x7f ? '?' : *c, stderr);
}

static void print_second(struct progress_line *p, const struct tick_second *sec)
{
	double dt = (double)sec->ns / 1e9;
	char left[32];
	unsigned int n;

	if (p->quiet)
		return;
	/* in an MPI job, rank 0's line: its own clients (lanes counted);
	 * "client " keeps the columns of "clients" */
	n = p->nlocal * run_config_lanes(p->state->cfg);
	fprintf(stderr, "%s%6u %-7s  %-7s %4u s  %12.0f ops/s  %9.2f MB/s",
		p->tty ? "\r" : "", n, n == 1 ? "client" : "clients", p->phase,
		sec->second, (double)sec->ops / dt,
		(double)sec->bytes / dt / 1e6);
	if (p->place) {
		format_left(left, sizeof(left), time_left(p, sec));
		fprintf(stderr, "  run %u/%u", p->place->index + 1,
			p->place->of);
		if (p->place->variant)
			print_variant(p->place->variant);
		fprintf(stderr, "  %s left", left);
	}
	fputs(p->tty ? "\033[K" : "\n", stderr);
	p->printed = true;
}

void progress_line_phase(struct progress_line *p, int phase,
			 const struct tick_sample *at)
{
	const struct run_config *cfg = p->state->cfg;

	if (phase == PHASE_MEASURE && p->phase_id == PHASE_WARMUP)
		p->before_ns = cfg->warmup_kind == WARMUP_TIME ? cfg->warmup :
								 p->phase_ns;
	p->phase = phase == PHASE_WARMUP ? "warmup" : "execute";
	p->phase_id = phase;
	p->phase_ns = p->phase_bytes = 0;
	ticker_start(&p->ticker, at);
}

/*
 * The seconds the reading @now completed: each to the hook and to the
 * progress line. The longest op seen goes with each of them (a reader
 * that slept through seconds cannot tell which one it fell in).
 */
static void next_seconds(struct progress_line *p, const struct tick_sample *now)
{
	struct tick_second sec;
	bool any = false;

	while (ticker_next(&p->ticker, now, &sec)) {
		hand_second(p, &sec, false);
		print_second(p, &sec);
		any = true;
	}
	if (any)
		p->max_ns = 0;
}

struct tick_sample progress_line_end(struct progress_line *p,
				     const struct tick_sample *now,
				     uint64_t end)
{
	struct tick_second sec;
	struct tick_sample at;

	while (ticker_finish(&p->ticker, now, end, &sec)) {
		hand_second(p, &sec, sec.ns < NSEC_PER_SEC);
		print_second(p, &sec);
	}
	p->max_ns = 0;
	ticker_at(&p->ticker, now, end, &at);
	return at;
}

enum wake progress_line_supervise(struct progress_line *p, uint64_t deadline,
				  bool gate, struct tick_sample *now)
{
	uint64_t tick = TICK_MIN_NS;

	for (;;) {
		unsigned int done;
		uint64_t next, second;

		progress_line_read(p, now, &done);
		next_seconds(p, now);
		/* another rank's stop, or this one's to tell */
		peers_tick(p->peers, p->state);
		/* nothing is written to stdout while a run goes on */
		if (p->state->cfg->watch_stdout &&
		    pipe_reader_gone(STDOUT_FILENO))
			signals_raise(SIGPIPE);
		if (atomic_load(&p->state->phase) == PHASE_STOP ||
		    done == p->nlocal)
			return WAKE_END;
		if (deadline && now->ns >= deadline)
			return WAKE_DEADLINE;
		next = now->ns + tick;
		if (tick < TICK_MAX_NS)
			tick *= 2;
		/* a reading just after each second ends: little to fill */
		second = p->ticker.start_ns +
			 (uint64_t)(p->ticker.done + 1) * NSEC_PER_SEC;
		if (next > second)
			next = second;
		if (deadline && next > deadline)
			next = deadline;
		if (!gate)
			sleep_until(next);
		else if (gate_wait_until(&p->state->gate, p->nlocal, next))
			return WAKE_GATE;
	}
}
