/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Child processes through posix_spawn(3): vfsbench is multi-threaded
 * only while clients run, but posix_spawn is the safe way in any case.
 */
#include <config.h>
#include "sys/command.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/alloc.h"

extern char **environ;

/* The length of the NAME= of "NAME=VALUE", or 0 for a malformed entry. */
static size_t name_len(const char *s)
{
	const char *eq = strchr(s, '=');

	return eq ? (size_t)(eq - s) + 1 : 0;
}

/* environ with @env's entries set over it. */
static char **merged(const char *const *env)
{
	size_t n = 0, k = 0, add = 0;
	char **out;

	while (environ[n])
		n++;
	while (env && env[add])
		add++;
	out = xcalloc(n + add + 1, sizeof(*out));
	for (size_t i = 0; i < n; i++) {
		size_t l = name_len(environ[i]);
		size_t j = 0;

		while (l && j < add && strncmp(environ[i], env[j], l))
			j++;
		if (!l || j == add)
			out[k++] = environ[i];
	}
	for (size_t j = 0; j < add; j++)
		out[k++] = (char *)env[j];
	return out;
}

/* How spawn() sets the child up. */
enum spawn_how {
	SPAWN_PLAIN, /* a group of its own; vfsbench's dispositions, stdin */
	SPAWN_GROUP, /* SPAWN_PLAIN, default dispositions, no mask */
	SPAWN_HOOK, /* SPAWN_GROUP, and stdin from /dev/null */
};

/*
 * The child's stdout is our stderr, unless @stdout_ours, or @io's out;
 * its stderr is ours, or @io's err (@io may be NULL).
 */
static int spawn(const char *const *argv, char **envp, const int *keep,
		 unsigned int nkeep, enum spawn_how how, bool stdout_ours,
		 const struct command_io *io, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t set;
	int ret;

	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&attr);
	if (io && io->out >= 0)
		posix_spawn_file_actions_adddup2(&fa, io->out, STDOUT_FILENO);
	else if (!stdout_ours)
		posix_spawn_file_actions_adddup2(&fa, STDERR_FILENO,
						 STDOUT_FILENO);
	if (io && io->err >= 0)
		posix_spawn_file_actions_adddup2(&fa, io->err, STDERR_FILENO);
	/* dup2 onto itself clears close-on-exec (glibc 2.29, POSIX 2024) */
	for (unsigned int i = 0; i < nkeep; i++)
		posix_spawn_file_actions_adddup2(&fa, keep[i], keep[i]);
	if (how == SPAWN_HOOK)
		posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null",
						 O_RDONLY, 0);
	posix_spawnattr_setpgroup(&attr, 0);
	if (how != SPAWN_PLAIN) {
		/* SIGPIPE and SIGXFSZ are ignored here, SIGUSR1 blocked */
		sigfillset(&set);
		posix_spawnattr_setsigdefault(&attr, &set);
		sigemptyset(&set);
		posix_spawnattr_setsigmask(&attr, &set);
		posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP |
							POSIX_SPAWN_SETSIGDEF |
							POSIX_SPAWN_SETSIGMASK);
	} else {
		posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
	}
	ret = -posix_spawnp(pid, argv[0], &fa, &attr, (char *const *)argv,
			    envp);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
	return ret;
}

/*
 * Reap the children other than @pid that have ended: orphans of the
 * command's, which come to us as its subreaper (COMMAND_TREE), so that
 * their zombies do not pile up while it runs. WNOWAIT looks without
 * reaping, so @pid, which must stay a zombie until its group is killed,
 * is left.
 */
static void reap_others(pid_t pid)
{
	for (;;) {
		siginfo_t si = { .si_pid = 0 };

		if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) ||
		    !si.si_pid || si.si_pid == pid)
			return;
		waitpid(si.si_pid, NULL, 0);
	}
}

/* Our children, from /proc (each one's PPid): how many were killed. */
static unsigned int kill_children(void)
{
	pid_t self = getpid();
	unsigned int n = 0;
	struct dirent *de;
	DIR *d = opendir("/proc");

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char path[64], buf[512], *rp;
		long ppid;
		ssize_t len;
		pid_t p;
		int fd;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		p = (pid_t)atol(de->d_name);
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)p);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		len = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (len <= 0)
			continue;
		buf[len] = '\0';
		/* "PID (COMM) S PPID ...": COMM may hold ')' and spaces */
		rp = strrchr(buf, ')');
		if (!rp || sscanf(rp + 1, " %*c %ld", &ppid) != 1 ||
		    ppid != self)
			continue;
		kill(p, SIGKILL);
		waitpid(p, NULL, 0);
		n++;
	}
	closedir(d);
	return n;
}

/*
 * Every process the command started and that is still there: ours now,
 * as its subreaper (whatever its session or group: a setsid(2) takes it
 * out of the group, not out of our tree), or a child of one of those.
 * Killed a generation at a time, until none is left: a parent killed
 * hands its children to us.
 */
static void kill_tree(void)
{
	while (kill_children())
		;
}

