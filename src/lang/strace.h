/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_LANG_STRACE_H
#define VB_LANG_STRACE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * struct strace: a reader of the log strace(1) writes with -f -ttt -y -o
 * (doc/recording.md), one line at a time, that hands back whole system
 * calls: a call cut in two by another task ("<unfinished ...>" and
 * "<... NAME resumed>") comes back once, when its second half is read.
 * Signal lines are skipped; the "+++ exited" lines are noted, so that a
 * log that stops before its tasks ended is known to be cut short.
 */

#include "lang/pidmap.h"

#define STRACE_MAX_ARGS 8
#define STRACE_NAME_LEN 32
/*
 * The largest pid Linux gives (PID_MAX_LIMIT on 64 bits): a larger one is
 * no pid, and the bound keeps a log's table of tasks finite.
 */
#define STRACE_PID_MAX 4194304
/*
 * The longest line read (its newline not counted): a call with four paths
 * of PATH_MAX bytes, each byte escaped as \xNN, is 64 KiB. A longer line
 * is no line of strace's, and the bound keeps an endless one from taking
 * all the memory.
 */
#define STRACE_LINE_MAX (1u << 20)
/* The unfinished calls held at once, in bytes, bounded for the same reason */
#define STRACE_PENDING_MAX (64u << 20)

/* One finished system call; its strings point into the reader. */
struct strace_call {
	long pid;
	char name[STRACE_NAME_LEN];
	char *args[STRACE_MAX_ARGS]; /* as printed, spaces trimmed */
	unsigned int nargs;
	bool ret_known; /* false for "= ?" */
	long long ret;
	char err[24]; /* "ENOENT" when it failed, else "" */
	char *ret_fd_path; /* the -y path of a returned fd ("= 3</a/b>") */
	unsigned int line; /* the log line its result is on */
};

struct strace_pending {
	long pid;
	unsigned int task; /* its index in struct strace's tasks */
	char *text; /* the call up to "<unfinished ...>" */
	unsigned int line;
};

struct strace {
	const char *name; /* for messages */
	unsigned int line;
	char *buf; /* the call being handed back */
	size_t bufsz;
	struct strace_pending *pend;
	unsigned int npend, apend;
	size_t pend_bytes; /* of their texts */
	long *tasks; /* every pid seen, and whether it ended */
	bool *ended;
	unsigned int *pend_of; /* a task's index in pend + 1, or 0 */
	unsigned int ntasks, atasks;
	struct pidmap taskmap; /* pid -> index in tasks */
};

void strace_init(struct strace *s, const char *name);
void strace_release(struct strace *s);

/*
 * Read one line (without its newline; modified). Returns 1 with a call in
 * @c, 0 for a line that completes none, or -EINVAL with a message
 * "NAME:LINE:COL: ..." for a line that is not strace's.
 */
int strace_line(struct strace *s, char *line, struct strace_call *c);

/*
 * At the end of the log: 0, or -EINVAL with a message when it was cut
 * short (a call never resumed, a task that never ended).
 */
int strace_end(struct strace *s);

/* Tasks seen so far. */
static inline unsigned int strace_ntasks(const struct strace *s)
{
	return s->ntasks;
}

/*
 * Decode a quoted string argument ("a\tb\x41") into @out (@len bytes, NUL
 * terminated). Returns its length, or -EINVAL when @arg is no string, is
 * cut ("..."), holds a NUL or does not fit.
 */
int strace_string(const char *arg, char *out, size_t len);

/* No fd is larger: Linux's fs.nr_open stops at about 2^31, ours below. */
#define STRACE_FD_MAX (1 << 30)

/*
 * An fd argument printed with -y ("3</a/b>", "AT_FDCWD</a>"): its number
 * (AT_FDCWD as -100) and the decoded path, if there is one ("" if not).
 * Returns 0, or -EINVAL when @arg is not one.
 */
int strace_fd(const char *arg, int *fd, char *path, size_t len);

/* Decode strace's escapes of @s (@n bytes) into @out; -EINVAL as above. */
int strace_unescape(const char *s, size_t n, char *out, size_t len);

#endif /* VB_LANG_STRACE_H */
