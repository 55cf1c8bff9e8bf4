/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The JSON result file's settings (json.c writes the rest): the
 * invocation's options, each variant's options and its loadfile's
 * identity, as doc/json-schema.md documents them under "options",
 * "variants" and "loadfile".
 */
#include <config.h>
#include "report/jsonoptions.h"

#include <jansson.h>

#include "base/jsonstr.h"
#include "lang/loadfile.h"
#include "report/report.h"
#include "report/uring.h"
#include "report/walk.h"
#include "run/clientdir.h"
#include "run/runconfig.h"
#include "run/sweep.h"
#include "sys/placement.h"

static const char *const cwd_names[] = { "private", "shared" };
static const char *const fdt_names[] = { "shared", "private" };
static const char *const order_names[] = { "sequential", "interleaved",
					   "random", "shuffled" };
static const char *const dialect_names[] = { "auto", "native", "dbench" };
static const char *const fsinfo_names[] = { "statvfs", "statfs",
					    "statvfs_legacy" };

/* NULL becomes JSON null; bytes that are not UTF-8 are kept (jsonstr.h). */
static json_t *str(const char *s)
{
	return jsonstr_new(s);
}

static json_t *u64(uint64_t v)
{
	return json_integer((json_int_t)v);
}

/* --placement: the kind, the CPUs in the order clients take them. */
static json_t *placement_json(const struct run_config *cfg)
{
	const struct placement *pl = cfg->placement;
	json_t *order = json_array();

	for (unsigned int i = 0; pl && i < pl->order.n; i++)
		json_array_append_new(order, json_integer(pl->order.cpu[i]));
	return json_pack("{ss so}", "kind", report_placement(cfg), "order",
			 order);
}

/*
 * What a variant may change: the loadfile as given, the engine, the
 * isolation, the depth, the dcache and the dbench translation flags, set
 * into @o.
 */
static void variant_options(json_t *o, const struct report_config *rc,
			    const struct report_variant *v,
			    const struct run_config *cfg,
			    const struct loadfile *lf)
{
	const struct loadfile_opts *lo = v->lopts;
	struct walk_figures w;
	char dcache[REPORT_DCACHE_LEN];

	json_object_set_new(o, "loadfile", str(v->loadfile));
	json_object_set_new(o, "engine", str(v->engine));
	json_object_set_new(o, "uring_depth",
			    json_integer(run_config_lanes(cfg)));
	json_object_set_new(o, "uring_fixed",
			    json_boolean(report_uring_fixed(cfg, v->engine)));
	json_object_set_new(o, "cwd", json_string(cwd_names[cfg->cwd]));
	json_object_set_new(
		o, "fs_struct",
		json_string(cfg->fs == FS_SHARED ? "shared" : "private"));
	json_object_set_new(o, "fd_table", json_string(fdt_names[cfg->fdt]));
	json_object_set_new(o, "depth", json_integer(cfg->depth));
	json_object_set_new(
		o, "resolve",
		json_string(resolve_names[run_config_resolve(cfg)]));
	json_object_set_new(o, "prefix",
			    json_string(cfg->prefix == PREFIX_SHARED ?
						"shared" :
						"private"));
	walk_figures(&w, rc, cfg, lf);
	json_object_set_new(o, "walk",
			    json_pack("{sI sI sI sf}", "added_components",
				      (json_int_t)w.added, "root_components",
				      (json_int_t)(cfg->resolve == RESOLVE_ABS ?
							   rc->abs_components :
							   0),
				      "mounts_crossed", (json_int_t)w.mounts,
				      "loadfile_components", w.own));
	json_object_set_new(o, "dcache",
			    json_string(report_dcache(cfg, dcache)));
	json_object_set_new(o, "placement", placement_json(cfg));
	json_object_set_new(o, "dbench",
			    json_pack("{sb sb sb sb ss}", "sync_open",
				      lo->sync_open, "sync_dirs", lo->sync_dirs,
				      "fsync", lo->fsync_writes, "resolve",
				      !lo->no_resolve, "fsinfo",
				      fsinfo_names[lo->fsinfo]));
}

