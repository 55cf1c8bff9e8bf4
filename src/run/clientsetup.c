/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A client before the clock: its state and memory (made by the main
 * thread), then, in its own thread, its CPU, its isolation (its own cwd
 * and, on request, its own fd table), its ring and the loadfile's
 * [setup] section. The hot loop is client.c's.
 */
#include <config.h>
#include "run/client.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"
#include "engine/engine.h"
#include "lang/loadfile.h"
#include "run/clientpaths.h"
#include "run/runconfig.h"
#include "run/state.h"
#include "sys/cpulist.h"
#include "sys/dcache.h"
#include "sys/fdtable.h"
#include "sys/placement.h"

/* Round @n up to whole cache lines, as calloc_aligned() allocates. */
static size_t lines(size_t n)
{
	return (n + CACHELINE - 1) & ~(size_t)(CACHELINE - 1);
}

static size_t data_buffer(const struct loadfile *lf)
{
	return lf->max_io ? (size_t)lf->max_io : 1;
}

static bool has_scratch(const struct loadfile *lf, const struct engine *e)
{
	return lf->scratch && e->opens_fds;
}

void client_memory(struct client_memory *m, const struct loadfile *lf,
		   const struct engine *e, size_t prefix_len)
{
	size_t paths = clientpaths_bytes(lf, prefix_len);

	m->data = lines(data_buffer(lf));
	m->scratch = has_scratch(lf, e) ? ENGINE_DIRBUF + PATH_MAX : 0;
	m->stats = lines(lf->nslots * sizeof(struct hist)) +
		   lines(lf->nslots * sizeof(uint64_t[ERR_NR]));
	m->other = lf->nslots * sizeof(uint32_t) + /* --latency-sample */
		   (lf->nhandles + 1) * sizeof(int) + paths;
}

unsigned int client_lane_number(const struct run_state *rs, unsigned int id,
				unsigned int lane)
{
	return (rs->ids ? rs->ids[id] : id) * run_config_lanes(rs->cfg) + lane;
}

/* Client @id's lane @lane: everything but the thread's state. */
static int client_init_lane(struct client *c, struct run_state *rs,
			    unsigned int id, unsigned int lane, int dirfd,
			    const char *prefix)
{
	static const int no_fail[OP_NR];
	const struct loadfile *lf = rs->lf;
	unsigned int per_thread = lf->per_thread ? lf->per_thread : 1;

	memset(c, 0, sizeof(*c));
	c->id = id;
	c->lane = lane;
	c->number = client_lane_number(rs, id, lane);
	c->rs = rs;
	c->engine = rs->engine;
	/* a loadfile of [run N] streams: this client's stream */
	c->ops = loadfile_client_ops(lf, c->number, &c->nops);
	c->dirfd = dirfd;
	c->cpu = placement_cpu(rs->cfg->placement, id);
	c->last_cpu = -1;
	c->progress = &rs->progress[id];
	c->nhandles = lf->nhandles;
	c->ctx.fail = rs->cfg->null_fail ? rs->cfg->null_fail : no_fail;
	c->ctx.at = AT_FDCWD;
	c->ctx.client = c->number * per_thread;
	c->opfn = rs->opfn;
	c->all_ops = lf->ops;
	c->ctx.fd = malloc((lf->nhandles + 1) * sizeof(*c->ctx.fd));
	if (!c->ctx.fd)
		return -ENOMEM;
	for (unsigned int h = 0; h < lf->nhandles; h++)
		c->ctx.fd[h] = -1;
	/* with several clients per thread, each line's copy is for one of
	 * them (op->sub); c->number is the job's */
	if (clientpaths_init(&c->paths, lf, c->number * per_thread, prefix))
		return -ENOMEM;
	if (*prefix && !(c->walkdir = strdup(prefix)))
		return -ENOMEM;
	if (rs->cfg->latency_sample > 1) {
		c->sample_left =
			calloc(lf->nslots ? lf->nslots : 1, sizeof(uint32_t));
		if (!c->sample_left)
			return -ENOMEM;
	}
	c->ctx.buf_len = data_buffer(lf);
	c->ctx.buf = calloc_aligned(1, c->ctx.buf_len);
	if (!c->ctx.buf)
		return -ENOMEM;
	/* dbench writes zeros; native writes a byte that does not compress
	 * to nothing */
	if (lf->dialect != DIALECT_DBENCH)
		memset(c->ctx.buf, 'v', c->ctx.buf_len);
	/* 68 KiB a client that most loadfiles never touch */
	if (has_scratch(lf, rs->engine)) {
		c->ctx.dirbuf = calloc_aligned(1, ENGINE_DIRBUF);
		c->ctx.pathbuf = calloc_aligned(1, PATH_MAX);
		if (!c->ctx.dirbuf || !c->ctx.pathbuf)
			return -ENOMEM;
	}
	return result_init(&c->res, lf->nslots);
}

