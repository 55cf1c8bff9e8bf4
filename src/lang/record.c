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
#include "base/reserved.h"
#include "lang/ops.h"
#include "lang/recordint.h"

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
		free(r->tree[i].data);
	}
	free(r->tree);
	for (unsigned int i = 0; i < r->ntasks; i++) {
		free(r->tasks[i].cwd);
		free(r->tasks[i].run.s);
	}
	free(r->tasks);
	pidmap_release(&r->taskmap);
	for (unsigned int i = 0; i < r->nfdtabs; i++)
		free(r->fdtabs[i].v);
	free(r->fdtabs);
	free(r->run.s);
	counts_release(&r->replayed);
	counts_release(&r->outside);
	counts_release(&r->lacking);
	counts_release(&r->other_fd);
	counts_release(&r->changed);
	memset(r, 0, sizeof(*r));
}

void record_count_add(struct record_counts *c, const char *name)
{
	for (unsigned int i = 0; i < c->n; i++) {
		if (!strcmp(c->v[i].name, name)) {
			c->v[i].n++;
			return;
		}
	}
	/* one more entry for the rest */
	if (c->n >= RECORD_COUNT_NAMES && strcmp(name, "(other names)")) {
		record_count_add(c, "(other names)");
		return;
	}
	if (c->n == c->alloc) {
		c->alloc = c->alloc ? 2 * c->alloc : 16;
		c->v = xrealloc(c->v, c->alloc * sizeof(*c->v));
	}
	snprintf(c->v[c->n].name, sizeof(c->v[c->n].name), "%s", name);
	c->v[c->n++].n = 1;
}

struct record_task *record_task_get(struct record *r, long pid)
{
	struct record_task *t;
	unsigned int i;

	if (pidmap_get(&r->taskmap, pid, &i))
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
	if (r->nfdtabs == r->afdtabs) {
		r->afdtabs = r->afdtabs ? 2 * r->afdtabs : 16;
		r->fdtabs =
			xrealloc(r->fdtabs, r->afdtabs * sizeof(*r->fdtabs));
	}
	memset(&r->fdtabs[r->nfdtabs], 0, sizeof(*r->fdtabs));
	pidmap_put(&r->taskmap, pid, r->ntasks);
	t = &r->tasks[r->ntasks++];
	t->pid = pid;
	t->fdtab = r->nfdtabs++;
	t->cwd = NULL;
	memset(&t->run, 0, sizeof(t->run));
	return t;
}

void record_line(struct record *r, const char *fmt, ...)
{
	struct record_buf *b = r->per_task ? &r->tasks[r->cur].run : &r->run;
	va_list ap;
	int n;

	/* never NULL + 0: undefined, and UBSan says so */
	if (!b->s) {
		b->alloc = 4096;
		b->s = xmalloc(b->alloc);
	}
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->s + b->len, b->alloc - b->len, fmt, ap);
		va_end(ap);
		if (n >= 0 && b->len + (size_t)n < b->alloc)
			break;
		b->alloc = 2 * b->alloc + (size_t)n + 4096;
		b->s = xrealloc(b->s, b->alloc);
	}
	b->len += (size_t)n;
	r->run_bytes += (size_t)n;
}

/*
 * Does @path name vfsbench's marker (a component of that name)? The
 * parser refuses an op that makes one, and what is below such a
 * directory could not be made without it.
 */
static bool names_marker(const char *path)
{
	size_t n = strlen(VB_MARKER_NAME);

	for (const char *c = path; (c = strstr(c, VB_MARKER_NAME)); c++)
		if ((c == path || c[-1] == '/') && (!c[n] || c[n] == '/'))
			return true;
	return false;
}

