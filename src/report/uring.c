/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * -e uring in the reports: inline against punted per op, the ops that ran
 * as system calls, the io-wq workers' CPU time.
 */
#include <config.h>
#include "report/uring.h"

#include <stdio.h>

#include "lang/loadfile.h"
#include "run/run.h"

/* "ring", "syscall" or "ring+syscall": how op @id was issued. */
static const char *issued(const struct engine *e, unsigned int id)
{
	if (!e->queued[id])
		return "syscall";
	return e->fallback[id] ? "ring+syscall" : "ring";
}

void report_uring_text(const struct run *run)
{
	const struct engine *e = run->state.engine;
	const struct result *r = &run->total;
	const char *sep = "";

	if (!e->queued)
		return;
	printf("io_uring inline (completed within the submission):");
	for (unsigned int s = 0; s < r->nslots; s++) {
		unsigned int id = run->state.lf->slot_op[s];
		uint64_t n = r->count[s], in = r->err[s][ERR_INLINE];

		if (!e->queued[id] || !n)
			continue;
		printf("%s %s %.1f%% (%llu of %llu)", sep, op_table[id].name,
		       100.0 * (double)in / (double)n, (unsigned long long)in,
		       (unsigned long long)n);
		sep = ",";
	}
	printf("\n");
	sep = "";
	for (unsigned int s = 0; s < r->nslots; s++) {
		unsigned int id = run->state.lf->slot_op[s];

		if (!e->fallback[id])
			continue;
		printf("%s%s (%s)", *sep ? sep : "io_uring has no opcode for: ",
		       op_table[id].name, e->fallback[id]);
		sep = ", ";
	}
	if (*sep)
		printf(" (issued as system calls)\n");
	if (r->usage.iowq_known)
		printf("io-wq workers: CPU %.3f ms\n",
		       (double)r->usage.iowq_ns / 1e6);
}

void report_uring_json(json_t *o, json_t *ops, const struct run *run)
{
	const struct engine *e = run->state.engine;
	const struct result *r = &run->total;

	if (!e->queued)
		return;
	for (unsigned int s = 0; s < r->nslots; s++) {
		unsigned int id = run->state.lf->slot_op[s];
		json_t *row = json_array_get(ops, s);

		json_object_set_new(row, "uring", json_string(issued(e, id)));
		json_object_set_new(
			row, "inline",
			e->queued[id] ?
				json_integer(
					(json_int_t)r->err[s][ERR_INLINE]) :
				json_null());
	}
	json_object_set_new(o, "iowq_cpu_ns",
			    r->usage.iowq_known ?
				    json_integer((json_int_t)r->usage.iowq_ns) :
				    json_null());
}
