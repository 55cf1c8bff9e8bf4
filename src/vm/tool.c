/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The host programs of vfsbench kernels, run to their end with their
 * output kept.
 */
#include <config.h>
#include "vm/tool.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/msg.h"
#include "sys/command.h"

/* @dirfd's @name, created empty for the program's output. */
static int open_out(int dirfd, const char *name, const char *ext)
{
	char file[256];

	snprintf(file, sizeof(file), "%s.%s", name, ext);
	return openat(dirfd, file,
		      O_RDWR | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
		      0600);
}

/* The last VMTOOL_OUT_MAX bytes of @fd. */
static char *read_back(int fd)
{
	off_t end = lseek(fd, 0, SEEK_END);
	off_t from = end > VMTOOL_OUT_MAX ? end - VMTOOL_OUT_MAX : 0;
	char *buf = xmalloc(VMTOOL_OUT_MAX + 1);
	ssize_t r = end > 0 ? pread(fd, buf, (size_t)(end - from), from) : 0;

	buf[r > 0 ? r : 0] = '\0';
	return buf;
}

const char *vmtool_tail(const char *text, unsigned int n)
{
	const char *p = text + strlen(text);

	if (!n)
		return p;
	/* past a final newline, then back to the n-th one before it */
	if (p > text && p[-1] == '\n')
		p--;
	while (p > text) {
		if (p[-1] == '\n' && !--n)
			break;
		p--;
	}
	return p;
}

void vmtool_failed(const struct vmtool *t, const char *prog)
{
	const char *tail = vmtool_tail(*t->err ? t->err : t->out, 5);
	char how[128];

	error("'%s' %s%s", prog, command_status(t->status, how, sizeof(how)),
	      *tail ? "; it said:" : "");
	msg_quote("  | ", tail);
}

int vmtool_run(struct vmtool *t, const char *const *argv, int dirfd,
	       const char *name, const char *package, unsigned int flags,
	       const volatile sig_atomic_t *stop)
{
	struct command_io io = { .out = -1, .err = -1 };
	enum command_end end;
	int ret;

	memset(t, 0, sizeof(*t));
	io.out = open_out(dirfd, name, "out");
	io.err = open_out(dirfd, name, "err");
	if (io.out < 0 || io.err < 0) {
		ret = -errno;
		error("cannot make the output files of '%s': %s", argv[0],
		      strerror(-ret));
		goto out_close;
	}
	ret = command_run_io(argv, &io, stop, &t->status, &end);
	if (ret == -ENOENT) {
		error("cannot run '%s': not found (on Debian: apt-get install %s)",
		      argv[0], package);
		goto out_close;
	}
	if (ret) {
		error("cannot run '%s': %s", argv[0], strerror(-ret));
		goto out_close;
	}
	t->out = read_back(io.out);
	t->err = read_back(io.err);
	if (end != COMMAND_ENDED) {
		ret = -EINTR;
	} else if (t->status) {
		if (!(flags & VMTOOL_QUIET))
			vmtool_failed(t, argv[0]);
		ret = -EIO;
	}
out_close:
	if (io.out >= 0)
		close(io.out);
	if (io.err >= 0)
		close(io.err);
	return ret;
}

void vmtool_release(struct vmtool *t)
{
	free(t->out);
	free(t->err);
	t->out = t->err = NULL;
}
