/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The checks of a variant's walk (--resolve, --depth, --prefix) against
 * its loadfile and this kernel, before anything is created.
 */
#include <config.h>
#include "cli/walk.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "base/msg.h"
#include "cli/settings.h"
#include "engine/engine.h"
#include "engine/posixat.h"
#include "lang/loadfile.h"
#include "report/report.h"
#include "run/clientdir.h"
#include "run/runconfig.h"
#include "workdir/workchain.h"
#include "workdir/workdir.h"
#include "sys/mountwalk.h"

/* The first line of @lf with op @id, or 0. */
static unsigned int first_line(const struct loadfile *lf, enum op_id id)
{
	for (unsigned int i = 0; i < lf->nops; i++)
		if (lf->ops[i].id == id)
			return lf->ops[i].line;
	return 0;
}

int walk_check(const struct run_config *cfg, const struct engine *e,
	       const struct loadfile *lf)
{
	unsigned int line, lanes = run_config_lanes(cfg);
	int ret;

	if (engine_check(e, lf, cfg->resolve))
		return -EINVAL;
	/* lanes share their thread's cwd: they resolve as dirfd (run.c) */
	if (run_config_lanes(cfg) > 1 && cfg->resolve == RESOLVE_CWD &&
	    engine_check(e, lf, RESOLVE_DIRFD))
		return error(
			"--uring-depth %u: each lane resolves from its own directory's fd, as with --resolve dirfd",
			cfg->uring_depth);
	if (e->usable && e->usable(e, lf, cfg->uring_strict, cfg->uring_fixed))
		return -EINVAL;
	line = first_line(lf, OP_PROBE);
	if (line && e->opens_fds) {
		ret = posixat_probe_supported();
		if (ret) {
			error_at(
				lf->name, line, 1,
				"the RCU-walk probe needs openat2() with RESOLVE_CACHED (Linux 5.12); this kernel has %s",
				ret == -ENOSYS ? "no openat2() (before 5.6)" :
						 "no RESOLVE_CACHED");
			return -EINVAL;
		}
	}
	if (lf->per_thread > 1 && (cfg->depth || cfg->prefix == PREFIX_SHARED ||
				   cfg->resolve != RESOLVE_CWD))
		return error(
			"--depth, --prefix shared and --resolve other than cwd need one client per thread: '%s' puts %u clients in each",
			lf->name, lf->per_thread);
	/*
	 * Each stream is a recorded task: fewer clients would drop some.
	 * A lane is a client (lane k of thread t is client t * N + k, and
	 * runs that client's stream): the threads were counted, and one of
	 * two lanes was refused two streams.
	 */
	for (unsigned int i = 0; lf->nstreams > 1 && i < cfg->nclients; i++) {
		uint64_t n = (uint64_t)cfg->clients[i] * lanes;

		if (n >= lf->nstreams)
			continue;
		if (lanes > 1)
			return error(
				"'%s' has %u [run N] streams, one per recorded task: run it with at least %u clients, not %llu (%u thread%s of %u lanes; client i runs [run i mod %u])",
				lf->name, lf->nstreams, lf->nstreams,
				(unsigned long long)n, cfg->clients[i],
				cfg->clients[i] == 1 ? "" : "s", lanes,
				lf->nstreams);
		return error(
			"'%s' has %u [run N] streams, one per recorded task: run it with at least %u clients, not %u (client i runs [run i mod %u])",
			lf->name, lf->nstreams, lf->nstreams, cfg->clients[i],
			lf->nstreams);
	}
	return 0;
}

int walk_check_root(const struct config *cfg)
{
	for (unsigned int i = 0; i < cfg->nvariants; i++)
		if (cfg->variants[i].run.resolve == RESOLVE_ABS)
			return workchain_check(
				cfg->directory, "--resolve abs",
				"; --resolve cwd, dirfd and beneath do not resolve from / at every op, or give a -D that only root and you can change");
	return 0;
}

void walk_root(struct report_config *rc, const struct workdir *wd)
{
	char path[PATH_MAX];
	int ret = clientdir_abs_root(wd, path, sizeof(path));

	if (!ret)
		ret = mountwalk_count(path, &rc->abs_components,
				      &rc->abs_mounts);
	if (ret)
		warning("cannot count the components above '%s': %s", wd->path,
			strerror(-ret));
}
