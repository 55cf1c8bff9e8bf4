// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The recorder's calls (lang/record.h): which system call becomes which
 * op, one function per shape of call; doc/recording.md has the table.
 */
#include <config.h>
#include "lang/record.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/alloc.h"
#include "base/compiler.h"
#include "lang/ops.h"
#include "lang/recordint.h"

/* Open flags in the language's words; false for one it cannot say. */
static bool open_flags(struct record *r, const struct strace_call *c,
		       const char *arg, char *out, size_t len)
{
	static const struct {
		const char *o, *word;
	} map[] = {
		{ "O_RDONLY", "rdonly" },     { "O_WRONLY", "wronly" },
		{ "O_RDWR", "rdwr" },	      { "O_CREAT", "creat" },
		{ "O_EXCL", "excl" },	      { "O_TRUNC", "trunc" },
		{ "O_APPEND", "append" },     { "O_SYNC", "sync" },
		{ "O_DSYNC", "dsync" },	      { "O_DIRECTORY", "directory" },
		{ "O_NOFOLLOW", "nofollow" }, { "O_NOATIME", "noatime" },
		{ "O_CLOEXEC", "cloexec" },
	};
	char buf[256], *save, *f;
	bool lost = false;
	size_t w = 0;

	if (snprintf(buf, sizeof(buf), "%s", arg) >= (int)sizeof(buf))
		return false;
	out[0] = '\0';
	for (f = strtok_r(buf, "|", &save); f; f = strtok_r(NULL, "|", &save)) {
		unsigned int i;

		for (i = 0; i < ARRAY_SIZE(map); i++)
			if (!strcmp(f, map[i].o))
				break;
		if (i < ARRAY_SIZE(map)) {
			w += (size_t)snprintf(out + w, len - w, "%s%s",
					      w ? "," : "", map[i].word);
			if (w >= len)
				return false;
		} else if (!strcmp(f, "O_LARGEFILE")) {
			/* what every 64-bit open has: no change */
		} else if (!strcmp(f, "O_NONBLOCK") || !strcmp(f, "O_NOCTTY")) {
			lost = true; /* no effect on a file or directory */
		} else {
			return false; /* O_PATH, O_TMPFILE, a number */
		}
	}
	if (lost)
		record_count_add(&r->changed, c->name);
	return true;
}

/* "0755" -> " 755"; "" when there is none. */
static void mode_word(const char *arg, char *out, size_t len)
{
	char *end;
	unsigned long m = arg ? strtoul(arg, &end, 8) : 0;

	if (!arg || end == arg || *end || m > 07777)
		out[0] = '\0';
	else
		snprintf(out, len, " %lo", m);
}

static void drop(struct record *r, const struct strace_call *c,
		 enum record_where w)
{
	record_count_add(w == RECORD_OUTSIDE ? &r->outside : &r->lacking,
			 c->name);
}

/*
 * Is a call outside the root kept (--keep-outside), with its absolute
 * path? Only when its op changes nothing (op_changes(), the rule the
 * loadfile is read back with under --read-outside) and the path can be
 * spelt: a lookup, never a write, a create or a removal outside.
 */
static bool outside_kept(struct record *r, enum record_where w, const char *q,
			 bool changes)
{
	if (w != RECORD_OUTSIDE || !r->keep_outside || changes || !q[0])
		return false;
	r->ops_outside++;
	return true;
}

/* Does the op of that name change anything, as the language says? */
static bool name_changes(const char *name)
{
	struct op o = { 0 };
	enum op_id id;

	if (!op_lookup(name, &id))
		return true;
	o.id = (uint8_t)id;
	return op_changes(&o);
}

/*
 * A call that would change the file a handle opened outside the root
 * names (fsync, pwrite, ftruncate of a read-only fd): dropped and counted
 * as outside, since the loadfile may only read such a file.
 */
static bool outside_changes(struct record *r, const struct strace_call *c,
			    int h, const char *op)
{
	if (!r->handle_outside[h] || !name_changes(op))
		return false;
	record_count_add(&r->outside, c->name);
	return true;
}

/* An op on one path: stat, lstat, access, statfs, readlink, ... */
static void path_op(struct record *r, struct record_task *t,
		    const struct strace_call *c, const char *op,
		    const char *dirfd, const char *patharg, const char *extra)
{
	char rel[PATH_MAX], q[PATH_MAX + 8], ex[32];
	enum record_where w = record_resolve(r, t, dirfd, patharg, rel, q);

	if (w == RECORD_OUTSIDE && record_expectation(c, ex, sizeof(ex)) &&
	    outside_kept(r, w, q, name_changes(op)))
		w = RECORD_INSIDE;
	else if (w != RECORD_INSIDE || !record_expectation(c, ex, sizeof(ex)))
		return drop(r, c, w);
	else
		record_mark_used(r, rel);
	record_line(r, "%s %s%s%s\n", op, q, extra ? extra : "", ex);
	record_count_add(&r->replayed, c->name);
	r->ops++;
}

