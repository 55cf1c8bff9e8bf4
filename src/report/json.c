/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The JSON result file (--json): settings, loadfile identity, environment,
 * every run's raw figures and per-op statistics, and each client count's
 * summary. The schema is versioned and documented in doc/json-schema.md;
 * resultfile.c reads it back for compare and plot.
 */
#include <config.h>
#include "report/report.h"
#include "report/uring.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/alloc.h"
#include "base/jsonstr.h"
#include "compare/resultfile.h"
#include "lang/loadfile.h"
#include "mpi/job.h"
#include "report/clockjson.h"
#include "report/jsonoptions.h"
#include "report/profile.h"
#include "workdir/outfile.h"
#include "report/knee.h"
#include "run/clientdir.h"
#include "run/runconfig.h"
#include "run/layout.h"
#include "run/run.h"
#include "run/sweep.h"
#include "run/verdict.h"
#include "stats/summary.h"
#include "sys/cpulist.h"
#include "sys/env.h"
#include "sys/perfctl.h"
#include "sys/placement.h"
#include "sys/topology.h"

/* what this writes, compare and plot can read back */
_Static_assert(MAX_CLIENTS <= RESULTFILE_MAX_CLIENTS, "result files too small");

/* NULL becomes JSON null; bytes that are not UTF-8 are kept (jsonstr.h). */
static json_t *str(const char *s)
{
	return jsonstr_new(s);
}

static json_t *u64(uint64_t v)
{
	return json_integer((json_int_t)v);
}

/* -1 (unknown, none) becomes JSON null. */
static json_t *maybe(long long v)
{
	return v < 0 ? json_null() : json_integer(v);
}

static json_t *summary_json(const struct summary *s)
{
	return json_pack("{sI sf sf sf sf sf sf}", "n", (json_int_t)s->n,
			 "mean", s->mean, "median", s->median, "stddev",
			 s->stddev, "cv", s->cv, "min", s->min, "max", s->max);
}

/*
 * The RCU-walk probe's row: "cached", the lookups that completed in
 * RCU-walk mode, and "uncached", those that could not (EAGAIN); with the
 * unexpected ones they add up to "count".
 */
static void probe_json(json_t *o, const struct result *r, unsigned int s)
{
	uint64_t bad = 0, un = r->err[s][ERR_UNCACHED];

	for (unsigned int e = 0; e < ERR_SKIPPED; e++)
		bad += r->err[s][e];
	json_object_set_new(o, "cached", u64(r->count[s] - un - bad));
	json_object_set_new(o, "uncached", u64(un));
}

/*
 * --percentiles: [{"pct": P, "ns": V}...] of @h, ab's table as JSON (the
 * values report/percentiles.c prints); [] without --percentiles.
 */
static json_t *pct_json(const struct report_config *rc, const struct hist *h)
{
	json_t *a = json_array();

	for (unsigned int i = 0; i < rc->npercentiles; i++)
		json_array_append_new(
			a, json_pack("{sf sI}", "pct", rc->percentiles[i], "ns",
				     (json_int_t)hist_percentile(
					     h, rc->percentiles[i])));
	return a;
}

