// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vfsbench record's log reader (cli/recordlog.h): the lines of strace's
 * log, bounded, handed to lang/strace.c and lang/record.c. A read of
 * read(2) of our own, not getline(3): a line is bounded (getline grows
 * its buffer for ever on an endless one), and a stop signal, which
 * interrupts a read (run/signals.c installs no SA_RESTART), is looked at
 * between reads and between lines, where the log may never end.
 */
#include <config.h>
#include "cli/recordlog.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/exit.h"
#include "base/msg.h"
#include "lang/reader.h"
#include "lang/record.h"
#include "lang/strace.h"
#include "run/signals.h"

/* A line and its newline, and a read's worth after it. */
#define BUF_SIZE (STRACE_LINE_MAX + 1 + (64u << 10))

struct log {
	const char *name;
	int fd;
	char *buf;
	size_t start, end; /* the bytes not handed out yet */
	bool eof;
};

enum {
	LINE_OK,
	LINE_EOF,
	LINE_CUT, /* a last line without its newline */
	LINE_LONG, /* longer than STRACE_LINE_MAX */
};

/*
 * The next line in *@line (NUL-terminated, without its newline; *@len
 * bytes): LINE_OK, LINE_EOF, LINE_CUT (*@len: its length), LINE_LONG,
 * or -errno of a read (-EINTR: a signal, maybe a stop).
 */
static int next_line(struct log *l, char **line, size_t *len)
{
	for (;;) {
		char *nl = memchr(l->buf + l->start, '\n', l->end - l->start);
		ssize_t n;

		if (nl) {
			*line = l->buf + l->start;
			*len = (size_t)(nl - *line);
			*nl = '\0';
			l->start += *len + 1;
			return *len > STRACE_LINE_MAX ? LINE_LONG : LINE_OK;
		}
		if (l->end - l->start > STRACE_LINE_MAX)
			return LINE_LONG;
		if (l->eof) {
			*len = l->end - l->start;
			return *len ? LINE_CUT : LINE_EOF;
		}
		if (l->start) {
			memmove(l->buf, l->buf + l->start, l->end - l->start);
			l->end -= l->start;
			l->start = 0;
		}
		n = read(l->fd, l->buf + l->end, BUF_SIZE - l->end);
		if (n < 0)
			return -errno;
		if (!n)
			l->eof = true;
		l->end += (size_t)n;
	}
}

/* A stop signal since the start: its exit status, with a message. */
static int stopped(void)
{
	error("stopped by a signal while the log was read: no loadfile written");
	return VB_EXIT_SIGNAL(signals.last);
}

/* The lines of @l into @s and @r; 0 or an exit status with a message. */
static int read_lines(struct log *l, struct strace *s, struct record *r)
{
	struct strace_call c;
	char *line = NULL;
	size_t len = 0;
	int ret;

	for (;;) {
		if (signals.count)
			return stopped();
		ret = next_line(l, &line, &len);
		if (ret == -EINTR)
			continue; /* a signal: a stop is seen above */
		if (ret < 0)
			return error("cannot read %s: %s", l->name,
				     strerror(-ret)),
			       VB_EXIT_USAGE;
		if (ret == LINE_EOF)
			return 0;
		if (ret == LINE_CUT)
			return error_at(
				       l->name, s->line + 1, (unsigned int)len,
				       "a line without its end: the trace is cut short"),
			       VB_EXIT_USAGE;
		if (ret == LINE_LONG)
			return error_at(
				       l->name, s->line + 1,
				       STRACE_LINE_MAX + 1,
				       "a line longer than %u bytes: not a line of strace's",
				       STRACE_LINE_MAX),
			       VB_EXIT_USAGE;
		if (memchr(line, '\0', len))
			return error_at(l->name, s->line + 1,
					(unsigned int)strlen(line) + 1,
					"a NUL byte: not a line of strace's"),
			       VB_EXIT_USAGE;
		ret = strace_line(s, line, &c);
		if (ret < 0)
			return VB_EXIT_USAGE;
		if (!ret)
			continue;
		record_call(r, &c);
		/* what the log makes is held until the end: bounded */
		if (r->run_bytes > LOADFILE_MAX_BYTES ||
		    r->ops > LOADFILE_MAX_LINES)
			return error_at(
				       l->name, s->line, 1,
				       "the recording passes what a loadfile may hold (%u ops, %u MiB) at this call: record less (a smaller --root, a shorter command)",
				       LOADFILE_MAX_LINES,
				       LOADFILE_MAX_BYTES >> 20),
			       VB_EXIT_RUNTIME;
	}
}

int recordlog_read(const char *log, struct record *r, unsigned int *ntasks)
{
	struct log l = { .name = log };
	struct strace s;
	int ret;

	/* a FIFO with no writer blocks the open until a stop (EINTR) */
	l.fd = open(log, O_RDONLY | O_CLOEXEC);
	if (l.fd < 0 && errno == EINTR && signals.count)
		return stopped();
	if (l.fd < 0)
		return error("cannot read %s: %s", log, strerror(errno)),
		       VB_EXIT_USAGE;
	l.buf = xmalloc(BUF_SIZE);
	strace_init(&s, log);
	ret = read_lines(&l, &s, r);
	if (!ret && strace_end(&s))
		ret = VB_EXIT_USAGE;
	*ntasks = strace_ntasks(&s);
	strace_release(&s);
	free(l.buf);
	close(l.fd);
	return ret;
}
