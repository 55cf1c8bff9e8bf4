/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_WORKDIR_WORKDIR_H
#define VB_WORKDIR_WORKDIR_H

#include <fcntl.h>
#include <stdbool.h>
#include <sys/types.h>

#include "workdir/marker.h"
#include "workdir/rmtree.h"

/*
 * struct workdir: the tool's own work directory, and the only place where
 * vfsbench ever deletes anything (DESIGN.md section 7).
 *
 * `-D DIR` names an existing directory, the parent. workdir_create() makes
 * one fresh directory "vfsbench.XXXXXX" inside it, marks it as ours with a
 * ".vfsbench-workdir" file and keeps it open. Everything else works
 * relative to wd->fd, so a rename of the parent or of any path above it
 * does not send us somewhere else.
 *
 * Removal is done by the walk in rmtree.c, which never follows a symlink
 * (it unlinks the link), never enters or removes a directory on another
 * mount (reported as "... is a mount point; left in place", then -EXDEV)
 * and reaches any depth with a bounded number of fds; see rmtree.h for
 * the rules. The work directory itself is removed only while the parent's
 * entry still names the same directory (device and inode) and the marker
 * file is there, so a directory that was renamed away or replaced is left
 * alone.
 *
 * Every function returns 0 or a negative errno and never exits. Errors are
 * reported with error() except where noted. None of the functions are
 * thread-safe on the same struct workdir; call them from the main thread
 * while no client runs.
 */

/*
 * How the work directory and every directory inside it are opened
 * (workdir.c, workpath.c): never through a symlink.
 */
#define WORKDIR_DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

struct workdir {
	int parent_fd; /* the -D directory, O_DIRECTORY|O_PATH or O_RDONLY */
	int fd; /* our own directory, O_DIRECTORY */
	char *path; /* "<parent>/vfsbench.XXXXXX", for messages */
	char *name; /* "vfsbench.XXXXXX" */
	dev_t dev;
	ino_t ino;
	char id[WORKDIR_ID_LEN]; /* written into the marker */
	/*
	 * Another process's (rank 0's of an MPI job, on a shared -D), found
	 * by workdir_attach(): this one works in it and removes nothing of
	 * it; workdir_remove() only releases it.
	 */
	bool attached;
	/* mount points inside, reported once by the first removal that
	 * met them */
	struct rmtree_seen mounts;
	bool reused; /* workdir_open_named(): ours, from an earlier run */
	bool foreign; /* workdir_open_named(): not ours, adopted */
};

/*
 * Open the -D directory `parent` (O_PATH), resolved one component at a
 * time: a symlink anywhere in it is -ELOOP, a missing component -ENOENT,
 * a non-directory -ENOTDIR, each with a message. Returns the fd.
 */
int workdir_open_parent(const char *parent);

/*
 * Create a fresh work directory inside `parent`, which must be an existing
 * directory given by its real path: a missing parent is -ENOENT, a file is
 * -ENOTDIR and a symlink anywhere in the path (even "link/.") is -ELOOP,
 * resolved one component at a time, and only these
 * (a usage error); a failure to create in an existing directory (/proc,
 * a read-only fs) is another errno, -EIO for what would look like those.
 * Trailing slashes are ignored. The new directory is "vfsbench.XXXXXX" (random
 * suffix, mode 0700, so that other users cannot race it) holding the marker
 * file, which names the pid and a random id (wd->id).
 *
 * On success `wd` owns two fds (both O_CLOEXEC) and two strings; release
 * them with workdir_remove() or workdir_release(). On failure nothing is
 * left on disk, `wd` holds no resources (fds -1, strings NULL) and passing
 * it to workdir_release() is harmless.
 */
int workdir_create(struct workdir *wd, const char *parent);

/*
 * dbench's tree (the dbench personality): the work directory is `name`
 * ("clients") inside `parent`, checked as workdir_create() checks it.
 * Missing, it is created with the marker file. Present, it is used as it
 * is when it holds the marker (an earlier run left it with
 * --skip-cleanup: wd->reused); without the marker it was not made by
 * vfsbench and is refused with -EEXIST and a message, unless `adopt`,
 * which uses it as wd->foreign: workdir_remove() never removes it. A
 * symlink or non-directory there is -ENOTDIR. A tree found there, reused
 * or adopted, must be provably ours (workowner_check(): every entry owned
 * by our euid, no directory writable by others) and its marker trusted
 * (marker_trust(): ours, its process gone or us); otherwise it is -EPERM
 * with a message, and nothing is touched. Ownership as for
 * workdir_create().
 */
