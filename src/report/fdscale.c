/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fdscale's results: the table in fd-scale-bench's own line format, and
 * the JSON ("vfsbench-fdscale") and CSV files.
 */
#include <config.h>
#include "report/report.h"

#include <jansson.h>
#include <stdio.h>
#include <time.h>

#include "base/compiler.h"
#include "base/jsonstr.h"
#include "base/msg.h"
#include "compare/resultfile.h"
#include "fdscale/fdscale.h"
#include "report/clockjson.h"
#include "workdir/outfile.h"
#include "sys/env.h"

static const char *const evict_names[] = {
	[FDEVICT_L2] = "l2",
	[FDEVICT_LLC] = "llc",
	[FDEVICT_SIZE] = "size",
};

static const char *positions(unsigned int bits, char *buf, size_t len)
{
	static const char *const names[] = { "low", "middle", "high",
					     "random" };
	size_t n = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < ARRAY_SIZE(names); i++)
		if (bits & (1u << i))
			n += (size_t)snprintf(buf + n, len - n, "%s%s",
					      n ? "," : "", names[i]);
	return buf;
}

/* A cache size for the cache-cold line: bytes, or "unknown". */
static const char *cache_size(uint64_t bytes, char *buf, size_t len)
{
	if (!bytes)
		return "unknown";
	snprintf(buf, len, "%llu", (unsigned long long)bytes);
	return buf;
}

/* How cold mode's buffer was sized. */
static const char *evict_what(const struct fdscale *fs)
{
	switch (fs->cfg->evict) {
	case FDEVICT_L2:
		return fs->l2_bytes ? "2 x L2" : "2 x an L2 of 1 MiB assumed";
	case FDEVICT_LLC:
		return fs->llc_bytes ? "2 x the last level" :
				       "2 x a last level of 32 MiB assumed";
	default:
		return "--evict";
	}
}

/*
 * What cold mode wrote before every timed open, what that took, and the
 * caches it is measured against: twice a cache's size evicts it.
 */
static void print_cold(const struct fdscale *fs)
{
	char l2[24], llc[24];

	printf("cache-cold: %llu bytes written before every timed open (%s), %.1f us each; L2 %s, last level %s bytes%s\n",
	       (unsigned long long)fs->evict_bytes, evict_what(fs),
	       fs->evict_ns / 1e3, cache_size(fs->l2_bytes, l2, sizeof(l2)),
	       cache_size(fs->llc_bytes, llc, sizeof(llc)),
	       fs->llc_bytes && fs->evict_bytes < 2 * fs->llc_bytes ?
		       ": the last level is not evicted" :
		       "");
}

/*
 * The header's tail naming the engine: nothing for posix (the header of
 * fd-scale-bench's table), the ring and the table it fills for uring.
 */
static const char *engine_words(const struct fdscale_config *cfg)
{
	if (cfg->engine != FDENGINE_URING)
		return "";
	return cfg->uring_fixed ?
		       ", engine uring, into the ring's file table (--uring-fixed)" :
		       ", engine uring";
}

/* Whose table the threads measure, where there is more than one thread. */
static const char *tables(const struct fdscale_config *cfg)
{
	if (cfg->uring_fixed)
		return cfg->threads > 1 ? " (a ring's file table each)" : "";
	return cfg->private_table ? " (private fd tables)" :
	       cfg->threads > 1	  ? " (one shared fd table)" :
				    "";
}

void report_fdscale(const struct fdscale *fs)
{
	const struct fdscale_config *cfg = fs->cfg;
	char pos[64];

	printf("fdscale: cache-%s, free %s, %u loop%s, %u thread%s%s, open('%s')%s\n",
	       cfg->cold ? "cold" : "hot",
	       positions(cfg->positions, pos, sizeof(pos)), cfg->loops,
	       cfg->loops == 1 ? "" : "s", cfg->threads,
	       cfg->threads == 1 ? "" : "s", tables(cfg), cfg->file,
	       engine_words(cfg));
	if (cfg->cold)
		print_cold(fs);
	if (fs->capped)
		printf("note: %s\n", fs->capped);
	for (unsigned int i = 0; i < fs->nsteps; i++) {
		const struct fdscale_step *s = &fs->steps[i];

		printf("num_fds: %llu, best cost: %.3f us, worst cost: %.3f us\n",
		       (unsigned long long)s->num_fds, (double)s->best_ns / 1e3,
		       (double)s->worst_ns / 1e3);
	}
	if (fs->stopped)
		printf("note: interrupted by a signal: partial results\n");
	fflush(stdout);
}

