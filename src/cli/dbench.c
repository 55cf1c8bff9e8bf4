/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The dbench personality's command line: `vfsbench dbench [OPTIONS] N`,
 * or vfsbench run under the name dbench. One popt table with every option
 * of dbench 4.0 and of its upstream (the tree mmtests builds), each with
 * dbench's meaning or refused with a reason, filling the same struct
 * config as the main command line. vfsbench(1), "DBENCH PERSONALITY",
 * has the table of options and their status.
 */
#include <config.h>
#include "cli/dbench.h"

#include <errno.h>
#include <popt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/clock.h"
#include "base/compiler.h"
#include "base/units.h"
#include "cli/help.h"
#include "cli/usage.h"
#include "lang/ops.h"

enum {
	OPT_HELP = 1,
	OPT_USAGE,
	OPT_BACKEND,
	OPT_NETWORK, /* an option of a network or device backend */
	OPT_LOADFILE,
	OPT_DIRECTORY,
	OPT_TCP,
};

/* Where distributions and dbench's own install put client.txt. */
static const char *const default_loadfiles[] = {
	"/usr/share/dbench/client.txt", /* Debian, Ubuntu, Fedora */
	"/usr/local/share/dbench/client.txt",
	"/usr/share/client.txt", /* dbench's DATADIR, prefix /usr */
	"/usr/local/share/client.txt", /* dbench's DATADIR, its default */
	"/usr/share/doc/dbench/loadfiles/client.txt", /* upstream's install */
	"/usr/local/share/doc/dbench/loadfiles/client.txt",
};

static struct {
	int timelimit, warmup, cpp, trunc_io;
	double rate;
	char *loadfile, *directory;
	int sync_open, sync_dirs, fsync, xattr, no_resolve, one_byte_fix;
	int stat_check, fake_io, skip_cleanup, per_client, run_once;
	int machine_readable, show_execute_time;
	int upstream_names, vfsbench_report, adopt;
	bool upstream_only; /* an option 4.0 does not have was given */
} o;

