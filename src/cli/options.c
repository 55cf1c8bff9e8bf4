/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The main command line: one popt table, the defaults, and every
 * cross-option check. With options-sub.c (the subcommands), the only code
 * that includes <popt.h>. vfsbench(1) documents each option; t9001 checks
 * that --help and the man page list the same ones.
 */
#include <config.h>
#include "cli/options.h"

#include <errno.h>
#include <popt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/compiler.h"
#include "base/msg.h"
#include "base/units.h"
#include "cli/listing.h"
#include "cli/usage.h"
#include "engine/engine.h"
#include "lang/builtin.h"
#include "lang/loadfile.h"
#include "sys/placement.h"

enum {
	OPT_LOADFILE = 1,
	OPT_DIRECTORY,
	OPT_TIME,
	OPT_WARMUP,
	OPT_LOOPS,
	OPT_ENGINE,
	OPT_CWD,
	OPT_FS,
	OPT_FDT,
	OPT_DEPTH,
	OPT_MAX_ERRORS,
	OPT_STOP_TIMEOUT,
	OPT_CLOCK,
	OPT_LATENCY_SAMPLE,
	OPT_RELATIVE,
	OPT_NULL_FAIL,
	OPT_DIALECT,
	OPT_FSINFO,
	OPT_FORMAT,
	OPT_RUNS,
	OPT_ORDER,
	OPT_SEED,
	OPT_DISTRIBUTE,
	OPT_CV_WARN,
	OPT_JSON,
	OPT_CSV,
	OPT_MINISTAT,
	OPT_VARIANT,
	OPT_PERCENTILES,
	OPT_PLACEMENT,
	OPT_PROFILE,
	OPT_PERF_CTL,
	OPT_PROFILE_EVENT,
	OPT_EXEC_BEFORE,
	OPT_EXEC_AFTER,
	OPT_LIST_LOADFILES,
	OPT_LIST_OPS,
	OPT_VERSION,
	OPT_HELP,
	OPT_USAGE,
	OPT_QUIET, /* global_options only: the main table stores &quiet */
};

static int skip_cleanup, strict, quiet, sync_open, sync_dirs, fsync_writes,
	no_resolve, links_out;

