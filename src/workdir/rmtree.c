/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * struct rmtree: the recursive removal walk, an explicit stack of
 * directory fds that unlinks what it finds without following symlinks or
 * crossing mounts. See rmtree.h for the rules it keeps.
 */
#include <config.h>
#include "workdir/rmtree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/msg.h"
#include "workdir/fileid.h"
#include "workdir/marker.h"

/* Stack frames below this depth keep their fd while a child is walked. */
#define RMTREE_KEEP_FDS 32
/* How often a directory is read again when it is not empty after a pass. */
#define RMTREE_RESCANS 3

#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

/*
 * One directory on the removal stack. `subdirs` are the directories found
 * by the last pass over it, walked one by one from `next`; `name` points
 * into the parent frame's list. `fd` is -1 while the frame is closed to
 * save fds (frames at RMTREE_KEEP_FDS and deeper, while a child is walked).
 */
struct rmtree_frame {
	int fd;
	struct fileid id;
	const char *name;
	char **subdirs;
	size_t nr_subdirs;
	size_t alloc_subdirs;
	size_t next;
	unsigned int rescans;
	bool found; /* the last pass saw entries */
	bool kept; /* something below is left in place */
};

struct rmtree {
	const volatile int *abort_flag;
	struct rmtree_seen *seen; /* mount points reported, or NULL */
	const char *base; /* path of the root frame, for messages */
	struct fileid root_id; /* the mount the walk stays on */
	const char *keep; /* entry of the root frame to leave alone, or NULL */
	struct rmtree_frame *stack;
	size_t depth;
	size_t alloc;
	int err; /* first error, or 0 */
	bool aborted;
};

static bool is_dot_or_dotdot(const char *name)
{
	return name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2]));
}

static struct rmtree_frame *rmtree_top(struct rmtree *w)
{
	return &w->stack[w->depth - 1];
}

static bool rmtree_aborted(struct rmtree *w)
{
	if (w->abort_flag && *w->abort_flag)
		w->aborted = true;
	return w->aborted;
}

/* Path of `name` in the top frame (of the top frame if NULL); free() it. */
static char *rmtree_path(const struct rmtree *w, const char *name)
{
	size_t len = strlen(w->base) + 1, i;
	char *p;

	for (i = 1; i < w->depth; i++)
		len += strlen(w->stack[i].name) + 1;
	if (name)
		len += strlen(name) + 1;
	p = xmalloc(len);
	strcpy(p, w->base);
	for (i = 1; i < w->depth; i++) {
		strcat(p, "/");
		strcat(p, w->stack[i].name);
	}
	if (name) {
		strcat(p, "/");
		strcat(p, name);
	}
	return p;
}

/*
 * Report a failure on `name` in the top frame (or on the top frame itself
 * if NULL), remember the first error and mark the top frame as kept, so no
 * rmdir of it or above is attempted. `what` is the action that failed.
 */
static void rmtree_fail(struct rmtree *w, int err, const char *name,
			const char *what)
{
	char *path = rmtree_path(w, name);

	if (err == -EXDEV)
		error("'%s' is a mount point; left in place", path);
	else
		error("cannot %s '%s': %s", what, path, strerror(-err));
	free(path);
	if (!w->err)
		w->err = err;
	rmtree_top(w)->kept = true;
}

/*
 * Was @id (a mount point, another instance's directory) reported by this
 * walk or an earlier one? Notes it if not.
 */
static bool rmtree_seen_before(struct rmtree *w, const struct fileid *id)
{
	struct rmtree_seen *s = w->seen;

	if (!s)
		return false;
	for (size_t i = 0; i < s->n; i++)
		if (fileid_same_file(&s->ids[i], id) &&
		    s->ids[i].mnt_id == id->mnt_id)
			return true;
	if (s->n == s->alloc) {
		s->alloc = s->alloc ? 2 * s->alloc : 4;
		s->ids = xrealloc(s->ids, s->alloc * sizeof(*s->ids));
	}
	s->ids[s->n++] = *id;
	return false;
}

/* The mount point `name` of the top frame, whose root is @id, is left. */
static void rmtree_mount(struct rmtree *w, const char *name,
			 const struct fileid *id)
{
	if (!id || !rmtree_seen_before(w, id)) {
		rmtree_fail(w, -EXDEV, name, NULL);
		return;
	}
	if (!w->err)
		w->err = -EXDEV;
	rmtree_top(w)->kept = true;
}