/* record_quote(), and record_quote_target() where !@is_path. */
static int quote_word(const char *path, char *out, size_t len, bool is_path)
{
	bool quote = false;
	const char *s;
	size_t w = 0;

	if (!*path)
		return -EINVAL;
	/* a path's '$' is a variable to the parser (only ${client} is one) */
	if (is_path && (strchr(path, '$') || names_marker(path)))
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

int record_quote(const char *path, char *out, size_t len)
{
	return quote_word(path, out, len, true);
}

int record_quote_target(const char *target, char *out, size_t len)
{
	return quote_word(target, out, len, false);
}

static int entry_cmp(const void *key, const void *e)
{
	return strcmp(key, ((const struct record_entry *)e)->path);
}

struct record_entry *record_entry_find(struct record *r, const char *rel)
{
	/* an empty tree has no array, which bsearch() may not be given */
	if (!r->ntree)
		return NULL;
	return bsearch(rel, r->tree, r->ntree, sizeof(*r->tree), entry_cmp);
}

/*
 * The program reached @rel: it and every directory above it that existed
 * before it ran are part of the tree [setup] makes.
 */
void record_mark_used(struct record *r, const char *rel)
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
		e = record_entry_find(r, buf);
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
int record_normalise(const char *base, const char *path, char *out)
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

/*
 * The path a call named, relative to the root, in @rel (quoted for a
 * loadfile line in @q). @dirfd is the call's directory argument as printed
 * (NULL: the cwd). The cwd is what strace printed for AT_FDCWD last, or
 * where the command started.
 */
enum record_where record_resolve(struct record *r, struct record_task *t,
				 const char *dirfd, const char *patharg,
				 char *rel, char *q)
{
	char path[PATH_MAX], dir[PATH_MAX], abs[PATH_MAX];
	const char *base = t->cwd ? t->cwd : r->start_cwd;
	int fd;

	if (strace_string(patharg, path, sizeof(path)) < 0)
		return RECORD_UNUSABLE;
	if (dirfd) {
		if (strace_fd(dirfd, &fd, dir, sizeof(dir)))
			return RECORD_UNUSABLE;
		if (fd == AT_FDCWD && dir[0] == '/') {
			free(t->cwd);
			t->cwd = xstrdup(dir);
		}
		if (dir[0] == '/')
			base = dir;
		else if (fd != AT_FDCWD && path[0] != '/')
			return RECORD_UNUSABLE;
	}
	if (record_normalise(base, path, abs))
		return RECORD_UNUSABLE;
	if (strncmp(abs, r->root, r->rootlen) ||
	    (abs[r->rootlen] != '/' && abs[r->rootlen])) {
		/* for --keep-outside: the lexical path, as the call's */
		strcpy(rel, abs);
		if (record_quote(rel, q, PATH_MAX + 8))
			q[0] = '\0';
		return RECORD_OUTSIDE;
	}
	if (!abs[r->rootlen] || !abs[r->rootlen + 1])
		strcpy(rel, ".");
	else
		strcpy(rel, abs + r->rootlen + 1);
	if (record_quote(rel, q, PATH_MAX + 8)) {
		r->unnamable++;
		return RECORD_UNUSABLE;
	}
	return RECORD_INSIDE;
}

bool record_has_flag(const char *flags, const char *flag)
{
	size_t n = strlen(flag);

	for (const char *p = flags; (p = strstr(p, flag)); p += n)
		if ((p == flags || p[-1] == '|') && (!p[n] || p[n] == '|'))
			return true;
	return false;
}

/* The expectation of a call's result: "" for success, " ENOENT", " any". */
bool record_expectation(const struct strace_call *c, char *out, size_t len)
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

static struct record_fdtab *fdtab_of(struct record *r, struct record_task *t)
{
	return &r->fdtabs[t->fdtab];
}

static struct record_fdbind *fd_find(struct record_fdtab *ft, int fd)
{
	for (unsigned int i = 0; i < ft->n; i++)
		if (ft->v[i].fd == fd)
			return &ft->v[i];
	return NULL;
}

struct record_fdbind *record_fd_binding(struct record *r, struct record_task *t,
					const char *arg)
{
	char path[PATH_MAX];
	int fd;

	if (!arg || strace_fd(arg, &fd, path, sizeof(path)))
		return NULL;
	return fd_find(fdtab_of(r, t), fd);
}

/*
 * The handle (0-based) of the fd in argument @arg, or -1 with the call
 * counted as dropped: for an fd of a file outside the root, or one the
 * trace never saw opened below it.
 */
int record_fd_handle(struct record *r, struct record_task *t,
		     const struct strace_call *c, const char *arg)
{
	struct record_fdbind *b = record_fd_binding(r, t, arg);
	char path[PATH_MAX];
	int fd;

	if (b)
		return b->handle;
	if (arg && !strace_fd(arg, &fd, path, sizeof(path)) && path[0] == '/' &&
	    (strncmp(path, r->root, r->rootlen) ||
	     (path[r->rootlen] != '/' && path[r->rootlen])))
		record_count_add(&r->outside, c->name);
	else
		record_count_add(&r->other_fd, c->name);
	return -1;
}

void record_fd_bind(struct record *r, struct record_task *t, int fd, int h)
{
	struct record_fdtab *ft = fdtab_of(r, t);
	struct record_fdbind *b = fd_find(ft, fd);

	if (!b) {
		if (ft->n == ft->alloc) {
			ft->alloc = ft->alloc ? 2 * ft->alloc : 8;
			ft->v = xrealloc(ft->v, ft->alloc * sizeof(*ft->v));
		}
		b = &ft->v[ft->n++];
		b->fd = fd;
	}
	b->handle = h;
	b->offset = 0;
}

void record_fd_unbind(struct record *r, struct record_task *t,
		      struct record_fdbind *b)
{
	struct record_fdtab *ft = fdtab_of(r, t);

	*b = ft->v[--ft->n];
}

int record_handle_get(struct record *r)
{
	for (int h = 0; h < NHANDLES; h++) {
		if (!r->handle_busy[h]) {
			r->handle_busy[h] = true;
			r->handle_task[h] = r->cur;
			if ((unsigned int)h + 1 > r->max_handle)
				r->max_handle = (unsigned int)h + 1;
			return h;
		}
	}
	return -1;
}
