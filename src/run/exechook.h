/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_RUN_EXECHOOK_H
#define VB_RUN_EXECHOOK_H

#include <stdbool.h>

/*
 * --exec-before and --exec-after: a shell command run by the sweep
 * before and after each run (to drop caches, flip a scheduler feature,
 * start or stop a tracer), told which run through its environment:
 * VFSBENCH_HOOK (before, after), VFSBENCH_RUN (the run's index, which
 * names its run<N> directory), VFSBENCH_CLIENTS, VFSBENCH_REPEAT,
 * VFSBENCH_VARIANT (the variant's label), VFSBENCH_PID (vfsbench's
 * process), VFSBENCH_WORKDIR (the work directory) and, after a run,
 * VFSBENCH_END (complete, strict, max-errors, signal, failed or stuck).
 */
struct exec_hook {
	const char *cmd;
	const char *when; /* "before" or "after" */
	unsigned int run, clients, repeat;
	const char *variant;
	bool several; /* the sweep has several variants: name it */
	const char *workdir;
	const char *end; /* NULL before a run */
};

/*
 * Run it and wait, in a process group of its own (sys/command.h). A
 * signal that comes while it runs is passed to its group (SIGTERM, then
 * SIGKILL after COMMAND_STOP_GRACE_MS or a second signal); it then
 * returns -EINTR, without a message unless SIGKILL was needed. Returns 0
 * when it exited with status 0; -1 with a message naming the command,
 * the run and how it ended otherwise (or when /bin/sh could not be
 * started).
 */
int exec_hook_run(const struct exec_hook *h);

#endif /* VB_RUN_EXECHOOK_H */
