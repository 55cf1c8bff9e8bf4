/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Whether a finished run was the run asked for: starved, overrun, a rank
 * late, clients that measured nothing (doc/json-schema.md, "incomplete").
 * The reports print it and write it; compare reads it back.
 */
#include <config.h>
#include "run/verdict.h"

#include "run/run.h"
#include "run/runconfig.h"
#include "stats/result.h"

static uint64_t margin_of(uint64_t asked)
{
	uint64_t m = asked / VERDICT_MARGIN_DIV;

	return m > VERDICT_MARGIN_MIN_NS ? m : VERDICT_MARGIN_MIN_NS;
}

/*
 * The ranks of an MPI job, on rank 0: one whose gate opened over the
 * margin after the agreed start, or whose window ended over the margin
 * after the stop (stopped, or descheduled, while the others measured).
 */
static void check_ranks(const struct run *run, struct run_verdict *v)
{
	const struct peers *p = &run->peers;
	uint64_t stop = run->state.stop_at;

	if (!p->ranks)
		return;
	for (unsigned int r = 0; r < p->nranks; r++) {
		const struct rank_share *sh = &p->ranks[r];
		uint64_t late = 0;
		bool start = false;

		if (sh->start_ns > (int64_t)v->margin_ns) {
			late = (uint64_t)sh->start_ns;
			start = true;
		} else if (v->asked_ns && stop != UINT64_MAX &&
			   sh->res.t_end > stop + v->margin_ns) {
			late = sh->res.t_end - stop;
		}
		if (!late)
			continue;
		v->incomplete |= INCOMPLETE_RANK_LATE;
		if (v->late_rank < 0) {
			v->late_rank = (int)r;
			v->late_ns = late;
			v->late_start = start;
		}
	}
}

void run_verdict(const struct run *run, struct run_verdict *v)
{
	const struct run_config *cfg = run->state.cfg;
	const struct result *r = &run->total;
	uint64_t elapsed = result_elapsed(r);
	/* with no more clients than CPUs, an unmeasured client was in an
	 * op the whole window (blocked), not waiting for a CPU */
	bool crowded = run->cpus > 0 && run->nclients > run->cpus;

	v->unmeasured = run_idle_clients(run);
	v->cpu_share = result_cpu_share(r, run_clients(run), run->cpus);
	v->wait_share = result_wait_share(r, run->nclients,
					  crowded ? v->unmeasured : 0);
	v->starved = result_starved(r, run->nclients,
				    run_config_lanes(run->state.cfg),
				    v->unmeasured, run->cpus);
	/* stopped in the setup: no window opened, none to be starved of
	 * (the wait share of clients that never ran would be -100%) */
	if (run->ready < run->nclients) {
		v->starved = false;
		v->wait_share = -1;
	}
	v->asked_ns = cfg->loops ? 0 : cfg->time_ns;
	v->margin_ns = margin_of(v->asked_ns);
	v->overrun_ns = v->asked_ns && elapsed > v->asked_ns ?
				elapsed - v->asked_ns :
				0;
	v->late_rank = -1;
	v->late_ns = 0;
	v->late_start = false;
	v->incomplete = 0;
	if (v->overrun_ns > v->margin_ns)
		v->incomplete |= INCOMPLETE_OVERRAN;
	check_ranks(run, v);
	if (v->unmeasured)
		v->incomplete |= INCOMPLETE_UNMEASURED;
}

unsigned int run_verdict_starved(struct run *const *runs, unsigned int n)
{
	unsigned int k = 0;

	for (unsigned int i = 0; i < n; i++) {
		struct run_verdict v;

		run_verdict(runs[i], &v);
		k += v.starved;
	}
	return k;
}

const char *run_verdict_name(unsigned int bit)
{
	switch (bit) {
	case INCOMPLETE_OVERRAN:
		return "overran";
	case INCOMPLETE_RANK_LATE:
		return "rank_late";
	case INCOMPLETE_UNMEASURED:
		return "unmeasured_clients";
	}
	return "?";
}