static json_t *ops_json(const struct report_config *rc, const struct run *run)
{
	const struct result *r = &run->total;
	json_t *a = json_array();
	char buf[16];

	for (unsigned int s = 0; s < r->nslots; s++) {
		const struct hist *h = &r->lat[s];
		json_t *errors = json_object();

		for (unsigned int e = 0; e < ERR_NR; e++) {
			const char *name;

			if (!r->err[s][e] || e == ERR_UNCACHED ||
			    e == ERR_INLINE)
				continue;
			name = e == 0		    ? "success" :
			       e == ERR_SKIPPED	    ? "skipped" :
			       e == ERR_INTERRUPTED ? "interrupted" :
			       e == ERR_OTHER	    ? "other" :
						      op_errno_name((int)e, buf,
								    sizeof(buf));
			json_object_set_new(errors, name, u64(r->err[s][e]));
		}
		json_array_append_new(
			a,
			json_pack("{ss sI sI sf sI sI sI sI sI sI so}", "op",
				  op_table[run->state.lf->slot_op[s]].name,
				  "count", (json_int_t)r->count[s], "timed",
				  (json_int_t)h->count, "mean_ns", hist_mean(h),
				  "min_ns", (json_int_t)(h->count ? h->min : 0),
				  "max_ns", (json_int_t)h->max, "p50_ns",
				  (json_int_t)hist_percentile(h, 50), "p90_ns",
				  (json_int_t)hist_percentile(h, 90), "p99_ns",
				  (json_int_t)hist_percentile(h, 99), "p999_ns",
				  (json_int_t)hist_percentile(h, 99.9),
				  "unexpected", errors));
		json_object_set_new(json_array_get(a, json_array_size(a) - 1),
				    "sd_ns", json_real(hist_sd(h)));
		json_object_set_new(json_array_get(a, json_array_size(a) - 1),
				    "percentiles", pct_json(rc, h));
		if (run->state.lf->slot_op[s] == OP_PROBE)
			probe_json(json_array_get(a, json_array_size(a) - 1), r,
				   s);
	}
	return a;
}

/* Where a client ran: its CPU's place in the topology (null unpinned). */
static void where_json(json_t *o, const struct run *run,
		       const struct client_sample *cs)
{
	const struct placement *pl = run->state.cfg->placement;
	const struct topology_cpu *tc =
		cs->cpu >= 0 && !cs->host && pl && pl->topo ?
			topology_find(pl->topo, (unsigned int)cs->cpu) :
			NULL;

	json_object_set_new(o, "cpu", maybe(cs->cpu));
	json_object_set_new(o, "core",
			    tc ? json_integer(tc->core) : json_null());
	json_object_set_new(o, "cache",
			    tc ? json_integer(tc->cache) : json_null());
	json_object_set_new(o, "package",
			    tc ? json_integer(tc->package) : json_null());
	json_object_set_new(o, "node", tc ? maybe(tc->node) : json_null());
	json_object_set_new(o, "last_cpu", maybe(cs->last_cpu));
	json_object_set_new(o, "affinity", str(cs->affinity));
}

static json_t *clients_json(const struct run *run)
{
	json_t *a = json_array();

	for (unsigned int i = 0; i < run->nclients; i++) {
		const struct client_sample *cs = &run->samples[i];
		const struct usage *u = &cs->usage;
		json_t *o = json_pack("{sI sI sI sf}", "passes",
				      (json_int_t)cs->passes, "ops",
				      (json_int_t)cs->ops, "elapsed_ns",
				      (json_int_t)cs->elapsed_ns, "ns_per_pass",
				      cs->passes ? (double)cs->elapsed_ns /
							   (double)cs->passes :
						   0.0);

		json_object_set_new(o, "tid", json_integer(cs->tid));
		where_json(o, run, cs);
		json_object_set_new(o, "user_s", json_real(u->user_s));
		json_object_set_new(o, "sys_s", json_real(u->sys_s));
		json_object_set_new(o, "voluntary_switches", u64(u->voluntary));
		json_object_set_new(o, "involuntary_switches",
				    u64(u->involuntary));
		json_object_set_new(o, "migrations",
				    u->migrations_known ? u64(u->migrations) :
							  json_null());
		json_array_append_new(a, o);
	}
	return a;
}

/*
 * One histogram in full: count, sum, min, max and its non-empty buckets
 * as [lowest value, count] pairs (stats/hist.h: a bucket is 1 ns wide
 * below 64 ns, else 1/32 of the power of two it is in), from which a
 * reader can merge histograms and take percentiles itself.
 */