static void two_path_op(struct record *r, struct record_task *t,
			const struct strace_call *c, const char *op,
			const char *dfd1, const char *p1, const char *dfd2,
			const char *p2)
{
	char rel1[PATH_MAX], q1[PATH_MAX + 8], rel2[PATH_MAX], q2[PATH_MAX + 8],
		ex[32];
	enum record_where w1 = record_resolve(r, t, dfd1, p1, rel1, q1);
	enum record_where w2 = record_resolve(r, t, dfd2, p2, rel2, q2);

	if (w1 != RECORD_INSIDE || w2 != RECORD_INSIDE ||
	    !record_expectation(c, ex, sizeof(ex)))
		return drop(r, c,
			    w1 == RECORD_OUTSIDE || w2 == RECORD_OUTSIDE ?
				    RECORD_OUTSIDE :
				    RECORD_UNUSABLE);
	record_mark_used(r, rel1);
	record_mark_used(r, rel2);
	if (!r->moved || op_dir_depth(rel2) < r->move_depth)
		r->move_depth = op_dir_depth(rel2);
	r->moved = true;
	record_line(r, "%s %s %s%s\n", op, q1, q2, ex);
	record_count_add(&r->replayed, c->name);
	r->ops++;
}

static void open_op(struct record *r, struct record_task *t,
		    const struct strace_call *c, const char *dirfd,
		    const char *patharg, const char *flagarg,
		    const char *modearg)
{
	char rel[PATH_MAX], q[PATH_MAX + 8], ex[32], fl[160], mode[16];
	enum record_where w = record_resolve(r, t, dirfd, patharg, rel, q);
	bool out = false;
	int h;

	/* outside, only an open that neither writes, creates nor truncates */
	if (w == RECORD_OUTSIDE && r->keep_outside && q[0] && flagarg &&
	    !record_has_flag(flagarg, "O_WRONLY") &&
	    !record_has_flag(flagarg, "O_RDWR") &&
	    !record_has_flag(flagarg, "O_CREAT") &&
	    !record_has_flag(flagarg, "O_TRUNC") &&
	    !record_has_flag(flagarg, "O_TMPFILE") &&
	    record_expectation(c, ex, sizeof(ex)) && c->ret_known &&
	    open_flags(r, c, flagarg, fl, sizeof(fl)) &&
	    outside_kept(r, w, q, false))
		out = true;
	else if (w != RECORD_INSIDE)
		return drop(r, c, w);
	else if (!flagarg || !open_flags(r, c, flagarg, fl, sizeof(fl)) ||
		 !record_expectation(c, ex, sizeof(ex)) || !c->ret_known)
		return drop(r, c, RECORD_UNUSABLE);
	if (c->ret > STRACE_FD_MAX) /* no fd: a damaged trace */
		return drop(r, c, RECORD_UNUSABLE);
	h = record_handle_get(r);
	if (h < 0)
		return record_count_add(&r->lacking,
					"open (over 256 open at once)");
	mode_word(record_has_flag(flagarg, "O_CREAT") ? modearg : NULL, mode,
		  sizeof(mode));
	r->handle_outside[h] = out;
	if (!out)
		record_mark_used(r, rel);
	record_line(r, "open %s %s @%d%s%s\n", q, fl, h + 1, mode, ex);
	record_count_add(&r->replayed, c->name);
	r->ops++;
	/* an open expected to fail leaves its handle free */
	if (c->ret < 0)
		r->handle_busy[h] = false;
	else
		record_fd_bind(r, t, (int)c->ret, h);
}

static const char *arg(const struct strace_call *c, unsigned int i)
{
	return i < c->nargs ? c->args[i] : NULL;
}

/* An op on a handle: fstat, fstatfs, fsync, ... and the I/O ones. */
static void fd_op(struct record *r, struct record_task *t,
		  const struct strace_call *c, const char *op)
{
	int h = record_fd_handle(r, t, c, arg(c, 0));
	char ex[32];

	if (h < 0 || outside_changes(r, c, h, op))
		return;
	if (!record_expectation(c, ex, sizeof(ex)))
		return drop(r, c, RECORD_UNUSABLE);
	record_line(r, "%s @%d%s\n", op, h + 1, ex);
	record_count_add(&r->replayed, c->name);
	r->ops++;
}

