/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perf script as a child whose standard output is a pipe to us. The
 * kernel's symbols are read from /proc/kallsyms (perf script resolves
 * them when it runs: on the machine, and under the kernel, that recorded).
 */
#include <config.h>
#include "sys/perfscript.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/msg.h"
#include "sys/command.h"

extern char **environ;

int perf_script_open(struct perf_script *ps, const char *file)
{
	const char *argv[] = { "perf", "script",	   "-i", file,
			       "-F",   PERF_SCRIPT_FIELDS, NULL };
	posix_spawn_file_actions_t fa;
	int p[2], ret;

	memset(ps, 0, sizeof(*ps));
	if (pipe2(p, O_CLOEXEC))
		return error("perf script: pipe: %s", strerror(errno));
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, p[1], STDOUT_FILENO);
	ret = -posix_spawnp(&ps->pid, argv[0], &fa, NULL, (char *const *)argv,
			    environ);
	posix_spawn_file_actions_destroy(&fa);
	close(p[1]);
	if (ret) {
		close(p[0]);
		if (ret == -ENOENT)
			return error(
				"perf script: perf is not installed (Debian: apt-get install linux-perf)");
		return error("perf script: cannot start perf: %s",
			     strerror(-ret));
	}
	ps->out = fdopen(p[0], "r");
	if (!ps->out) {
		ret = -errno;
		close(p[0]);
		kill(ps->pid, SIGKILL);
		waitpid(ps->pid, NULL, 0);
		return error("perf script: %s", strerror(-ret));
	}
	return 0;
}

int perf_script_close(struct perf_script *ps, const char *file)
{
	char st[64];
	int status;

	/* what is left unread: perf gets EPIPE and ends */
	fclose(ps->out);
	ps->out = NULL;
	while (waitpid(ps->pid, &status, 0) < 0)
		if (errno != EINTR)
			return error("perf script -i '%s': cannot wait: %s",
				     file, strerror(errno));
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	return error("perf script -i '%s' %s", file,
		     command_status(status, st, sizeof(st)));
}
