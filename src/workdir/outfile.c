/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Result files, by the one rule of vfsbench(1)'s RESULT FILES: renamed
 * into place when they replace a regular file (or nothing), keeping its
 * owner and mode, written into whatever else their name is; and no two
 * of an invocation's files the same, no output an input.
 */
#include <config.h>
#include "workdir/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/alloc.h"
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

/* What a target that is not a regular file is, for messages. */
static const char *kind(mode_t mode)
{
	if (S_ISLNK(mode))
		return "a symbolic link";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode) || S_ISBLK(mode))
		return "a device";
	if (S_ISSOCK(mode))
		return "a socket";
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISREG(mode))
		return "a regular file";
	return "not a regular file";
}

/* "PATH.tmpPID" beside @path, made with O_EXCL: -1 (errno) if it cannot. */
static int make_tmp(struct outfile *o, const char *path, mode_t mode)
{
	snprintf(o->tmp, sizeof(o->tmp), "%s.tmp%ld", path, (long)getpid());
	/* O_EXCL: never through a link, never into another's file */
	return open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
}

/*
 * Open @path, not a regular file, to write into it as '>' does. A FIFO
 * that no one reads would block the open for ever, silently: tried
 * without blocking first, then named while we wait for its reader. The
 * wait ends with EINTR at a stop signal (no SA_RESTART: run/signals.c).
 */
static int open_direct(const char *path)
{
	const int flags = O_WRONLY | O_CREAT | O_TRUNC | O_NOCTTY | O_CLOEXEC;
	int fd = open(path, flags | O_NONBLOCK, 0666);

	if (fd >= 0) {
		/* writes block as '>' makes them, once it is open */
		if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)) {
			int err = errno;

			close(fd);
			errno = err;
			return -1;
		}
		return fd;
	}
	if (errno != ENXIO)
		return -1;
	warning("'%s' is a FIFO that no one reads: waiting for a reader (a stop signal gives up)",
		path);
	return open(path, flags, 0666);
}

FILE *outfile_open(struct outfile *o, const char *path)
{
	return outfile_open_as(o, path, OUTFILE_ANY, 0777);
}

/*
 * A target other than @o->target allows, there now: 0, or -1 with a
 * message (what it is now, and that it is left as it is).
 */
static int unexpected(const struct outfile *o, const struct stat *st)
{
	if (o->target == OUTFILE_NEW)
		return error(
			"'%s' is %s now, where there was nothing before: left as it is",
			o->path, kind(st->st_mode));
	return error(
		"'%s' is %s now, where there was a regular file or nothing before: left as it is",
		o->path, kind(st->st_mode));
}

FILE *outfile_open_as(struct outfile *o, const char *path,
		      enum outfile_target target, mode_t perm)
{
	const char *name;
	struct stat st;
	int found;

	memset(o, 0, sizeof(*o));
	o->path = name = path;
	o->perm = perm & 0777;
	o->target = target;
	found = lstat(path, &st) ? (errno == ENOENT ? 0 : -1) : 1;
	if (target != OUTFILE_ANY && strcmp(path, "-") &&
	    (target == OUTFILE_NEW ? found > 0 :
				     found > 0 && !S_ISREG(st.st_mode))) {
		/* never into, nor through, what was not there before */
		unexpected(o, &st);
		o->fd = -1;
		return NULL;
	}
	if (!strcmp(path, "-")) {
		/* after what the report has written there */
		fflush(stdout);
		o->direct = true;
		o->fd = STDOUT_FILENO;
	} else if (found > 0 ? !S_ISREG(st.st_mode) : found < 0) {
		/* a device, a FIFO, a socket, a link: into it, as '>' */
		o->direct = true;
		o->fd = open_direct(path);
		if (o->fd < 0 && errno == EINTR) {
			/* a stop signal while we waited: the caller's status
			 * is the signal's, and nothing was made */
			warning("'%s': not written: stopped by a signal while waiting for a reader",
				path);
			errno = EINTR;
			o->f = NULL;
			return NULL;
		}
	} else {
		o->fd = make_tmp(o, path, 0666 & o->perm);
		name = o->tmp;
	}
	if (o->fd < 0 || !stream(o)) {
		error("cannot write '%s': %s", name, strerror(errno));
		if (o->fd >= 0 && !o->direct)
			unlink(o->tmp);
		o->f = NULL;
	}
	return o->f;
}

