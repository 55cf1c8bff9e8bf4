/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An fdscale result file ("vfsbench-fdscale") read back for vfsbench
 * plot: the settings a chart names and the steps, each checked. Apart
 * from the runs' reader (resultsweep.c): the two schemas share nothing
 * but the struct they fill.
 */
#include <config.h>
#include "compare/resultfdscale.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "base/alloc.h"
#include "base/msg.h"
#include "compare/envfields.h"
#include "compare/jsonfield.h"

/*
 * An fdscale result: the settings a chart names (options.cold, threads,
 * private_fd_table, engine, uring_fixed, the environment) and steps[], each
 * with num_fds >= 1 (a log axis).
 */
int resultfdscale_read(struct resultfile *rf, json_t *root)
{
	const char *f = rf->path;
	json_t *o, *a, *step;
	uint64_t threads;
	size_t i;

	o = jsonfield_member(f, root, "", "options", jsonfield_is_object,
			     "an object");
	if (!o || jsonfield_bool(f, o, "options", "cold", &rf->cold) ||
	    jsonfield_u64(f, o, "options", "threads", &threads) ||
	    jsonfield_bool(f, o, "options", "private_fd_table",
			   &rf->private_fd_table))
		return -EINVAL;
	if (threads > UINT32_MAX) {
		error("'%s': options.threads: %" PRIu64 " is out of range", f,
		      threads);
		return -EINVAL;
	}
	rf->threads = (unsigned int)threads;
	/* absent in files from before fdscale had an io_uring engine */
	if (json_object_get(o, "engine") ?
		    jsonfield_str(f, o, "options", "engine", &rf->set.engine) :
		    !(rf->set.engine = xstrdup("posix")))
		return -EINVAL;
	if (json_object_get(o, "uring_fixed") &&
	    jsonfield_bool(f, o, "options", "uring_fixed", &rf->uring_fixed))
		return -EINVAL;
	/* for the chart's title: the kernel, filesystem and host */
	env_fields_read(&rf->env, json_object_get(root, "environment"));
	a = jsonfield_member(f, root, "", "steps", jsonfield_is_array,
			     "an array");
	if (!a)
		return -EINVAL;
	rf->fdsteps = xcalloc(json_array_size(a) + 1, sizeof(*rf->fdsteps));
	json_array_foreach(a, i, step)
	{
		struct resultfile_fdstep *s = &rf->fdsteps[i];
		char where[32];

		snprintf(where, sizeof(where), "steps[%zu]", i);
		if (!json_is_object(step)) {
			error("'%s': %s: expected an object", f, where);
			return -EINVAL;
		}
		if (jsonfield_u64(f, step, where, "num_fds", &s->num_fds) ||
		    jsonfield_u64(f, step, where, "best_ns", &s->best_ns) ||
		    jsonfield_u64(f, step, where, "worst_ns", &s->worst_ns) ||
		    jsonfield_figure(f, step, where, "mean_ns", &s->mean_ns) ||
		    jsonfield_u64(f, step, where, "samples", &s->samples))
			return -EINVAL;
		if (!s->num_fds) {
			error("'%s': %s.num_fds: expected a positive integer",
			      f, where);
			return -EINVAL;
		}
		rf->nfdsteps++;
	}
	return 0;
}