/* What a wait looks at, at every tick of child_wait. */
struct watch {
	pid_t pid;
	bool tree; /* COMMAND_TREE: the command's orphans reaped as they end */
	const struct command_io *io; /* its watch, or NULL */
};

static bool look_around(void *ctx)
{
	struct watch *w = ctx;

	if (w->tree)
		reap_others(w->pid);
	return w->io && w->io->expired && w->io->expired(w->io->ctx);
}

/*
 * Wait for the group leader @pid, forwarding a stop (command_run()): a
 * signal since *@stop was @at_start. That is read before the command is
 * spawned, since the command may signal us at once (a hook that runs
 * `kill -INT $PPID` did, before this wait began, and was waited for for
 * ever).
 */
static int wait_group(pid_t pid, const volatile sig_atomic_t *stop,
		      sig_atomic_t at_start, const struct command_io *io,
		      bool tree, int *status, enum command_end *end)
{
	struct watch w = { .pid = pid, .tree = tree, .io = io };
	struct child_wait cw;
	int ret;

	child_wait_init(&cw, pid, stop, at_start, SIGTERM);
	cw.expired = look_around;
	cw.ctx = &w;
	ret = child_wait_end(&cw, status);
	*end = cw.end;
	return ret;
}

int command_run(const char *cmd, const char *const *env,
		const volatile sig_atomic_t *stop, int *status,
		enum command_end *end)
{
	const char *argv[] = { "/bin/sh", "-c", cmd, NULL };
	sig_atomic_t at_start = stop ? *stop : 0;
	char **envp = merged(env);
	pid_t pid;
	int ret;

	ret = spawn(argv, envp, NULL, 0, SPAWN_HOOK, false, NULL, &pid);
	free(envp);
	if (ret)
		return ret;
	return wait_group(pid, stop, at_start, NULL, false, status, end);
}

/*
 * A background group that reads or sets the terminal is stopped
 * (SIGTTIN, SIGTTOU): while the command runs, its group has the terminal
 * vfsbench had in its foreground, and a ^C there is the command's.
 * SIGTTOU is blocked around tcsetpgrp(), which a background caller needs.
 */
static bool set_terminal(pid_t pgrp)
{
	sigset_t ttou, old;
	bool set;

	sigemptyset(&ttou);
	sigaddset(&ttou, SIGTTOU);
	pthread_sigmask(SIG_BLOCK, &ttou, &old);
	set = !tcsetpgrp(STDIN_FILENO, pgrp);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return set;
}

int command_run_argv(const char *const *argv, unsigned int flags,
		     const volatile sig_atomic_t *stop, int *status,
		     enum command_end *end)
{
	sig_atomic_t at_start = stop ? *stop : 0;
	bool tree = flags & COMMAND_TREE;
	int was_reaper = 0;
	bool tty;
	pid_t pid;
	int ret;

	if (tree && (prctl(PR_GET_CHILD_SUBREAPER, &was_reaper) ||
		     prctl(PR_SET_CHILD_SUBREAPER, 1)))
		return -errno;
	ret = spawn(argv, environ, NULL, 0, SPAWN_GROUP, flags & COMMAND_STDOUT,
		    NULL, &pid);
	if (ret) {
		if (tree)
			prctl(PR_SET_CHILD_SUBREAPER, was_reaper);
		return ret;
	}
	tty = isatty(STDIN_FILENO) && tcgetpgrp(STDIN_FILENO) == getpgrp() &&
	      set_terminal(pid);
	/* a read before the terminal was its own stopped it: go on */
	if (tty)
		kill(-pid, SIGCONT);
	ret = wait_group(pid, stop, at_start, NULL, tree, status, end);
	if (tty)
		set_terminal(getpgrp());
	if (tree) {
		kill_tree();
		prctl(PR_SET_CHILD_SUBREAPER, was_reaper);
	}
	return ret;
}

int command_spawn(const char *const *argv, const int *keep, unsigned int nkeep,
		  pid_t *pid)
{
	return spawn(argv, environ, keep, nkeep, SPAWN_PLAIN, false, NULL, pid);
}

int command_run_io(const char *const *argv, const struct command_io *io,
		   const volatile sig_atomic_t *stop, int *status,
		   enum command_end *end)
{
	sig_atomic_t at_start = stop ? *stop : 0;
	pid_t pid;
	int ret;

	ret = spawn(argv, environ, NULL, 0, SPAWN_HOOK, false, io, &pid);
	if (ret)
		return ret;
	return wait_group(pid, stop, at_start, io, false, status, end);
}

int command_spawn_err(const char *const *argv, const int *keep,
		      unsigned int nkeep, int err, pid_t *pid)
{
	struct command_io io = { .out = -1, .err = err };

	return spawn(argv, environ, keep, nkeep, SPAWN_PLAIN, false, &io, pid);
}

char *command_status(int status, char *buf, size_t len)
{
	if (WIFEXITED(status))
		snprintf(buf, len, "exited with status %d",
			 WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, len, "was killed by signal %d (%s)",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		snprintf(buf, len, "ended with wait status %#x", status);
	return buf;
}