/*
 * The temporary file, open as @fd, takes the owner, group and permission
 * bits of the regular file @st it replaces (set-id bits are not kept),
 * less those that the bits it may have (@o->perm) lack.
 * Where the caller may not give a file away (EPERM: not root), it stays
 * the caller's, in the old group where the caller is a member of it.
 */
static int keep_owner(const struct outfile *o, int fd, const struct stat *st)
{
	if (fchown(fd, st->st_uid, st->st_gid) &&
	    (errno != EPERM ||
	     (fchown(fd, (uid_t)-1, st->st_gid) && errno != EPERM)))
		return error("cannot give '%s' the owner of '%s': %s", o->tmp,
			     o->path, strerror(errno));
	if (fchmod(fd, st->st_mode & o->perm))
		return error("cannot give '%s' the mode of '%s': %s", o->tmp,
			     o->path, strerror(errno));
	return 0;
}

/*
 * Before the temporary file (@fd) is renamed over the target: the target
 * is still absent or a regular file, whose owner and mode @fd takes. 0;
 * 1 when it became something else (@st says what); -1 with a message.
 */
static int ready_to_replace(const struct outfile *o, int fd, struct stat *st)
{
	if (lstat(o->path, st))
		return errno == ENOENT ? 0 :
					 error("cannot replace '%s': %s",
					       o->path, strerror(errno));
	if (!S_ISREG(st->st_mode) || o->target == OUTFILE_NEW)
		return 1;
	return keep_owner(o, fd, st);
}

/*
 * OUTFILE_NEW: the temporary file takes the name only where there is
 * none, whatever appeared since the last look: renameat2(2)'s
 * RENAME_NOREPLACE, or where the file system lacks it (EINVAL) a hard
 * link, which fails on any name there too and never follows one.
 */
static int put_new(const struct outfile *o)
{
	struct stat st;
	int err = 0;

	if (renameat2(AT_FDCWD, o->tmp, AT_FDCWD, o->path, RENAME_NOREPLACE)) {
		err = errno;
		if (err == EINVAL && !link(o->tmp, o->path)) {
			unlink(o->tmp);
			err = 0;
		} else if (err == EINVAL) {
			err = errno;
		}
	}
	if (err == EEXIST && !lstat(o->path, &st))
		return unexpected(o, &st);
	if (err)
		return error("cannot rename '%s' to '%s': %s", o->tmp, o->path,
			     strerror(err));
	return 0;
}

static int put_in_place(const struct outfile *o)
{
	if (o->target == OUTFILE_NEW)
		return put_new(o);
	if (rename(o->tmp, o->path))
		return error("cannot rename '%s' to '%s': %s", o->tmp, o->path,
			     strerror(errno));
	return 0;
}

int outfile_commit(struct outfile *o)
{
	struct stat st;
	int err, ret = 0;

	fflush(o->f);
	if (!o->direct && !o->err) {
		ret = ready_to_replace(o, o->fd, &st);
		if (ret > 0 && o->target != OUTFILE_ANY)
			ret = unexpected(o, &st);
		else if (ret > 0)
			ret = error(
				"'%s' became %s while it was written: left as it is",
				o->path, kind(st.st_mode));
	}
	fclose(o->f);
	err = o->err;
	if (!ret && err)
		ret = error("cannot write '%s': %s", shown(o), strerror(err));
	if (!ret && !o->direct)
		ret = put_in_place(o);
	if (ret && !o->direct)
		unlink(o->tmp);
	return ret;
}