int client_init(struct client *c, struct run_state *rs, unsigned int id,
		int dirfd, const char *prefix)
{
	unsigned int n = run_config_lanes(rs->cfg);
	int ret = client_init_lane(c, rs, id, 0, dirfd, prefix);

	if (ret || n == 1)
		return ret;
	c->nlanes = n;
	c->lanes = calloc_aligned(n - 1, sizeof(*c->lanes));
	c->lane_arg = calloc(n, sizeof(*c->lane_arg));
	c->tally = calloc(1, sizeof(*c->tally));
	if (!c->lanes || !c->lane_arg || !c->tally)
		return -ENOMEM;
	c->lane_arg[0] = c;
	return 0;
}

int client_add_lane(struct client *c, unsigned int lane, int dirfd,
		    const char *prefix)
{
	struct client *l = &c->lanes[lane - 1];
	int ret;

	ret = client_init_lane(l, c->rs, c->id, lane, dirfd, prefix);
	c->lanes_made = lane;
	if (ret)
		return ret;
	/* the thread's: its progress slot, its CPU */
	l->progress = c->progress;
	l->cpu = c->cpu;
	l->tally = c->tally;
	c->lane_arg[lane] = l;
	return 0;
}

void client_release(struct client *c)
{
	for (unsigned int k = 0; k < c->lanes_made; k++)
		client_release(&c->lanes[k]);
	c->lanes_made = 0;
	free(c->lanes);
	free(c->lane_arg);
	if (!c->lane) /* a lane's is its thread's */
		free(c->tally);
	c->lanes = NULL;
	c->lane_arg = NULL;
	c->tally = NULL;
	clientpaths_release(&c->paths);
	free(c->walkdir);
	free(c->ctx.fd);
	free(c->ctx.buf);
	free(c->ctx.dirbuf);
	free(c->ctx.pathbuf);
	free(c->pass);
	free(c->sample_left);
	result_release(&c->res);
	free(c->affinity);
	c->affinity = NULL;
	if (c->dirfd >= 0)
		close(c->dirfd);
	c->dirfd = -1;
	if (c->ctx.at >= 0)
		close(c->ctx.at);
	c->ctx.at = AT_FDCWD;
}

/*
 * The loadfile's [setup] section, untimed. In a shared directory, lines
 * without ${client} are run once, by client 0, which the main thread sets
 * up before any other client (in an MPI job, rank 0 before the others).
 */
static int run_setup_ops(struct client *c)
{
	const struct run_state *rs = c->rs;
	const struct loadfile *lf = rs->lf;
	bool shared = rs->cfg->cwd == CWD_SHARED;

	c->opfn = rs->opfn_setup;
	for (unsigned int i = 0; i < lf->nsetup; i++) {
		const struct op *op = &lf->ops[i];
		long ret;
		int err;
		bool on_handle =
			op->has_handle && !(op_table[op->id].flags & OPF_OPENS);

		/* a handle op goes with the open that filled its handle */
		if (on_handle ? c->ctx.fd[op->handle] < 0 :
				shared && !op->expand && c->number != 0)
			continue;
		ret = client_exec(c, op);
		err = ret < 0 ? (int)-ret : 0;
		client_drop_unexpected_fd(c, op);
		if (!op_expect_matches(op, err)) {
			/* interrupted by a stop: not the line's fault */
			if (err == EINTR && client_stopped(rs))
				return -EINTR;
			c->error_line = op->line;
			c->error_op = op->id;
			return err ? -err : -EPROTO;
		}
	}
	c->opfn = rs->opfn;
	client_close_handles(c);
	return 0;
}

/*
 * --placement: the thread moves to its CPU before anything else, so its
 * [setup] (its memory, its dentries) happens there too; then it records
 * the mask it has, as the kernel sees it.
 */
static int client_pin(struct client *c)
{
	struct cpulist l = { 0 };
	int ret = 0;

	if (c->cpu >= 0) {
		cpulist_add(&l, (unsigned int)c->cpu);
		ret = cpulist_set_affinity(&l, 0);
		cpulist_release(&l);
		if (ret) {
			c->pin_failed = true;
			return ret;
		}
	}
	if (!cpulist_affinity(&l, 0)) {
		c->affinity = cpulist_string(&l);
		cpulist_release(&l);
	}
	return 0;
}

/* How many names --dcache negative makes between two looks for a stop. */
#define NEGATIVE_SLICE 1024

/*
 * --dcache negative=N: N missing names (.vb-neg-0...) looked up in the
 * client's directory, after its [setup] (which may make or remove
 * names), so that the clock starts with N negative dentries there. The
 * directory is the client's cwd by now in every mode (its own, the
 * shared one, dbench's), so no fd of it is kept for this: with a private
 * fd table it would be copied into the table and left in the shared one.
 * With --cwd shared the clients have one directory: client 0 makes
 * them, as it runs the [setup] lines without ${client}.
 */