static const struct poptOption main_options[] = {
	{ "loadfile", 'c', POPT_ARG_STRING, NULL, OPT_LOADFILE,
	  "loadfile: a path, or the name of a built-in one (default: the built-in default.load); several -c run interleaved, as variants",
	  "FILE" },
	{ "variant", '\0', POPT_ARG_STRING, NULL, OPT_VARIANT,
	  "run every value of an option as a variant, interleaved: engine, cwd, fs-struct, fd-table, depth, dialect or fsinfo, e.g. depth=0,3 (repeatable: every combination)",
	  "OPTION=V1,V2,..." },
	{ "directory", 'D', POPT_ARG_STRING, NULL, OPT_DIRECTORY,
	  "existing directory in which vfsbench makes its own work directory (default: .)",
	  "DIR" },
	{ "time", 't', POPT_ARG_STRING, NULL, OPT_TIME,
	  "measurement time per client count: 10s, 2m, 500ms (default: 10s)",
	  "DURATION" },
	{ "warmup", '\0', POPT_ARG_STRING, NULL, OPT_WARMUP,
	  "untimed warmup before measuring: a duration, or passes as 3p (default: a fifth of --time; none with --loops)",
	  "DURATION|Np" },
	{ "loops", '\0', POPT_ARG_STRING, NULL, OPT_LOOPS,
	  "fixed work: each client runs the loadfile N times, no time limit",
	  "N" },
	{ "engine", 'e', POPT_ARG_STRING, NULL, OPT_ENGINE,
	  "how ops are executed: posix (system calls) or null (nothing; harness cost) (default: posix)",
	  "NAME" },
	{ "cwd", '\0', POPT_ARG_STRING, NULL, OPT_CWD,
	  "private: each client in its own clients/clientN; shared: all clients in one directory (default: private)",
	  "private|shared" },
	{ "fs-struct", '\0', POPT_ARG_STRING, NULL, OPT_FS,
	  "private: unshare(CLONE_FS) per client; shared: one fs_struct for all (shared cwd only) (default: private, shared with --cwd shared)",
	  "private|shared" },
	{ "fd-table", '\0', POPT_ARG_STRING, NULL, OPT_FDT,
	  "shared: one fd table (threads); private: unshare(CLONE_FILES) per client (default: shared)",
	  "shared|private" },
	{ "depth", '\0', POPT_ARG_STRING, NULL, OPT_DEPTH,
	  "directory levels between a client's directory and the loadfile's paths (default: 0)",
	  "N" },
	{ "placement", '\0', POPT_ARG_STRING, NULL, OPT_PLACEMENT,
	  "pin client i to a CPU: compact (SMT siblings, then the cores of a cache domain first), spread (across packages, nodes and cache domains first) or a list of CPUs, the i-th for client i, within the process's affinity mask; none leaves them to the scheduler (default: none)",
	  "none|compact|spread|LIST" },
	{ "skip-cleanup", '\0', POPT_ARG_NONE, &skip_cleanup, 0,
	  "keep the work directory and print its path", NULL },
	{ "max-errors", '\0', POPT_ARG_STRING, NULL, OPT_MAX_ERRORS,
	  "stop the run after N unexpected results (exit 1)", "N" },
	{ "strict", '\0', POPT_ARG_NONE, &strict, 0,
	  "stop at the first unexpected result (exit 1)", NULL },
	{ "stop-timeout", '\0', POPT_ARG_STRING, NULL, OPT_STOP_TIMEOUT,
	  "after a stop, how long to interrupt clients blocked in a system call before leaving them and their files (default: 10s)",
	  "DURATION" },
	{ "relative", '\0', POPT_ARG_STRING, NULL, OPT_RELATIVE,
	  "metric of the sweep table's relative column: ops or mbps (default: ops; mbps for a dbench loadfile)",
	  "ops|mbps" },
	{ "clock", '\0', POPT_ARG_STRING, NULL, OPT_CLOCK,
	  "what times the ops: the TSC (calibrated against CLOCK_MONOTONIC; only where invariant and the kernel's clocksource), CLOCK_MONOTONIC, or auto: the TSC where usable (default: auto)",
	  "auto|tsc|monotonic" },
	{ "latency-sample", '\0', POPT_ARG_STRING, NULL, OPT_LATENCY_SAMPLE,
	  "time one op in N of each kind per client, for latency percentiles; counts and throughput stay exact (default: 1, every op)",
	  "N" },
	{ "runs", '\0', POPT_ARG_STRING, NULL, OPT_RUNS,
	  "measure each client count N times (default: 1)", "N" },
	{ "order", '\0', POPT_ARG_STRING, NULL, OPT_ORDER,
	  "order of repeated runs: sequential (1,1,2,2), interleaved (1,2,1,2), shuffled (rounds, each in a random order) or random (default: interleaved; shuffled with several variants)",
	  "sequential|interleaved|shuffled|random" },
	{ "seed", '\0', POPT_ARG_STRING, NULL, OPT_SEED,
	  "seed of --order shuffled and random (default: from the clock; printed and recorded)",
	  "N" },
	{ "distribute", '\0', POPT_ARG_STRING, NULL, OPT_DISTRIBUTE,
	  "under mpirun, how each run's clients go to the hosts: round-robin (client k on host k mod H) or host-by-host (each host filled in turn) (default: round-robin)",
	  "round-robin|host-by-host" },
	{ "percentiles", '\0', POPT_ARG_STRING, NULL, OPT_PERCENTILES,
	  "after each run, the latency within which each percentage of the ops was served, per op and in total, as ab prints it: e.g. 50,66,75,80,90,95,98,99,100",
	  "LIST" },
	{ "cv-warn", '\0', POPT_ARG_STRING, NULL, OPT_CV_WARN,
	  "warn when a client count's coefficient of variation is above PCT percent (default: 5)",
	  "PCT" },
	{ "profile", '\0', POPT_ARG_STRING, NULL, OPT_PROFILE,
	  "record the measurement of these client counts with perf record -g, one perf-N.data each (with --perf-ctl: turn the events of the perf reading it on for them)",
	  "N[,N...]" },
	{ "profile-event", '\0', POPT_ARG_STRING, NULL, OPT_PROFILE_EVENT,
	  "--profile: perf record's event, e.g. cpu-clock (default: perf's own, cycles where the CPU counts them)",
	  "EVENT" },
	{ "perf-ctl", '\0', POPT_ARG_STRING, NULL, OPT_PERF_CTL,
	  "speak perf's control protocol on FIFO (perf record --control fifo:FIFO,ACK): enable when the measurement of each run (or of --profile's counts) starts, disable when it ends, waiting for the ack on ACK",
	  "FIFO[,ACK]" },
	{ "exec-before", '\0', POPT_ARG_STRING, NULL, OPT_EXEC_BEFORE,
	  "run the shell command CMD before each run (VFSBENCH_CLIENTS, VFSBENCH_RUN, VFSBENCH_VARIANT, VFSBENCH_PID... in its environment); a failure stops the sweep",
	  "CMD" },
	{ "exec-after", '\0', POPT_ARG_STRING, NULL, OPT_EXEC_AFTER,
	  "run the shell command CMD after each run, as --exec-before (also VFSBENCH_END)",
	  "CMD" },
	{ "json", '\0', POPT_ARG_STRING, NULL, OPT_JSON,
	  "write every run, the settings and the environment to FILE as JSON",
	  "FILE" },
	{ "csv", '\0', POPT_ARG_STRING, NULL, OPT_CSV,
	  "write one CSV row per run and op to FILE", "FILE" },
	{ "ministat", '\0', POPT_ARG_STRING, NULL, OPT_MINISTAT,
	  "write PREFIX-N.txt per client count N: one value of the --relative metric per run per line, for ministat(1)",
	  "PREFIX" },
	{ "format", '\0', POPT_ARG_STRING, NULL, OPT_FORMAT,
	  "per-op tables: native, dbench (dbench's table only) or both (default: native; both for a dbench loadfile)",
	  "native|dbench|both" },
	{ "links-out", '\0', POPT_ARG_NONE, &links_out, 0,
	  "let the loadfile's symlinks lead out of the work directory (absolute, or with ..); it may then only read",
	  NULL },
	{ "dialect", '\0', POPT_ARG_STRING, NULL, OPT_DIALECT,
	  "loadfile language: auto, native or dbench (default: auto)",
	  "auto|native|dbench" },
	{ "sync-open", 's', POPT_ARG_NONE, &sync_open, 0,
	  "dbench loadfiles: O_SYNC on every NTCreateX open (dbench -s)",
	  NULL },
	{ "sync-dirs", 'S', POPT_ARG_NONE, &sync_dirs, 0,
	  "dbench loadfiles: fdatasync the parent directory after Unlink, Rmdir and Rename (dbench -S)",
	  NULL },
	{ "fsync", 'F', POPT_ARG_NONE, &fsync_writes, 0,
	  "dbench loadfiles: fsync after every WriteX (dbench -F)", NULL },
	{ "no-resolve", '\0', POPT_ARG_NONE, &no_resolve, 0,
	  "dbench loadfiles: no directory scan when a lookup misses (dbench --no-resolve)",
	  NULL },
	{ "fsinfo", '\0', POPT_ARG_STRING, NULL, OPT_FSINFO,
	  "dbench loadfiles: what QUERY_FS_INFORMATION issues: statvfs, statfs or statvfs_legacy (default: statvfs)",
	  "CALL" },
	{ "quiet", 'q', POPT_ARG_NONE, &quiet, 0, "no progress line on stderr",
	  NULL },
	{ "null-fail", '\0', POPT_ARG_STRING, NULL, OPT_NULL_FAIL,
	  "null engine: make every OP fail with ERRNO, e.g. stat:EIO (repeatable)",
	  "OP:ERRNO" },
	{ "list-loadfiles", '\0', POPT_ARG_NONE, NULL, OPT_LIST_LOADFILES,
	  "list the built-in loadfiles and exit", NULL },
	{ "list-ops", '\0', POPT_ARG_NONE, NULL, OPT_LIST_OPS,
	  "list the loadfile ops and the system calls each issues, and exit",
	  NULL },
	{ "version", 'V', POPT_ARG_NONE, NULL, OPT_VERSION,
	  "print the version and exit", NULL },
	{ "help", 'h', POPT_ARG_NONE, NULL, OPT_HELP, "show this help and exit",
	  NULL },
	{ "usage", '\0', POPT_ARG_NONE, NULL, OPT_USAGE,
	  "show a short usage message and exit", NULL },
	POPT_TABLEEND
};