/*
 * read and write: a pread or pwrite of the size asked for, at the fd's
 * position, which moves by what the call returned.
 */
static void io_op(struct record *r, struct record_task *t,
		  const struct strace_call *c, const char *op, bool positioned)
{
	int h = record_fd_handle(r, t, c, arg(c, 0));
	struct record_fdbind *b = record_fd_binding(r, t, arg(c, 0));
	unsigned long long size, off;
	char ex[32], *end;

	if (h < 0 || outside_changes(r, c, h, op))
		return;
	size = arg(c, 2) ? strtoull(arg(c, 2), &end, 10) : 0;
	off = positioned && arg(c, 3) ? strtoull(arg(c, 3), &end, 10) :
					b->offset;
	if (!arg(c, 2) || size > OP_MAX_IO ||
	    !record_expectation(c, ex, sizeof(ex)))
		return drop(r, c, RECORD_UNUSABLE);
	if (!positioned && c->ret > 0)
		b->offset += (uint64_t)c->ret;
	record_line(r, "%s @%d %llu %llu%s\n", op, h + 1, off, size, ex);
	record_count_add(&r->replayed, c->name);
	r->ops++;
}

/*
 * lseek, readv and writev: no op in the language, but the position the
 * next read or write on the fd is recorded at moves: lseek sets it to
 * what it returned, readv and writev move it by what they returned.
 * Still counted as dropped.
 */
static void seek_op(struct record *r, struct record_task *t,
		    const struct strace_call *c, bool set)
{
	struct record_fdbind *b = record_fd_binding(r, t, arg(c, 0));

	if (b && c->ret_known && c->ret >= 0)
		b->offset =
			set ? (uint64_t)c->ret : b->offset + (uint64_t)c->ret;
	record_count_add(&r->lacking, c->name);
}

static void close_op(struct record *r, struct record_task *t,
		     const struct strace_call *c)
{
	int h = record_fd_handle(r, t, c, arg(c, 0));

	if (h < 0)
		return;
	record_fd_unbind(r, t, record_fd_binding(r, t, arg(c, 0)));
	r->handle_busy[h] = false;
	r->handle_outside[h] = false;
	/* a failed close still frees the fd (close(2)) */
	record_line(r, "close @%d\n", h + 1);
	record_count_add(&r->replayed, c->name);
	r->ops++;
}

/* newfstatat and statx: stat, lstat, or fstat of an fd ("" + AT_EMPTY_PATH) */
static void fstatat_op(struct record *r, struct record_task *t,
		       const struct strace_call *c, const char *flags)
{
	char path[8];

	if (!flags || !arg(c, 1))
		return drop(r, c, RECORD_UNUSABLE);
	if (record_has_flag(flags, "AT_EMPTY_PATH") &&
	    strace_string(arg(c, 1), path, sizeof(path)) == 0)
		return fd_op(r, t, c, "fstat");
	path_op(r, t, c,
		record_has_flag(flags, "AT_SYMLINK_NOFOLLOW") ? "lstat" :
								"stat",
		arg(c, 0), arg(c, 1), NULL);
}

static void access_op(struct record *r, struct record_task *t,
		      const struct strace_call *c, const char *dirfd,
		      const char *patharg, const char *modearg)
{
	char am[8] = " ";
	size_t w = 1;

	if (!modearg)
		return drop(r, c, RECORD_UNUSABLE);
	if (record_has_flag(modearg, "R_OK"))
		am[w++] = 'r';
	if (record_has_flag(modearg, "W_OK"))
		am[w++] = 'w';
	if (record_has_flag(modearg, "X_OK"))
		am[w++] = 'x';
	if (w == 1 && strcmp(modearg, "F_OK"))
		return drop(r, c, RECORD_UNUSABLE);
	am[w] = '\0';
	path_op(r, t, c, "access", dirfd, patharg, w == 1 ? NULL : am);
}

static void mkdir_op(struct record *r, struct record_task *t,
		     const struct strace_call *c, const char *dirfd,
		     const char *patharg, const char *modearg)
{
	char mode[16];

	mode_word(modearg, mode, sizeof(mode));
	path_op(r, t, c, "mkdir", dirfd, patharg, mode);
}

static void ftruncate_op(struct record *r, struct record_task *t,
			 const struct strace_call *c)
{
	int h = record_fd_handle(r, t, c, arg(c, 0));
	char ex[32], *end;
	unsigned long long len;

	if (h < 0 || outside_changes(r, c, h, "ftruncate"))
		return;
	len = arg(c, 1) ? strtoull(arg(c, 1), &end, 10) : 0;
	if (!arg(c, 1) || *end || !record_expectation(c, ex, sizeof(ex)))
		return drop(r, c, RECORD_UNUSABLE);
	record_line(r, "ftruncate @%d %llu%s\n", h + 1, len, ex);
	record_count_add(&r->replayed, c->name);
	r->ops++;
}

