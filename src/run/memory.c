/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What one client of a run costs in memory, for sweep_check_memory(),
 * which checks before anything is created that the largest run fits.
 * Beside run.c, not in it: the sweep needs the figure, not the run.
 */
#include <config.h>
#include "run/memory.h"

#include <unistd.h>

#include "run/runconfig.h"
#include "run/sample.h"

/*
 * The longest prefix of a client's paths (clientdir_prefix()): --depth's
 * "d/" each, "client4294967295/" with --prefix shared, and with
 * --resolve abs the work directory's absolute path, counted as 1 KiB
 * (it is not known before it is made; a deeper -D is rare).
 */
static size_t prefix_len(const struct run_config *cfg)
{
	size_t n = 2 * (size_t)cfg->depth;

	if (cfg->prefix == PREFIX_SHARED)
		n += 18;
	if (cfg->resolve == RESOLVE_ABS)
		n += 1024;
	return n;
}

/* A client's stack that its ops and system calls touch, at most. */
#define STACK_TOUCHED (32u << 10)

void run_memory(struct run_memory *m, const struct loadfile *lf,
		const struct engine *e, const struct run_config *cfg)
{
	const struct client_memory *c = &m->client;
	uint64_t arrays = sizeof(struct client) + sizeof(struct progress) +
			  sizeof(struct client_sample);

	client_memory(&m->client, lf, e, prefix_len(cfg));
	m->stack = CLIENT_STACK + (uint64_t)sysconf(_SC_PAGESIZE);
	m->touched = c->data + c->scratch + c->stats + c->other + arrays +
		     STACK_TOUCHED;
	m->mapped = m->touched - STACK_TOUCHED + m->stack;
	/* --uring-depth: each further lane is a client's state and a stack
	 * (engine/uringlanes.c, the size of a client thread's) */
	if (run_config_lanes(cfg) > 1) {
		uint64_t more = run_config_lanes(cfg) - 1,
			 lane = c->data + c->scratch + c->stats + c->other +
				sizeof(struct client);

		m->touched += more * (lane + STACK_TOUCHED);
		m->mapped += more * (lane + m->stack);
	}
	m->kept = arrays;
	m->fixed = c->stats;
}
