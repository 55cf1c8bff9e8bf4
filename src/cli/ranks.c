/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * main()'s meetings of an MPI job: who is where, that every rank runs
 * the same thing, the work directory, the environments for the JSON, and
 * the way out.
 */
#include <config.h>
#include "cli/ranks.h"

#include <errno.h>
#include <jansson.h>
#include <nettle/sha2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/exit.h"
#include "base/msg.h"
#include "cli/options.h"
#include "lang/loadfile.h"
#include "mpi/job.h"
#include "mpi/launcher.h"
#include "report/clockjson.h"
#include "run/meet.h"
#include "workdir/stale.h"
#include "workdir/workdir.h"
#include "stats/hist.h"
#include "stats/result.h"
#include "sys/env.h"

/* How long main()'s meetings wait once stopped: --stop-timeout's default. */
#define MEET_WAIT_NS (10 * 1000000000ull)

/* Where the MPI build is: README.md says the same. */
#define MPI_BUILD \
	"under mpirun, run the MPI build, vfsbench-mpi (Debian package vfsbench-mpi; in the source tree, sh tools/quickstart.sh --mpi)"

int ranks_refuse_plain(void)
{
	struct launcher l;

	if (job_built() || !launcher_find(&l) || l.size == 1)
		return 0;
	if (l.size)
		error("this vfsbench is built without MPI, but an MPI launcher started it as one of %lu processes (%s=%s), each of which would run a sweep of its own: " MPI_BUILD,
		      l.size, l.var, l.value);
	else
		error("this vfsbench is built without MPI, but an MPI launcher started it (%s=%s) in a job of a size it does not say, each of whose processes would run a sweep of its own: " MPI_BUILD,
		      l.var, l.value);
	return VB_EXIT_USAGE;
}

const struct layout *ranks_layout(const struct ranks *rk)
{
	return rk->active ? &rk->layout : NULL;
}

int ranks_join(struct ranks *rk)
{
	char host[LAYOUT_HOST_MAX] = "", *names, who[LAYOUT_HOST_MAX + 32];
	const char *given = getenv("VFSBENCH_HOST");
	unsigned int n;

	memset(rk, 0, sizeof(*rk));
	if (!job_launched())
		return 0;
	if (job_init())
		return VB_EXIT_RUNTIME;
	rk->active = true;
	/* a name of the user's: containers on many machines may all be
	 * "localhost"; tests make two hosts of one */
	if (given && *given)
		snprintf(host, sizeof(host), "%s", given);
	else if (gethostname(host, sizeof(host) - 1))
		snprintf(host, sizeof(host), "unknown");
	n = job_size();
	names = xcalloc(n, LAYOUT_HOST_MAX);
	rk->layout.nranks = n; /* for the exchange; built below */
	rk->layout.rank = job_rank();
	if (meet_all(&rk->layout, host, LAYOUT_HOST_MAX, names, MEET_WAIT_NS,
		     "the start")) {
		free(names);
		return VB_EXIT_RUNTIME;
	}
	layout_build(&rk->layout, job_rank(), n, names);
	free(names);
	if (n > 1)
		msg_set_origin(
			layout_name(&rk->layout, job_rank(), who, sizeof(who)));
	return 0;
}

int ranks_agree(struct ranks *rk, int status, const char *what)
{
	const struct layout *l = ranks_layout(rk);
	char name[LAYOUT_HOST_MAX + 32];
	int32_t mine = status, *all;
	int first = VB_EXIT_OK;

	if (!l || l->nranks < 2)
		return status;
	all = xcalloc(l->nranks, sizeof(*all));
	if (meet_all(l, &mine, sizeof(mine), all, MEET_WAIT_NS, what)) {
		free(all);
		return status ? status : VB_EXIT_RUNTIME;
	}
	for (unsigned int r = 0; r < l->nranks; r++) {
		if (!all[r])
			continue;
		if (first == VB_EXIT_OK)
			first = all[r];
		/* rank 0's own failure was told already */
		if (l->rank == 0 && r != 0 && !all[0])
			error("%s: %s failed (exit %d): every rank stops",
			      layout_name(l, r, name, sizeof(name)), what,
			      all[r]);
	}
	free(all);
	return status ? status : first;
}

