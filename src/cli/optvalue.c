/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The main command's options one at a time: each option's argument
 * parsed, checked and stored in struct config, with the option's own
 * message when it is bad. Apart from the table (options.c) so that the
 * variants (variantopts.c) apply their values through the same code, and
 * a bad value gets the same message.
 */
#include <config.h>
#include "cli/optvalue.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/msg.h"
#include "base/units.h"
#include "cli/listing.h"
#include "engine/engine.h"
#include "engine/uringlanes.h"
#include "run/clientdir.h"
#include "sys/placement.h"

static int parse_choice(const char *arg, const char *a, const char *b)
{
	if (!strcmp(arg, a))
		return 0;
	if (!strcmp(arg, b))
		return 1;
	return -1;
}

static enum options_action parse_null_fail(struct config *cfg, const char *arg)
{
	const char *colon = strchr(arg, ':');
	char name[32];
	enum op_id id;
	int err;

	if (!colon || (size_t)(colon - arg) >= sizeof(name))
		return usage_error(
			"--null-fail '%s': expected OP:ERRNO, e.g. stat:EIO",
			arg);
	memcpy(name, arg, (size_t)(colon - arg));
	name[colon - arg] = '\0';
	if (!op_lookup(name, &id))
		return usage_error("--null-fail '%s': unknown op '%s'", arg,
				   name);
	if (op_errno_parse(colon + 1, &err))
		return usage_error("--null-fail '%s': unknown errno name '%s'",
				   arg, colon + 1);
	cfg->null_fail[id] = err;
	return OPTIONS_RUN;
}

#define MAX_PERCENTILES 32

static enum options_action parse_percentiles(struct config *cfg,
					     const char *arg)
{
	const char *s = arg;
	unsigned int n = 0;

	free(cfg->percentiles);
	cfg->percentiles = xcalloc(MAX_PERCENTILES, sizeof(*cfg->percentiles));
	for (;;) {
		char *end;
		double v;

		errno = 0;
		v = strtod(s, &end);
		if (errno || end == s || (*end && *end != ',') || !(v > 0) ||
		    !(v <= 100) || n == MAX_PERCENTILES)
			return usage_error(
				"bad --percentiles '%s': expected up to %d percentages above 0 and up to 100, comma-separated, such as 50,66,75,80,90,95,98,99,100",
				arg, MAX_PERCENTILES);
		cfg->percentiles[n++] = v;
		if (!*end)
			break;
		s = end + 1;
	}
	cfg->report.percentiles = cfg->percentiles;
	cfg->report.npercentiles = n;
	return OPTIONS_RUN;
}

/*
 * The longest --time, --warmup and --stop-timeout: a run's phases end at
 * the clock's now plus them, which must not wrap around (18446744073s
 * did, and the run ended at once, reported complete). 100000 h is 11
 * years; with two of them and any uptime, far below 2^64 ns.
 */
#define DURATION_MAX (100000ull * 3600 * 1000000000)

/* --dcache warm|cold|negative=N */
static enum options_action parse_dcache(struct config *cfg, const char *arg)
{
	uint64_t v;

	if (!strcmp(arg, "warm")) {
		cfg->run.dcache = DCACHE_WARM;
	} else if (!strcmp(arg, "cold")) {
		cfg->run.dcache = DCACHE_COLD;
	} else if (!strncmp(arg, "negative=", 9) &&
		   !units_parse_uint(arg + 9, DCACHE_NEGATIVE_MAX, &v) && v) {
		cfg->run.dcache = DCACHE_NEGATIVE;
		cfg->run.dcache_negative = (uint32_t)v;
		return OPTIONS_RUN;
	} else {
		return usage_error(
			"bad --dcache '%s': expected warm, cold or negative=N (N from 1 to %u)",
			arg, DCACHE_NEGATIVE_MAX);
	}
	cfg->run.dcache_negative = 0;
	return OPTIONS_RUN;
}

static enum options_action too_long(const char *opt, const char *arg)
{
	return usage_error("bad %s '%s': at most 100000h", opt, arg);
}