static json_t *hist_json(const struct hist *h)
{
	json_t *b = json_array();

	for (unsigned int i = 0; i < HIST_NR; i++)
		if (h->bucket[i])
			json_array_append_new(
				b, json_pack("[II]",
					     (json_int_t)hist_bucket_low(i),
					     (json_int_t)h->bucket[i]));
	return json_pack("{sI sI sI sI so}", "count", (json_int_t)h->count,
			 "sum_ns", (json_int_t)h->sum, "min_ns",
			 (json_int_t)(h->count ? h->min : 0), "max_ns",
			 (json_int_t)h->max, "buckets", b);
}

/* An MPI job's run: each rank's part, as rank 0 merged it. */
static json_t *ranks_json(const struct report_config *rc, const struct run *run)
{
	const struct layout *l = rc->layout;
	const struct peers *p = &run->peers;
	json_t *a = json_array();

	for (unsigned int r = 0; r < p->nranks; r++) {
		const struct rank_share *sh = &p->ranks[r];
		const struct result *res = &sh->res;
		json_t *ops = json_array();
		struct hist *all = xmalloc(sizeof(*all));

		for (unsigned int s = 0; s < res->nslots; s++) {
			json_t *o = hist_json(&res->lat[s]);

			json_object_set_new(
				o, "op",
				json_string(op_table[run->state.lf->slot_op[s]]
						    .name));
			json_array_append_new(ops, o);
		}
		result_all_ops(res, all);
		json_array_append_new(
			a,
			json_pack(
				"{si so si ss sI sI sI sI sf sI sI sI so}",
				"rank", r, "host", str(l->hosts[l->host_of[r]]),
				"clients", sh->clients, "end",
				run_end_name(sh->end), "ops",
				(json_int_t)res->ops, "bytes",
				(json_int_t)res->bytes, "unexpected",
				(json_int_t)res->unexpected, "elapsed_ns",
				(json_int_t)result_elapsed(res), "ops_per_sec",
				result_elapsed(res) ?
					(double)res->ops * 1e9 /
						(double)result_elapsed(res) :
					0.0,
				"p99_ns", (json_int_t)hist_percentile(all, 99),
				"start_offset_ns", (json_int_t)sh->start_ns,
				"clock_error_ns", (json_int_t)sh->clock_err_ns,
				"ops_detail", ops));
		free(all);
	}
	return a;
}

/* perf's events were on from on_ns to off_ns, writing file. */
static json_t *run_profile_json(const struct run *run)
{
	if (!run->perf)
		return json_null();
	return json_pack("{so so so so}", "file", str(run->perf_file),
			 "control", str(run->perf->name), "on_ns",
			 u64(run->perf_on_ns), "off_ns", u64(run->perf_off_ns));
}

