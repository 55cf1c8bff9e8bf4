// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The recorder's converter (lang/record.h): strace's calls in, loadfile
 * lines out. What is kept, what is dropped and why is doc/recording.md.
 */
#include <config.h>
#include "lang/record.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/alloc.h"
#include "base/compiler.h"
#include "lang/ops.h"

#define NHANDLES 256

void record_init(struct record *r, const char *root, const char *cwd,
		 struct record_entry *tree, size_t ntree)
{
	memset(r, 0, sizeof(*r));
	r->root = root;
	r->rootlen = strlen(root);
	if (r->rootlen == 1) /* "/" */
		r->rootlen = 0;
	r->start_cwd = cwd;
	r->tree = tree;
	r->ntree = ntree;
}

static void counts_release(struct record_counts *c)
{
	free(c->v);
}

void record_release(struct record *r)
{
	for (size_t i = 0; i < r->ntree; i++) {
		free(r->tree[i].path);
		free(r->tree[i].target);
	}
	free(r->tree);
	for (unsigned int i = 0; i < r->ntasks; i++)
		free(r->tasks[i].cwd);
	free(r->tasks);
	for (unsigned int i = 0; i < r->nfdtabs; i++) {
		free(r->fdtabs[i].handle);
		free(r->fdtabs[i].offset);
	}
	free(r->fdtabs);
	free(r->run);
	counts_release(&r->replayed);
	counts_release(&r->outside);
	counts_release(&r->lacking);
	counts_release(&r->other_fd);
	counts_release(&r->changed);
	memset(r, 0, sizeof(*r));
}

static void count(struct record_counts *c, const char *name)
{
	for (unsigned int i = 0; i < c->n; i++) {
		if (!strcmp(c->v[i].name, name)) {
			c->v[i].n++;
			return;
		}
	}
	if (c->n == c->alloc) {
		c->alloc = c->alloc ? 2 * c->alloc : 16;
		c->v = xrealloc(c->v, c->alloc * sizeof(*c->v));
	}
	snprintf(c->v[c->n].name, sizeof(c->v[c->n].name), "%s", name);
	c->v[c->n++].n = 1;
}

static struct record_task *task_get(struct record *r, long pid)
{
	struct record_task *t;

	for (unsigned int i = r->ntasks; i--;)
		if (r->tasks[i].pid == pid)
			return &r->tasks[i];
	if (r->ntasks == r->atasks) {
		r->atasks = r->atasks ? 2 * r->atasks : 16;
		r->tasks = xrealloc(r->tasks, r->atasks * sizeof(*r->tasks));
	}
	/*
	 * Each task gets an fd table of its own: the fds it inherited are
	 * unknown to the trace (-e trace has no clone), so calls on them are
	 * counted, not guessed at.
	 */
	r->fdtabs = xrealloc(r->fdtabs, (r->nfdtabs + 1) * sizeof(*r->fdtabs));
	memset(&r->fdtabs[r->nfdtabs], 0, sizeof(*r->fdtabs));
	t = &r->tasks[r->ntasks++];
	t->pid = pid;
	t->fdtab = r->nfdtabs++;
	t->cwd = NULL;
	return t;
}

static void line_add(struct record *r, const char *fmt, ...) PRINTF(2, 3);

static void line_add(struct record *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(r->run + r->runlen, r->runalloc - r->runlen, fmt,
			      ap);
		va_end(ap);
		if (n >= 0 && r->runlen + (size_t)n < r->runalloc)
			break;
		r->runalloc = 2 * r->runalloc + (size_t)n + 4096;
		r->run = xrealloc(r->run, r->runalloc);
	}
	r->runlen += (size_t)n;
}

