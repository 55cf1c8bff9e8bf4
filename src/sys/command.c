/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Child processes through posix_spawn(3): vfsbench is multi-threaded
 * only while clients run, but posix_spawn is the safe way in any case.
 */
#include <config.h>
#include "sys/command.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
 * The child's stdout is our stderr, or @io's out; its stderr is ours, or
 * @io's err (NULL: ours for both).
 */
static int spawn(const char *const *argv, char **envp, const int *keep,
		 unsigned int nkeep, enum spawn_how how,
		 const struct command_io *io, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t set;
	int ret;

	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&attr);
	posix_spawn_file_actions_adddup2(
		&fa, io && io->out >= 0 ? io->out : STDERR_FILENO,
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
 * Wait for the group leader @pid, forwarding a stop (command_run()): a
 * signal since *@stop was @at_start. That is read before the command is
 * spawned, since the command may signal us at once (a hook that runs
 * `kill -INT $PPID` did, before this wait began, and was waited for for
 * ever).
 */
static int wait_group(pid_t pid, const volatile sig_atomic_t *stop,
		      sig_atomic_t at_start, const struct command_io *io,
		      int *status, enum command_end *end)
{
	struct child_wait cw;
	int ret;

	child_wait_init(&cw, pid, stop, at_start, SIGTERM);
	if (io) {
		cw.expired = io->expired;
		cw.ctx = io->ctx;
	}
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

	ret = spawn(argv, envp, NULL, 0, SPAWN_HOOK, NULL, &pid);
	free(envp);
	if (ret)
		return ret;
	return wait_group(pid, stop, at_start, NULL, status, end);
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

int command_run_argv(const char *const *argv, const volatile sig_atomic_t *stop,
		     int *status, enum command_end *end)
{
	sig_atomic_t at_start = stop ? *stop : 0;
	bool tty;
	pid_t pid;
	int ret;

	ret = spawn(argv, environ, NULL, 0, SPAWN_GROUP, NULL, &pid);
	if (ret)
		return ret;
	tty = isatty(STDIN_FILENO) && tcgetpgrp(STDIN_FILENO) == getpgrp() &&
	      set_terminal(pid);
	/* a read before the terminal was its own stopped it: go on */
	if (tty)
		kill(-pid, SIGCONT);
	ret = wait_group(pid, stop, at_start, NULL, status, end);
	if (tty)
		set_terminal(getpgrp());
	return ret;
}

int command_spawn(const char *const *argv, const int *keep, unsigned int nkeep,
		  pid_t *pid)
{
	return spawn(argv, environ, keep, nkeep, SPAWN_PLAIN, NULL, pid);
}

int command_run_io(const char *const *argv, const struct command_io *io,
		   const volatile sig_atomic_t *stop, int *status,
		   enum command_end *end)
{
	sig_atomic_t at_start = stop ? *stop : 0;
	pid_t pid;
	int ret;

	ret = spawn(argv, environ, NULL, 0, SPAWN_HOOK, io, &pid);
	if (ret)
		return ret;
	return wait_group(pid, stop, at_start, io, status, end);
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
