// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vfsbench record (cli/recorder.h): the command line, strace, and the
 * files. The log is read by lang/strace.c and turned into the loadfile by
 * lang/record.c; the loadfile is checked by the parser every run uses
 * before it is put in place, so a recording that could not be replayed is
 * never written.
 */
#include <config.h>
#include "cli/recorder.h"

#include <errno.h>
#include <limits.h>
#include <popt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/compiler.h"
#include "base/exit.h"
#include "base/msg.h"
#include "base/reserved.h"
#include "cli/help.h"
#include "cli/outputs.h"
#include "cli/recordlog.h"
#include "cli/recordtree.h"
#include "cli/usage.h"
#include "lang/loadfile.h"
#include "lang/reader.h"
#include "lang/record.h"
#include "lang/strace.h"
#include "run/signals.h"
#include "sys/command.h"
#include "workdir/outfile.h"

#define DEFAULT_OUTPUT "record.load"

struct recorder {
	char *output;
	enum outfile_target out_target; /* what -o was at the start */
	char *root;
	char *from_trace; /* convert this log; run nothing */
	int force;
	bool tasks_as_clients; /* a [run N] stream per task */
	bool keep_outside; /* read-only lookups outside the root, kept */
	bool with_data; /* [setup] writes the files' bytes */
	char **cmd; /* NULL-terminated */
	char rootabs[PATH_MAX];
	char cwd[PATH_MAX];
	char tmpdir[PATH_MAX]; /* the log's directory, "" if none */
	char trace[PATH_MAX + 16];
};

enum { OPT_REC_HELP = 1 };

static const char usage_line[] =
	"[-o FILE.load] [--root DIR] [--force] [--with-data] [--tasks-as-clients] [--keep-outside] -- CMD [ARGS...]\n"
	"vfsbench record [OPTIONS] --from-trace LOG";

/*
 * Run the command under strace, in a process group of its own: a stop
 * (SIGINT, SIGTERM, SIGHUP to vfsbench) ends the whole group as it ends
 * a hook, where strace alone would detach and leave the command running,
 * and what left the group (setsid) is killed with the rest of the tree
 * (COMMAND_TREE). A ^C typed at the terminal is the command's (it has
 * the terminal), and strace passes it on. 0, or an exit status with a
 * message.
 */
static int run_strace(struct recorder *rc)
{
	const char *pre[] = {
		"strace", "-f", "--seccomp-bpf",     "-q", "-ttt",
		"-y",	  "-e", "trace=%file,%desc", "-o", rc->trace,
		"--"
	};
	size_t npre = sizeof(pre) / sizeof(pre[0]), n = 0;
	enum command_end end;
	const char **argv;
	char how[128];
	int status, ret;

	while (rc->cmd[n])
		n++;
	argv = xcalloc(npre + n + 1, sizeof(*argv));
	memcpy(argv, pre, sizeof(pre));
	for (size_t i = 0; i < n; i++)
		argv[npre + i] = rc->cmd[i];
	/*
	 * Its standard output is vfsbench's, as a wrapper's is (time,
	 * strace): vfsbench writes no result there, unless the loadfile
	 * goes there (-o -). Nothing it started outlives it: a process
	 * that made a session of its own left the group a stop ends.
	 */
	ret = command_run_argv(
		argv,
		COMMAND_TREE | (strcmp(rc->output, "-") ? COMMAND_STDOUT : 0),
		&signals.count, &status, &end);
	free(argv);
	if (ret == -ENOENT)
		return error("strace not found: vfsbench record runs the command under strace(1)"),
		       VB_EXIT_RUNTIME;
	if (ret)
		return error("cannot start strace: %s", strerror(-ret)),
		       VB_EXIT_RUNTIME;
	if (signals.count) {
		error("stopped by a signal: the command %s, no loadfile written",
		      end == COMMAND_ENDED	? "had ended" :
		      end == COMMAND_TERMINATED ? "was terminated" :
						  "was killed");
		return VB_EXIT_SIGNAL(signals.last);
	}
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	/* strace ends as the command did */
	error("the command %s: no loadfile written",
	      command_status(status, how, sizeof(how)));
	return VB_EXIT_RUNTIME;
}

/* The command line for the header, each word quoted for a shell. */
static char *command_words(char **cmd)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);

	if (!f)
		die("out of memory");
	for (unsigned int i = 0; cmd[i]; i++) {
		const char *w = cmd[i];

		if (i)
			fputc(' ', f);
		if (*w && strspn(w, "abcdefghijklmnopqrstuvwxyz"
				    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
				    "-_./=:,+@%") == strlen(w)) {
			fputs(w, f);
			continue;
		}
		fputc('\'', f);
		for (; *w; w++) {
			/* one line: a newline would end the comment */
			if (*w == '\n')
				fputs("'$'\\n''", f);
			else if (*w == '\'')
				fputs("'\\''", f);
			else
				fputc(*w, f);
		}
		fputc('\'', f);
	}
	if (fclose(f))
		die("out of memory");
	return s;
}