/*
 * What vfsbench takes before a subcommand, as git and perf do: the options
 * that apply to every command (vfsbench -q fdscale, vfsbench -h compare).
 */
static const struct poptOption global_options[] = {
	{ "quiet", 'q', POPT_ARG_NONE, NULL, OPT_QUIET,
	  "no progress lines on stderr", NULL },
	{ "version", 'V', POPT_ARG_NONE, NULL, OPT_VERSION,
	  "print the version and exit", NULL },
	{ "help", 'h', POPT_ARG_NONE, NULL, OPT_HELP,
	  "show the subcommand's help and exit", NULL },
	POPT_TABLEEND
};

static const char *const subcommands[] = { "compare", "plot", "fdscale",
					   "dbench" };

static const struct config config_defaults = {
	.run = {
		.time_ns = 10 * 1000000000ull,
		.stop_wait_ns = 10 * 1000000000ull,
		.warmup_kind = WARMUP_TIME,
		.cwd = CWD_PRIVATE,
		.fs = FS_PRIVATE,
		.fdt = FDT_SHARED,
		.runs = 1,
		.order = ORDER_INTERLEAVED,
		.latency_sample = 1,
	},
	.report = {
		.metric = METRIC_OPS,
		.cv_warn = 0.05,
	},
};

int options_parse_clients(struct config *cfg, const char *arg)
{
	const char *dash = strchr(arg, '-');
	uint64_t lo, hi;
	char buf[32];

	if (!dash) {
		if (units_parse_uint(arg, MAX_CLIENTS, &lo) || !lo)
			return -EINVAL;
		hi = lo;
	} else {
		size_t l = (size_t)(dash - arg);

		if (l == 0 || l >= sizeof(buf))
			return -EINVAL;
		memcpy(buf, arg, l);
		buf[l] = '\0';
		if (units_parse_uint(buf, MAX_CLIENTS, &lo) || !lo ||
		    units_parse_uint(dash + 1, MAX_CLIENTS, &hi) || hi < lo)
			return -EINVAL;
	}
	for (uint64_t n = lo;; n *= 2) {
		if (n > hi)
			n = hi; /* "1-6": 1 2 4 6 */
		cfg->run.clients = xrealloc(cfg->run.clients,
					    (cfg->run.nclients + 1) *
						    sizeof(*cfg->run.clients));
		cfg->run.clients[cfg->run.nclients++] = (unsigned int)n;
		if (n == hi)
			break;
	}
	return 0;
}

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