void outfile_abort(struct outfile *o)
{
	if (o->f)
		fclose(o->f);
	else if (o->fd >= 0 && o->fd != STDOUT_FILENO)
		close(o->fd);
	if (!o->direct && o->tmp[0])
		unlink(o->tmp);
	o->f = NULL;
	o->fd = -1;
	o->tmp[0] = '\0';
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

int outfile_reserve(struct outfile *o, const char *path, mode_t mode)
{
	int fd;

	memset(o, 0, sizeof(*o));
	o->path = path;
	o->fd = -1;
	o->perm = 0777;
	fd = make_tmp(o, path, mode);
	if (fd < 0) {
		error("cannot write '%s': %s", o->tmp, strerror(errno));
		o->tmp[0] = '\0';
		return -1;
	}
	close(fd);
	return 0;
}

/* Copy all of @in into @out; 0 or an errno. */
static int copy_fd(int in, int out)
{
	char buf[65536];
	ssize_t n;

	while ((n = read(in, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno;
		for (ssize_t done = 0, w; done < n; done += w) {
			w = write(out, buf + done, (size_t)(n - done));
			if (w < 0 && errno == EINTR)
				w = 0;
			else if (w <= 0)
				return w < 0 ? errno : EIO;
		}
	}
	return 0;
}

/* Write the finished temporary file @fd into the target, as '>' would. */
static int write_into(const struct outfile *o, int fd)
{
	int out =
		open(o->path,
		     O_WRONLY | O_CREAT | O_TRUNC | O_NOCTTY | O_CLOEXEC, 0666);
	int err;

	if (out < 0)
		return error("cannot write '%s': %s", o->path, strerror(errno));
	err = copy_fd(fd, out);
	if (close(out) && !err)
		err = errno;
	if (err)
		return error("cannot write '%s': %s", o->path, strerror(err));
	return 0;
}

int outfile_finish(struct outfile *o)
{
	int fd = open(o->tmp, O_RDONLY | O_NOFOLLOW | O_CLOEXEC), ret;
	struct stat st;

	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		ret = error("cannot read '%s': %s", o->tmp,
			    fd < 0 ? strerror(errno) : "not a regular file");
		goto out;
	}
	ret = ready_to_replace(o, fd, &st);
	if (ret > 0)
		ret = write_into(o, fd);
	else if (!ret)
		ret = put_in_place(o);
out:
	if (fd >= 0)
		close(fd);
	/* renamed, or copied, or failed: the temporary file goes */
	unlink(o->tmp);
	o->tmp[0] = '\0';
	return ret;
}

/* Who a file of outfile_check() is. */
struct ident {
	bool exists;
	dev_t dev;
	ino_t ino;
	char *name; /* normalised, when it does not exist */
};

/* @dir + "/" + @base (@dir NULL: @base). */
static char *join(const char *dir, const char *base)
{
	size_t l = dir ? strlen(dir) : 0, b = strlen(base);
	char *s = xmalloc(l + b + 2);

	if (dir)
		memcpy(s, dir, l);
	if (dir)
		s[l++] = '/';
	memcpy(s + l, base, b + 1);
	return s;
}

/*
 * @path made absolute with "." and ".." taken out and repeated slashes
 * merged, as text: for a path whose directory does not exist either.
 */
static char *lexical(const char *path)
{
	char *cwd = path[0] == '/' ? NULL : getcwd(NULL, 0);
	char *full = join(cwd, path), *out = xmalloc(strlen(full) + 2);
	size_t n = 0;

	for (const char *p = full; *p;) {
		size_t len;

		while (*p == '/')
			p++;
		len = strcspn(p, "/");
		if (!len || (len == 1 && p[0] == '.')) {
			/* nothing, or "." */
		} else if (len == 2 && p[0] == '.' && p[1] == '.') {
			while (n && out[--n] != '/')
				;
		} else {
			out[n++] = '/';
			memcpy(out + n, p, len);
			n += len;
		}
		p += len;
	}
	if (!n)
		out[n++] = '/';
	out[n] = '\0';
	free(full);
	free(cwd);
	return out;
}

/* @path that does not exist: its directory resolved, its last name kept. */
static char *normalised(const char *path)
{
	char *copy = xstrdup(path), *slash = strrchr(copy, '/'), *dir, *full;

	if (slash)
		*slash = '\0';
	dir = realpath(!slash ? "." : slash == copy ? "/" : copy, NULL);
	full = dir ? join(dir, slash ? slash + 1 : path) : xstrdup(path);
	free(dir);
	free(copy);
	copy = lexical(full);
	free(full);
	return copy;
}

/* The target of the symbolic link @path, as a path from here, or NULL. */
static char *link_target(const char *path)
{
	char buf[PATH_MAX], *dir, *slash, *ret;
	ssize_t n = readlink(path, buf, sizeof(buf) - 1);

	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	slash = strrchr(path, '/');
	if (buf[0] == '/' || !slash)
		return xstrdup(buf);
	dir = xstrdup(path);
	dir[slash - path] = '\0';
	ret = join(slash == path ? "" : dir, buf);
	free(dir);
	return ret;
}

static void identify(const char *path, struct ident *id)
{
	char *cur = xstrdup(path);
	struct stat st;

	memset(id, 0, sizeof(*id));
	if (!strcmp(path, "-")) {
		if (!fstat(STDOUT_FILENO, &st)) {
			id->exists = true;
			id->dev = st.st_dev;
			id->ino = st.st_ino;
		} else {
			id->name = xstrdup("-");
		}
		free(cur);
		return;
	}
	/* a dangling link is written through: where it leads is the file */
	for (unsigned int hops = 0;; hops++) {
		char *next;

		if (!stat(cur, &st)) {
			id->exists = true;
			id->dev = st.st_dev;
			id->ino = st.st_ino;
			break;
		}
		if (hops >= 40 || lstat(cur, &st) || !S_ISLNK(st.st_mode) ||
		    !(next = link_target(cur))) {
			id->name = normalised(cur);
			break;
		}
		free(cur);
		cur = next;
	}
	free(cur);
}

static bool same(const struct ident *a, const struct ident *b)
{
	if (a->exists != b->exists)
		return false;
	if (a->exists)
		return a->dev == b->dev && a->ino == b->ino;
	return !strcmp(a->name, b->name);
}

int outfile_check(const struct outfile_name *names, size_t n, char *msg,
		  size_t len)
{
	struct ident *id = xcalloc(n ? n : 1, sizeof(*id));
	bool *skip = xcalloc(n ? n : 1, sizeof(*skip));
	struct stat st;
	int ret = 0;

	for (size_t i = 0; i < n; i++) {
		/* an input that is no file is a name (a built-in loadfile) */
		skip[i] = names[i].input && stat(names[i].path, &st);
		if (!skip[i])
			identify(names[i].path, &id[i]);
	}
	for (size_t i = 0; i < n && !ret; i++)
		for (size_t j = i + 1; j < n && !ret; j++) {
			const struct outfile_name *a = &names[i],
						  *b = &names[j];

			if (skip[i] || skip[j] || (a->input && b->input) ||
			    !same(&id[i], &id[j]))
				continue;
			if (a->input) {
				a = &names[j];
				b = &names[i];
			}
			if (b->input)
				snprintf(
					msg, len,
					"%s '%s' names the input %s%s'%s': a result file never replaces what vfsbench reads",
					a->opt, a->path, b->opt,
					b->opt[0] ? " " : "", b->path);
			else
				snprintf(
					msg, len,
					"%s '%s' and %s '%s' are the same file: each result needs a file of its own",
					a->opt, a->path, b->opt, b->path);
			ret = -1;
		}
	for (size_t i = 0; i < n; i++)
		free(id[i].name);
	free(id);
	free(skip);
	return ret;
}
