/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The main command line: its popt table, the defaults, the parse itself
 * (the options before a subcommand too, and the CLIENTS arguments) and
 * every cross-option check. Each option's argument is handled in
 * optvalue.c, the variants built in variantopts.c. vfsbench(1) documents
 * each option; t9001 checks that --help and the man page list the same
 * ones.
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
#include "base/units.h"
#include "cli/help.h"
#include "cli/optvalue.h"
#include "cli/usage.h"
#include "cli/variantopts.h"
#include "lang/builtin.h"
#include "lang/loadfile.h"
#include "sys/dcache.h"

static int skip_cleanup, strict, quiet, sync_open, sync_dirs, fsync_writes,
	no_resolve, links_out, read_outside, uring_strict, uring_fixed;

static const struct poptOption
	main_options[] = {
		{ "loadfile", 'c', POPT_ARG_STRING, NULL, OPT_LOADFILE,
		  "loadfile: a path, or the name of a built-in one (default: the built-in default.load); several -c run interleaved, as variants",
		  "FILE" },
		{ "variant", '\0', POPT_ARG_STRING, NULL, OPT_VARIANT,
		  "run each value as a variant, interleaved: engine, cwd, fs-struct, fd-table, depth, prefix, resolve, dialect, fsinfo, placement, dcache, uring-depth or uring-fixed, e.g. depth=0,3 (repeatable)",
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
		  "how ops are executed: posix (system calls), uring (io_uring) or null (nothing: harness cost)",
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
		  "N more components in every path an op resolves: the directories d/d/... between a client's directory and the loadfile's paths (default: 0)",
		  "N" },
		{ "prefix", '\0', POPT_ARG_STRING, NULL, OPT_PREFIX,
		  "private: each client's --depth directories are its own; shared: one chain of the run's that every client walks through, then its own directory (default: private)",
		  "private|shared" },
		{ "resolve", '\0', POPT_ARG_STRING, NULL, OPT_RESOLVE,
		  "where lookups start: cwd (the plain calls, relative), dirfd (the *at() calls from an O_PATH fd of the client's directory), abs (the plain calls on absolute paths from /), beneath (openat2 RESOLVE_BENEATH from that fd) (default: cwd)",
		  "cwd|dirfd|abs|beneath" },
		{ "dcache", '\0', POPT_ARG_STRING, NULL, OPT_DCACHE,
		  "the dentry cache when each run's clock starts: warm (as the setup left it), cold (dropped after the setup: root, not on tmpfs) or negative=N (N missing names looked up in each client's directory) (default: warm)",
		  "warm|cold|negative=N" },
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
		{ "latency-sample", '\0', POPT_ARG_STRING, NULL,
		  OPT_LATENCY_SAMPLE,
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
		{ "units", '\0', POPT_ARG_STRING, NULL, OPT_UNITS,
		  "the unit of every latency column of the report (default: per column, the one that fits its values)",
		  "ns|us|ms" },
		{ "cv-warn", '\0', POPT_ARG_STRING, NULL, OPT_CV_WARN,
		  "warn when a client count's coefficient of variation is above PCT percent (default: 5)",
		  "PCT" },
		{ "profile", '\0', POPT_ARG_STRING, NULL, OPT_PROFILE,
		  "record the measurement of these client counts (all: every one) with perf record -g, one perf-N.data each, summarised in the report (with --perf-ctl: turn the events of the perf reading it on for them)",
		  "all|N[,N...]" },
		{ "knee", '\0', POPT_ARG_STRING, NULL, OPT_KNEE,
		  "with --profile: the knee is the first client count whose efficiency is below X (default: 0.8)",
		  "X" },
		{ "profile-event", '\0', POPT_ARG_STRING, NULL,
		  OPT_PROFILE_EVENT,
		  "--profile: perf record's event, e.g. cpu-clock (default: perf's own, cycles where the CPU counts them)",
		  "EVENT" },
		{ "perf-ctl", '\0', POPT_ARG_STRING, NULL, OPT_PERF_CTL, "speak perf's control protocol on FIFO (perf record --control fifo:FIFO,ACK): enable when the measurement of each run (or of --profile's counts) starts, disable when it ends, waiting for the ack on ACK",
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
		{ "read-outside", '\0', POPT_ARG_NONE, &read_outside, 0,
		  "let the loadfile name absolute paths in ops that only read (stat, access, readlink, open rdonly, ...), as vfsbench record --keep-outside writes them",
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
		  "dbench loadfiles: fsync after every WriteX (dbench -F)",
		  NULL },
		{ "no-resolve", '\0', POPT_ARG_NONE, &no_resolve, 0,
		  "dbench loadfiles: no directory scan when a lookup misses (dbench --no-resolve)",
		  NULL },
		{ "fsinfo", '\0', POPT_ARG_STRING, NULL, OPT_FSINFO,
		  "dbench loadfiles: what QUERY_FS_INFORMATION issues: statvfs, statfs or statvfs_legacy (default: statvfs)",
		  "CALL" },
		{ "quiet", 'q', POPT_ARG_NONE, &quiet, 0,
		  "no progress line on stderr", NULL },
		{ "null-fail", '\0', POPT_ARG_STRING, NULL, OPT_NULL_FAIL,
		  "null engine: make every OP fail with ERRNO, e.g. stat:EIO (repeatable)",
		  "OP:ERRNO" },
		{ "uring-strict", '\0', POPT_ARG_NONE, &uring_strict, 0,
		  "uring engine: refuse a loadfile with ops that have no io_uring opcode (they would run as system calls)",
		  NULL },
		{ "uring-fixed", '\0', POPT_ARG_NONE, &uring_fixed, 0,
		  "uring engine: open handles as direct descriptors, in the ring's file table (reads and writes with IOSQE_FIXED_FILE)",
		  NULL },
		{ "uring-depth", '\0', POPT_ARG_STRING, NULL, OPT_URING_DEPTH,
		  "uring engine: N lanes per client thread, each replaying [run] as a client of its own, one op in flight each (default 1)",
		  "N" },
		{ "list-loadfiles", '\0', POPT_ARG_NONE, NULL,
		  OPT_LIST_LOADFILES, "list the built-in loadfiles and exit",
		  NULL },
		{ "list-ops", '\0', POPT_ARG_NONE, NULL, OPT_LIST_OPS,
		  "list the loadfile ops and the system calls each issues, and exit",
		  NULL },
		{ "version", 'V', POPT_ARG_NONE, NULL, OPT_VERSION,
		  "print the version and exit", NULL },
		{ "help", 'h', POPT_ARG_NONE, NULL, OPT_HELP,
		  "show the common options and exit", NULL },
		{ "help-all", '\0', POPT_ARG_NONE, NULL, OPT_HELP_ALL,
		  "show every option and exit", NULL },
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

static const char *const subcommands[] = { "compare", "plot",	"fdscale",
					   "dbench",  "clean",	"suite",
					   "record",  "kernels" };

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
		.knee = 0.8,
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
	if (cfg->profile_event && !cfg->cpus.nprofile && !cfg->cpus.profile_all)
		return usage_error("--profile-event needs --profile");
	return OPTIONS_RUN;
}

/*
 * --dcache cold, in any variant: what it needs, checked before anything
 * exists. The main thread writes /proc/sys/vm/drop_caches, which only
 * root may; and tmpfs keeps its dentries as the only copy of its tree,
 * so none of -D's would go. A -D that cannot be read is left to the
 * work directory's own message.
 */
static enum options_action check_dcache_cold(const struct config *cfg)
{
	bool cold = false, pinned = false;

	for (unsigned int i = 0; i < cfg->nvariants; i++)
		cold = cold || cfg->variants[i].run.dcache == DCACHE_COLD;
	if (!cold)
		return OPTIONS_RUN;
	if (geteuid())
		return usage_error(
			"--dcache cold needs root: the caches are dropped through /proc/sys/vm/drop_caches (effective uid %u)",
			(unsigned int)geteuid());
	if (!dcache_pinned(cfg->directory, &pinned) && pinned)
		return usage_error(
			"--dcache cold: '%s' is on tmpfs or ramfs, which keeps its dentries as the only copy of the tree: they cannot be dropped",
			cfg->directory);
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
	read_outside = 0;
	uring_strict = uring_fixed = 0;
	pc = poptGetContext("vfsbench", argc, argv, main_options, 0);
	poptSetOtherOptionHelp(pc, "[OPTIONS] CLIENTS...");
	while (act == OPTIONS_RUN && (rc = poptGetNextOpt(pc)) > 0) {
		char *arg = poptGetOptArg(pc);

		if (rc == OPT_HELP || rc == OPT_HELP_ALL) {
			help_main(stdout, main_options, rc == OPT_HELP_ALL);
			act = OPTIONS_EXIT_OK;
		} else if (rc == OPT_USAGE) {
			poptPrintUsage(pc, stdout, 0);
			act = OPTIONS_EXIT_OK;
		} else if (rc == OPT_VARIANT) {
			act = variantopts_axis(cfg, arg);
		} else {
			if (rc == OPT_FS)
				fs_set = true;
			if (rc == OPT_ORDER)
				order_set = true;
			act = optvalue_apply(cfg, rc, arg, &warmup_set,
					     &time_set, &seed_set);
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
	cfg->run.uring_strict = uring_strict;
	cfg->run.uring_fixed = uring_fixed;
	cfg->run.quiet = quiet;
	cfg->lopts.sync_open = sync_open;
	cfg->lopts.sync_dirs = sync_dirs;
	cfg->lopts.fsync_writes = fsync_writes;
	cfg->lopts.no_resolve = no_resolve;
	cfg->lopts.links_out = links_out;
	cfg->lopts.read_outside = read_outside;
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
	cfg->report.perf_ctl = cfg->perf_ctl;
	cfg->report.profile_event = cfg->profile_event;
	cfg->report.json = cfg->json != NULL;
	if (act == OPTIONS_RUN)
		act = cpuopts_profile_check(&cfg->cpus, &cfg->run);
	/* after the check: --profile all's counts are known there */
	cfg->report.profile = cfg->cpus.profile;
	cfg->report.nprofile = cfg->cpus.nprofile;
	if (act == OPTIONS_RUN)
		act = variantopts_build(cfg, fs_set, order_set);
	if (act == OPTIONS_RUN)
		act = check_dcache_cold(cfg);
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