json_t *report_json_loadfile(const struct loadfile *lf)
{
	return json_pack("{so ss ss sI sI sI}", "name", str(lf->name), "sha256",
			 lf->sha256, "dialect", dialect_names[lf->dialect],
			 "ops", (json_int_t)loadfile_run_nops(lf), "setup_ops",
			 (json_int_t)lf->nsetup, "streams",
			 (json_int_t)lf->nstreams);
}

/* variants[]: each variant's label, options and loadfile. */
json_t *report_json_variants(const struct report_config *rc,
			     const struct sweep *sw)
{
	json_t *a = json_array();

	for (unsigned int v = 0; v < sw->nvariants; v++) {
		json_t *o = json_object();

		variant_options(o, rc, &rc->variants[v], sw->variants[v].cfg,
				sw->variants[v].lf);
		json_array_append_new(
			a, json_pack("{so so so}", "label",
				     str(sw->variants[v].label), "options", o,
				     "loadfile",
				     report_json_loadfile(sw->variants[v].lf)));
	}
	return a;
}

/* --profile, --perf-ctl, --profile-event. */
static json_t *profile_json(const struct report_config *rc)
{
	json_t *clients = json_array();

	for (unsigned int i = 0; i < rc->nprofile; i++)
		json_array_append_new(clients, json_integer(rc->profile[i]));
	return json_pack("{so so so}", "clients", clients, "perf_ctl",
			 str(rc->perf_ctl), "event", str(rc->profile_event));
}

/* The invocation's options; those a variant may change are variant 0's. */
json_t *report_json_options(const struct report_config *rc,
			    const struct sweep *sw)
{
	const struct run_config *cfg = sw->cfg;
	json_t *o = json_object(), *clients = json_array(), *cmd = json_array();
	json_t *pcts;

	for (unsigned int i = 0; i < cfg->nclients; i++)
		json_array_append_new(clients, json_integer(cfg->clients[i]));
	for (int i = 0; i < rc->argc; i++)
		json_array_append_new(cmd, str(rc->argv[i]));
	json_object_set_new(o, "command", cmd);
	json_object_set_new(o, "clients", clients);
	json_object_set_new(o, "directory", str(rc->directory));
	variant_options(o, rc, &rc->variants[0], sw->variants[0].cfg,
			sw->variants[0].lf);
	json_object_set_new(o, "time_ns", u64(cfg->loops ? 0 : cfg->time_ns));
	json_object_set_new(o, "loops", u64(cfg->loops));
	json_object_set_new(
		o, "warmup",
		json_pack("{ss sI}", "kind",
			  cfg->warmup_kind == WARMUP_PASSES ? "passes" : "ns",
			  "value", (json_int_t)cfg->warmup));
	json_object_set_new(o, "runs", json_integer(cfg->runs));
	json_object_set_new(o, "order", json_string(order_names[cfg->order]));
	json_object_set_new(o, "seed", u64(cfg->seed));
	json_object_set_new(o, "strict", json_boolean(cfg->strict));
	json_object_set_new(o, "max_errors", u64(cfg->max_errors));
	json_object_set_new(o, "links_out", json_boolean(rc->lopts->links_out));
	json_object_set_new(o, "read_outside",
			    json_boolean(rc->lopts->read_outside));
	json_object_set_new(o, "stop_timeout_ns", u64(cfg->stop_wait_ns));
	json_object_set_new(o, "exec_before", str(cfg->exec_before));
	json_object_set_new(o, "exec_after", str(cfg->exec_after));
	json_object_set_new(o, "profile", profile_json(rc));
	json_object_set_new(o, "clock", str(rc->clock_option));
	pcts = json_array();
	for (unsigned int i = 0; i < rc->npercentiles; i++)
		json_array_append_new(pcts, json_real(rc->percentiles[i]));
	json_object_set_new(o, "percentiles", pcts);
	json_object_set_new(
		o, "latency_sample",
		u64(cfg->latency_sample > 1 ? cfg->latency_sample : 1));
	return o;
}
