/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perf lock record beside each perf record of --profile, and perf lock
 * contention to read it back. Debian's perf 6.1 has no BPF skeletons
 * ("perf lock contention -b": not built-in), so the contention is
 * recorded the tracepoint way: lock:contention_begin and _end with call
 * chains, then summed per lock caller by perf itself.
 *
 * Both run in a mount namespace of their own, made private: perf mounts
 * tracefs on /sys/kernel/tracing when it finds it missing (as root), and
 * a mount made there goes with the namespace instead of staying on the
 * host. Without the privilege to make one (EPERM) perf has none to mount
 * either, and runs as it is.
 */
#include <config.h>
#include "sys/perflock.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/msg.h"
#include "sys/childwait.h"
#include "sys/command.h"

/* How long perf lock record may take to attach. */
/* The most of its output read back. */
#define PERF_LOCK_OUT_MAX 65536

/* Where the child failed before perf ran, sent through the exec pipe. */
enum stage { STAGE_UNSHARE, STAGE_PRIVATE, STAGE_EXEC };

/* In the child: only async-signal-safe calls until execvp. */
static void child(const char *const *argv, int out, int report, const int *keep,
		  unsigned int nkeep)
{
	int msg[2] = { STAGE_UNSHARE, 0 };

	/* a group of its own: a stop of ours ends all of it (childwait.h) */
	setpgid(0, 0);
	if (unshare(CLONE_NEWNS)) {
		/* no CAP_SYS_ADMIN: perf cannot mount anything either */
		if (errno != EPERM)
			goto fail;
	} else if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)) {
		msg[0] = STAGE_PRIVATE;
		goto fail;
	}
	msg[0] = STAGE_EXEC;
	if (dup2(out, STDOUT_FILENO) < 0 || dup2(out, STDERR_FILENO) < 0)
		goto fail;
	for (unsigned int i = 0; i < nkeep; i++)
		if (fcntl(keep[i], F_SETFD, 0))
			goto fail;
	execvp(argv[0], (char *const *)argv);
fail:
	msg[1] = errno;
	if (write(report, msg, sizeof(msg)) < 0)
		_exit(127);
	_exit(127);
}

/*
 * Start @argv with its standard output and error on @out, in a private
 * mount namespace and a process group of its own, @keep's fds left open.
 * Returns 0 with its pid, or -errno with *@why saying what failed (to be
 * freed).
 */
static int spawn(const char *const *argv, int out, const int *keep,
		 unsigned int nkeep, pid_t *pid, char **why)
{
	static const char *const stage[] = {
		"cannot make a mount namespace of its own (unshare)",
		"cannot make its mount namespace private",
		"cannot run perf",
	};
	int rep[2], msg[2], status;
	ssize_t r;
	char buf[256];

	if (pipe2(rep, O_CLOEXEC)) {
		*why = xstrdup(strerror(errno));
		return -errno;
	}
	*pid = fork();
	if (*pid < 0) {
		int err = errno;

		close(rep[0]);
		close(rep[1]);
		*why = xstrdup(strerror(err));
		return -err;
	}
	if (!*pid)
		child(argv, out, rep[1], keep, nkeep);
	/* as the child does: whichever runs first, the group is there */
	setpgid(*pid, *pid);
	close(rep[1]);
	/* end of file: perf is running (the pipe closed at its exec) */
	do
		r = read(rep[0], msg, sizeof(msg));
	while (r < 0 && errno == EINTR);
	close(rep[0]);
	if (r != (ssize_t)sizeof(msg))
		return 0;
	while (waitpid(*pid, &status, 0) < 0 && errno == EINTR)
		;
	if (msg[0] == STAGE_EXEC && msg[1] == ENOENT)
		*why = xstrdup("perf is not installed");
	else {
		snprintf(buf, sizeof(buf), "%s: %s", stage[msg[0]],
			 strerror(msg[1]));
		*why = xstrdup(buf);
	}
	return -msg[1];
}

/* "perf lock record exited with status 1 WHEN: ITS MESSAGES". */
static char *reason(const char *what, int status, const char *when,
		    const char *out)
{
	char st[64], *buf, *p;
	size_t len = strlen(out) + 160;

	buf = xmalloc(len);
	snprintf(buf, len, "%s %s%s%s%s", what,
		 command_status(status, st, sizeof(st)), when, *out ? ": " : "",
		 out);
	/* one line: perf's lines joined */
	for (p = buf; *p; p++)
		if (*p == '\n')
			*p = p[1] ? ' ' : '\0';
	return buf;
}

/*
 * The rest of @pid's output on @fd into *@out (to be freed), then its end,
 * a stop signal obeyed (childwait.h): *@status, -1 when it could not be
 * waited for. Returns @cw's words for a kill, or NULL.
 */
static const char *collect(pid_t pid, const volatile sig_atomic_t *stop, int fd,
			   char **out, int *status, char *why, size_t len)
{
	struct child_wait cw;

	child_wait_init(&cw, pid, stop, 0, 0);
	*out = child_wait_read_all(&cw, fd, PERF_LOCK_OUT_MAX);
	if (child_wait_end(&cw, status))
		*status = -1;
	return child_wait_killed(&cw, why, len);
}

