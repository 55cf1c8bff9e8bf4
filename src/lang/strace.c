// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The strace log reader (lang/strace.h). strace prints a call as
 * "PID TIME NAME(ARG, ARG, ...) = RESULT", with strings in C quoting and,
 * with -y, an fd's path after its number in angle brackets, escaped so that
 * the path holds no '>'. A call that blocks while another task runs is
 * split over two lines, which are joined here before anything reads it.
 */
#include <config.h>
#include "lang/strace.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/msg.h"

static const char unfinished[] = " <unfinished ...>";

void strace_init(struct strace *s, const char *name)
{
	memset(s, 0, sizeof(*s));
	s->name = name;
}

void strace_release(struct strace *s)
{
	for (unsigned int i = 0; i < s->npend; i++)
		free(s->pend[i].text);
	free(s->pend);
	free(s->buf);
	free(s->tasks);
	free(s->ended);
	free(s->pend_of);
	pidmap_release(&s->taskmap);
	memset(s, 0, sizeof(*s));
}

static unsigned int task_slot(struct strace *s, long pid)
{
	unsigned int i;

	if (pidmap_get(&s->taskmap, pid, &i))
		return i;
	if (s->ntasks == s->atasks) {
		s->atasks = s->atasks ? 2 * s->atasks : 16;
		s->tasks = xrealloc(s->tasks, s->atasks * sizeof(*s->tasks));
		s->ended = xrealloc(s->ended, s->atasks * sizeof(*s->ended));
		s->pend_of =
			xrealloc(s->pend_of, s->atasks * sizeof(*s->pend_of));
	}
	s->tasks[s->ntasks] = pid;
	s->ended[s->ntasks] = false;
	s->pend_of[s->ntasks] = 0;
	pidmap_put(&s->taskmap, pid, s->ntasks);
	return s->ntasks++;
}

static int serr(struct strace *s, unsigned int col, const char *what)
{
	error_at(s->name, s->line, col, "%s", what);
	return -EINVAL;
}

int strace_unescape(const char *s, size_t n, char *out, size_t len)
{
	size_t w = 0;
	const char *end = s + n;

	while (s < end) {
		unsigned int c = (unsigned char)*s++;

		if (c == '\\') {
			if (s == end)
				return -EINVAL;
			c = (unsigned char)*s++;
			switch (c) {
			case 'n':
				c = '\n';
				break;
			case 't':
				c = '\t';
				break;
			case 'r':
				c = '\r';
				break;
			case 'v':
				c = '\v';
				break;
			case 'f':
				c = '\f';
				break;
			case '\\':
			case '"':
			case '\'':
			case '<':
			case '>':
				break;
			case 'x': {
				unsigned int v = 0, k;

				for (k = 0; k < 2 && s < end && isxdigit(*s);
				     k++, s++)
					v = v * 16 +
					    (unsigned int)(isdigit(*s) ?
								   *s - '0' :
								   (*s | 0x20) -
									   'a' +
									   10);
				if (!k)
					return -EINVAL;
				c = v;
				break;
			}
			default:
				if (c < '0' || c > '7')
					return -EINVAL;
				c -= '0';
				for (int k = 1;
				     k < 3 && s < end && *s >= '0' && *s <= '7';
				     k++, s++)
					c = c * 8 + (unsigned int)(*s - '0');
				if (c > 0xff)
					return -EINVAL;
			}
		}
		/* a NUL would cut the name where the kernel did not */
		if (!c || w + 1 >= len)
			return -EINVAL;
		out[w++] = (char)c;
	}
	out[w] = '\0';
	return (int)w;
}

int strace_string(const char *arg, char *out, size_t len)
{
	size_t n;

	if (!arg)
		return -EINVAL; /* the call printed fewer arguments */
	n = strlen(arg);
	if (n < 2 || arg[0] != '"' || arg[n - 1] != '"')
		return -EINVAL; /* a pointer, or a string cut at -s ("...) */
	return strace_unescape(arg + 1, n - 2, out, len);
}

int strace_fd(const char *arg, int *fd, char *path, size_t len)
{
	const char *p = arg, *lt;
	char *end;
	long v;

	if (!p)
		return -EINVAL;
	if (!strncmp(p, "AT_FDCWD", 8)) {
		v = -100;
		p += 8;
	} else {
		errno = 0;
		v = strtol(p, &end, 10);
		if (end == p || errno || v < -1 || v > STRACE_FD_MAX)
			return -EINVAL;
		p = end;
	}
	*fd = (int)v;
	if (!*p) {
		if (len)
			path[0] = '\0';
		return 0;
	}
	lt = p;
	if (*lt != '<' || lt[strlen(lt) - 1] != '>')
		return -EINVAL;
	return strace_unescape(lt + 1, strlen(lt) - 2, path, len) < 0 ?
		       -EINVAL :
		       0;
}