int ranks_settle(struct ranks *rk, struct config *cfg)
{
	const struct layout *l = ranks_layout(rk);
	uint64_t seed = cfg->run.seed, *all;
	unsigned int largest = 0;

	if (!l)
		return 0;
	for (unsigned int i = 0; i < cfg->run.nclients; i++)
		if (cfg->run.clients[i] > largest)
			largest = cfg->run.clients[i];
	layout_distribute(&rk->layout, cfg->distribute, largest);
	/* every rank must run the same order: rank 0's clock's seed */
	all = xcalloc(l->nranks, sizeof(*all));
	if (meet_all(l, &seed, sizeof(seed), all, MEET_WAIT_NS,
		     "the options")) {
		free(all);
		return VB_EXIT_RUNTIME;
	}
	if (!cfg->seed_set) {
		cfg->run.seed = all[0];
		for (unsigned int v = 0; v < cfg->nvariants; v++)
			cfg->variants[v].run.seed = all[0];
	}
	free(all);
	/* one progress line on the terminal, rank 0's */
	for (unsigned int v = 0; v < cfg->nvariants; v++) {
		cfg->variants[v].run.layout = l;
		cfg->variants[v].run.quiet |= l->rank != 0;
	}
	cfg->run.layout = l;
	cfg->run.quiet |= l->rank != 0;
	return 0;
}

/* Appends to a string that grows; the digest's text. */
struct text {
	char *s;
	size_t len;
};