/*
 * A symlink is kept when its target can be stored as the language allows:
 * relative, without "..", so that it leads nowhere outside (vfsbench-
 * loadfile(5), "Staying inside").
 */
static void symlink_op(struct record *r, struct record_task *t,
		       const struct strace_call *c, const char *target,
		       const char *dirfd, const char *patharg)
{
	char tg[PATH_MAX], tq[PATH_MAX + 8], extra[PATH_MAX + 16];
	char rel[PATH_MAX], q[PATH_MAX + 8], ex[32];
	enum record_where w;

	if (!target || strace_string(target, tg, sizeof(tg)) < 0 ||
	    tg[0] == '/' || op_path_dotdot(tg) ||
	    record_quote_target(tg, tq, sizeof(tq)))
		return record_count_add(&r->lacking,
					"symlink (target leads out)");
	w = record_resolve(r, t, dirfd, patharg, rel, q);
	if (w != RECORD_INSIDE || !record_expectation(c, ex, sizeof(ex)))
		return drop(r, c, w);
	snprintf(extra, sizeof(extra), "%s", tq);
	record_mark_used(r, rel);
	record_line(r, "symlink %s %s%s\n", extra, q, ex);
	record_count_add(&r->replayed, c->name);
	r->ops++;
}

/*
 * getdents64: the op of the same call on the fd's handle, at its
 * position, of the buffer size asked for; and the directory it read is
 * one whose entries the program found, so they go into [setup].
 */
static void getdents_op(struct record *r, struct record_task *t,
			const struct strace_call *c)
{
	char path[PATH_MAX], ex[32], *end;
	struct record_entry *e;
	unsigned long long size;
	int fd, h;

	if (arg(c, 0) && !strace_fd(arg(c, 0), &fd, path, sizeof(path)) &&
	    !strncmp(path, r->root, r->rootlen)) {
		if (!path[r->rootlen])
			r->root_listed = true;
		else if (path[r->rootlen] == '/' &&
			 (e = record_entry_find(r, path + r->rootlen + 1)))
			e->listed = true;
	}
	h = record_fd_handle(r, t, c, arg(c, 0));
	if (h < 0)
		return;
	size = arg(c, 2) ? strtoull(arg(c, 2), &end, 10) : 0;
	if (!arg(c, 2) || *end || !size ||
	    !record_expectation(c, ex, sizeof(ex)))
		return drop(r, c, RECORD_UNUSABLE);
	if (size > OP_MAX_GETDENTS)
		return record_count_add(&r->lacking,
					"getdents64 (over 64 KiB)");
	record_line(r, "getdents @%d %llu%s\n", h + 1, size, ex);
	record_count_add(&r->replayed, c->name);
	r->ops++;
}

/* Calls that do nothing a replay needs but move state the trace shows. */
static void chdir_op(struct record *r, struct record_task *t,
		     const struct strace_call *c)
{
	char path[PATH_MAX], abs[PATH_MAX];

	if (c->ret == 0 && arg(c, 0) &&
	    strace_string(arg(c, 0), path, sizeof(path)) >= 0 &&
	    !record_normalise(t->cwd ? t->cwd : r->start_cwd, path, abs)) {
		free(t->cwd);
		t->cwd = xstrdup(abs);
	}
	record_count_add(&r->lacking, c->name);
}

