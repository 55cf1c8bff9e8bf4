/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_SYS_COMMAND_H
#define VB_SYS_COMMAND_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Child processes: the --exec-before and --exec-after hooks (a shell
 * command) and perf record. A child's standard output goes to vfsbench's
 * standard error, since standard output holds the results.
 */

/*
 * Run @cmd with "/bin/sh -c" and wait for it, with @env ("NAME=VALUE"
 * strings, NULL-terminated, may be NULL) set in its environment over
 * vfsbench's own. Returns 0 with its wait status in *@status, or -errno
 * when it could not be started.
 */
int command_run(const char *cmd, const char *const *env, int *status);

/*
 * Start @argv (argv[0] looked up in PATH) without waiting, the fds of
 * @keep (@nkeep of them, may be 0) left open in it. Returns 0 with its
 * pid, or -errno when it could not be started (ENOENT: not found).
 */
int command_spawn(const char *const *argv, const int *keep, unsigned int nkeep,
		  pid_t *pid);

/*
 * A wait status in words: "exited with status 3", "was killed by signal
 * 9 (Killed)". Returns @buf.
 */
char *command_status(int status, char *buf, size_t len);

#endif /* VB_SYS_COMMAND_H */
