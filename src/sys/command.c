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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
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
	SPAWN_PLAIN, /* vfsbench's group, dispositions and stdin */
	SPAWN_GROUP, /* a group of its own, default dispositions, no mask */
	SPAWN_HOOK, /* SPAWN_GROUP, and stdin from /dev/null */
};

/* The child's stdout is our stderr; its stderr too, or @err (>= 0). */
static int spawn(const char *const *argv, char **envp, const int *keep,
		 unsigned int nkeep, int err, enum spawn_how how, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t set;
	int ret;

	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&attr);
	posix_spawn_file_actions_adddup2(&fa, STDERR_FILENO, STDOUT_FILENO);
	if (err >= 0)
		posix_spawn_file_actions_adddup2(&fa, err, STDERR_FILENO);
	/* dup2 onto itself clears close-on-exec (glibc 2.29, POSIX 2024) */
	for (unsigned int i = 0; i < nkeep; i++)
		posix_spawn_file_actions_adddup2(&fa, keep[i], keep[i]);
	if (how == SPAWN_HOOK)
		posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null",
						 O_RDONLY, 0);
	if (how != SPAWN_PLAIN) {
		/* SIGPIPE and SIGXFSZ are ignored here, SIGUSR1 blocked */
		sigfillset(&set);
		posix_spawnattr_setsigdefault(&attr, &set);
		sigemptyset(&set);
		posix_spawnattr_setsigmask(&attr, &set);
		posix_spawnattr_setpgroup(&attr, 0);
		posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP |
							POSIX_SPAWN_SETSIGDEF |
							POSIX_SPAWN_SETSIGMASK);
	}
	ret = -posix_spawnp(pid, argv[0], &fa, &attr, (char *const *)argv,
			    envp);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
	return ret;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* How often the wait looks at *stop (it sleeps in between). */
#define WAIT_POLL_NS (10 * 1000 * 1000)

/*
 * Wait for the group leader @pid, forwarding a stop (command_run()): a
 * signal since *@stop was @at_start. That is read before the command is
 * spawned, since the command may signal us at once (a hook that runs
 * `kill -INT $PPID` did, before this wait began, and was waited for for
 * ever). It polls: a blocking waitpid() would miss a signal that lands
 * between the look at *@stop and the call.
 */
static int wait_group(pid_t pid, const volatile sig_atomic_t *stop,
		      sig_atomic_t at_start, int *status, enum command_end *end)
{
	const struct timespec tick = { .tv_nsec = WAIT_POLL_NS };
	sig_atomic_t at_term = 0;
	uint64_t deadline = 0;

	*end = COMMAND_ENDED;
	for (;;) {
		siginfo_t si = { .si_pid = 0 };

		/* WNOWAIT: a zombie leader keeps the group id ours */
		if (waitid(P_PID, (id_t)pid, &si,
			   WEXITED | WNOHANG | WNOWAIT)) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (si.si_pid == pid)
			break;
		if (*end == COMMAND_ENDED && stop && *stop != at_start) {
			kill(-pid, SIGTERM);
			/* a stopped member (SIGTTOU, SIGSTOP) must see it */
			kill(-pid, SIGCONT);
			*end = COMMAND_TERMINATED;
			at_term = *stop;
			deadline = now_ms() + COMMAND_STOP_GRACE_MS;
		} else if (*end == COMMAND_TERMINATED &&
			   (*stop != at_term || now_ms() >= deadline)) {
			kill(-pid, SIGKILL);
			*end = *stop != at_term ? COMMAND_KILLED_AGAIN :
						  COMMAND_KILLED;
		}
		nanosleep(&tick, NULL);
	}
	/* a stopped hook's background children go with it */
	if (*end != COMMAND_ENDED)
		kill(-pid, SIGKILL);
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return 0;
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

	ret = spawn(argv, envp, NULL, 0, -1, SPAWN_HOOK, &pid);
	free(envp);
	if (ret)
		return ret;
	return wait_group(pid, stop, at_start, status, end);
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

	ret = spawn(argv, environ, NULL, 0, -1, SPAWN_GROUP, &pid);
	if (ret)
		return ret;
	tty = isatty(STDIN_FILENO) && tcgetpgrp(STDIN_FILENO) == getpgrp() &&
	      set_terminal(pid);
	/* a read before the terminal was its own stopped it: go on */
	if (tty)
		kill(-pid, SIGCONT);
	ret = wait_group(pid, stop, at_start, status, end);
	if (tty)
		set_terminal(getpgrp());
	return ret;
}

int command_spawn(const char *const *argv, const int *keep, unsigned int nkeep,
		  pid_t *pid)
{
	return spawn(argv, environ, keep, nkeep, -1, SPAWN_PLAIN, pid);
}

int command_spawn_err(const char *const *argv, const int *keep,
		      unsigned int nkeep, int err, pid_t *pid)
{
	return spawn(argv, environ, keep, nkeep, err, SPAWN_PLAIN, pid);
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