static const struct poptOption dbench_options[] = {
	{ "timelimit", 't', POPT_ARG_INT, &o.timelimit, 0,
	  "timelimit: seconds of execute phase (default 600)", "integer" },
	{ "loadfile", 'c', POPT_ARG_STRING, NULL, OPT_LOADFILE,
	  "loadfile (default: dbench's client.txt where it is installed)",
	  "filename" },
	{ "directory", 'D', POPT_ARG_STRING, NULL, OPT_DIRECTORY,
	  "working directory: the clients work in DIR/clients (default: .)",
	  NULL },
	{ "tcp-options", 'T', POPT_ARG_STRING, NULL, OPT_TCP,
	  "TCP socket options (tbench's; ignored, as dbench's fileio does)",
	  NULL },
	{ "target-rate", 'R', POPT_ARG_DOUBLE, &o.rate, 0,
	  "target throughput (MB/sec) per client", NULL },
	{ "sync", 's', POPT_ARG_NONE, &o.sync_open, 0, "use O_SYNC", NULL },
	{ "sync-dir", 'S', POPT_ARG_NONE, &o.sync_dirs, 0,
	  "sync directory changes", NULL },
	{ "fsync", 'F', POPT_ARG_NONE, &o.fsync, 0, "fsync on write", NULL },
	{ "xattr", 'x', POPT_ARG_NONE, &o.xattr, 0, "use xattrs", NULL },
	{ "no-resolve", '\0', POPT_ARG_NONE, &o.no_resolve, 0,
	  "disable name resolution simulation", NULL },
	{ "clients-per-process", '\0', POPT_ARG_INT, &o.cpp, 0,
	  "number of clients per process (per thread here)", NULL },
	{ "trunc-io", '\0', POPT_ARG_INT, &o.trunc_io, 0,
	  "truncate all io to this size", NULL },
	{ "one-byte-write-fix", '\0', POPT_ARG_NONE, &o.one_byte_fix, 0,
	  "try to fix 1 byte writes", NULL },
	{ "stat-check", '\0', POPT_ARG_NONE, &o.stat_check, 0,
	  "check for pointless calls with stat", NULL },
	{ "fake-io", '\0', POPT_ARG_NONE, &o.fake_io, 0,
	  "fake up read/write calls", NULL },
	{ "skip-cleanup", '\0', POPT_ARG_NONE, &o.skip_cleanup, 0,
	  "skip cleanup operations: keep DIR/clients for the next run", NULL },
	{ "per-client-results", '\0', POPT_ARG_NONE, &o.per_client, 0,
	  "show results per client", NULL },
	{ "run-once", '\0', POPT_ARG_NONE, &o.run_once, 0,
	  "Stop once reaching the end of the loadfile", NULL },
	{ "warmup", '\0', POPT_ARG_INT, &o.warmup, 0,
	  "How many seconds of warmup to run (default: timelimit / 5)", NULL },
	{ "machine-readable", '\0', POPT_ARG_NONE, &o.machine_readable, 0,
	  "Print data in more machine-readable friendly format", NULL },
	{ "show-execute-time", '\0', POPT_ARG_NONE, &o.show_execute_time, 0,
	  "Print time to execute passed workload", NULL },
	{ "backend", 'B', POPT_ARG_STRING, NULL, OPT_BACKEND,
	  "dbench backend: only fileio, the local filesystem", "string" },
	{ "server", '\0', POPT_ARG_STRING, NULL, OPT_NETWORK,
	  "refused: vfsbench drives the local VFS only", NULL },
	{ "export", '\0', POPT_ARG_STRING, NULL, OPT_NETWORK,
	  "refused: vfsbench drives the local VFS only", NULL },
	{ "protocol", '\0', POPT_ARG_STRING, NULL, OPT_NETWORK,
	  "refused: vfsbench drives the local VFS only", NULL },
	{ "nfs", '\0', POPT_ARG_STRING, NULL, OPT_NETWORK,
	  "refused: vfsbench drives the local VFS only", NULL },
	{ "enable-nlm", '\0', POPT_ARG_NONE, NULL, OPT_NETWORK,
	  "refused: vfsbench drives the local VFS only", NULL },
	{ "scsi", '\0', POPT_ARG_STRING, NULL, OPT_NETWORK,
	  "refused: vfsbench drives the local VFS only", NULL },
	{ "allow-scsi-writes", '\0', POPT_ARG_NONE, NULL, OPT_NETWORK,
	  "refused: vfsbench drives the local VFS only", NULL },
	{ "iscsi-device", '\0', POPT_ARG_STRING, NULL, OPT_NETWORK,
	  "refused: vfsbench drives the local VFS only", NULL },
	{ "iscsi", '\0', POPT_ARG_STRING, NULL, OPT_NETWORK,
	  "refused: vfsbench drives the local VFS only", NULL },
	{ "iscsi-initiatorname", '\0', POPT_ARG_STRING, NULL, OPT_NETWORK,
	  "refused: vfsbench drives the local VFS only", NULL },
	{ "smb-share", '\0', POPT_ARG_STRING, NULL, OPT_NETWORK,
	  "refused: vfsbench drives the local VFS only", NULL },
	{ "smb-user", '\0', POPT_ARG_STRING, NULL, OPT_NETWORK,
	  "refused: vfsbench drives the local VFS only", NULL },
	{ "block", '\0', POPT_ARG_STRING, NULL, OPT_NETWORK,
	  "refused: vfsbench drives the local VFS only", NULL },
	{ "upstream-names", '\0', POPT_ARG_NONE, &o.upstream_names, 0,
	  "vfsbench: the Operation table with upstream's names (FIND_FIRST, QUERY_PATH_INFORMATION...), order and width",
	  NULL },
	{ "vfsbench-report", '\0', POPT_ARG_NONE, &o.vfsbench_report, 0,
	  "vfsbench: its own figures after dbench's lines, below a line of its own",
	  NULL },
	{ "adopt-clients", '\0', POPT_ARG_NONE, &o.adopt, 0,
	  "vfsbench: replay into a DIR/clients vfsbench did not create (it is then never removed)",
	  NULL },
	{ "help", '?', POPT_ARG_NONE, NULL, OPT_HELP, "Show this help message",
	  NULL },
	{ "usage", '\0', POPT_ARG_NONE, NULL, OPT_USAGE,
	  "Display brief usage message", NULL },
	POPT_TABLEEND
};

