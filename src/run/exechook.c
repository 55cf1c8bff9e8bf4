/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The hooks around each run of a sweep, as plain data from the command
 * line (run_config.exec_before, exec_after), run through sys/command.c.
 */
#include <config.h>
#include "run/exechook.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/msg.h"
#include "run/signals.h"
#include "sys/command.h"

/* "NAME=VALUE", allocated. */
static char *var(const char *name, const char *value)
{
	size_t len = strlen(name) + strlen(value) + 2;
	char *s = xmalloc(len);

	snprintf(s, len, "%s=%s", name, value);
	return s;
}

static char *var_u(const char *name, unsigned long v)
{
	char num[24];

	snprintf(num, sizeof(num), "%lu", v);
	return var(name, num);
}

int exec_hook_run(const struct exec_hook *h)
{
	char *env[10], st[96];
	enum command_end end;
	unsigned int n = 0;
	int ret, status;

	env[n++] = var("VFSBENCH_HOOK", h->when);
	env[n++] = var_u("VFSBENCH_RUN", h->run);
	env[n++] = var_u("VFSBENCH_CLIENTS", h->clients);
	env[n++] = var_u("VFSBENCH_REPEAT", h->repeat);
	env[n++] = var("VFSBENCH_VARIANT", h->variant ? h->variant : "");
	env[n++] = var_u("VFSBENCH_PID", (unsigned long)getpid());
	env[n++] = var("VFSBENCH_WORKDIR", h->workdir);
	if (h->end)
		env[n++] = var("VFSBENCH_END", h->end);
	env[n] = NULL;
	ret = command_run(h->cmd, (const char *const *)env, &signals.count,
			  &status, &end);
	for (unsigned int i = 0; i < n; i++)
		free(env[i]);
	if (ret)
		return error("--exec-%s '%s': cannot start /bin/sh: %s",
			     h->when, h->cmd, strerror(-ret));
	/* stopped by us: the stop, not the hook, says how vfsbench ends */
	if (end == COMMAND_KILLED)
		warning("--exec-%s '%s' still ran %.0f s after SIGTERM: its process group was killed (SIGKILL)",
			h->when, h->cmd, COMMAND_STOP_GRACE_MS / 1000.0);
	if (end != COMMAND_ENDED)
		return -EINTR;
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	return error(
		"--exec-%s '%s' %s, %s run %u (%s%s%u client%s): the sweep stops",
		h->when, h->cmd, command_status(status, st, sizeof(st)),
		h->when, h->run, h->several ? h->variant : "",
		h->several ? ", " : "", h->clients, h->clients == 1 ? "" : "s");
}
