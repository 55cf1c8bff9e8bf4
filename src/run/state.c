/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The phase changes of a run, made by the main thread and by its clients
 * alike.
 */
#include <config.h>
#include "run/state.h"

const char *run_end_name(enum run_end end)
{
	static const char *const names[] = {
		[RUN_END_COMPLETE] = "complete",
		[RUN_END_STRICT] = "strict",
		[RUN_END_MAX_ERRORS] = "max-errors",
		[RUN_END_SIGNAL] = "signal",
		[RUN_END_FAILED] = "failed",
		[RUN_END_STUCK] = "stuck",
	};

	return names[end];
}

void run_state_stop(struct run_state *rs, enum run_end why)
{
	int expected = RUN_END_COMPLETE;

	atomic_compare_exchange_strong(&rs->end, &expected, (int)why);
	atomic_store_explicit(&rs->phase, PHASE_STOP, memory_order_relaxed);
}

void run_state_trip(struct run_state *rs, enum run_end why, const struct op *op,
		    int err, unsigned int client)
{
	int expected = 0;

	if (atomic_compare_exchange_strong(&rs->trip_claimed, &expected, 1))
		rs->trip = (struct run_trip){
			.op = op,
			.err = err,
			.phase = atomic_load_explicit(&rs->phase,
						      memory_order_relaxed),
			.client = client,
		};
	run_state_stop(rs, why);
}

void run_state_advance(struct run_state *rs, enum phase phase)
{
	int cur = atomic_load(&rs->phase);

	/* never undo a stop */
	while (cur != PHASE_STOP &&
	       !atomic_compare_exchange_weak(&rs->phase, &cur, (int)phase))
		;
}