void rmtree_seen_release(struct rmtree_seen *seen)
{
	free(seen->ids);
	memset(seen, 0, sizeof(*seen));
}

static void rmtree_add_subdir(struct rmtree_frame *f, const char *name)
{
	if (f->nr_subdirs == f->alloc_subdirs) {
		f->alloc_subdirs = f->alloc_subdirs ? 2 * f->alloc_subdirs : 8;
		f->subdirs = xrealloc(f->subdirs,
				      f->alloc_subdirs * sizeof(*f->subdirs));
	}
	f->subdirs[f->nr_subdirs++] = xstrdup(name);
}

/*
 * Unlink the non-directory `name` in the top frame. If it turns out to be
 * a directory after all and `may_be_dir`, queue it to be walked.
 */
static void rmtree_unlink(struct rmtree *w, const char *name, bool may_be_dir)
{
	struct rmtree_frame *f = rmtree_top(w);

	if (!unlinkat(f->fd, name, 0) || errno == ENOENT)
		return;
	if (errno == EISDIR && may_be_dir) {
		rmtree_add_subdir(f, name);
	} else if (errno == EBUSY) {
		struct fileid id;

		/* a file bind-mounted over */
		rmtree_mount(w, name,
			     fileid_at(f->fd, name, AT_SYMLINK_NOFOLLOW, &id) ?
				     NULL :
				     &id);
	} else
		rmtree_fail(w, -errno, name, "remove");
}

/* Handle one entry of the top frame: unlink it or queue it as a subdir. */
static void rmtree_entry(struct rmtree *w, const char *name, unsigned char type)
{
	struct rmtree_frame *f = rmtree_top(w);
	struct stat st;

	if (type == DT_UNKNOWN) {
		if (fstatat(f->fd, name, &st, AT_SYMLINK_NOFOLLOW)) {
			if (errno != ENOENT)
				rmtree_fail(w, -errno, name, "stat");
			return;
		}
		type = S_ISDIR(st.st_mode) ? DT_DIR : DT_REG;
	}
	if (type == DT_DIR)
		rmtree_add_subdir(f, name);
	else
		rmtree_unlink(w, name, true);
}

/*
 * One pass over the top frame: unlink what is not a directory, queue the
 * directories. Reads through a fresh open of "." so the frame's own fd
 * keeps no directory position.
 */
static void rmtree_scan(struct rmtree *w)
{
	struct rmtree_frame *f = rmtree_top(w);
	struct dirent *de;
	DIR *dir;
	int fd;

	f->found = false;
	fd = openat(f->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		rmtree_fail(w, -errno, NULL, "open directory");
		return;
	}
	dir = fdopendir(fd);
	if (!dir) {
		rmtree_fail(w, -errno, NULL, "read directory");
		close(fd);
		return;
	}
	while (!rmtree_aborted(w)) {
		errno = 0;
		de = readdir(dir);
		if (!de) {
			if (errno)
				rmtree_fail(w, -errno, NULL, "read directory");
			break;
		}
		if (is_dot_or_dotdot(de->d_name))
			continue;
		if (w->keep && w->depth == 1 && !strcmp(de->d_name, w->keep))
			continue;
		f->found = true;
		rmtree_entry(w, de->d_name, de->d_type);
	}
	closedir(dir);
}

static void rmtree_push(struct rmtree *w, int fd, const struct fileid *id,
			const char *name)
{
	struct rmtree_frame *f;

	if (w->depth == w->alloc) {
		w->alloc = w->alloc ? 2 * w->alloc : 64;
		w->stack = xrealloc(w->stack, w->alloc * sizeof(*w->stack));
	}
	f = &w->stack[w->depth++];
	memset(f, 0, sizeof(*f));
	f->fd = fd;
	f->id = *id;
	f->name = name;
}

/* Close and free the top frame (never the root's fd, which is borrowed). */
static void rmtree_pop(struct rmtree *w)
{
	struct rmtree_frame *f = rmtree_top(w);
	size_t i;

	if (w->depth > 1 && f->fd >= 0)
		close(f->fd);
	for (i = 0; i < f->nr_subdirs; i++)
		free(f->subdirs[i]);
	free(f->subdirs);
	w->depth--;
}