static json_t *run_json(const struct report_config *rc, const struct run *run,
			unsigned int variant)
{
	const struct result *r = &run->total;
	struct run_verdict v;
	json_t *o = json_object(), *inc = json_array();
	struct hist *all;

	run_verdict(run, &v);

	json_object_set_new(o, "index", json_integer(run->index));
	json_object_set_new(o, "variant", json_integer(variant));
	json_object_set_new(o, "clients", json_integer(run->nclients));
	json_object_set_new(o, "repeat", json_integer(run->repeat));
	json_object_set_new(
		o, "end",
		json_string(run_end_name(atomic_load(&run->state.end))));
	json_object_set_new(o, "elapsed_ns", u64(result_elapsed(r)));
	json_object_set_new(o, "window_start_ns", u64(r->t_start));
	json_object_set_new(o, "window_end_ns", u64(r->t_end));
	json_object_set_new(o, "ops", u64(r->ops));
	json_object_set_new(o, "bytes", u64(r->bytes));
	json_object_set_new(o, "passes", u64(r->passes));
	json_object_set_new(o, "unexpected", u64(r->unexpected));
	json_object_set_new(o, "skipped", u64(r->skipped));
	json_object_set_new(o, "interrupted", u64(r->interrupted));
	json_object_set_new(o, "stuck_clients", u64(run->stuck));
	json_object_set_new(o, "ops_per_sec", json_real(run_ops_per_sec(run)));
	json_object_set_new(o, "mb_per_sec", json_real(run_mb_per_sec(run)));
	json_object_set_new(o, "p99_ns", json_real(run_p99_ns(run)));
	json_object_set_new(o, "max_latency_ns", u64(result_max_latency(r)));
	json_object_set_new(o, "setup_ns", u64(run->start_ns));
	json_object_set_new(o, "clients_set_up", u64(run->ready));
	json_object_set_new(
		o, "rusage",
		json_pack("{sf sf sI sI so sf sb}", "user_s", r->usage.user_s,
			  "sys_s", r->usage.sys_s, "voluntary_switches",
			  (json_int_t)r->usage.voluntary,
			  "involuntary_switches",
			  (json_int_t)r->usage.involuntary, "run_delay_ns",
			  r->usage.run_delay_known ?
				  json_integer(
					  (json_int_t)r->usage.run_delay_ns) :
				  json_null(),
			  "cpu_share", v.cpu_share, "starved", v.starved));
	json_object_set_new(json_object_get(o, "rusage"), "wait_share",
			    v.wait_share >= 0 ? json_real(v.wait_share) :
						json_null());
	json_object_set_new(json_object_get(o, "rusage"), "cpus",
			    json_real(run->cpus));
	json_object_set_new(json_object_get(o, "rusage"), "migrations",
			    r->usage.migrations_known ?
				    u64(r->usage.migrations) :
				    json_null());
	json_object_set_new(o, "main_affinity", str(run->main_affinity));
	json_object_set_new(o, "profile", run_profile_json(run));
	json_object_set_new(o, "ops_detail", ops_json(rc, run));
	report_uring_json(o, json_object_get(o, "ops_detail"), run);
	all = xmalloc(sizeof(*all));
	result_all_ops(r, all);
	json_object_set_new(o, "percentiles", pct_json(rc, all));
	/* ab's Connection Times "Total:" row (report_conntimes()) */
	json_object_set_new(o, "latency",
			    json_pack("{sI sf sf sI sI}", "min_ns",
				      (json_int_t)(all->count ? all->min : 0),
				      "mean_ns", hist_mean(all), "sd_ns",
				      hist_sd(all), "median_ns",
				      (json_int_t)hist_percentile(all, 50),
				      "max_ns", (json_int_t)all->max));
	free(all);
	json_object_set_new(o, "idle_clients", u64(v.unmeasured));
	for (unsigned int bit = 1; bit <= INCOMPLETE_UNMEASURED; bit <<= 1)
		if (v.incomplete & bit)
			json_array_append_new(
				inc, json_string(run_verdict_name(bit)));
	json_object_set_new(o, "incomplete", inc);
	json_object_set_new(o, "overrun_ns", u64(v.overrun_ns));
	json_object_set_new(o, "margin_ns", u64(v.margin_ns));
	json_object_set_new(o, "late_rank",
			    v.late_rank >= 0 ? json_integer(v.late_rank) :
					       json_null());
	json_object_set_new(o, "clients_detail", clients_json(run));
	if (rc->layout && run->peers.nranks) {
		json_object_set_new(o, "start_skew_ns",
				    u64(run->peers.skew_ns));
		json_object_set_new(o, "clock_error_ns",
				    u64(run->peers.sync_err_ns));
		json_object_set_new(
			o, "stopped_by_rank",
			run->peers.stopped_by >= 0 ?
				json_integer(run->peers.stopped_by) :
				json_null());
		json_object_set_new(o, "ranks", ranks_json(rc, run));
	}
	return o;
}

/*
 * An MPI job: its library, the ranks and their hosts, how clients went
 * to them, who worked in rank 0's work directory, and every rank's
 * environment (the "environment" above is rank 0's).
 */