int record_quote(const char *path, char *out, size_t len)
{
	bool quote = false;
	const char *s;
	size_t w = 0;

	if (!*path || strstr(path, "${"))
		return -EINVAL;
	for (s = path; *s; s++) {
		if (*s == '\n' || *s == '\r')
			return -EINVAL;
		if (*s == ' ' || *s == '\t' || *s == '#' || *s == '"')
			quote = true;
	}
	if (quote) {
		out[w++] = '"';
		for (s = path; *s && w + 3 < len; s++) {
			if (*s == '"' || *s == '\\')
				out[w++] = '\\';
			out[w++] = *s;
		}
		if (*s || w + 2 > len)
			return -EINVAL;
		out[w++] = '"';
		out[w] = '\0';
		return 0;
	}
	/* a last argument spelt "ok", "any" or "EFOO" reads as an expectation
	 */
	if (!strcmp(path, "ok") || !strcmp(path, "any") ||
	    (path[0] == 'E' && path[1] &&
	     strspn(path + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") ==
		     strlen(path + 1)))
		return snprintf(out, len, "./%s", path) >= (int)len ? -EINVAL :
								      0;
	return snprintf(out, len, "%s", path) >= (int)len ? -EINVAL : 0;
}

static int entry_cmp(const void *key, const void *e)
{
	return strcmp(key, ((const struct record_entry *)e)->path);
}

static struct record_entry *entry_find(struct record *r, const char *rel)
{
	return bsearch(rel, r->tree, r->ntree, sizeof(*r->tree), entry_cmp);
}

/*
 * The program reached @rel: it and every directory above it that existed
 * before it ran are part of the tree [setup] makes.
 */
static void mark_used(struct record *r, const char *rel)
{
	char buf[PATH_MAX];
	struct record_entry *e;
	size_t n = strlen(rel);

	if (!strcmp(rel, ".") || n >= sizeof(buf))
		return;
	memcpy(buf, rel, n + 1);
	for (size_t i = 0; i <= n; i++) {
		if (buf[i] != '/' && buf[i])
			continue;
		buf[i] = '\0';
		e = entry_find(r, buf);
		if (e)
			e->used = true;
		if (i < n)
			buf[i] = '/';
	}
}

/*
 * Join @base and @path and remove ".", "" and ".." lexically into @out.
 * Returns 0, or -ENAMETOOLONG.
 */
static int normalise(const char *base, const char *path, char *out)
{
	char tmp[2 * PATH_MAX + 2];
	size_t w = 0;
	char *save, *comp;

	if (snprintf(tmp, sizeof(tmp), "%s/%s", path[0] == '/' ? "" : base,
		     path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	for (comp = strtok_r(tmp, "/", &save); comp;
	     comp = strtok_r(NULL, "/", &save)) {
		size_t n = strlen(comp);

		if (!strcmp(comp, "."))
			continue;
		if (!strcmp(comp, "..")) {
			while (w && out[w - 1] != '/')
				w--;
			if (w)
				w--;
			continue;
		}
		if (w + n + 2 >= PATH_MAX)
			return -ENAMETOOLONG;
		out[w++] = '/';
		memcpy(out + w, comp, n);
		w += n;
	}
	if (!w)
		out[w++] = '/';
	out[w] = '\0';
	return 0;
}

enum where { INSIDE, OUTSIDE, UNUSABLE };

/*
 * The path a call named, relative to the root, in @rel (quoted for a
 * loadfile line in @q). @dirfd is the call's directory argument as printed
 * (NULL: the cwd). The cwd is what strace printed for AT_FDCWD last, or
 * where the command started.
 */
static enum where resolve(struct record *r, struct record_task *t,
			  const char *dirfd, const char *patharg, char *rel,
			  char *q)
{
	char path[PATH_MAX], dir[PATH_MAX], abs[PATH_MAX];
	const char *base = t->cwd ? t->cwd : r->start_cwd;
	int fd;

	if (strace_string(patharg, path, sizeof(path)) < 0)
		return UNUSABLE;
	if (dirfd) {
		if (strace_fd(dirfd, &fd, dir, sizeof(dir)))
			return UNUSABLE;
		if (fd == AT_FDCWD && dir[0] == '/') {
			free(t->cwd);
			t->cwd = xstrdup(dir);
		}
		if (dir[0] == '/')
			base = dir;
		else if (fd != AT_FDCWD && path[0] != '/')
			return UNUSABLE;
	}
	if (normalise(base, path, abs))
		return UNUSABLE;
	if (strncmp(abs, r->root, r->rootlen) ||
	    (abs[r->rootlen] != '/' && abs[r->rootlen]))
		return OUTSIDE;
	if (!abs[r->rootlen] || !abs[r->rootlen + 1])
		strcpy(rel, ".");
	else
		strcpy(rel, abs + r->rootlen + 1);
	if (record_quote(rel, q, PATH_MAX + 8))
		return UNUSABLE;
	return INSIDE;
}

static bool has_flag(const char *flags, const char *flag)
{
	size_t n = strlen(flag);

	for (const char *p = flags; (p = strstr(p, flag)); p += n)
		if ((p == flags || p[-1] == '|') && (!p[n] || p[n] == '|'))
			return true;
	return false;
}

/* The expectation of a call's result: "" for success, " ENOENT", " any". */
static bool expectation(const struct strace_call *c, char *out, size_t len)
{
	int err;

	if (!c->ret_known) {
		snprintf(out, len, " any");
		return true;
	}
	if (c->ret >= 0) {
		out[0] = '\0';
		return true;
	}
	/* strace's names of kernel-internal values (ERESTARTSYS) too */
	if (op_errno_parse(c->err, &err))
		return false;
	snprintf(out, len, " %s", c->err);
	return true;
}

static struct record_fdtab *fdtab(struct record *r, struct record_task *t)
{
	return &r->fdtabs[t->fdtab];
}

/*
 * The handle (0-based) of the fd in argument @arg, or -1 with the call
 * counted as dropped: for an fd of a file outside the root, or one the
 * trace never saw opened below it.
 */
static int fd_handle(struct record *r, struct record_task *t,
		     const struct strace_call *c, const char *arg)
{
	struct record_fdtab *ft = fdtab(r, t);
	char path[PATH_MAX];
	int fd;

	if (arg && !strace_fd(arg, &fd, path, sizeof(path)) && fd >= 0 &&
	    (unsigned int)fd < ft->nfd && ft->handle[fd])
		return ft->handle[fd] - 1;
	if (arg && !strace_fd(arg, &fd, path, sizeof(path)) && path[0] == '/' &&
	    (strncmp(path, r->root, r->rootlen) ||
	     (path[r->rootlen] != '/' && path[r->rootlen])))
		count(&r->outside, c->name);
	else
		count(&r->other_fd, c->name);
	return -1;
}

/* The number of an fd argument that fd_handle() found a handle for. */
static int fd_num(const char *arg)
{
	return atoi(arg);
}

static void fd_bind(struct record *r, struct record_task *t, int fd, int h)
{
	struct record_fdtab *ft = fdtab(r, t);

	if ((unsigned int)fd >= ft->nfd) {
		unsigned int n = (unsigned int)fd + 64;

		ft->handle = xrealloc(ft->handle, n * sizeof(*ft->handle));
		ft->offset = xrealloc(ft->offset, n * sizeof(*ft->offset));
		memset(ft->handle + ft->nfd, 0,
		       (n - ft->nfd) * sizeof(*ft->handle));
		memset(ft->offset + ft->nfd, 0,
		       (n - ft->nfd) * sizeof(*ft->offset));
		ft->nfd = n;
	}
	ft->handle[fd] = h + 1;
	ft->offset[fd] = 0;
}

static int handle_get(struct record *r)
{
	for (int h = 0; h < NHANDLES; h++) {
		if (!r->handle_busy[h]) {
			r->handle_busy[h] = true;
			if ((unsigned int)h + 1 > r->max_handle)
				r->max_handle = (unsigned int)h + 1;
			return h;
		}
	}
	return -1;
}

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
		count(&r->changed, c->name);
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

static void drop(struct record *r, const struct strace_call *c, enum where w)
{
	count(w == OUTSIDE ? &r->outside : &r->lacking, c->name);
}

/* An op on one path: stat, lstat, access, statfs, readlink, ... */
static void path_op(struct record *r, struct record_task *t,
		    const struct strace_call *c, const char *op,
		    const char *dirfd, const char *patharg, const char *extra)
{
	char rel[PATH_MAX], q[PATH_MAX + 8], ex[32];
	enum where w = resolve(r, t, dirfd, patharg, rel, q);

	if (w != INSIDE || !expectation(c, ex, sizeof(ex)))
		return drop(r, c, w);
	mark_used(r, rel);
	line_add(r, "%s %s%s%s\n", op, q, extra ? extra : "", ex);
	count(&r->replayed, c->name);
	r->ops++;
}

static void two_path_op(struct record *r, struct record_task *t,
			const struct strace_call *c, const char *op,
			const char *dfd1, const char *p1, const char *dfd2,
			const char *p2)
{
	char rel1[PATH_MAX], q1[PATH_MAX + 8], rel2[PATH_MAX], q2[PATH_MAX + 8],
		ex[32];
	enum where w1 = resolve(r, t, dfd1, p1, rel1, q1);
	enum where w2 = resolve(r, t, dfd2, p2, rel2, q2);

	if (w1 != INSIDE || w2 != INSIDE || !expectation(c, ex, sizeof(ex)))
		return drop(r, c,
			    w1 == OUTSIDE || w2 == OUTSIDE ? OUTSIDE :
							     UNUSABLE);
	mark_used(r, rel1);
	mark_used(r, rel2);
	line_add(r, "%s %s %s%s\n", op, q1, q2, ex);
	count(&r->replayed, c->name);
	r->ops++;
}

static void open_op(struct record *r, struct record_task *t,
		    const struct strace_call *c, const char *dirfd,
		    const char *patharg, const char *flagarg,
		    const char *modearg)
{
	char rel[PATH_MAX], q[PATH_MAX + 8], ex[32], fl[160], mode[16];
	enum where w = resolve(r, t, dirfd, patharg, rel, q);
	int h;

	if (w != INSIDE)
		return drop(r, c, w);
	if (!flagarg || !open_flags(r, c, flagarg, fl, sizeof(fl)) ||
	    !expectation(c, ex, sizeof(ex)) || !c->ret_known)
		return drop(r, c, UNUSABLE);
	h = handle_get(r);
	if (h < 0)
		return count(&r->lacking, "open (over 256 open at once)");
	mode_word(has_flag(flagarg, "O_CREAT") ? modearg : NULL, mode,
		  sizeof(mode));
	mark_used(r, rel);
	line_add(r, "open %s %s @%d%s%s\n", q, fl, h + 1, mode, ex);
	count(&r->replayed, c->name);
	r->ops++;
	/* an open expected to fail leaves its handle free */
	if (c->ret < 0)
		r->handle_busy[h] = false;
	else
		fd_bind(r, t, (int)c->ret, h);
}

static const char *arg(const struct strace_call *c, unsigned int i)
{
	return i < c->nargs ? c->args[i] : NULL;
}

/* An op on a handle: fstat, fstatfs, fsync, ... and the I/O ones. */
static void fd_op(struct record *r, struct record_task *t,
		  const struct strace_call *c, const char *op)
{
	int h = fd_handle(r, t, c, arg(c, 0));
	char ex[32];

	if (h < 0)
		return;
	if (!expectation(c, ex, sizeof(ex)))
		return drop(r, c, UNUSABLE);
	line_add(r, "%s @%d%s\n", op, h + 1, ex);
	count(&r->replayed, c->name);
	r->ops++;
}

/*
 * read and write: a pread or pwrite of the size asked for, at the fd's
 * position, which moves by what the call returned.
 */
static void io_op(struct record *r, struct record_task *t,
		  const struct strace_call *c, const char *op, bool positioned)
{
	int h = fd_handle(r, t, c, arg(c, 0));
	unsigned long long size, off;
	struct record_fdtab *ft = fdtab(r, t);
	char ex[32], *end;
	int fd;

	if (h < 0)
		return;
	fd = fd_num(arg(c, 0));
	size = arg(c, 2) ? strtoull(arg(c, 2), &end, 10) : 0;
	off = positioned && arg(c, 3) ? strtoull(arg(c, 3), &end, 10) :
					ft->offset[fd];
	if (!arg(c, 2) || size > OP_MAX_IO || !expectation(c, ex, sizeof(ex)))
		return drop(r, c, UNUSABLE);
	if (!positioned && c->ret > 0)
		ft->offset[fd] += (uint64_t)c->ret;
	line_add(r, "%s @%d %llu %llu%s\n", op, h + 1, off, size, ex);
	count(&r->replayed, c->name);
	r->ops++;
}

static void close_op(struct record *r, struct record_task *t,
		     const struct strace_call *c)
{
	int h = fd_handle(r, t, c, arg(c, 0));

	if (h < 0)
		return;
	fdtab(r, t)->handle[fd_num(arg(c, 0))] = 0;
	r->handle_busy[h] = false;
	/* a failed close still frees the fd (close(2)) */
	line_add(r, "close @%d\n", h + 1);
	count(&r->replayed, c->name);
	r->ops++;
}

/* newfstatat and statx: stat, lstat, or fstat of an fd ("" + AT_EMPTY_PATH) */
static void fstatat_op(struct record *r, struct record_task *t,
		       const struct strace_call *c, const char *flags)
{
	char path[8];

	if (!flags || !arg(c, 1))
		return drop(r, c, UNUSABLE);
	if (has_flag(flags, "AT_EMPTY_PATH") &&
	    strace_string(arg(c, 1), path, sizeof(path)) == 0)
		return fd_op(r, t, c, "fstat");
	path_op(r, t, c,
		has_flag(flags, "AT_SYMLINK_NOFOLLOW") ? "lstat" : "stat",
		arg(c, 0), arg(c, 1), NULL);
}

static void access_op(struct record *r, struct record_task *t,
		      const struct strace_call *c, const char *dirfd,
		      const char *patharg, const char *modearg)
{
	char am[8] = " ";
	size_t w = 1;

	if (!modearg)
		return drop(r, c, UNUSABLE);
	if (has_flag(modearg, "R_OK"))
		am[w++] = 'r';
	if (has_flag(modearg, "W_OK"))
		am[w++] = 'w';
	if (has_flag(modearg, "X_OK"))
		am[w++] = 'x';
	if (w == 1 && strcmp(modearg, "F_OK"))
		return drop(r, c, UNUSABLE);
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
	int h = fd_handle(r, t, c, arg(c, 0));
	char ex[32], *end;
	unsigned long long len;

	if (h < 0)
		return;
	len = arg(c, 1) ? strtoull(arg(c, 1), &end, 10) : 0;
	if (!arg(c, 1) || *end || !expectation(c, ex, sizeof(ex)))
		return drop(r, c, UNUSABLE);
	line_add(r, "ftruncate @%d %llu%s\n", h + 1, len, ex);
	count(&r->replayed, c->name);
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
	enum where w;

	if (!target || strace_string(target, tg, sizeof(tg)) < 0 ||
	    tg[0] == '/' || op_path_dotdot(tg) ||
	    record_quote(tg, tq, sizeof(tq)))
		return count(&r->lacking, "symlink (target leads out)");
	w = resolve(r, t, dirfd, patharg, rel, q);
	if (w != INSIDE || !expectation(c, ex, sizeof(ex)))
		return drop(r, c, w);
	snprintf(extra, sizeof(extra), "%s", tq);
	mark_used(r, rel);
	line_add(r, "symlink %s %s%s\n", extra, q, ex);
	count(&r->replayed, c->name);
	r->ops++;
}

/* getdents64: not an op; the entries it returned are the tree's */
static void getdents_op(struct record *r, const struct strace_call *c)
{
	char path[PATH_MAX];
	struct record_entry *e;
	int fd;

	if (arg(c, 0) && !strace_fd(arg(c, 0), &fd, path, sizeof(path)) &&
	    !strncmp(path, r->root, r->rootlen)) {
		if (!path[r->rootlen])
			r->root_listed = true;
		else if (path[r->rootlen] == '/' &&
			 (e = entry_find(r, path + r->rootlen + 1)))
			e->listed = true;
	}
	count(&r->lacking, c->name);
}

/* Calls that do nothing a replay needs but move state the trace shows. */
static void chdir_op(struct record *r, struct record_task *t,
		     const struct strace_call *c)
{
	char path[PATH_MAX], abs[PATH_MAX];

	if (c->ret == 0 && arg(c, 0) &&
	    strace_string(arg(c, 0), path, sizeof(path)) >= 0 &&
	    !normalise(t->cwd ? t->cwd : r->start_cwd, path, abs)) {
		free(t->cwd);
		t->cwd = xstrdup(abs);
	}
	count(&r->lacking, c->name);
}

void record_call(struct record *r, const struct strace_call *c)
{
	struct record_task *t = task_get(r, c->pid);
	const char *n = c->name;

	r->calls++;
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
			has_flag(arg(c, 2), "AT_REMOVEDIR") ? "rmdir" :
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
		getdents_op(r, c);
	else if (!strcmp(n, "chdir"))
		chdir_op(r, t, c);
	else
		count(&r->lacking, n);
}

static int count_cmp(const void *a, const void *b)
{
	return strcmp(((const struct record_count *)a)->name,
		      ((const struct record_count *)b)->name);
}

static void counts_write(struct record_counts *c, const char *title, FILE *f)
{
	unsigned long total = 0;

	for (unsigned int i = 0; i < c->n; i++)
		total += c->v[i].n;
	fprintf(f, "# %s: %lu\n", title, total);
	qsort(c->v, c->n, sizeof(*c->v), count_cmp);
	for (unsigned int i = 0; i < c->n; i++)
		fprintf(f, "#   %-24s %lu\n", c->v[i].name, c->v[i].n);
}

/* Was @e found by the program: reached, or in a directory it read? */
static bool entry_seen(struct record *r, const struct record_entry *e)
{
	const char *slash = strrchr(e->path, '/');
	struct record_entry *parent;
	char dir[PATH_MAX];

	if (e->used)
		return true;
	if (!slash)
		return r->root_listed;
	if ((size_t)(slash - e->path) >= sizeof(dir))
		return false;
	memcpy(dir, e->path, (size_t)(slash - e->path));
	dir[slash - e->path] = '\0';
	parent = entry_find(r, dir);
	return parent && parent->listed;
}

/*
 * [setup]: the entries the program found, parents first (a path sorts
 * before every path below it). Files get their size, not their bytes.
 */
static void setup_write(struct record *r, FILE *f, unsigned long *made,
			unsigned long *skipped)
{
	char q[PATH_MAX + 8], tq[PATH_MAX + 8];

	for (size_t i = 0; i < r->ntree; i++) {
		struct record_entry *e = &r->tree[i];
		unsigned int perm = e->mode & 07777;

		if (!entry_seen(r, e))
			continue;
		/* a parent that was skipped: no way to make this */
		e->used = true;
		if (record_quote(e->path, q, sizeof(q))) {
			skipped[3]++;
			continue;
		}
		if (S_ISDIR(e->mode)) {
			fprintf(f, "mkdir %s %o\n", q, perm);
			made[0]++;
		} else if (S_ISREG(e->mode) && !e->size) {
			fprintf(f, "create %s %o\n", q, perm);
			made[1]++;
		} else if (S_ISREG(e->mode)) {
			fprintf(f, "open %s wronly,creat,trunc @1 %o\n", q,
				perm);
			fprintf(f, "ftruncate @1 %llu\n",
				(unsigned long long)e->size);
			fprintf(f, "close @1\n");
			made[1]++;
		} else if (S_ISLNK(e->mode) && e->target &&
			   e->target[0] != '/' && e->target[0] &&
			   !op_path_dotdot(e->target) &&
			   !record_quote(e->target, tq, sizeof(tq))) {
			fprintf(f, "symlink %s %s\n", tq, q);
			made[2]++;
		} else {
			skipped[S_ISLNK(e->mode) ? 2 : 3]++;
		}
	}
}

int record_write(struct record *r, const struct record_header *h, FILE *f)
{
	unsigned long made[3] = { 0 }, skipped[4] = { 0 };
	char *setup = NULL;
	size_t setuplen = 0;
	FILE *sf = open_memstream(&setup, &setuplen);

	if (!sf)
		return -errno;
	setup_write(r, sf, made, skipped);
	if (fclose(sf)) {
		free(setup);
		return -ENOMEM;
	}
	fprintf(f,
		"# Recorded by vfsbench record: the file-system calls of a program, as\n"
		"# a loadfile (vfsbench-loadfile(5); what is kept and dropped and why:\n"
		"# doc/recording.md).\n");
	fprintf(f, "# command: %s\n", h->command);
	fprintf(f, "# root: %s\n", r->root);
	fprintf(f, "# kernel: %s\n", h->kernel);
	fprintf(f, "# date: %s\n", h->date);
	if (h->ntasks > 1)
		fprintf(f,
			"# tasks: %u, replayed as one stream in the order of the trace:\n"
			"#   what they did at the same time runs one after another here\n",
			h->ntasks);
	else
		fprintf(f, "# tasks: 1\n");
	fprintf(f, "# calls traced: %lu, replayed as ops: %lu\n", r->calls,
		r->ops);
	counts_write(&r->replayed, "replayed", f);
	counts_write(&r->outside, "dropped, outside the root", f);
	counts_write(&r->lacking, "dropped, no op in the loadfile language", f);
	counts_write(&r->other_fd,
		     "dropped, on an fd not opened below the root in the trace",
		     f);
	counts_write(&r->changed, "replayed without O_NONBLOCK or O_NOCTTY", f);
	fprintf(f,
		"# [setup] makes %lu directories, %lu files (their sizes, not their data), %lu symlinks\n",
		made[0], made[1], made[2]);
	fprintf(f,
		"# not made: %lu symlinks whose targets lead out, %lu special files or unnamable paths\n",
		skipped[2], skipped[3]);
	fprintf(f, "[setup]\n%s[run]\n", setup ? setup : "");
	free(setup);
	if (r->runlen)
		fwrite(r->run, 1, r->runlen, f);
	return ferror(f) ? -EIO : 0;
}
