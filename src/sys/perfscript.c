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
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/msg.h"
#include "sys/command.h"

extern char **environ;

/* The FILE's reads: poll()ed, a stop obeyed (childwait.h). */
static ssize_t cookie_read(void *cookie, char *buf, size_t len)
{
	struct perf_script *ps = cookie;

	return child_wait_read(&ps->cw, ps->fd, buf, len);
}

static int cookie_close(void *cookie)
{
	struct perf_script *ps = cookie;

	return close(ps->fd);
}

int perf_script_open(struct perf_script *ps, const char *file,
		     const volatile sig_atomic_t *stop)
{
	const char *argv[] = { "perf", "script",	   "-i", file,
			       "-F",   PERF_SCRIPT_FIELDS, NULL };
	cookie_io_functions_t io = { .read = cookie_read,
				     .close = cookie_close };
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	int p[2], ret;

	memset(ps, 0, sizeof(*ps));
	if (pipe2(p, O_CLOEXEC))
		return error("perf script: pipe: %s", strerror(errno));
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, p[1], STDOUT_FILENO);
	/* a group of its own: a stop kills the whole of it */
	posix_spawnattr_init(&attr);
	posix_spawnattr_setpgroup(&attr, 0);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
	ret = -posix_spawnp(&ps->pid, argv[0], &fa, &attr, (char *const *)argv,
			    environ);
	posix_spawnattr_destroy(&attr);
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
	/* a stop before it started counts too: it ends what we read */
	child_wait_init(&ps->cw, ps->pid, stop, 0, 0);
	ps->fd = p[0];
	ps->out = fopencookie(ps, "r", io);
	if (!ps->out) {
		ret = -errno;
		close(p[0]);
		kill(-ps->pid, SIGKILL);
		waitpid(ps->pid, NULL, 0);
		return error("perf script: %s", strerror(-ret));
	}
	return 0;
}

int perf_script_close(struct perf_script *ps, const char *file)
{
	char st[64], why[96];
	int status, ret;

	/* what is left unread: perf gets EPIPE and ends */
	fclose(ps->out);
	ps->out = NULL;
	ret = child_wait_end(&ps->cw, &status);
	if (ret)
		return error("perf script -i '%s': cannot wait: %s", file,
			     strerror(-ret));
	if (child_wait_killed(&ps->cw, why, sizeof(why)))
		return error("perf script -i '%s' %s", file, why);
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	return error("perf script -i '%s' %s", file,
		     command_status(status, st, sizeof(st)));
}