/* Make room for @n bytes in the call buffer. */
static void buf_reserve(struct strace *s, size_t n)
{
	if (n > s->bufsz) {
		s->bufsz = n + 256;
		s->buf = xrealloc(s->buf, s->bufsz);
	}
}

/* The argument from @start to @end (a ',' or the ')'), trimmed. */
static void end_arg(struct strace_call *c, char *start, char *end)
{
	while (*start == ' ')
		start++;
	while (end > start && end[-1] == ' ')
		end--;
	*end = '\0';
	/* "f()" has no argument; a call with more than we read loses the
	 * last ones, which no op needs */
	if ((*start || c->nargs) && c->nargs < STRACE_MAX_ARGS)
		c->args[c->nargs++] = start;
}

/*
 * Split the arguments at s->buf + @at, after the '(', in place: commas at
 * the top level, outside strings, brackets, comments and -y paths. Returns
 * the offset of the closing ')' or -1 when the line ends before it.
 */
static long split_args(struct strace *s, size_t at, struct strace_call *c)
{
	char *b = s->buf, *p = b + at, *start = p;
	int depth = 0;

	c->nargs = 0;
	for (;; p++) {
		switch (*p) {
		case '\0':
			return -1;
		case '"':
			for (p++; *p && *p != '"'; p++)
				if (*p == '\\' && p[1])
					p++;
			if (!*p)
				return -1;
			break;
		case '<':
			/* "3</path>": a -y path, which strace escapes '>' in */
			if (p > b && (isdigit(p[-1]) || p[-1] == 'D')) {
				p = strchr(p, '>');
				if (!p)
					return -1;
			}
			break;
		case '/':
			if (p[1] == '*') {
				p = strstr(p + 2, "*/");
				if (!p)
					return -1;
				p++;
			}
			break;
		case '(':
		case '[':
		case '{':
			depth++;
			break;
		case ']':
		case '}':
			depth--;
			break;
		case ')':
			if (depth > 0) {
				depth--;
				break;
			}
			end_arg(c, start, p);
			return p - b;
		case ',':
			if (depth > 0)
				break;
			end_arg(c, start, p);
			start = p + 1;
			break;
		default:
			break;
		}
	}
}

/* Parse a whole call, "NAME(ARGS) = RESULT ...", copied into s->buf. */
static int parse_call(struct strace *s, const char *text, unsigned int col,
		      struct strace_call *c)
{
	size_t n = strlen(text), k = 0;
	long close;
	char *r, *end;

	buf_reserve(s, n + 1);
	memcpy(s->buf, text, n + 1);
	while (k < sizeof(c->name) - 1 &&
	       (isalnum((unsigned char)text[k]) || text[k] == '_')) {
		c->name[k] = text[k];
		k++;
	}
	c->name[k] = '\0';
	if (!k || text[k] != '(')
		return serr(s, col, "not a system call of strace's");
	close = split_args(s, k + 1, c);
	r = close < 0 ? NULL : s->buf + close + 1;
	/* strace pads short calls to put the results in a column */
	while (r && *r == ' ')
		r++;
	if (!r || r == s->buf + close + 1 || r[0] != '=' || r[1] != ' ')
		return serr(
			s, col,
			"a call without its result: the trace is cut short");
	r += 2;
	c->ret_fd_path = NULL;
	c->err[0] = '\0';
	c->ret = 0;
	c->ret_known = *r != '?';
	if (!c->ret_known)
		return 1;
	errno = 0;
	c->ret = strtoll(r, &end, 0);
	if (end == r || errno)
		return serr(s, col + (unsigned int)(r - s->buf),
			    "a result that is not a number");
	if (*end == '<') {
		char *gt = strchr(end, '>');

		if (!gt)
			return serr(s, col + (unsigned int)(end - s->buf),
				    "an fd's path without its '>'");
		*gt = '\0';
		c->ret_fd_path = end + 1;
		end = gt + 1;
	}
	if (c->ret == -1 && end[0] == ' ' && end[1] == 'E') {
		size_t e = 0;

		for (end++;
		     e < sizeof(c->err) - 1 && (isupper((unsigned char)*end) ||
						isdigit((unsigned char)*end));
		     end++)
			c->err[e++] = *end;
		c->err[e] = '\0';
	}
	return 1;
}

static struct strace_pending *pending(struct strace *s, unsigned int task)
{
	return s->pend_of[task] ? &s->pend[s->pend_of[task] - 1] : NULL;
}