static json_t *mpi_json(const struct report_config *rc)
{
	const struct layout *l = rc->layout;
	json_t *hosts = json_array(), *ranks = json_array();

	for (unsigned int h = 0; h < l->nhosts; h++) {
		json_t *rs = json_array();

		for (unsigned int i = l->first[h]; i < l->first[h + 1]; i++)
			json_array_append_new(rs, json_integer(l->by_host[i]));
		json_array_append_new(hosts,
				      json_pack("{so so}", "name",
						str(l->hosts[h]), "ranks", rs));
	}
	for (unsigned int r = 0; r < l->nranks; r++) {
		json_t *env = rc->envs && rc->envs[r] ?
				      json_loads(rc->envs[r], 0, NULL) :
				      NULL;

		json_array_append_new(
			ranks,
			json_pack("{si so sb so}", "rank", r, "host",
				  str(l->hosts[l->host_of[r]]),
				  "shared_directory",
				  r == 0 || (rc->attached && rc->attached[r]),
				  "environment", env ? env : json_null()));
	}
	return json_pack("{so si so ss si so}", "library", str(job_library()),
			 "ranks", l->nranks, "hosts", hosts, "distribute",
			 l->distribute == DISTRIBUTE_HOST_BY_HOST ?
				 "host-by-host" :
				 "round-robin",
			 "per_host", l->per_host, "rank_detail", ranks);
}

static json_t *points_json(const struct sweep *sw)
{
	json_t *a = json_array();

	for (unsigned int p = 0; p < sw->npoints; p++) {
		const struct point *pt = &sw->points[p];
		json_t *runs = json_array();

		for (unsigned int r = 0; r < pt->nruns; r++)
			json_array_append_new(runs,
					      json_integer(pt->runs[r]->index));
		json_array_append_new(
			a, json_pack("{si si so so so so si}", "variant",
				     pt->variant, "clients", pt->clients,
				     "runs", runs, "ops_per_sec",
				     summary_json(&pt->ops_s), "mb_per_sec",
				     summary_json(&pt->mb_s), "p99_ns",
				     summary_json(&pt->p99_ns), "starved_runs",
				     run_verdict_starved(pt->runs, pt->nruns)));
	}
	return a;
}

int report_json(const struct report_config *rc, const struct sweep *sw,
		const struct env *env, const char *path)
{
	const struct loadfile *lf = sw->lf;
	json_t *root = json_object(), *runs = json_array(), *envo;
	char when[32];
	time_t now = time(NULL);
	struct tm tm;
	int ret = 0;

	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
	json_object_set_new(root, "schema", json_string("vfsbench-result"));
	json_object_set_new(root, "schema_version",
			    json_integer(RESULTFILE_VERSION));
	json_object_set_new(root, "created", json_string(when));
	json_object_set_new(root, "options", report_json_options(rc, sw));
	json_object_set_new(root, "loadfile", report_json_loadfile(lf));
	json_object_set_new(root, "variants", report_json_variants(rc, sw));
	envo = env_json(env);
	json_object_set_new(envo, "clock", clock_json(rc->clock_why));
	json_object_set_new(root, "environment", envo);
	if (rc->layout)
		json_object_set_new(root, "mpi", mpi_json(rc));
	for (unsigned int i = 0; i < sw->nruns; i++)
		if (atomic_load(&sw->runs[i].state.end) != RUN_END_FAILED)
			json_array_append_new(
				runs,
				run_json(rc, &sw->runs[i], sw->variant_of[i]));
	json_object_set_new(root, "runs", runs);
	json_object_set_new(root, "points", points_json(sw));
	json_object_set_new(root, "complete", json_boolean(!sw->stopped));
	/* only with --profile: files without one stay as they were */
	if (rc->nprofiles) {
		json_t *knees = json_array();

		json_object_set_new(root, "profiles",
				    report_profiles_json(rc, sw));
		for (unsigned int v = 0; v < sw->nvariants; v++) {
			struct knee k;

			knee_find(&k, rc, sw, v, rc->profiles, rc->nprofiles);
			json_array_append_new(knees, knee_json(&k, v));
		}
		json_object_set_new(root, "knees", knees);
	}

	ret = outfile_json(root, path);
	json_decref(root);
	return ret;
}
