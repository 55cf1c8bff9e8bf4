/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Child processes through posix_spawn(3): vfsbench is multi-threaded
 * only while clients run, but posix_spawn is the safe way in any case.
 */
#include <config.h>
#include "sys/command.h"

#include <errno.h>
#include <signal.h>
#include <spawn.h>
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

/* The child's stdout is our stderr. */
static int spawn(const char *const *argv, char **envp, const int *keep,
		 unsigned int nkeep, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	int ret;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, STDERR_FILENO, STDOUT_FILENO);
	/* dup2 onto itself clears close-on-exec (glibc 2.29, POSIX 2024) */
	for (unsigned int i = 0; i < nkeep; i++)
		posix_spawn_file_actions_adddup2(&fa, keep[i], keep[i]);
	ret = -posix_spawnp(pid, argv[0], &fa, NULL, (char *const *)argv, envp);
	posix_spawn_file_actions_destroy(&fa);
	return ret;
}

int command_run(const char *cmd, const char *const *env, int *status)
{
	const char *argv[] = { "/bin/sh", "-c", cmd, NULL };
	char **envp = merged(env);
	pid_t pid;
	int ret;

	ret = spawn(argv, envp, NULL, 0, &pid);
	free(envp);
	if (ret)
		return ret;
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

int command_spawn(const char *const *argv, const int *keep, unsigned int nkeep,
		  pid_t *pid)
{
	return spawn(argv, environ, keep, nkeep, pid);
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