/* @pd, of pending(), is resumed: the last one takes its place. */
static void pending_drop(struct strace *s, struct strace_pending *pd)
{
	s->pend_of[pd->task] = 0;
	s->pend_bytes -= strlen(pd->text);
	free(pd->text);
	*pd = s->pend[--s->npend];
	if (pd != &s->pend[s->npend])
		s->pend_of[pd->task] = (unsigned int)(pd - s->pend) + 1;
}

int strace_line(struct strace *s, char *line, struct strace_call *c)
{
	char *p = line, *end;
	size_t n = strlen(line);
	unsigned int task;
	struct strace_pending *pd;
	long pid = 0;
	int ret;

	s->line++;
	if (n && line[n - 1] == '\r')
		line[--n] = '\0';
	if (!n)
		return 0;
	/* "PID TIME ": both are there with -f -ttt, either may be absent */
	if (isdigit((unsigned char)*p)) {
		errno = 0;
		pid = strtol(p, &end, 10);
		if (*end == '.') { /* a time, no pid */
			pid = 0;
			end = strchr(end, ' ');
			if (!end)
				return serr(s, 1, "a time and nothing else");
		} else if (*end != ' ' || errno) {
			return serr(s, 1, "not a line of strace -f");
		} else if (pid > STRACE_PID_MAX) {
			return serr(
				s, 1,
				"a pid larger than Linux gives (4194304): not a line of strace -f");
		}
		p = end;
		while (*p == ' ')
			p++;
		if (isdigit((unsigned char)*p) && strchr(p, ' ') &&
		    memchr(p, '.', (size_t)(strchr(p, ' ') - p)))
			p = strchr(p, ' ') + 1;
	}
	task = task_slot(s, pid);
	c->pid = pid;
	c->line = s->line;
	if (!strncmp(p, "--- ", 4))
		return 0; /* a signal */
	if (!strncmp(p, "+++ ", 4)) {
		if (strncmp(p, "+++ exited with ", 16) &&
		    strncmp(p, "+++ killed by ", 14))
			return serr(s, (unsigned int)(p - line) + 1,
				    "an unknown '+++' line");
		s->ended[task] = true;
		return 0;
	}
	n = strlen(p);
	if (!strncmp(p, "<... ", 5)) {
		char *tail = strstr(p, " resumed>");
		char *joined;

		pd = pending(s, task);
		if (!tail || !pd)
			return serr(s, (unsigned int)(p - line) + 1,
				    "a call resumed that was never started");
		tail += 9;
		joined = xmalloc(strlen(pd->text) + strlen(tail) + 1);
		strcpy(joined, pd->text);
		strcat(joined, tail);
		pending_drop(s, pd);
		ret = parse_call(s, joined, (unsigned int)(p - line) + 1, c);
		free(joined);
		return ret;
	}
	if (n >= sizeof(unfinished) - 1 &&
	    !strcmp(p + n - (sizeof(unfinished) - 1), unfinished)) {
		if (pending(s, task))
			return serr(s, (unsigned int)(p - line) + 1,
				    "a second unfinished call of one task");
		if (s->pend_bytes + n > STRACE_PENDING_MAX)
			return serr(
				s, (unsigned int)(p - line) + 1,
				"more than 64 MiB of calls unfinished at once: not a log of strace's");
		s->pend_bytes += n - (sizeof(unfinished) - 1);
		if (s->npend == s->apend) {
			s->apend = s->apend ? 2 * s->apend : 8;
			s->pend =
				xrealloc(s->pend, s->apend * sizeof(*s->pend));
		}
		s->pend_of[task] = s->npend + 1;
		s->pend[s->npend].task = task;
		s->pend[s->npend].pid = pid;
		s->pend[s->npend].line = s->line;
		s->pend[s->npend++].text =
			xstrndup(p, n - (sizeof(unfinished) - 1));
		return 0;
	}
	return parse_call(s, p, (unsigned int)(p - line) + 1, c);
}

int strace_end(struct strace *s)
{
	if (s->npend) {
		error_at(
			s->name, s->pend[0].line, 1,
			"a call of task %ld never finished: the trace is cut short",
			s->pend[0].pid);
		return -EINVAL;
	}
	for (unsigned int i = 0; i < s->ntasks; i++) {
		if (!s->ended[i]) {
			error_at(s->name, s->line, 1,
				 "task %ld never ended: the trace is cut short",
				 s->tasks[i]);
			return -EINVAL;
		}
	}
	if (!s->ntasks) {
		error_at(s->name, s->line, 1, "no task in the trace");
		return -EINVAL;
	}
	return 0;
}