/* One option that popt returned by value; @arg is freed by the caller. */
enum options_action optvalue_apply(struct config *cfg, int opt, const char *arg,
				   bool *warmup_set, bool *time_set,
				   bool *seed_set)
{
	uint64_t v;
	int c;

	switch (opt) {
	case OPT_LOADFILE:
		cfg->loadfiles = xrealloc(cfg->loadfiles,
					  (cfg->nloadfiles + 1) *
						  sizeof(*cfg->loadfiles));
		cfg->loadfiles[cfg->nloadfiles++] = xstrdup(arg);
		break;
	case OPT_PERCENTILES:
		return parse_percentiles(cfg, arg);
	case OPT_UNITS:
		if (unit_col_parse(arg, &cfg->report.units))
			return usage_error(
				"bad --units '%s': expected ns, us or ms", arg);
		break;
	case OPT_DIRECTORY:
		free(cfg->directory);
		cfg->directory = xstrdup(arg);
		break;
	case OPT_ENGINE:
		if (!engine_find(arg))
			return usage_error(
				"unknown engine '%s' (expected posix, uring or null)",
				arg);
		free(cfg->engine);
		cfg->engine = xstrdup(arg);
		break;
	case OPT_TIME:
		if (units_parse_duration(arg, &cfg->run.time_ns) ||
		    !cfg->run.time_ns)
			return usage_error(
				"bad --time '%s': expected a duration such as 10s or 2m",
				arg);
		if (cfg->run.time_ns > DURATION_MAX)
			return too_long("--time", arg);
		*time_set = true;
		break;
	case OPT_WARMUP: {
		size_t l = strlen(arg);

		*warmup_set = true;
		if (l > 1 && arg[l - 1] == 'p') {
			char buf[32];

			if (l >= sizeof(buf))
				return usage_error("bad --warmup '%s'", arg);
			memcpy(buf, arg, l - 1);
			buf[l - 1] = '\0';
			if (units_parse_uint(buf, UINT32_MAX, &cfg->run.warmup))
				return usage_error(
					"bad --warmup '%s': expected a duration or passes such as 3p",
					arg);
			cfg->run.warmup_kind = WARMUP_PASSES;
		} else if (units_parse_duration(arg, &cfg->run.warmup)) {
			return usage_error(
				"bad --warmup '%s': expected a duration or passes such as 3p",
				arg);
		} else if (cfg->run.warmup > DURATION_MAX) {
			return too_long("--warmup", arg);
		} else {
			cfg->run.warmup_kind = WARMUP_TIME;
		}
		break;
	}
	case OPT_LOOPS:
		if (units_parse_uint(arg, UINT32_MAX, &cfg->run.loops) ||
		    !cfg->run.loops)
			return usage_error(
				"bad --loops '%s': expected a positive number",
				arg);
		break;
	case OPT_CWD:
		if ((c = parse_choice(arg, "private", "shared")) < 0)
			return usage_error(
				"bad --cwd '%s': expected private or shared",
				arg);
		cfg->run.cwd = c ? CWD_SHARED : CWD_PRIVATE;
		break;
	case OPT_FS:
		if ((c = parse_choice(arg, "private", "shared")) < 0)
			return usage_error(
				"bad --fs-struct '%s': expected private or shared",
				arg);
		cfg->run.fs = c ? FS_SHARED : FS_PRIVATE;
		break;
	case OPT_FDT:
		if ((c = parse_choice(arg, "shared", "private")) < 0)
			return usage_error(
				"bad --fd-table '%s': expected shared or private",
				arg);
		cfg->run.fdt = c ? FDT_PRIVATE : FDT_SHARED;
		break;
	case OPT_URING_DEPTH:
		if (units_parse_uint(arg, URING_LANES_MAX, &v) || !v)
			return usage_error(
				"bad --uring-depth '%s': expected 1 to %u", arg,
				URING_LANES_MAX);
		cfg->run.uring_depth = (unsigned int)v;
		break;
	case OPT_URING_FIXED:
		if ((c = parse_choice(arg, "0", "1")) < 0)
			return usage_error(
				"bad uring-fixed '%s': expected 0 or 1", arg);
		cfg->run.uring_fixed = c;
		break;
	case OPT_DEPTH:
		if (units_parse_uint(arg, 1000, &v))
			return usage_error(
				"bad --depth '%s': expected 0 to 1000", arg);
		cfg->run.depth = (unsigned int)v;
		break;
	case OPT_RESOLVE:
		for (c = 0; c < RESOLVE_NR; c++)
			if (!strcmp(arg, resolve_names[c]))
				break;
		if (c == RESOLVE_NR)
			return usage_error(
				"bad --resolve '%s': expected cwd, dirfd, abs or beneath",
				arg);
		cfg->run.resolve = (enum resolve_mode)c;
		break;
	case OPT_PREFIX:
		if ((c = parse_choice(arg, "private", "shared")) < 0)
			return usage_error(
				"bad --prefix '%s': expected private or shared",
				arg);
		cfg->run.prefix = c ? PREFIX_SHARED : PREFIX_PRIVATE;
		break;
	case OPT_DCACHE:
		return parse_dcache(cfg, arg);
	case OPT_MAX_ERRORS:
		if (units_parse_uint(arg, UINT64_MAX, &cfg->run.max_errors) ||
		    !cfg->run.max_errors)
			return usage_error(
				"bad --max-errors '%s': expected a positive number",
				arg);
		break;
	case OPT_STOP_TIMEOUT:
		if (units_parse_duration(arg, &cfg->run.stop_wait_ns) ||
		    !cfg->run.stop_wait_ns)
			return usage_error(
				"bad --stop-timeout '%s': expected a duration such as 10s",
				arg);
		if (cfg->run.stop_wait_ns > DURATION_MAX)
			return too_long("--stop-timeout", arg);
		break;
	case OPT_RELATIVE:
		if ((c = parse_choice(arg, "ops", "mbps")) < 0)
			return usage_error(
				"bad --relative '%s': expected ops or mbps",
				arg);
		cfg->report.metric = c ? METRIC_MBPS : METRIC_OPS;
		cfg->relative_set = true;
		break;
	case OPT_NULL_FAIL:
		return parse_null_fail(cfg, arg);
	case OPT_DIALECT:
		if (!strcmp(arg, "auto"))
			cfg->lopts.dialect = DIALECT_AUTO;
		else if (!strcmp(arg, "native"))
			cfg->lopts.dialect = DIALECT_NATIVE;
		else if (!strcmp(arg, "dbench"))
			cfg->lopts.dialect = DIALECT_DBENCH;
		else
			return usage_error(
				"bad --dialect '%s': expected auto, native or dbench",
				arg);
		break;
	case OPT_FSINFO:
		if (!strcmp(arg, "statvfs"))
			cfg->lopts.fsinfo = FSINFO_STATVFS;
		else if (!strcmp(arg, "statfs"))
			cfg->lopts.fsinfo = FSINFO_STATFS;
		else if (!strcmp(arg, "statvfs_legacy"))
			cfg->lopts.fsinfo = FSINFO_STATVFS_LEGACY;
		else
			return usage_error(
				"bad --fsinfo '%s': expected statvfs, statfs or statvfs_legacy",
				arg);
		break;
	case OPT_CLOCK:
		if (!strcmp(arg, "auto"))
			cfg->clock = CLOCK_CHOICE_AUTO;
		else if (!strcmp(arg, "tsc"))
			cfg->clock = CLOCK_CHOICE_TSC;
		else if (!strcmp(arg, "monotonic"))
			cfg->clock = CLOCK_CHOICE_MONOTONIC;
		else
			return usage_error(
				"bad --clock '%s': expected auto, tsc or monotonic",
				arg);
		break;
	case OPT_LATENCY_SAMPLE:
		if (units_parse_uint(arg, UINT32_MAX, &v) || !v)
			return usage_error(
				"bad --latency-sample '%s': expected 1 to %u (time one op in N)",
				arg, UINT32_MAX);
		cfg->run.latency_sample = (uint32_t)v;
		break;
	case OPT_RUNS:
		if (units_parse_uint(arg, 10000, &v) || !v)
			return usage_error(
				"bad --runs '%s': expected 1 to 10000", arg);
		cfg->run.runs = (unsigned int)v;
		break;
	case OPT_ORDER:
		if (!strcmp(arg, "sequential"))
			cfg->run.order = ORDER_SEQUENTIAL;
		else if (!strcmp(arg, "interleaved"))
			cfg->run.order = ORDER_INTERLEAVED;
		else if (!strcmp(arg, "random"))
			cfg->run.order = ORDER_RANDOM;
		else if (!strcmp(arg, "shuffled"))
			cfg->run.order = ORDER_SHUFFLED;
		else
			return usage_error(
				"bad --order '%s': expected sequential, interleaved, shuffled or random",
				arg);
		break;
	case OPT_SEED:
		if (units_parse_uint(arg, INT64_MAX, &cfg->run.seed))
			return usage_error(
				"bad --seed '%s': expected a number below 2^63",
				arg);
		*seed_set = true;
		break;
	case OPT_DISTRIBUTE:
		if (!strcmp(arg, "round-robin"))
			cfg->distribute = DISTRIBUTE_ROUND_ROBIN;
		else if (!strcmp(arg, "host-by-host"))
			cfg->distribute = DISTRIBUTE_HOST_BY_HOST;
		else
			return usage_error(
				"bad --distribute '%s': expected round-robin or host-by-host",
				arg);
		break;
	case OPT_KNEE: {
		char *end;

		errno = 0;
		cfg->report.knee = strtod(arg, &end);
		if (errno || *end || end == arg || !(cfg->report.knee > 0) ||
		    !(cfg->report.knee <= 1))
			return usage_error(
				"bad --knee '%s': expected an efficiency above 0 and at most 1, such as 0.8",
				arg);
		break;
	}
	case OPT_CV_WARN: {
		char *end;

		errno = 0;
		cfg->report.cv_warn = strtod(arg, &end) / 100;
		if (errno || *end || end == arg || !(cfg->report.cv_warn > 0))
			return usage_error(
				"bad --cv-warn '%s': expected a percentage such as 5",
				arg);
		break;
	}
	case OPT_PLACEMENT: {
		enum placement_kind kind;
		struct cpulist list = { 0 };

		if (placement_parse(arg, &kind, &list))
			return usage_error(
				"bad --placement '%s': expected none, compact, spread or a CPU list such as 0,2-3",
				arg);
		cpulist_release(&list);
		free(cfg->placement);
		cfg->placement = xstrdup(arg);
		break;
	}
	case OPT_PROFILE:
		return cpuopts_profile(&cfg->cpus, arg);
	case OPT_PERF_CTL:
		if (!*arg || *arg == ',')
			return usage_error(
				"bad --perf-ctl '%s': expected FIFO or FIFO,ACK",
				arg);
		free(cfg->perf_ctl);
		cfg->perf_ctl = xstrdup(arg);
		break;
	case OPT_PROFILE_EVENT:
		free(cfg->profile_event);
		cfg->profile_event = xstrdup(arg);
		break;
	case OPT_EXEC_BEFORE:
	case OPT_EXEC_AFTER: {
		char **dst = opt == OPT_EXEC_BEFORE ? &cfg->exec_before :
						      &cfg->exec_after;

		if (!*arg)
			return usage_error("--exec-%s: the command is empty",
					   opt == OPT_EXEC_BEFORE ? "before" :
								    "after");
		free(*dst);
		*dst = xstrdup(arg);
		break;
	}
	case OPT_JSON:
		free(cfg->json);
		cfg->json = xstrdup(arg);
		break;
	case OPT_CSV:
		free(cfg->csv);
		cfg->csv = xstrdup(arg);
		break;
	case OPT_MINISTAT:
		free(cfg->ministat);
		cfg->ministat = xstrdup(arg);
		break;
	case OPT_FORMAT:
		if (!strcmp(arg, "native"))
			cfg->report.format = FORMAT_NATIVE;
		else if (!strcmp(arg, "dbench"))
			cfg->report.format = FORMAT_DBENCH;
		else if (!strcmp(arg, "both"))
			cfg->report.format = FORMAT_BOTH;
		else
			return usage_error(
				"bad --format '%s': expected native, dbench or both",
				arg);
		break;
	case OPT_LIST_LOADFILES:
		listing_loadfiles();
		return OPTIONS_EXIT_OK;
	case OPT_LIST_OPS:
		listing_ops();
		return OPTIONS_EXIT_OK;
	case OPT_VERSION:
		printf("vfsbench %s\n", PACKAGE_VERSION);
		return OPTIONS_EXIT_OK;
	default:
		BUG("unhandled option %d", opt);
	}
	return OPTIONS_RUN;
}
