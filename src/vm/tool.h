/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_VM_TOOL_H
#define VB_VM_TOOL_H

#include <signal.h>

/*
 * struct vmtool: a host program that vfsbench kernels runs to prepare a
 * boot (depmod, modprobe, mkfs), its output kept in two files of
 * vfsbench's own directory and read back, so that a failure can be told
 * with the program's own words.
 */

/* What is kept of each output: its end. */
#define VMTOOL_OUT_MAX (1024 * 1024)

struct vmtool {
	char *out, *err; /* stdout and stderr, NUL-terminated */
	int status; /* the wait status */
};

/* vmtool_run()'s @flags: no message when it fails (vmtool_failed()). */
#define VMTOOL_QUIET 1

/*
 * Run @argv (argv[0] looked up in PATH), stdout and stderr into the
 * files @name.out and @name.err of the directory @dirfd, and read them
 * back. Returns 0 when it exited with status 0; -ENOENT with a message
 * naming @package when it is not installed; -EINTR without a message
 * when *@stop grew (it was stopped); -EIO with a message holding the end
 * of its output when it failed; another -errno with a message. @t needs
 * vmtool_release() either way.
 */
int vmtool_run(struct vmtool *t, const char *const *argv, int dirfd,
	       const char *name, const char *package, unsigned int flags,
	       const volatile sig_atomic_t *stop);

/* The message of a failed @prog (its status, the end of its output). */
void vmtool_failed(const struct vmtool *t, const char *prog);
void vmtool_release(struct vmtool *t);

/* The last @n lines of @text (a pointer into it). */
const char *vmtool_tail(const char *text, unsigned int n);

#endif /* VB_VM_TOOL_H */