int workdir_open_named(struct workdir *wd, const char *parent, const char *name,
		       bool adopt);

/*
 * Find the work directory `name` that another process created in
 * `parent` with workdir_create() and the marker id `id`, and work in it:
 * the ranks of an MPI job on a shared filesystem use rank 0's. `parent`
 * is checked as for workdir_create(), with the same errors. Returns 0
 * with wd->attached set, or -ENOENT without a message when `parent` has
 * no such directory holding a marker with that id (a -D that is not
 * shared with that process: a local disk, another filesystem), which is
 * never followed through a symlink. `wd` is then as after a failed
 * workdir_create().
 */
int workdir_attach(struct workdir *wd, const char *parent, const char *name,
		   const char *id);

/*
 * `mkdir -p` of `relpath` inside the work directory. `relpath` is relative
 * ("a/b/c"); components are separated by '/', and empty components
 * ("a//b/") are ignored. An absolute path, an empty path, or a "." or ".."
 * component is -EINVAL. Each component is created with mode 0755 if
 * missing and opened with O_NOFOLLOW|O_DIRECTORY, so a symlink on the way
 * fails with -ELOOP or -ENOTDIR instead of being followed, and a component
 * on another mount fails with -EXDEV.
 *
 * On success the last directory's fd (O_RDONLY|O_DIRECTORY|O_CLOEXEC) is
 * stored in `*dirfd_out` and the caller closes it. `dirfd_out` may be NULL
 * when only the directories are wanted.
 */
int workdir_mkdir(struct workdir *wd, const char *relpath, int *dirfd_out);

/*
 * Remove the subtree `relpath` (a direct or deeper child of the work
 * directory, same syntax as for workdir_mkdir(); the marker file cannot be
 * named) and everything below it. A non-directory at `relpath` is simply
 * unlinked. The components leading to it are opened with O_NOFOLLOW, as in
 * workdir_mkdir().
 *
 * Returns -ENOENT without a message when `relpath` does not exist, so
 * "clear if present" needs no separate check. A mount point inside the
 * subtree is left in place with a message and makes the result -EXDEV once
 * everything else is gone; other errors are reported one by one and the
 * first is returned, also after removing what could be removed.
 *
 * `abort_flag` may be NULL. Once `*abort_flag` is non-zero the walk stops
 * after the current entry and returns -EINTR without a message: the caller
 * says where the files were left.
 */
int workdir_clear(struct workdir *wd, const char *relpath,
		  const volatile int *abort_flag);

/*
 * Remove everything inside the work directory, then the directory itself,
 * then release `wd` as workdir_release() does.
 *
 * Before touching anything, and again before the final rmdir, the parent's
 * entry `wd->name` must still be the directory we created (same device and
 * inode, not followed if it is a symlink) and the marker file must be
 * there. Otherwise nothing more is removed: -ENOENT when the directory has
 * been deleted, -ESTALE when it was renamed away or replaced or lost its
 * marker. Mount points and other errors are handled as in workdir_clear();
 * the marker file stays as long as anything else does. `abort_flag` works
 * as in workdir_clear().
 *
 * `wd` is released only on success. On any error it is left as it was, so
 * the caller can still print wd->path and must call workdir_release().
 * An attached work directory is another process's to remove: this only
 * releases it, and returns 0.
 */
int workdir_remove(struct workdir *wd, const volatile int *abort_flag);

/*
 * Close the fds and free the strings of `wd` without removing anything,
 * for --skip-cleanup and for a cleanup that was aborted or failed. Safe to
 * call twice and on a `wd` that workdir_create() failed to fill.
 */
void workdir_release(struct workdir *wd);

/*
 * workdir_remove() refuses a foreign work directory with -EPERM and a
 * message, before touching anything.
 */

#endif /* VB_WORKDIR_WORKDIR_H */
