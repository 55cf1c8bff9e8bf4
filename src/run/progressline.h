/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_RUN_PROGRESSLINE_H
#define VB_RUN_PROGRESSLINE_H

#include <stdbool.h>
#include <stdint.h>

#include "stats/ticker.h"

struct peers;
struct run;
struct run_state;

/*
 * One second of a phase as the progress lines see it (progressline.c,
 * from stats/ticker.c), for a caller that prints lines of its own (dbench's).
 */
struct run_second {
	int phase; /* PHASE_WARMUP or PHASE_MEASURE */
	unsigned int second; /* from 1 */
	uint64_t phase_ns; /* from the phase's start to this second's end */
	uint64_t phase_bytes; /* bytes done in the phase until then */
	uint64_t lines; /* ops done by all clients since the release */
	/* the longest op that ended in the second, or the longest still
	 * running at its end (as dbench counts it), ns */
	uint64_t max_ns;
	bool last; /* the phase's last second, maybe partial */
};

/*
 * Where a run stands in the invocation, for its progress line: its
 * place among the invocation's @of runs (@index from 0), its variant's
 * label (NULL: one variant), how long its warmup and measurement take
 * (--warmup and --time; with --loops or a warmup in passes, the mean of
 * the runs done so far; 0: not known yet) and how long the runs after
 * it will, alike (UINT64_MAX: not known).
 */
struct run_place {
	unsigned int index, of;
	const char *variant;
	uint64_t planned_ns, after_ns;
};

/*
 * The progress line: one per second of each phase, on stderr, rewritten
 * in place on a tty, naming the run among the invocation's ("run 2/5"),
 * its variant and the time the invocation has left. The seconds come
 * from stats/ticker.c: each line is labelled with the whole second of the
 * phase it covers, and a second the main thread slept through (thousands
 * of clients on two CPUs) still gets its line, filled from the readings
 * around it.
 */
struct progress_line {
	const struct run *run; /* only handed to @second */
	const struct run_place *place; /* NULL: the line names no run */
	struct run_state *state; /* the clients' progress slots, the phase */
	struct peers *peers;
	unsigned int nlocal; /* this rank's clients */
	/* the run's second() hook (struct run_hooks, run.h), NULL: none */
	void (*second)(const struct run *run, const struct run_second *sec,
		       void *ctx);
	void *ctx;
	bool tty, quiet, printed;
	const char *phase; /* "warmup" or "execute": the ticker's phase */
	int phase_id; /* PHASE_WARMUP or PHASE_MEASURE */
	struct ticker ticker;
	/* for the run's second() hook: the phase so far, and the longest
	 * op since the last second was handed on */
	uint64_t phase_ns, phase_bytes, max_ns;
	/* the run's time before the measurement: its warmup, for the time
	 * left (--warmup's when timed, so that the line is deterministic) */
	uint64_t before_ns;
	/* per client: the ops count last read, and when it was first seen,
	 * to tell how long an op has been running (NULL without a hook) */
	uint64_t *seen_ops, *seen_at;
};

/*
 * The line of the run @run, whose @nlocal clients' slots are in @state,
 * quiet with its --quiet; @second (NULL: none) gets each second, with
 * @ctx.
 */
void progress_line_init(struct progress_line *p, const struct run *run,
			struct run_state *state, struct peers *peers,
			unsigned int nlocal,
			void (*second)(const struct run *run,
				       const struct run_second *sec, void *ctx),
			void *ctx);

/* A reading of the clients' counters into @s; *@done: the clients done. */
void progress_line_read(struct progress_line *p, struct tick_sample *s,
			unsigned int *done);

/* A phase starts at @at (its time and the counters then). */
void progress_line_phase(struct progress_line *p, int phase,
			 const struct tick_sample *at);

/*
 * The phase ended at @end, seen by the reading @now: its last lines.
 * Returns the counters at @end, where the next phase starts.
 */
struct tick_sample progress_line_end(struct progress_line *p,
				     const struct tick_sample *now,
				     uint64_t end);

/* Why progress_line_supervise() returned. */
enum wake {
	WAKE_DEADLINE, /* the deadline passed */
	WAKE_END, /* the clients are all done, or the run was stopped */
	WAKE_GATE, /* every client arrived at the gate */
};

/*
 * Wait until @deadline (0: none), until the clients are all done or the
 * run is stopped or, with @gate, until every client has arrived at the
 * gate, printing a progress line for every second that ends meanwhile.
 * *@now is the last reading of the counters.
 */
enum wake progress_line_supervise(struct progress_line *p, uint64_t deadline,
				  bool gate, struct tick_sample *now);

/* The line's end on a tty, once the run has stopped; frees @p's arrays. */
void progress_line_close(struct progress_line *p);

#endif /* VB_RUN_PROGRESSLINE_H */
