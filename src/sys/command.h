/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_SYS_COMMAND_H
#define VB_SYS_COMMAND_H

#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * Child processes: the --exec-before and --exec-after hooks (a shell
 * command), perf record, and the command vfsbench record traces. A child's
 * standard output goes to vfsbench's standard error, since standard output
 * holds the results.
 */

/*
 * How long a command's process group has between the SIGTERM of a stop
 * and the SIGKILL that follows (vfsbench(1) HOOKS).
 */
#define COMMAND_STOP_GRACE_MS 2000

/* How command_run() saw the command end. */
enum command_end {
	COMMAND_ENDED, /* by itself: no stop while it ran */
	COMMAND_TERMINATED, /* a stop: SIGTERM to its group, then it ended */
	COMMAND_KILLED, /* still there at the end of the grace: SIGKILL */
	COMMAND_KILLED_AGAIN, /* a second stop during the grace: SIGKILL */
};

/*
 * Run @cmd with "/bin/sh -c" and wait for it, with @env ("NAME=VALUE"
 * strings, NULL-terminated, may be NULL) set in its environment over
 * vfsbench's own. The command is the leader of a process group of its
 * own, with every signal's default disposition, no signal blocked and
 * /dev/null as its standard input (a background group that read a
 * terminal would be stopped). When *@stop (may be NULL) grows while it
 * runs, its whole group gets SIGTERM, then SIGKILL after
 * COMMAND_STOP_GRACE_MS or when *@stop grows again; once the shell has
 * ended after such a stop, what is left of its group is killed. Returns
 * 0 with its wait status in *@status and how it ended in *@end, or
 * -errno when it could not be started.
 */
int command_run(const char *cmd, const char *const *env,
		const volatile sig_atomic_t *stop, int *status,
		enum command_end *end);

/*
 * Run @argv (argv[0] looked up in PATH) and wait for it, stopped as
 * command_run() stops a hook: a process group of its own, every signal's
 * default disposition, and a stop (*@stop growing) forwarded to the whole
 * group. Its standard input is vfsbench's; where that is the terminal and
 * vfsbench is in its foreground, the group has the terminal while it
 * runs, so that a ^C typed there is the command's to handle.
 */
int command_run_argv(const char *const *argv, const volatile sig_atomic_t *stop,
		     int *status, enum command_end *end);

/*
 * Start @argv (argv[0] looked up in PATH) without waiting, the fds of
 * @keep (@nkeep of them, may be 0) left open in it. Returns 0 with its
 * pid, or -errno when it could not be started (ENOENT: not found).
 */
int command_spawn(const char *const *argv, const int *keep, unsigned int nkeep,
		  pid_t *pid);
/* The same, its standard error onto @err. */
int command_spawn_err(const char *const *argv, const int *keep,
		      unsigned int nkeep, int err, pid_t *pid);

/*
 * A wait status in words: "exited with status 3", "was killed by signal
 * 9 (Killed)". Returns @buf.
 */
char *command_status(int status, char *buf, size_t len);

#endif /* VB_SYS_COMMAND_H */
