/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Result files: renamed into place when they replace a regular file (or
 * nothing), written into whatever else their name is.
 */
#include <config.h>
#include "report/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/msg.h"

/*
 * The stream's writer: stdio keeps only an error flag, and by the time
 * the file is closed errno may say anything, so the first error of a
 * write is kept here to be reported (ENOSPC, EPIPE).
 */
static ssize_t cookie_write(void *cookie, const char *buf, size_t len)
{
	struct outfile *o = cookie;
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(o->fd, buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!o->err)
				o->err = n < 0 ? errno : EIO;
			return done ? (ssize_t)done : -1;
		}
		done += (size_t)n;
	}
	return (ssize_t)done;
}

/* Standard output is flushed and left open; the rest is closed. */
static int cookie_close(void *cookie)
{
	struct outfile *o = cookie;

	if (o->fd == STDOUT_FILENO || !close(o->fd))
		return 0;
	if (!o->err)
		o->err = errno;
	return -1;
}

/* A stream on @o->fd, which it then owns; NULL (fd closed) on failure. */
static FILE *stream(struct outfile *o)
{
	static const cookie_io_functions_t io = { .write = cookie_write,
						  .close = cookie_close };

	o->f = fopencookie(o, "w", io);
	if (!o->f && o->fd != STDOUT_FILENO)
		close(o->fd);
	return o->f;
}

/* A name for messages: "-" is standard output. */
static const char *shown(const struct outfile *o)
{
	return o->fd == STDOUT_FILENO ? "standard output" : o->path;
}

FILE *outfile_open(struct outfile *o, const char *path)
{
	const char *name;
	struct stat st;

	memset(o, 0, sizeof(*o));
	o->path = name = path;
	if (!strcmp(path, "-")) {
		/* after what the report has written there */
		fflush(stdout);
		o->direct = true;
		o->fd = STDOUT_FILENO;
	} else if (lstat(path, &st) == 0 ? !S_ISREG(st.st_mode) :
					   errno != ENOENT) {
		/* a device, a FIFO, a socket, a link: into it, as '>' */
		o->direct = true;
		o->fd = open(path,
			     O_WRONLY | O_CREAT | O_TRUNC | O_NOCTTY |
				     O_CLOEXEC,
			     0666);
	} else {
		snprintf(o->tmp, sizeof(o->tmp), "%s.tmp%ld", path,
			 (long)getpid());
		name = o->tmp;
		/* O_EXCL: never through a link, never into another's file */
		o->fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
			     0666);
	}
	if (o->fd < 0 || !stream(o)) {
		error("cannot write '%s': %s", name, strerror(errno));
		if (o->fd >= 0 && !o->direct)
			unlink(o->tmp);
		o->f = NULL;
	}
	return o->f;
}

int outfile_commit(struct outfile *o)
{
	int err;

	fclose(o->f);
	err = o->err;
	if (err) {
		if (!o->direct)
			unlink(o->tmp);
		return error("cannot write '%s': %s", shown(o), strerror(err));
	}
	if (!o->direct && rename(o->tmp, o->path)) {
		err = errno;
		unlink(o->tmp);
		return error("cannot rename '%s' to '%s': %s", o->tmp, o->path,
			     strerror(err));
	}
	return 0;
}

int outfile_json(const json_t *root, const char *path)
{
	struct outfile o;

	if (!outfile_open(&o, path))
		return -1;
	/* a failed write is kept in o.err */
	if (!json_dumpf(root, o.f, JSON_INDENT(1) | JSON_REAL_PRECISION(17)))
		fputc('\n', o.f);
	return outfile_commit(&o);
}