/* The loadfile in memory, checked by the parser; 0 or an exit status. */
static int render(struct recorder *rc, struct record *r, unsigned int ntasks,
		  char **text, size_t *len)
{
	struct record_header h = { .ntasks = ntasks };
	/* read back as the replay must read it */
	struct loadfile_opts lopts = { .read_outside = rc->keep_outside };
	struct loadfile lf;
	struct utsname u;
	char kernel[3 * sizeof(u.release)], date[32];
	time_t now = time(NULL);
	struct tm tm;
	FILE *f = open_memstream(text, len);
	char *words = command_words(rc->cmd);
	unsigned long lines = 0;
	int ret;

	if (!f)
		die("out of memory");
	if (uname(&u))
		snprintf(kernel, sizeof(kernel), "unknown");
	else
		snprintf(kernel, sizeof(kernel), "%s %s %s", u.sysname,
			 u.release, u.machine);
	gmtime_r(&now, &tm);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	h.command = words;
	h.kernel = kernel;
	h.date = date;
	ret = record_write(r, &h, f);
	if (fclose(f) || ret)
		die("out of memory");
	free(words);
	/* [setup] and the header come on top of the [run] bounded so far */
	for (const char *p = *text;
	     (p = memchr(p, '\n', *len - (size_t)(p - *text))); p++)
		lines++;
	if (*len > LOADFILE_MAX_BYTES || lines > LOADFILE_MAX_LINES)
		return error("the recording is %zu bytes in %lu lines, more than a loadfile may hold (%u bytes, %u lines): no loadfile written",
			     *len, lines, LOADFILE_MAX_BYTES,
			     LOADFILE_MAX_LINES),
		       VB_EXIT_RUNTIME;
	if (loadfile_parse(&lf, rc->output, *text, *len, &lopts))
		return error("the recording is no loadfile vfsbench can read (a bug of vfsbench record): no loadfile written"),
		       VB_EXIT_RUNTIME;
	loadfile_release(&lf);
	return 0;
}

/*
 * The loadfile, by the rule of result files for what -o was when check()
 * looked (a symlink planted since is never written through: out_target),
 * made 0600 less the umask where it holds bytes that others could not
 * read (doc/recording.md, "The tree"): never readable by more than the
 * files it copies.
 */
static int write_output(const struct recorder *rc, const char *text, size_t len,
			bool private)
{
	struct outfile o;
	FILE *f = outfile_open_as(&o, rc->output, rc->out_target,
				  private ? 0600 : 0777);

	/*
	 * A stop while it waited for a FIFO's reader (the open returns
	 * EINTR: no SA_RESTART) or wrote: the signal's status, as any stop.
	 */
	if (!f)
		return signals.count ? VB_EXIT_SIGNAL(signals.last) :
				       VB_EXIT_RUNTIME;
	fwrite(text, 1, len, f);
	if (outfile_commit(&o))
		return signals.count ? VB_EXIT_SIGNAL(signals.last) :
				       VB_EXIT_RUNTIME;
	return 0;
}

/*
 * Does a directory from / to @dir (absolute, resolved) lack the search bit
 * for others? Then none of the files below it is readable by all.
 */
static bool hidden(const char *dir)
{
	char p[PATH_MAX];
	struct stat st;
	size_t n = strlen(dir);

	if (n >= sizeof(p))
		return true;
	memcpy(p, dir, n + 1);
	for (;;) {
		char *slash;

		if (stat(p[0] ? p : "/", &st) || !(st.st_mode & S_IXOTH))
			return true;
		slash = strrchr(p, '/');
		if (!slash || !p[0])
			return false;
		*slash = '\0';
	}
}