int report_fdscale_json(const struct fdscale *fs, const struct env *env,
			const char *path)
{
	const struct fdscale_config *cfg = fs->cfg;
	json_t *root, *steps = json_array(), *cmd = json_array();
	time_t now = time(NULL);
	char when[32], pos[64];
	struct tm tm;
	int ret;

	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
	for (int i = 0; i < cfg->argc; i++)
		json_array_append_new(cmd, jsonstr_new(cfg->argv[i]));
	for (unsigned int i = 0; i < fs->nsteps; i++) {
		const struct fdscale_step *s = &fs->steps[i];

		json_array_append_new(
			steps,
			json_pack("{sI sI sI sf sI sI}", "num_fds",
				  (json_int_t)s->num_fds, "best_ns",
				  (json_int_t)s->best_ns, "worst_ns",
				  (json_int_t)s->worst_ns, "mean_ns",
				  s->mean_ns, "samples", (json_int_t)s->samples,
				  "fd_table_size",
				  (json_int_t)s->fd_table_size));
	}
	root = json_pack(
		"{ss si ss s{so sI sI sf si ss sb ss sI si sb ss sI} so so sI sI sf so}",
		"schema", "vfsbench-fdscale", "schema_version",
		RESULTFILE_FDSCALE_VERSION, "created", when, "options",
		"command", cmd, "max", (json_int_t)cfg->max, "max_reached",
		(json_int_t)fs->max, "step", cfg->step, "loops", cfg->loops,
		"free", positions(cfg->positions, pos, sizeof(pos)), "cold",
		cfg->cold, "evict", evict_names[cfg->evict], "evict_bytes",
		(json_int_t)fs->evict_bytes, "threads", cfg->threads,
		"private_fd_table", cfg->private_table, "file", cfg->file,
		"seed", (json_int_t)cfg->seed, "capped",
		fs->capped ? json_string(fs->capped) : json_null(),
		"environment", env_json(env), "llc_bytes",
		(json_int_t)fs->llc_bytes, "l2_bytes", (json_int_t)fs->l2_bytes,
		"evict_ns", fs->evict_ns, "steps", steps);
	if (!root)
		BUG("json_pack of the fdscale result failed");
	json_object_set_new(
		json_object_get(root, "options"), "engine",
		json_string(cfg->engine == FDENGINE_URING ? "uring" : "posix"));
	json_object_set_new(json_object_get(root, "options"), "uring_fixed",
			    json_boolean(cfg->uring_fixed));
	/* fdscale does not take --clock: its opens, microseconds each, are
	 * timed with CLOCK_MONOTONIC */
	json_object_set_new(json_object_get(root, "environment"), "clock",
			    clock_json("fdscale reads CLOCK_MONOTONIC"));
	ret = outfile_json(root, path);
	json_decref(root);
	return ret;
}

int report_fdscale_csv(const struct fdscale *fs, const char *path)
{
	struct outfile o;
	FILE *f = outfile_open(&o, path);

	if (!f)
		return -1;
	fputs("num_fds,best_ns,worst_ns,mean_ns,samples\n", f);
	for (unsigned int i = 0; i < fs->nsteps; i++) {
		const struct fdscale_step *s = &fs->steps[i];

		fprintf(f, "%llu,%llu,%llu,%.1f,%llu\n",
			(unsigned long long)s->num_fds,
			(unsigned long long)s->best_ns,
			(unsigned long long)s->worst_ns, s->mean_ns,
			(unsigned long long)s->samples);
	}
	return outfile_commit(&o);
}