static void PRINTF(2, 3) add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	t->s = xrealloc(t->s, t->len + (size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(t->s + t->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	t->len += (size_t)n;
}

static void add_run(struct text *t, const struct run_config *c)
{
	add(t,
	    "time %llu loops %llu warmup %d %llu cwd %d fs %d fdt %d depth %u\n",
	    (unsigned long long)c->time_ns, (unsigned long long)c->loops,
	    c->warmup_kind, (unsigned long long)c->warmup, c->cwd, c->fs,
	    c->fdt, c->depth);
	add(t, "prefix %d resolve %d dcache %d %u\n", c->prefix, c->resolve,
	    c->dcache, c->dcache_negative);
	add(t,
	    "cleanup %d strict %d max %llu stop %llu runs %u order %d seed %llu\n",
	    !c->skip_cleanup, c->strict, (unsigned long long)c->max_errors,
	    (unsigned long long)c->stop_wait_ns, c->runs, c->order,
	    (unsigned long long)c->seed);
	for (unsigned int o = 0; c->null_fail && o < OP_NR; o++)
		if (c->null_fail[o])
			add(t, "fail %u %d\n", o, c->null_fail[o]);
	add(t, "clients");
	for (unsigned int i = 0; i < c->nclients; i++)
		add(t, " %u", c->clients[i]);
	add(t, "\n");
}

static void hex(const uint8_t *d, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", d[i]);
}

/* What every rank must agree on: the hashes of the settings and loadfiles. */
struct agreement {
	char settings[65];
	char loadfiles[65];
	char first[65]; /* variant 0's loadfile, for the message */
};

static void hash_text(const struct text *t, char *out)
{
	uint8_t d[SHA256_DIGEST_SIZE];
	struct sha256_ctx ctx;

	sha256_init(&ctx);
	sha256_update(&ctx, t->len, (const uint8_t *)t->s);
	sha256_digest(&ctx, sizeof(d), d);
	hex(d, sizeof(d), out);
}

/*
 * Everything that decides what is measured, and nothing a rank may have
 * of its own: not -D (each host's path), not the result files (rank 0's).
 * The build too: ranks exchange histograms as bytes.
 */
static void agreement_of(struct agreement *a, const struct config *cfg,
			 const struct loadfile *lf)
{
	struct text s = { 0 }, l = { 0 };

	add(&s, "vfsbench %s hist %zu err %u distribute %d\n", PACKAGE_VERSION,
	    sizeof(struct hist), ERR_NR, cfg->distribute);
	add_run(&s, &cfg->run);
	for (unsigned int v = 0; v < cfg->nvariants; v++) {
		const struct variant_config *vc = &cfg->variants[v];
		const struct loadfile_opts *o = &vc->lopts;

		add(&s, "variant %s engine %s\n", vc->label, vc->engine);
		add(&s,
		    "dialect %d links %d outside %d sync %d %d %d resolve %d fsinfo %d\n",
		    o->dialect, o->links_out, o->read_outside, o->sync_open,
		    o->sync_dirs, o->fsync_writes, !o->no_resolve, o->fsinfo);
		add_run(&s, &vc->run);
		add(&l, "%s\n", lf[v].sha256);
	}
	hash_text(&s, a->settings);
	hash_text(&l, a->loadfiles);
	snprintf(a->first, sizeof(a->first), "%s", lf[0].sha256);
	free(s.s);
	free(l.s);
}

int ranks_check(struct ranks *rk, const struct config *cfg,
		const struct loadfile *lf)
{
	const struct layout *l = ranks_layout(rk);
	char name[LAYOUT_HOST_MAX + 32];
	struct agreement mine, *all;
	int status = VB_EXIT_OK;

	if (!l || l->nranks < 2)
		return 0;
	memset(&mine, 0, sizeof(mine));
	agreement_of(&mine, cfg, lf);
	all = xcalloc(l->nranks, sizeof(*all));
	if (meet_all(l, &mine, sizeof(mine), all, MEET_WAIT_NS,
		     "the check of the options")) {
		free(all);
		return VB_EXIT_RUNTIME;
	}
	for (unsigned int r = 1; r < l->nranks; r++) {
		bool lf_differs = strcmp(all[r].loadfiles, all[0].loadfiles);

		if (!lf_differs && !strcmp(all[r].settings, all[0].settings))
			continue;
		status = VB_EXIT_USAGE;
		if (l->rank != 0)
			continue;
		layout_name(l, r, name, sizeof(name));
		if (lf_differs)
			error("%s: its loadfile differs from rank 0's (sha256 %s, rank 0's %s): every rank must read the same",
			      name, all[r].first, all[0].first);
		else
			error("%s: its options differ from rank 0's (settings sha256 %.16s, rank 0's %.16s): every rank must be given the same, but for -D",
			      name, all[r].settings, all[0].settings);
	}
	free(all);
	return status;
}

/* Rank 0's work directory, as the others look for it. */
struct offer {
	int32_t status;
	char name[64];
	char id[WORKDIR_ID_LEN];
};

/* Each rank's answer: its status, and whether it works in rank 0's. */
struct answer {
	int32_t status;
	int32_t attached;
};

int ranks_workdir(struct ranks *rk, const struct config *cfg,
		  struct workdir *wd)
{
	const struct layout *l = ranks_layout(rk);
	char name[LAYOUT_HOST_MAX + 32];
	struct offer offer = { 0 }, *offers;
	struct answer mine, *all;
	int ret = 0, failed = 0;

	if (!l || l->nranks < 2) {
		ret = workdir_create(wd, cfg->directory);
		if (!ret)
			stale_report(cfg->directory);
		return ret;
	}
	if (l->rank == 0) {
		ret = workdir_create(wd, cfg->directory);
		if (!ret)
			stale_report(cfg->directory);
		offer.status = ret;
		if (!ret) {
			snprintf(offer.name, sizeof(offer.name), "%s",
				 wd->name);
			snprintf(offer.id, sizeof(offer.id), "%s", wd->id);
		}
	}
	offers = xcalloc(l->nranks, sizeof(*offers));
	if (meet_all(l, &offer, sizeof(offer), offers, MEET_WAIT_NS,
		     "the choice of work directory")) {
		free(offers);
		return -ECANCELED;
	}
	if (l->rank != 0) {
		if (offers[0].status)
			ret = -ECANCELED;
		else
			ret = workdir_attach(wd, cfg->directory, offers[0].name,
					     offers[0].id);
		/* not there: a -D of this host's own */
		if (ret == -ENOENT)
			ret = workdir_create(wd, cfg->directory);
	}
	free(offers);
	mine = (struct answer){ .status = ret,
				.attached = !ret && wd->attached };
	all = xcalloc(l->nranks, sizeof(*all));
	if (meet_all(l, &mine, sizeof(mine), all, MEET_WAIT_NS,
		     "the choice of work directory")) {
		free(all);
		return -ECANCELED;
	}
	rk->attached = xcalloc(l->nranks, sizeof(*rk->attached));
	for (unsigned int r = 0; r < l->nranks; r++) {
		rk->attached[r] = all[r].attached;
		if (!all[r].status || all[r].status == -ECANCELED)
			continue;
		if (!failed)
			failed = all[r].status;
		if (l->rank == 0 && r)
			error("%s: cannot set up its work directory (%s): every rank stops",
			      layout_name(l, r, name, sizeof(name)),
			      strerror(-all[r].status));
	}
	free(all);
	if (!failed)
		return 0;
	/* what was made is removed (an attached one is only released) */
	if (!ret && workdir_remove(wd, NULL))
		workdir_release(wd);
	/* the same exit status on every rank: the first failure's */
	return failed;
}

/*
 * This rank's "environment" object as JSON text, for rank 0's file, with
 * the clock that timed its clients (each rank calibrates its own TSC).
 */
static char *env_text(const char *dir, const char *why_not_tsc)
{
	struct env env;
	json_t *o;
	char *text;

	env_collect(&env, dir);
	o = env_json(&env);
	json_object_set_new(o, "clock", clock_json(why_not_tsc));
	text = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	env_release(&env);
	return text;
}

int ranks_envs(struct ranks *rk, const char *dir, const char *why_not_tsc)
{
	const struct layout *l = ranks_layout(rk);
	char *mine, *all;
	uint64_t len, *lens, most = 0;
	int ret = 0;

	if (!l)
		return 0;
	mine = env_text(dir, why_not_tsc);
	if (!mine)
		return -1;
	/* the longest, then every one padded to it */
	len = strlen(mine) + 1;
	lens = xcalloc(l->nranks, sizeof(*lens));
	if (meet_all(l, &len, sizeof(len), lens, MEET_WAIT_NS,
		     "the exchange of environments"))
		ret = -1;
	for (unsigned int r = 0; !ret && r < l->nranks; r++)
		if (lens[r] > most)
			most = lens[r];
	free(lens);
	if (ret) {
		free(mine);
		return ret;
	}
	mine = xrealloc(mine, most);
	memset(mine + len, 0, most - len);
	all = xcalloc(l->nranks, most);
	if (meet_all(l, mine, most, all, MEET_WAIT_NS,
		     "the exchange of environments"))
		ret = -1;
	rk->envs = xcalloc(l->nranks, sizeof(*rk->envs));
	for (unsigned int r = 0; !ret && r < l->nranks; r++)
		rk->envs[r] = xstrdup(all + r * most);
	free(all);
	free(mine);
	return ret;
}

void ranks_leave(struct ranks *rk, int status)
{
	if (rk->active && meet_lost())
		job_abort(status);
	if (rk->active)
		job_finalize();
	for (unsigned int r = 0; rk->envs && r < rk->layout.nranks; r++)
		free(rk->envs[r]);
	free(rk->envs);
	free(rk->attached);
	if (rk->active)
		layout_release(&rk->layout);
	memset(rk, 0, sizeof(*rk));
}