void record_call(struct record *r, const struct strace_call *c)
{
	struct record_task *t = record_task_get(r, c->pid);
	const char *n = c->name;

	r->calls++;
	r->cur = (unsigned int)(t - r->tasks);
	if (!strcmp(n, "open"))
		open_op(r, t, c, NULL, arg(c, 0), arg(c, 1), arg(c, 2));
	else if (!strcmp(n, "openat"))
		open_op(r, t, c, arg(c, 0), arg(c, 1), arg(c, 2), arg(c, 3));
	else if (!strcmp(n, "creat"))
		open_op(r, t, c, NULL, arg(c, 0), "O_WRONLY|O_CREAT|O_TRUNC",
			arg(c, 1));
	else if (!strcmp(n, "close"))
		close_op(r, t, c);
	else if (!strcmp(n, "stat"))
		path_op(r, t, c, "stat", NULL, arg(c, 0), NULL);
	else if (!strcmp(n, "lstat"))
		path_op(r, t, c, "lstat", NULL, arg(c, 0), NULL);
	else if (!strcmp(n, "newfstatat"))
		fstatat_op(r, t, c, arg(c, 3));
	else if (!strcmp(n, "statx"))
		fstatat_op(r, t, c, arg(c, 2));
	else if (!strcmp(n, "fstat"))
		fd_op(r, t, c, "fstat");
	else if (!strcmp(n, "access"))
		access_op(r, t, c, NULL, arg(c, 0), arg(c, 1));
	else if (!strcmp(n, "faccessat") ||
		 (!strcmp(n, "faccessat2") && arg(c, 3) &&
		  !strcmp(arg(c, 3), "0")))
		access_op(r, t, c, arg(c, 0), arg(c, 1), arg(c, 2));
	else if (!strcmp(n, "statfs"))
		path_op(r, t, c, "statfs", NULL, arg(c, 0), NULL);
	else if (!strcmp(n, "fstatfs"))
		fd_op(r, t, c, "fstatfs");
	else if (!strcmp(n, "read"))
		io_op(r, t, c, "pread", false);
	else if (!strcmp(n, "pread64"))
		io_op(r, t, c, "pread", true);
	else if (!strcmp(n, "write"))
		io_op(r, t, c, "pwrite", false);
	else if (!strcmp(n, "pwrite64"))
		io_op(r, t, c, "pwrite", true);
	else if (!strcmp(n, "lseek"))
		seek_op(r, t, c, true);
	else if (!strcmp(n, "readv") || !strcmp(n, "writev"))
		seek_op(r, t, c, false);
	else if (!strcmp(n, "fsync"))
		fd_op(r, t, c, "fsync");
	else if (!strcmp(n, "fdatasync"))
		fd_op(r, t, c, "fdatasync");
	else if (!strcmp(n, "rmdir"))
		path_op(r, t, c, "rmdir", NULL, arg(c, 0), NULL);
	else if (!strcmp(n, "unlink"))
		path_op(r, t, c, "unlink", NULL, arg(c, 0), NULL);
	else if (!strcmp(n, "unlinkat") && arg(c, 2))
		path_op(r, t, c,
			record_has_flag(arg(c, 2), "AT_REMOVEDIR") ? "rmdir" :
								     "unlink",
			arg(c, 0), arg(c, 1), NULL);
	else if (!strcmp(n, "rename"))
		two_path_op(r, t, c, "rename", NULL, arg(c, 0), NULL,
			    arg(c, 1));
	else if (!strcmp(n, "renameat") ||
		 (!strcmp(n, "renameat2") && arg(c, 4) &&
		  !strcmp(arg(c, 4), "0")))
		two_path_op(r, t, c, "rename", arg(c, 0), arg(c, 1), arg(c, 2),
			    arg(c, 3));
	else if (!strcmp(n, "link"))
		two_path_op(r, t, c, "link", NULL, arg(c, 0), NULL, arg(c, 1));
	else if (!strcmp(n, "linkat") && arg(c, 4) && !strcmp(arg(c, 4), "0"))
		two_path_op(r, t, c, "link", arg(c, 0), arg(c, 1), arg(c, 2),
			    arg(c, 3));
	else if (!strcmp(n, "readlink"))
		path_op(r, t, c, "readlink", NULL, arg(c, 0), NULL);
	else if (!strcmp(n, "readlinkat"))
		path_op(r, t, c, "readlink", arg(c, 0), arg(c, 1), NULL);
	else if (!strcmp(n, "mkdir"))
		mkdir_op(r, t, c, NULL, arg(c, 0), arg(c, 1));
	else if (!strcmp(n, "mkdirat"))
		mkdir_op(r, t, c, arg(c, 0), arg(c, 1), arg(c, 2));
	else if (!strcmp(n, "ftruncate"))
		ftruncate_op(r, t, c);
	else if (!strcmp(n, "symlink"))
		symlink_op(r, t, c, arg(c, 0), NULL, arg(c, 1));
	else if (!strcmp(n, "symlinkat"))
		symlink_op(r, t, c, arg(c, 0), arg(c, 1), arg(c, 2));
	else if (!strcmp(n, "utimensat") && arg(c, 2) &&
		 !strcmp(arg(c, 2), "NULL") && arg(c, 3) &&
		 !strcmp(arg(c, 3), "0"))
		path_op(r, t, c, "utimens", arg(c, 0), arg(c, 1), NULL);
	else if (!strcmp(n, "getdents64"))
		getdents_op(r, t, c);
	else if (!strcmp(n, "chdir"))
		chdir_op(r, t, c);
	else
		record_count_add(&r->lacking, n);
}