/* Checks made before anything runs; 0 or an exit status. */
static int check(struct recorder *rc)
{
	struct stat st;

	if (!rc->from_trace && !rc->cmd[0])
		return usage_error(
			       "no command to record: vfsbench record -- CMD [ARGS...]"),
		       VB_EXIT_USAGE;
	if (rc->from_trace && rc->cmd[0])
		return usage_error(
			       "--from-trace converts a log: no command with it"),
		       VB_EXIT_USAGE;
	if (outputs_check_record(rc->output, rc->from_trace) != OPTIONS_RUN)
		return VB_EXIT_USAGE;
	if (!realpath(rc->root, rc->rootabs))
		return error("--root %s: %s", rc->root, strerror(errno)),
		       VB_EXIT_USAGE;
	if (stat(rc->rootabs, &st) || !S_ISDIR(st.st_mode))
		return error("--root %s: %s", rc->root, strerror(ENOTDIR)),
		       VB_EXIT_USAGE;
	/*
	 * What -o is now is all it may be when the loadfile is written, the
	 * command's run later: nothing (then made only where nothing is), a
	 * regular file (replaced), or what the user named (a FIFO, a device,
	 * a symlink, "-": written into, as any result file).
	 */
	if (!strcmp(rc->output, "-"))
		rc->out_target = OUTFILE_ANY;
	else if (lstat(rc->output, &st))
		rc->out_target = OUTFILE_NEW;
	else if (!rc->force)
		return error("%s exists: give --force to replace it",
			     rc->output),
		       VB_EXIT_USAGE;
	else
		rc->out_target =
			S_ISREG(st.st_mode) ? OUTFILE_REGULAR : OUTFILE_ANY;
	if (!getcwd(rc->cwd, sizeof(rc->cwd)))
		return error("cannot get the current directory: %s",
			     strerror(errno)),
		       VB_EXIT_RUNTIME;
	return 0;
}

enum {
	OPT_REC_OUTPUT = 2,
	OPT_REC_ROOT,
	OPT_REC_FROM_TRACE,
	OPT_REC_TASKS,
	OPT_REC_OUTSIDE,
	OPT_REC_DATA,
};

static const struct poptOption record_options[] = {
	{ "output", 'o', POPT_ARG_STRING, NULL, OPT_REC_OUTPUT,
	  "the loadfile to write (default: " DEFAULT_OUTPUT ")", "FILE.load" },
	{ "root", '\0', POPT_ARG_STRING, NULL, OPT_REC_ROOT,
	  "the directory whose calls are kept, as the client directory (default: the current directory)",
	  "DIR" },
	{ "force", '\0', POPT_ARG_NONE, NULL, 0,
	  "replace the loadfile if it exists", NULL },
	{ "from-trace", '\0', POPT_ARG_STRING, NULL, OPT_REC_FROM_TRACE,
	  "convert LOG, written by strace -f -ttt -y, instead of running a command",
	  "LOG" },
	{ "tasks-as-clients", '\0', POPT_ARG_NONE, NULL, OPT_REC_TASKS,
	  "each task (thread or process) a client of its own, a [run N] stream in its own order",
	  NULL },
	{ "keep-outside", '\0', POPT_ARG_NONE, NULL, OPT_REC_OUTSIDE,
	  "keep the read-only lookups outside DIR (stat, access, readlink, open rdonly and what reads its fd) with absolute paths; replay with vfsbench --read-outside",
	  NULL },
	{ "with-data", '\0', POPT_ARG_NONE, NULL, OPT_REC_DATA,
	  "[setup] writes the files' bytes as they were (up to 64 KiB a file, 1 MiB in all), not only their sizes",
	  NULL },
	{ "help", 'h', POPT_ARG_NONE, NULL, OPT_REC_HELP,
	  "show this help and exit", NULL },
	POPT_TABLEEND
};

/* The options; 0, -1 after --help, or an exit status. */
static int parse(struct recorder *rc, int argc, const char **argv)
{
	struct poptOption table[ARRAY_SIZE(record_options)];
	poptContext pc;
	const char **rest, **args;
	int r, n = 0, status = 0;

	/* --force sets a field of this recorder */
	memcpy(table, record_options, sizeof(table));
	table[2].arg = &rc->force;
	usage_set_command("vfsbench record");
	/* popt's --help names the program after argv[0] */
	args = xcalloc((size_t)argc + 1, sizeof(*args));
	memcpy(args, argv, (size_t)argc * sizeof(*args));
	args[0] = "vfsbench record";
	pc = poptGetContext("vfsbench record", argc, args, table,
			    POPT_CONTEXT_POSIXMEHARDER);
	poptSetOtherOptionHelp(pc, usage_line);
	while (!status && (r = poptGetNextOpt(pc)) > 0) {
		char *arg = poptGetOptArg(pc), **to = NULL;

		if (r == OPT_REC_HELP) {
			/* within 80 columns, as every command's help */
			help_print(stdout, "vfsbench record", usage_line, table,
				   NULL);
			status = -1;
		} else if (r == OPT_REC_OUTPUT) {
			to = &rc->output;
		} else if (r == OPT_REC_ROOT) {
			to = &rc->root;
		} else if (r == OPT_REC_FROM_TRACE) {
			to = &rc->from_trace;
		} else if (r == OPT_REC_TASKS) {
			rc->tasks_as_clients = true;
		} else if (r == OPT_REC_OUTSIDE) {
			rc->keep_outside = true;
		} else if (r == OPT_REC_DATA) {
			rc->with_data = true;
		}
		if (to) {
			free(*to);
			*to = arg;
		} else {
			free(arg);
		}
	}
	if (!status && r < -1) {
		usage_error("%s: %s", poptBadOption(pc, 0), poptStrerror(r));
		status = VB_EXIT_USAGE;
	}
	if (!status) {
		rest = poptGetArgs(pc);
		while (rest && rest[n])
			n++;
		rc->cmd = xcalloc((size_t)n + 1, sizeof(*rc->cmd));
		for (int i = 0; i < n; i++)
			rc->cmd[i] = xstrdup(rest[i]);
	}
	poptFreeContext(pc);
	free(args);
	return status;
}