/*
 * dbench's client.txt where it is installed: the first of
 * default_loadfiles[] that can be read, or of $VFSBENCH_DBENCH_LOADFILES
 * (a colon-separated list, for tests and unusual installs). NULL with a
 * message naming every path tried.
 */
static char *find_loadfile(void)
{
	const char *env = getenv("VFSBENCH_DBENCH_LOADFILES");
	char tried[4096] = "";
	char *list = NULL, *p, *save = NULL;
	size_t n = 0;

	if (env) {
		list = xstrdup(env);
		for (p = strtok_r(list, ":", &save); p;
		     p = strtok_r(NULL, ":", &save)) {
			if (!access(p, R_OK)) {
				p = xstrdup(p);
				free(list);
				return p;
			}
			n += (size_t)snprintf(tried + n, sizeof(tried) - n,
					      "%s%s", n ? ", " : "", p);
			if (n >= sizeof(tried))
				n = sizeof(tried) - 1;
		}
		free(list);
	} else {
		for (unsigned int i = 0; i < ARRAY_SIZE(default_loadfiles);
		     i++) {
			if (!access(default_loadfiles[i], R_OK))
				return xstrdup(default_loadfiles[i]);
			n += (size_t)snprintf(tried + n, sizeof(tried) - n,
					      "%s%s", n ? ", " : "",
					      default_loadfiles[i]);
			if (n >= sizeof(tried))
				n = sizeof(tried) - 1;
		}
	}
	usage_error(
		"no loadfile given (-c) and dbench's client.txt is not installed: tried %s (Debian's package dbench installs it)",
		*tried ? tried :
			 "nothing ($VFSBENCH_DBENCH_LOADFILES is empty)");
	return NULL;
}

static enum options_action bad_backend(const char *opt)
{
	return usage_error(
		"%s: vfsbench drives the local VFS only; dbench's network and device backends (smb, nfs, iscsi, scsi, block, sockio) are not supported",
		opt);
}

/*
 * The Operation table's names: upstream's when asked (--upstream-names,
 * VFSBENCH_DBENCH_NAMES=upstream), or when the command line uses an
 * option only upstream has (it was written for the dbench that prints
 * them, as mmtests' is); 4.0's otherwise, or when the environment says
 * VFSBENCH_DBENCH_NAMES=4.0.
 */
static enum options_action table_names(bool *upstream)
{
	const char *env = getenv("VFSBENCH_DBENCH_NAMES");

	if (o.upstream_names) {
		*upstream = true;
		return OPTIONS_RUN;
	}
	if (env && !strcmp(env, "upstream")) {
		*upstream = true;
	} else if (env && !strcmp(env, "4.0")) {
		*upstream = false;
	} else if (env && *env) {
		return usage_error(
			"VFSBENCH_DBENCH_NAMES='%s': expected upstream or 4.0",
			env);
	} else {
		*upstream = o.upstream_only || o.run_once || o.warmup != -1 ||
			    o.machine_readable || o.show_execute_time ||
			    o.trunc_io;
	}
	return OPTIONS_RUN;
}