/* The options --variant may vary, and the option each stands for. */
static const struct {
	const char *name;
	int opt;
} variable[] = {
	{ "engine", OPT_ENGINE }, { "cwd", OPT_CWD },
	{ "fs-struct", OPT_FS },  { "fd-table", OPT_FDT },
	{ "depth", OPT_DEPTH },	  { "dialect", OPT_DIALECT },
	{ "fsinfo", OPT_FSINFO }, { "placement", OPT_PLACEMENT },
};

static enum options_action add_axis(struct config *cfg, const char *arg)
{
	struct variant_axis axis;
	unsigned int i;

	if (variant_axis_parse(&axis, arg))
		return usage_error(
			"bad --variant '%s': expected OPTION=V1,V2,..., such as depth=0,3",
			arg);
	for (i = 0; i < ARRAY_SIZE(variable); i++)
		if (!strcmp(variable[i].name, axis.name))
			break;
	if (i == ARRAY_SIZE(variable)) {
		variant_axis_release(&axis);
		return usage_error(
			"bad --variant '%s': expected one of engine, cwd, fs-struct, fd-table, depth, dialect, fsinfo, placement (for loadfiles, give -c several times)",
			arg);
	}
	for (unsigned int a = 0; a < cfg->naxes; a++)
		if (cfg->axes[a].opt == variable[i].opt) {
			variant_axis_release(&axis);
			return usage_error("--variant %s given twice",
					   variable[i].name);
		}
	if (axis.nvalues < 2) {
		variant_axis_release(&axis);
		return usage_error(
			"bad --variant '%s': give two values or more (one value is the option itself: --%s)",
			arg, variable[i].name);
	}
	axis.opt = variable[i].opt;
	cfg->fsinfo_varies = cfg->fsinfo_varies || axis.opt == OPT_FSINFO;
	cfg->axes = xrealloc(cfg->axes, (cfg->naxes + 1) * sizeof(*cfg->axes));
	cfg->axes[cfg->naxes++] = axis;
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

static enum options_action handle(struct config *cfg, int opt, const char *arg,
				  bool *warmup_set, bool *time_set,
				  bool *seed_set);

/*
 * Variant @k of the cross product: the base settings, with each axis's
 * value applied through the option's own handler (so a bad value gets
 * the option's own message), and the defaults and checks that depend on
 * them.
 */
static enum options_action make_variant(struct config *cfg,
					const struct variant_axis *axes,
					unsigned int n, unsigned int k,
					bool fs_set, struct variant_config *v)
{
	enum options_action act = OPTIONS_RUN;
	struct config scratch = *cfg;
	unsigned int idx[8];
	bool unused;

	scratch.loadfile = xstrdup(cfg->loadfile);
	scratch.engine = xstrdup(cfg->engine);
	scratch.placement = cfg->placement ? xstrdup(cfg->placement) : NULL;
	variant_pick(axes, n, k, idx);
	for (unsigned int i = 0; i < n && act == OPTIONS_RUN; i++) {
		const char *val = axes[i].values[idx[i]];

		if (axes[i].opt == OPT_LOADFILE) {
			free(scratch.loadfile);
			scratch.loadfile = xstrdup(val);
		} else {
			act = handle(&scratch, axes[i].opt, val, &unused,
				     &unused, &unused);
		}
	}
	v->label = variant_label(axes, n, idx, OPT_LOADFILE, cfg->loadfile);
	v->loadfile = scratch.loadfile;
	v->engine = scratch.engine;
	v->placement_spec = scratch.placement;
	if (act != OPTIONS_RUN)
		return act;
	if (!fs_set)
		scratch.run.fs =
			scratch.run.cwd == CWD_SHARED ? FS_SHARED : FS_PRIVATE;
	if (scratch.run.cwd == CWD_PRIVATE && scratch.run.fs == FS_SHARED)
		return usage_error(
			"variant %s: --fs-struct shared needs --cwd shared: with one fs_struct all clients have one cwd",
			v->label);
	for (unsigned int i = 0; i < OP_NR; i++)
		if (cfg->null_fail[i] && strcmp(v->engine, "null"))
			return usage_error(
				"variant %s: --null-fail needs --engine null",
				v->label);
	v->run = scratch.run;
	v->lopts = scratch.lopts;
	return OPTIONS_RUN;
}

/* The variants: every -c times every --variant value; at least one. */
static enum options_action make_variants(struct config *cfg, bool fs_set,
					 bool order_set)
{
	struct variant_axis axes[8];
	unsigned int n = 0;
	enum options_action act = OPTIONS_RUN;

	if (cfg->nloadfiles > 1)
		axes[n++] = (struct variant_axis){ .opt = OPT_LOADFILE,
						   .name = (char *)"loadfile",
						   .values = cfg->loadfiles,
						   .nvalues = cfg->nloadfiles };
	for (unsigned int i = 0; i < cfg->naxes && n < ARRAY_SIZE(axes); i++)
		axes[n++] = cfg->axes[i];
	cfg->nvariants = variant_count(axes, n);
	if (!cfg->nvariants)
		return usage_error(
			"too many variants: -c and --variant make more than %d",
			MAX_VARIANTS);
	cfg->variants = xcalloc(cfg->nvariants, sizeof(*cfg->variants));
	for (unsigned int k = 0; k < cfg->nvariants && act == OPTIONS_RUN; k++)
		act = make_variant(cfg, axes, n, k, fs_set, &cfg->variants[k]);
	variant_labels_unique(cfg->variants, cfg->nvariants);
	if (cfg->nvariants > 1 && !order_set) {
		cfg->run.order = ORDER_SHUFFLED;
		for (unsigned int k = 0; k < cfg->nvariants; k++)
			cfg->variants[k].run.order = ORDER_SHUFFLED;
	}
	return act;
}

/*
 * The longest --time, --warmup and --stop-timeout: a run's phases end at
 * the clock's now plus them, which must not wrap around (18446744073s
 * did, and the run ended at once, reported complete). 100000 h is 11
 * years; with two of them and any uptime, far below 2^64 ns.
 */
#define DURATION_MAX (100000ull * 3600 * 1000000000)

static enum options_action too_long(const char *opt, const char *arg)
{
	return usage_error("bad %s '%s': at most 100000h", opt, arg);
}

/* Handle one option that popt returned by value; @arg is freed by caller. */
static enum options_action handle(struct config *cfg, int opt, const char *arg,
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
	case OPT_VARIANT:
		return add_axis(cfg, arg);
	case OPT_PERCENTILES:
		return parse_percentiles(cfg, arg);
	case OPT_DIRECTORY:
		free(cfg->directory);
		cfg->directory = xstrdup(arg);
		break;
	case OPT_ENGINE:
		if (!engine_find(arg))
			return usage_error(
				"unknown engine '%s' (expected posix or null)",
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
	case OPT_DEPTH:
		if (units_parse_uint(arg, 1000, &v))
			return usage_error(
				"bad --depth '%s': expected 0 to 1000", arg);
		cfg->run.depth = (unsigned int)v;
		break;
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

/* Cross-option rules and defaults that depend on other options. */
static enum options_action validate(struct config *cfg, bool warmup_set,
				    bool time_set, bool fs_set)
{
	if (!cfg->run.nclients)
		return usage_error(
			"no client count given (e.g. 'vfsbench 4' or 'vfsbench 1-8')");
	if (cfg->run.loops && time_set)
		return usage_error("--loops and --time exclude each other");
	if (!warmup_set && !cfg->run.loops)
		cfg->run.warmup = cfg->run.time_ns / 5;
	if (!fs_set)
		cfg->run.fs =
			cfg->run.cwd == CWD_SHARED ? FS_SHARED : FS_PRIVATE;
	if (cfg->run.cwd == CWD_PRIVATE && cfg->run.fs == FS_SHARED)
		return usage_error(
			"--fs-struct shared needs --cwd shared: with one fs_struct all clients have one cwd");
	if (!cfg->directory)
		cfg->directory = xstrdup(".");
	/* dbench's QUERY_FS_INFORMATION stats -D; clients are elsewhere */
	cfg->basedir = realpath(cfg->directory, NULL);
	cfg->lopts.basedir = cfg->basedir ? cfg->basedir : cfg->directory;
	if (!cfg->engine)
		cfg->engine = xstrdup("posix");
	if (!cfg->loadfile)
		cfg->loadfile = xstrdup(cfg->nloadfiles ? cfg->loadfiles[0] :
							  LOADFILE_DEFAULT);
	for (unsigned int i = 0; i < OP_NR; i++)
		if (cfg->null_fail[i] && strcmp(cfg->engine, "null"))
			return usage_error("--null-fail needs --engine null");
	if (cfg->ministat) {
		struct stat st;

		/* PREFIX-N.txt files are made beside a device or a FIFO of
		 * that name, which cannot be what was meant */
		if (!strcmp(cfg->ministat, "-") ||
		    (!stat(cfg->ministat, &st) && !S_ISREG(st.st_mode) &&
		     !S_ISDIR(st.st_mode)))
			return usage_error(
				"bad --ministat '%s': expected a prefix of file names PREFIX-N.txt, not a device, FIFO, socket or '-'",
				cfg->ministat);
	}
	if (cfg->profile_event && cfg->perf_ctl)
		return usage_error(
			"--profile-event: with --perf-ctl, the perf that reads the FIFO chooses its events");
	if (cfg->profile_event && !cfg->cpus.nprofile)
		return usage_error("--profile-event needs --profile");
	return OPTIONS_RUN;
}

int options_find_subcommand(int argc, const char **argv)
{
	const char **rest;
	poptContext pc;
	int rc, n = 0, at = 0;

	/*
	 * The main table decides which words are options and which their
	 * arguments (-c compare names a loadfile); POSIXMEHARDER stops at
	 * the first other word, which may be a subcommand.
	 */
	pc = poptGetContext("vfsbench", argc, argv, main_options,
			    POPT_CONTEXT_POSIXMEHARDER);
	while ((rc = poptGetNextOpt(pc)) > 0)
		free(poptGetOptArg(pc));
	rest = rc == -1 ? poptGetArgs(pc) : NULL;
	while (rest && rest[n])
		n++;
	for (unsigned int i = 0; n && i < ARRAY_SIZE(subcommands); i++)
		if (!strcmp(rest[0], subcommands[i]) &&
		    !strcmp(argv[argc - n], rest[0]))
			at = argc - n;
	poptFreeContext(pc);
	return at;
}

enum options_action options_parse_global(struct global_config *g, int at,
					 const char **argv)
{
	enum options_action act = OPTIONS_RUN;
	poptContext pc;
	int rc;

	memset(g, 0, sizeof(*g));
	pc = poptGetContext("vfsbench", at, argv, global_options,
			    POPT_CONTEXT_POSIXMEHARDER);
	while (act == OPTIONS_RUN && (rc = poptGetNextOpt(pc)) > 0) {
		if (rc == OPT_QUIET)
			g->quiet = true;
		else if (rc == OPT_HELP)
			g->help = true;
		else {
			printf("vfsbench %s\n", PACKAGE_VERSION);
			act = OPTIONS_EXIT_OK;
		}
	}
	if (act == OPTIONS_RUN && rc < -1)
		act = usage_error(
			"%s before '%s': only -q, -V and -h go before a subcommand; its own options go after it",
			poptBadOption(pc, 0), argv[at]);
	poptFreeContext(pc);
	return act;
}

enum options_action options_parse(struct config *cfg, int argc,
				  const char **argv)
{
	bool warmup_set = false, time_set = false, fs_set = false;
	bool seed_set = false, order_set = false;
	enum options_action act = OPTIONS_RUN;
	const char **rest;
	poptContext pc;
	int rc;

	*cfg = config_defaults;
	act = cpuopts_init(&cfg->cpus);
	skip_cleanup = strict = quiet = 0;
	sync_open = sync_dirs = fsync_writes = no_resolve = links_out = 0;
	pc = poptGetContext("vfsbench", argc, argv, main_options, 0);
	poptSetOtherOptionHelp(pc, "[OPTIONS] CLIENTS...");
	while (act == OPTIONS_RUN && (rc = poptGetNextOpt(pc)) > 0) {
		char *arg = poptGetOptArg(pc);

		if (rc == OPT_HELP) {
			poptPrintHelp(pc, stdout, 0);
			fputs("\nCLIENTS: one count (8), several (1 2 4 8) or a doubling range (1-64).\n"
			      "Exit status: 0 ok, 1 unexpected results under --strict or --max-errors,\n"
			      "2 bad usage or loadfile, 3 setup or run failure, 130/143 on SIGINT/SIGTERM,\n"
			      "141 when standard output is closed.\n"
			      "\nSubcommands: vfsbench [-q|-V|-h] compare|plot|fdscale [OPTIONS] ...\n"
			      "(vfsbench SUBCOMMAND --help lists each one's options).\n",
			      stdout);
			act = OPTIONS_EXIT_OK;
		} else if (rc == OPT_USAGE) {
			poptPrintUsage(pc, stdout, 0);
			act = OPTIONS_EXIT_OK;
		} else {
			if (rc == OPT_FS)
				fs_set = true;
			if (rc == OPT_ORDER)
				order_set = true;
			act = handle(cfg, rc, arg, &warmup_set, &time_set,
				     &seed_set);
		}
		free(arg);
	}
	if (act == OPTIONS_RUN && rc < -1)
		act = usage_error("%s: %s", poptBadOption(pc, 0),
				  poptStrerror(rc));
	if (act == OPTIONS_RUN) {
		rest = poptGetArgs(pc);
		for (; rest && *rest && act == OPTIONS_RUN; rest++)
			if (!strcmp(*rest, "topology"))
				act = cpuopts_topology_clients(&cfg->cpus,
							       &cfg->run);
			else if (options_parse_clients(cfg, *rest)) {
				act = usage_error(
					"bad client count '%s': expected N, a range such as 1-64 (1 <= N <= %d), or topology",
					*rest, MAX_CLIENTS);
				break;
			}
	}
	poptFreeContext(pc);
	cfg->run.skip_cleanup = skip_cleanup;
	cfg->run.strict = strict;
	cfg->run.quiet = quiet;
	cfg->lopts.sync_open = sync_open;
	cfg->lopts.sync_dirs = sync_dirs;
	cfg->lopts.fsync_writes = fsync_writes;
	cfg->lopts.no_resolve = no_resolve;
	cfg->lopts.links_out = links_out;
	if (act == OPTIONS_RUN)
		act = validate(cfg, warmup_set, time_set, fs_set);
	cfg->seed_set = seed_set;
	if (!seed_set)
		cfg->run.seed =
			((uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32)) &
			INT64_MAX; /* JSON integers are signed */
	cfg->run.null_fail = cfg->null_fail;
	cfg->report.argc = argc;
	cfg->report.argv = argv;
	cfg->report.loadfile = cfg->loadfile;
	cfg->report.directory = cfg->directory;
	cfg->report.engine = cfg->engine;
	cfg->report.lopts = &cfg->lopts;
	cfg->run.exec_before = cfg->exec_before;
	cfg->run.exec_after = cfg->exec_after;
	cfg->report.profile = cfg->cpus.profile;
	cfg->report.nprofile = cfg->cpus.nprofile;
	cfg->report.perf_ctl = cfg->perf_ctl;
	cfg->report.profile_event = cfg->profile_event;
	if (act == OPTIONS_RUN)
		act = cpuopts_profile_check(&cfg->cpus, &cfg->run);
	if (act == OPTIONS_RUN)
		act = make_variants(cfg, fs_set, order_set);
	if (act == OPTIONS_RUN)
		act = cpuopts_placements(&cfg->cpus, &cfg->run, cfg->variants,
					 cfg->nvariants);
	if (act == OPTIONS_RUN)
		cfg->run.placement = cfg->variants[0].run.placement;
	return act;
}

void options_loadfile_defaults(struct config *cfg, const struct loadfile *lf)
{
	if (!cfg->relative_set && lf->dialect == DIALECT_DBENCH)
		cfg->report.metric = METRIC_MBPS;
}

void config_release(struct config *cfg)
{
	for (unsigned int i = 0; i < cfg->nloadfiles; i++)
		free(cfg->loadfiles[i]);
	free(cfg->loadfiles);
	for (unsigned int i = 0; i < cfg->naxes; i++)
		variant_axis_release(&cfg->axes[i]);
	free(cfg->axes);
	for (unsigned int i = 0; cfg->variants && i < cfg->nvariants; i++)
		variant_config_release(&cfg->variants[i]);
	free(cfg->variants);
	free(cfg->percentiles);
	free(cfg->loadfile);
	free(cfg->directory);
	free(cfg->engine);
	free(cfg->run.clients);
	free(cfg->basedir);
	free(cfg->json);
	free(cfg->csv);
	free(cfg->ministat);
	free(cfg->placement);
	free(cfg->perf_ctl);
	free(cfg->profile_event);
	free(cfg->exec_before);
	free(cfg->exec_after);
	cpuopts_release(&cfg->cpus);
	memset(cfg, 0, sizeof(*cfg));
}