/*
 * Whether the directory @fd holds a marker file: another instance's work
 * directory (ours is the walk's root, never entered), not ours to remove.
 */
static bool holds_marker(int fd)
{
	struct stat st;

	return !fstatat(fd, WORKDIR_MARKER, &st, AT_SYMLINK_NOFOLLOW) &&
	       S_ISREG(st.st_mode);
}

/*
 * openat() of the directory @name in @dirfd; one that a loadfile made
 * unreadable (mkdir d 0300) gets its owner's bits back first when it is
 * ours, on the walk's mount, and a directory, checked through an O_PATH
 * fd that never follows a link. -1 with errno, as openat().
 */
static int rmtree_open_dir(int dirfd, const char *name,
			   const struct fileid *root)
{
	char proc[64];
	struct fileid id;
	struct stat st;
	int fd, pfd, ok;

	fd = openat(dirfd, name, DIR_FLAGS);
	if (fd >= 0 || errno != EACCES)
		return fd;
	pfd = openat(dirfd, name,
		     O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (pfd < 0) {
		errno = EACCES;
		return -1;
	}
	ok = !fstat(pfd, &st) && S_ISDIR(st.st_mode) &&
	     st.st_uid == geteuid() && !fileid_of_fd(pfd, &id) &&
	     fileid_same_mount(&id, root);
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", pfd);
	if (ok)
		ok = !chmod(proc, (st.st_mode & 07777) | S_IRWXU);
	close(pfd);
	if (!ok) {
		errno = EACCES;
		return -1;
	}
	return openat(dirfd, name, DIR_FLAGS);
}

/* Enter the subdirectory `name` of the top frame and read it. */
static void rmtree_descend(struct rmtree *w, const char *name)
{
	struct rmtree_frame *f = rmtree_top(w);
	struct fileid id;
	int fd, err;

	fd = rmtree_open_dir(f->fd, name, &w->root_id);
	if (fd < 0) {
		if (errno == ENOTDIR || errno == ELOOP)
			rmtree_unlink(w, name, false);
		else if (errno != ENOENT)
			rmtree_fail(w, -errno, name, "open directory");
		return;
	}
	err = fileid_of_fd(fd, &id);
	if (!err && !fileid_same_mount(&id, &w->root_id)) {
		close(fd);
		rmtree_mount(w, name, &id);
		return;
	}
	if (err) {
		close(fd);
		rmtree_fail(w, err, name, "stat");
		return;
	}
	/* a loadfile's chmod 0500: the owner's bits back, to empty it */
	if ((id.mode & S_IRWXU) != S_IRWXU)
		fchmod(fd, (id.mode & 07777) | S_IRWXU);
	if (holds_marker(fd)) {
		close(fd);
		/* once, when the run's walk and then the whole tree's meet it
		 */
		if (!rmtree_seen_before(w, &id)) {
			char *path = rmtree_path(w, name);

			error("'%s' holds another vfsbench instance's marker file (%s); left in place",
			      path, WORKDIR_MARKER);
			free(path);
		}
		if (!w->err)
			w->err = -EBUSY;
		f->kept = true;
		return;
	}
	if (w->depth - 1 >= RMTREE_KEEP_FDS) {
		close(f->fd);
		f->fd = -1;
	}
	rmtree_push(w, fd, &id, name);
	rmtree_scan(w);
}

/* Whether the open directory `fd` is still the one frame `f` was. */
static bool rmtree_frame_is(const struct rmtree_frame *f, int fd)
{
	struct fileid id;

	return !fileid_of_fd(fd, &id) && fileid_same_file(&id, &f->id);
}

/*
 * Reopen the closed frame below the top one: through ".." of the top
 * frame, or, if that is no longer its parent because something moved,
 * by name from the nearest open frame above. Every step is checked
 * against the device and inode seen on the way down.
 */
static int rmtree_reopen_parent(struct rmtree *w)
{
	size_t idx = w->depth - 2, j, k;
	struct rmtree_frame *p = &w->stack[idx];
	int fd, cur;

	fd = openat(rmtree_top(w)->fd, "..",
		    O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0 && rmtree_frame_is(p, fd))
		return fd;
	if (fd >= 0)
		close(fd);
	for (j = idx; w->stack[j].fd < 0; j--)
		;
	cur = w->stack[j].fd;
	for (k = j + 1; k <= idx; k++) {
		fd = openat(cur, w->stack[k].name, DIR_FLAGS);
		if (cur != w->stack[j].fd)
			close(cur);
		if (fd < 0)
			return -ESTALE;
		if (!rmtree_frame_is(&w->stack[k], fd)) {
			close(fd);
			return -ESTALE;
		}
		cur = fd;
	}
	return cur;
}

/*
 * The top frame has been walked: rmdir it from its parent and pop it, or
 * read it again if it is unexpectedly not empty. Returns -ESTALE when its
 * parent cannot be found again; the walk must stop then.
 */
static int rmtree_ascend(struct rmtree *w)
{
	struct rmtree_frame *f = rmtree_top(w), *p = &w->stack[w->depth - 2];
	char *path;
	int fd;

	if (p->fd < 0) {
		fd = rmtree_reopen_parent(w);
		if (fd < 0) {
			path = rmtree_path(w, NULL);
			error("'%s' was moved while being removed; stopping",
			      path);
			free(path);
			if (!w->err)
				w->err = -ESTALE;
			return -ESTALE;
		}
		p->fd = fd;
	}
	if (!f->kept && unlinkat(p->fd, f->name, AT_REMOVEDIR) &&
	    errno != ENOENT) {
		if ((errno == ENOTEMPTY || errno == EEXIST) &&
		    f->rescans < RMTREE_RESCANS) {
			f->rescans++;
			rmtree_scan(w);
			return 0;
		}
		rmtree_fail(w, -errno, NULL, "remove directory");
	}
	if (f->kept)
		p->kept = true;
	rmtree_pop(w);
	return 0;
}

/*
 * Walk the tree below the root frame (already pushed, and either read or
 * given its subdirs) until everything is removed, the flag is raised or we
 * lose our place. `rescan_root` reads the root again while passes still
 * find entries, in case readdir() skipped some while we unlinked. Frees
 * the stack.
 */
static int rmtree_run(struct rmtree *w, bool rescan_root)
{
	struct rmtree_frame *f;

	while (!rmtree_aborted(w)) {
		f = rmtree_top(w);
		if (f->next < f->nr_subdirs) {
			rmtree_descend(w, f->subdirs[f->next++]);
			continue;
		}
		if (w->depth > 1) {
			if (rmtree_ascend(w))
				break;
			continue;
		}
		if (!rescan_root || f->kept || !f->found ||
		    f->rescans >= RMTREE_RESCANS)
			break;
		f->rescans++;
		rmtree_scan(w);
	}
	while (w->depth)
		rmtree_pop(w);
	free(w->stack);
	if (w->aborted)
		return -EINTR;
	return w->err;
}

/*
 * Start a walk with the borrowed `dirfd` as its root frame, staying on the
 * mount `dirfd` is on.
 */
static int rmtree_init(struct rmtree *w, int dirfd, const char *path,
		       const volatile int *abort_flag, struct rmtree_seen *seen)
{
	int err;

	memset(w, 0, sizeof(*w));
	w->abort_flag = abort_flag;
	w->seen = seen;
	w->base = path;
	err = fileid_of_fd(dirfd, &w->root_id);
	if (err) {
		error("cannot stat '%s': %s", path, strerror(-err));
		return err;
	}
	rmtree_push(w, dirfd, &w->root_id, NULL);
	return 0;
}

int rmtree_empty(int dirfd, const char *path, const char *keep,
		 const volatile int *abort_flag, struct rmtree_seen *seen)
{
	struct rmtree w;
	int err;

	err = rmtree_init(&w, dirfd, path, abort_flag, seen);
	if (err)
		return err;
	w.keep = keep;
	rmtree_scan(&w);
	return rmtree_run(&w, true);
}

int rmtree_remove_at(int dirfd, const char *name, bool is_dir, const char *path,
		     const volatile int *abort_flag, struct rmtree_seen *seen)
{
	struct rmtree w;
	int err;

	err = rmtree_init(&w, dirfd, path, abort_flag, seen);
	if (err)
		return err;
	rmtree_entry(&w, name, is_dir ? DT_DIR : DT_REG);
	return rmtree_run(&w, false);
}