/* Cross-option checks; the settings into @cfg and @dr. */
static enum options_action fill(struct config *cfg, struct dbench_report *dr,
				unsigned int procs)
{
	bool upstream = false;

	if (table_names(&upstream) != OPTIONS_RUN)
		return OPTIONS_USAGE;
	if (o.timelimit <= 0)
		return usage_error("bad --timelimit %d: expected seconds > 0",
				   o.timelimit);
	if (o.warmup < -1)
		return usage_error("bad --warmup %d: expected seconds >= 0",
				   o.warmup);
	if (o.cpp < 1 || o.cpp > UINT8_MAX)
		return usage_error(
			"bad --clients-per-process %d: expected 1 to %d", o.cpp,
			UINT8_MAX);
	if (o.trunc_io < 0)
		return usage_error("bad --trunc-io %d: expected bytes >= 0",
				   o.trunc_io);
	if (o.rate < 0)
		return usage_error(
			"bad --target-rate %g: expected MB/sec (0: no pacing)",
			o.rate);
	if ((uint64_t)procs * (unsigned int)o.cpp > MAX_CLIENTS)
		return usage_error("%u processes x %d clients: at most %d",
				   procs, o.cpp, MAX_CLIENTS);
	if (o.warmup == -1)
		o.warmup = o.timelimit / 5; /* dbench's rule */
	cfg->run.clients = xmalloc(sizeof(*cfg->run.clients));
	cfg->run.clients[0] = procs;
	cfg->run.nclients = 1;
	cfg->run.runs = 1;
	cfg->run.order = ORDER_SEQUENTIAL;
	cfg->run.cwd = CWD_PRIVATE;
	cfg->run.fs = FS_PRIVATE;
	cfg->run.fdt = FDT_SHARED;
	cfg->run.dbench_tree = true;
	cfg->run.quiet = true; /* dbench's lines are on stdout */
	cfg->run.skip_cleanup = o.skip_cleanup;
	cfg->run.pass_times = o.show_execute_time;
	cfg->run.per_client = o.per_client;
	cfg->run.warmup_kind = WARMUP_TIME;
	if (o.run_once) {
		cfg->run.loops = 1;
		cfg->run.warmup = 0;
	} else {
		cfg->run.time_ns = (uint64_t)o.timelimit * NSEC_PER_SEC;
		cfg->run.warmup = (uint64_t)o.warmup * NSEC_PER_SEC;
	}
	cfg->lopts.dialect = DIALECT_DBENCH;
	cfg->lopts.sync_open = o.sync_open;
	cfg->lopts.sync_dirs = o.sync_dirs;
	cfg->lopts.fsync_writes = o.fsync;
	cfg->lopts.no_resolve = o.no_resolve;
	cfg->lopts.xattr = o.xattr;
	cfg->lopts.stat_check = o.stat_check;
	cfg->lopts.fake_io = o.fake_io;
	cfg->lopts.one_byte_fix = o.one_byte_fix;
	cfg->lopts.trunc_io = (uint64_t)o.trunc_io;
	cfg->lopts.rate_mbps = o.rate;
	cfg->lopts.per_thread = (unsigned int)o.cpp;
	cfg->directory = xstrdup(o.directory ? o.directory : ".");
	/* dbench's QUERY_FS_INFORMATION stats -D */
	cfg->basedir = realpath(cfg->directory, NULL);
	cfg->lopts.basedir = cfg->basedir ? cfg->basedir : cfg->directory;
	cfg->engine = xstrdup("posix");
	cfg->loadfile = o.loadfile ? xstrdup(o.loadfile) : find_loadfile();
	if (!cfg->loadfile)
		return OPTIONS_USAGE;
	cfg->dbench_adopt = o.adopt;
	cfg->dbench_own_report = o.vfsbench_report;
	cfg->report.format = FORMAT_NATIVE;
	cfg->report.metric = METRIC_MBPS;
	cfg->report.no_dbench_line = true;
	cfg->report.loadfile = cfg->loadfile;
	cfg->report.directory = cfg->directory;
	cfg->report.engine = cfg->engine;
	cfg->report.lopts = &cfg->lopts;
	*dr = (struct dbench_report){
		.procs = procs,
		.per_proc = (unsigned int)o.cpp,
		.timelimit = (unsigned int)o.timelimit,
		.warmup = o.run_once ? 0 : (unsigned int)o.warmup,
		.loadfile = cfg->loadfile,
		.upstream_names = upstream,
		.machine_readable = o.machine_readable,
		.per_client = o.per_client,
		.show_execute_time = o.show_execute_time,
		.sync_open = o.sync_open,
		.sync_dirs = o.sync_dirs,
		.timed = !o.run_once,
	};
	return OPTIONS_RUN;
}