int perf_lock_start(struct perf_lock *pl, pid_t target, const char *file,
		    const volatile sig_atomic_t *stop)
{
	char pid[24], control[48], why_kill[96], *why = NULL, *out;
	const char *argv[16];
	int ctl[2], ack[2], o[2], keep[2], ret, status, n = 0;

	memset(pl, 0, sizeof(*pl));
	pl->out = -1;
	if (pipe2(ctl, O_CLOEXEC))
		return error("--profile: pipe: %s", strerror(errno));
	if (pipe2(ack, O_CLOEXEC)) {
		ret = errno;
		close(ctl[0]);
		close(ctl[1]);
		return error("--profile: pipe: %s", strerror(ret));
	}
	if (pipe2(o, O_CLOEXEC)) {
		ret = errno;
		close(ctl[0]);
		close(ctl[1]);
		close(ack[0]);
		close(ack[1]);
		return error("--profile: pipe: %s", strerror(ret));
	}
	snprintf(pid, sizeof(pid), "%ld", (long)target);
	snprintf(control, sizeof(control), "fd:%d,%d", ctl[0], ack[1]);
	argv[n++] = "perf";
	argv[n++] = "lock";
	argv[n++] = "record";
	argv[n++] = "-q";
	argv[n++] = "-D";
	argv[n++] = "-1";
	argv[n++] = "--control";
	argv[n++] = control;
	argv[n++] = "-p";
	argv[n++] = pid;
	argv[n++] = "-o";
	argv[n++] = file;
	argv[n] = NULL;
	keep[0] = ctl[0];
	keep[1] = ack[1];
	ret = spawn(argv, o[1], keep, 2, &pl->pid, &why);
	close(ctl[0]);
	close(ack[1]);
	close(o[1]);
	if (ret) {
		close(ctl[1]);
		close(ack[0]);
		close(o[0]);
		pl->absent = why;
		return 0;
	}
	perf_ctl_init(&pl->ctl, ctl[1], ack[0], "perf lock record", stop);
	pl->out = o[0];
	/* as perf record: the ack of a "disable" says it is attached */
	ret = perf_ctl_send(&pl->ctl, "disable");
	if (ret) {
		kill(-pl->pid, SIGKILL);
		collect(pl->pid, stop, pl->out, &out, &status, why_kill,
			sizeof(why_kill));
		perf_ctl_close(&pl->ctl);
		close(pl->out);
		pl->out = -1;
		if (ret == -EINTR)
			pl->absent = xstrdup(
				"a stop signal came while perf lock record was attaching");
		else
			pl->absent = reason("perf lock record", status,
					    " before it was attached", out);
		free(out);
		return 0;
	}
	pl->running = true;
	return 0;
}

void perf_lock_stop(struct perf_lock *pl)
{
	char why[96], buf[160];
	const char *killed;
	int status = -1;
	char *out;

	if (!pl->running)
		return;
	pl->running = false;
	/*
	 * SIGINT before the control closes: perf lock record (6.1) that
	 * sees its control fd hang up first dies of the SIGINT without
	 * writing its header (data size 0, "not properly terminated").
	 */
	kill(pl->pid, SIGINT);
	killed = collect(pl->pid, pl->ctl.stop, pl->out, &out, &status, why,
			 sizeof(why));
	perf_ctl_close(&pl->ctl);
	close(pl->out);
	pl->out = -1;
	/* perf record writes its file, then re-raises the SIGINT */
	if (killed) {
		snprintf(buf, sizeof(buf), "perf lock record %s", killed);
		pl->absent = xstrdup(buf);
	} else if (status == -1) {
		pl->absent =
			xstrdup("perf lock record could not be waited for");
	} else if (!((WIFEXITED(status) && !WEXITSTATUS(status)) ||
		     (WIFSIGNALED(status) && WTERMSIG(status) == SIGINT))) {
		pl->absent = reason("perf lock record", status, "", out);
	}
	free(out);
}

void perf_lock_release(struct perf_lock *pl)
{
	perf_lock_stop(pl);
	free(pl->absent);
	pl->absent = NULL;
}

int perf_lock_contention(const char *file, unsigned int entries, char **text,
			 char **status, const volatile sig_atomic_t *stop)
{
	char n[16], st[64], why[96];
	const char *argv[] = { "perf",	     "lock", "-i", file,
			       "contention", "-E",   n,	   NULL };
	int o[2], ret, ws;
	pid_t pid;

	*text = NULL;
	*status = NULL;
	snprintf(n, sizeof(n), "%u", entries);
	if (pipe2(o, O_CLOEXEC)) {
		ret = -errno;
		*status = xstrdup(strerror(-ret));
		return ret;
	}
	ret = spawn(argv, o[1], NULL, 0, &pid, status);
	close(o[1]);
	if (ret) {
		close(o[0]);
		return ret;
	}
	if (collect(pid, stop, o[0], text, &ws, why, sizeof(why)))
		*status = xstrdup(why);
	else if (ws == -1)
		*status = xstrdup("could not be waited for");
	else if (!WIFEXITED(ws) || WEXITSTATUS(ws))
		*status = xstrdup(command_status(ws, st, sizeof(st)));
	close(o[0]);
	return 0;
}