static void recorder_release(struct recorder *rc)
{
	if (rc->trace[0])
		unlink(rc->trace);
	if (rc->tmpdir[0])
		rmdir(rc->tmpdir);
	for (unsigned int i = 0; rc->cmd && rc->cmd[i]; i++)
		free(rc->cmd[i]);
	free(rc->cmd);
	free(rc->output);
	free(rc->root);
	free(rc->from_trace);
}

int recorder_main(int argc, const char **argv)
{
	struct recorder rc = { 0 };
	struct recordtree tree;
	struct record r;
	unsigned int ntasks = 0;
	char *text = NULL;
	size_t len = 0;
	int status;

	status = parse(&rc, argc, argv);
	if (status) {
		recorder_release(&rc);
		return status < 0 ? VB_EXIT_OK : status;
	}
	if (!rc.output)
		rc.output = xstrdup(DEFAULT_OUTPUT);
	if (!rc.root)
		rc.root = xstrdup(".");
	status = check(&rc);
	if (status)
		goto out;
	if (recordtree_read(&tree, rc.rootabs, rc.with_data)) {
		status = VB_EXIT_RUNTIME;
		goto out;
	}
	record_init(&r, rc.rootabs, rc.cwd, tree.v, tree.n);
	r.per_task = rc.tasks_as_clients;
	r.keep_outside = rc.keep_outside;
	r.with_data = rc.with_data;
	r.root_hidden = rc.with_data && hidden(rc.rootabs);
	if (!rc.from_trace) {
		const char *tmp = getenv("TMPDIR");

		snprintf(rc.tmpdir, sizeof(rc.tmpdir),
			 "%s/vfsbench-record.XXXXXX",
			 tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(rc.tmpdir)) {
			error("cannot make a directory for the trace (%s): %s",
			      rc.tmpdir, strerror(errno));
			rc.tmpdir[0] = '\0';
			status = VB_EXIT_RUNTIME;
			goto done;
		}
		snprintf(rc.trace, sizeof(rc.trace), "%s/trace", rc.tmpdir);
		status = run_strace(&rc);
		if (status)
			goto done;
	}
	status = recordlog_read(rc.from_trace ? rc.from_trace : rc.trace, &r,
				&ntasks);
	if (!status && !r.ops) {
		error("no call of the command's was below %s: no loadfile written",
		      rc.rootabs);
		status = VB_EXIT_RUNTIME;
	}
	if (!status && record_streams(&r) > LOADFILE_MAX_STREAMS) {
		error("--tasks-as-clients: %u tasks kept calls, each a [run N] stream, and a loadfile has at most %d: record without it (one stream), or a command of fewer tasks; no loadfile written",
		      record_streams(&r), LOADFILE_MAX_STREAMS);
		status = VB_EXIT_RUNTIME;
	}
	if (!status)
		status = render(&rc, &r, ntasks, &text, &len);
	if (!status && signals.count) {
		error("stopped by a signal: no loadfile written");
		status = VB_EXIT_SIGNAL(signals.last);
	}
	if (!status)
		status = write_output(&rc, text, len, r.data_private);
	if (!status && r.unnamable)
		warning("%lu paths no loadfile can name (with a newline, a '$' or vfsbench's marker %s) dropped: their calls and entries are counted in the header",
			r.unnamable, VB_MARKER_NAME);
	if (!status)
		fprintf(stderr,
			"vfsbench record: %s: %lu ops from %lu calls of %u tasks\n",
			rc.output, r.ops, r.calls, ntasks);
done:
	record_release(&r);
out:
	free(text);
	recorder_release(&rc);
	return status;
}