static void reset(void)
{
	free(o.loadfile);
	free(o.directory);
	memset(&o, 0, sizeof(o));
	o.timelimit = 600;
	o.warmup = -1;
	o.cpp = 1;
}

/* N, dbench's one argument: a count of processes. */
static enum options_action parse_procs(const char *const *rest,
				       unsigned int *procs)
{
	uint64_t n;

	if (!rest || !rest[0])
		return usage_error(
			"You need to specify NPROCS (e.g. 'vfsbench dbench 4')");
	if (rest[1])
		return usage_error(
			"'%s': one argument only, NPROCS; tbench's SERVER is not taken: vfsbench drives the local VFS only",
			rest[1]);
	if (units_parse_uint(rest[0], MAX_CLIENTS, &n) || !n)
		return usage_error(
			"bad NPROCS '%s': expected a number from 1 to %d",
			rest[0], MAX_CLIENTS);
	*procs = (unsigned int)n;
	return OPTIONS_RUN;
}

enum options_action options_parse_dbench(struct config *cfg,
					 struct dbench_report *dr, int argc,
					 const char **argv)
{
	enum options_action act = OPTIONS_RUN;
	unsigned int procs = 0;
	poptContext pc;
	int rc;

	memset(cfg, 0, sizeof(*cfg));
	reset();
	usage_set_command("vfsbench dbench");
	pc = poptGetContext("dbench", argc, argv, dbench_options, 0);
	poptSetOtherOptionHelp(pc, "[OPTION...] NPROCS");
	while (act == OPTIONS_RUN && (rc = poptGetNextOpt(pc)) > 0) {
		char *arg = poptGetOptArg(pc);

		switch (rc) {
		case OPT_HELP:
			/* named as invoked, as popt's help did */
			help_print(stdout,
				   strrchr(argv[0], '/') ?
					   strrchr(argv[0], '/') + 1 :
					   argv[0],
				   "[OPTION...] NPROCS", dbench_options, NULL);
			act = OPTIONS_EXIT_OK;
			break;
		case OPT_USAGE:
			poptPrintUsage(pc, stdout, 0);
			act = OPTIONS_EXIT_OK;
			break;
		case OPT_BACKEND:
			o.upstream_only = true;
			if (strcmp(arg, "fileio"))
				act = bad_backend("-B");
			break;
		case OPT_LOADFILE:
			free(o.loadfile);
			o.loadfile = xstrdup(arg);
			break;
		case OPT_DIRECTORY:
			free(o.directory);
			o.directory = xstrdup(arg);
			break;
		case OPT_TCP:
			break; /* dbench's fileio ignores it too */
		default:
			act = bad_backend(poptBadOption(pc, 0));
			break;
		}
		free(arg);
	}
	if (act == OPTIONS_RUN && rc < -1)
		act = usage_error("%s: %s", poptBadOption(pc, 0),
				  poptStrerror(rc));
	if (act == OPTIONS_RUN)
		act = parse_procs(poptGetArgs(pc), &procs);
	poptFreeContext(pc);
	if (act == OPTIONS_RUN)
		act = fill(cfg, dr, procs);
	cfg->report.argc = argc;
	cfg->report.argv = argv;
	reset();
	return act;
}

bool options_is_dbench(const char *argv0)
{
	const char *base = strrchr(argv0, '/');

	base = base ? base + 1 : argv0;
	return !strcmp(base, "dbench") || !strcmp(base, "vfsbench-dbench");
}
