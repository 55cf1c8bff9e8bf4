/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_RUN_MEMORY_H
#define VB_RUN_MEMORY_H

#include <stdint.h>

#include "run/client.h"

struct engine;
struct loadfile;
struct run_config;

/*
 * Small stacks let 10,000 clients fit; the hot loop needs very little.
 * run.c creates the client threads with it, run_memory() counts it.
 */
#define CLIENT_STACK (256u << 10)

/*
 * struct run_memory: what a run needs per client, in bytes, as client_init()
 * and run_execute() allocate it: @touched while its clients run (their
 * buffers, statistics, the arrays and a little stack), @mapped adding the
 * whole of each thread's stack and guard page (address space: what
 * RLIMIT_AS counts), @kept what stays allocated per client until the
 * sweep ends (the client arrays), and @fixed per run (its merged
 * statistics). @client is the breakdown for messages.
 */
struct run_memory {
	uint64_t touched, mapped, kept, fixed;
	struct client_memory client;
	uint64_t stack;
};

void run_memory(struct run_memory *m, const struct loadfile *lf,
		const struct engine *e, const struct run_config *cfg);

#endif /* VB_RUN_MEMORY_H */
