/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a run keeps of each of its clients (struct client_sample): taken
 * from the client once it is joined, or, for one that did not return
 * from a system call after the stop, what is known of it and the error
 * that says so. Apart from run.c, which decides when each is done.
 */
#include <config.h>
#include "run/sample.h"

#include <stdatomic.h>

#include "base/alloc.h"
#include "base/msg.h"
#include "run/client.h"
#include "sys/task.h"

/* --per-client-results: what one client's table needs of its result. */
static struct op_brief *brief_of(const struct result *r)
{
	struct op_brief *b = xcalloc(r->nslots ? r->nslots : 1, sizeof(*b));

	for (unsigned int s = 0; s < r->nslots; s++)
		b[s] = (struct op_brief){ r->count[s], r->lat[s].count,
					  r->lat[s].sum, r->lat[s].max };
	return b;
}

void client_sample_take(struct client_sample *cs, struct client *c, bool brief)
{
	*cs = (struct client_sample){
		.passes = c->res.passes,
		.ops = c->res.ops,
		.elapsed_ns = result_elapsed(&c->res),
		.lines = atomic_load(&c->progress->ops),
		.bytes = c->res.bytes,
		.pass = c->pass,
		.npass = c->npass,
		.cpu = c->cpu,
		.last_cpu = c->last_cpu,
		.affinity = c->affinity,
		.tid = atomic_load_explicit(&c->tid, memory_order_relaxed),
		.usage = c->res.usage,
	};
	c->affinity = NULL;
	c->pass = NULL;
	if (brief)
		cs->brief = brief_of(&c->res);
}

void client_sample_stuck(struct client_sample *cs, const struct client *c)
{
	cs->stuck = true;
	cs->tid = atomic_load_explicit(&c->tid, memory_order_relaxed);
	/* its affinity stays its own: it may still be writing */
	cs->cpu = c->cpu;
	cs->last_cpu = -1;
}

void client_sample_report_stuck(const struct client_sample *cs,
				unsigned int number, uint64_t stop_wait_ns)
{
	char what[256];

	task_describe(cs->tid, what, sizeof(what));
	error("client %u did not return from a system call within %.1f s of the stop (thread %d: %s); its figures are missing",
	      number, (double)stop_wait_ns / 1e9, cs->tid, what);
}