static int client_negative(struct client *c)
{
	const struct run_config *cfg = c->rs->cfg;
	int ret = 0, dir = AT_FDCWD;

	if (cfg->dcache != DCACHE_NEGATIVE ||
	    (cfg->cwd == CWD_SHARED && c->number != 0))
		return 0;
	/* where the loadfile's names are: below the walk's prefix */
	if (c->walkdir) {
		dir = open(c->walkdir, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (dir < 0)
			return -errno;
	}
	/*
	 * A slice at a time, with a look at the phase between two: a stop
	 * during N = 10 million is then an interrupted setup (-EINTR, as a
	 * kicked [setup] line), not a client stuck for a minute and more
	 * that the run gives up on, leaving its tree.
	 */
	for (uint32_t from = 0; !ret && from < cfg->dcache_negative;
	     from += NEGATIVE_SLICE) {
		uint32_t to = cfg->dcache_negative - from > NEGATIVE_SLICE ?
				      from + NEGATIVE_SLICE :
				      cfg->dcache_negative;

		if (client_stopped(c->rs))
			ret = -EINTR;
		else
			ret = dcache_make_negative(dir, from, to,
						   &c->dcache_at);
	}
	if (dir >= 0)
		close(dir);
	c->dcache_failed = ret != 0 && ret != -EINTR;
	return ret;
}

/* Lane @k of @c's thread: @c itself for lane 0. */
static struct client *lane_of(struct client *c, unsigned int k)
{
	return k ? &c->lanes[k - 1] : c;
}

/*
 * --resolve dirfd and beneath: lookups start at an O_PATH fd of the
 * client's directory, held for the whole run. So do a thread's lanes in
 * every mode: a thread has one cwd, and each lane its own directory.
 */
static int client_open_at(struct client *c, bool lanes)
{
	const struct run_config *cfg = c->rs->cfg;

	if (lanes || cfg->resolve == RESOLVE_DIRFD ||
	    cfg->resolve == RESOLVE_MODE_BENEATH) {
		c->ctx.at =
			openat(c->dirfd, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (c->ctx.at < 0)
			return -errno;
	}
	if (c->dirfd >= 0) {
		close(c->dirfd);
		c->dirfd = -1;
	}
	return 0;
}

/*
 * A lane's [setup] on its thread's ring (before the lanes start, one
 * op at a time); a failure ends the thread's setup.
 */
static int lane_setup(struct client *c, struct client *l)
{
	int ret;

	l->ctx.ring = c->ctx.ring;
	ret = run_setup_ops(l);
	if (ret) {
		/* told as the lane's: the run ends with this error, and the
		 * message names the client whose [setup] failed */
		c->error_line = l->error_line;
		c->error_op = l->error_op;
		c->number = l->number;
		return ret;
	}
	l->ctx.inl = &l->res.err[0][ERR_INLINE];
	l->ctx.inl_stride = ERR_NR;
	return 0;
}

int client_setup(struct client *c)
{
	const struct run_state *rs = c->rs;
	const struct run_config *cfg = rs->cfg;
	unsigned int n = c->nlanes ? c->nlanes : 1, fds;
	int ret;

	ret = client_pin(c);
	if (ret)
		return ret;
	if (cfg->fs == FS_PRIVATE) {
		if (unshare(CLONE_FS) || fchdir(c->dirfd))
			return -errno;
	}
	for (unsigned int k = 0; k < n; k++) {
		ret = client_open_at(lane_of(c, k), n > 1);
		if (ret)
			return ret;
	}
	if (cfg->fdt == FDT_PRIVATE) {
		if (unshare(CLONE_FILES))
			return -errno;
		/* run_fds counts every lane's (run.c) */
		fds = rs->setup_fds > rs->run_fds ? rs->setup_fds : rs->run_fds;
		ret = fdtable_reserve(fds);
		if (ret)
			return ret;
	}
	/* -e uring: the ring, in the client's fd table, before [setup] */
	if (c->engine->ctx_init) {
		ret = c->engine->ctx_init(&c->ctx, rs->lf, cfg->uring_fixed, n);
		if (ret)
			return ret;
	}
	ret = run_setup_ops(c);
	if (ret)
		return ret;
	/* the [run] ops' inline completions, in their slots' outcomes */
	c->ctx.inl = &c->res.err[0][ERR_INLINE];
	c->ctx.inl_stride = ERR_NR;
	for (unsigned int k = 1; k < n; k++) {
		ret = lane_setup(c, lane_of(c, k));
		if (ret)
			return ret;
	}
	return client_negative(c);
}
