/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_SYS_COMMAND_H
#define VB_SYS_COMMAND_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "sys/childwait.h"

/*
 * Child processes: the --exec-before and --exec-after hooks (a shell
 * command), perf record, and the command vfsbench record traces. A child's
 * standard output goes to vfsbench's standard error, since standard output
 * holds the results, unless the caller says otherwise (COMMAND_STDOUT).
 */

/* Where command_run_io() sends a command's output, and when it ends it. */
struct command_io {
	int out, err; /* its stdout and stderr; -1: vfsbench's stderr */
	/*
	 * Asked at every look at the command (every 10 ms) while it runs,
	 * with @ctx: true ends it as COMMAND_TIMED_OUT. NULL: never.
	 */
	bool (*expired)(void *ctx);
	void *ctx;
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

/* command_run_argv()'s flags */
#define COMMAND_STDOUT 1u /* its standard output is ours, not our stderr */
/*
 * Nothing it started outlives it: vfsbench is the subreaper of its
 * processes (PR_SET_CHILD_SUBREAPER) while it runs, and once it has
 * ended, every process of its tree still there is killed, whatever its
 * group or session. The caller has no other child meanwhile.
 */
#define COMMAND_TREE 2u

/*
 * Run @argv (argv[0] looked up in PATH) and wait for it, stopped as
 * command_run() stops a hook: a process group of its own, every signal's
 * default disposition, and a stop (*@stop growing) forwarded to the whole
 * group. Its standard input is vfsbench's; where that is the terminal and
 * vfsbench is in its foreground, the group has the terminal while it
 * runs, so that a ^C typed there is the command's to handle. @flags: the
 * COMMAND_ flags above.
 */
int command_run_argv(const char *const *argv, unsigned int flags,
		     const volatile sig_atomic_t *stop, int *status,
		     enum command_end *end);

/*
 * Run @argv (argv[0] looked up in PATH) as command_run() runs a hook (a
 * process group of its own, default dispositions, stdin /dev/null, a
 * stop forwarded to the group), its output where @io says, and once
 * @io->expired says so stopped alike, as COMMAND_TIMED_OUT: SIGTERM to
 * its group, SIGKILL after COMMAND_STOP_GRACE_MS. Returns as command_run().
 * For the programs vfsbench kernels runs: QEMU, mkfs, depmod, modprobe.
 */
int command_run_io(const char *const *argv, const struct command_io *io,
		   const volatile sig_atomic_t *stop, int *status,
		   enum command_end *end);

/*
 * Start @argv (argv[0] looked up in PATH) without waiting, the fds of
 * @keep (@nkeep of them, may be 0) left open in it, as the leader of a
 * process group of its own (so that a stop can end the whole of it:
 * struct child_wait; a terminal's ^C reaches vfsbench alone, which
 * decides), with vfsbench's dispositions and standard input. Returns 0
 * with its pid, or -errno when it could not be started (ENOENT: not
 * found).
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
