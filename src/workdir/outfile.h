/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_WORKDIR_OUTFILE_H
#define VB_WORKDIR_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

typedef struct json_t json_t;

/*
 * struct outfile: a result file (--json, --csv, --ministat, plot's and
 * fdscale's, --profile's perf data), by the one rule of vfsbench(1)'s
 * RESULT FILES:
 *  - a target that is absent or a regular file is written beside it as
 *    "PATH.tmpPID" and renamed over it only once complete, so a reader
 *    never sees half a file and a failed write leaves nothing; a regular
 *    file replaced keeps its owner and group (where the caller may give
 *    them: else the caller's) and its permission bits;
 *  - any other target (a device, a FIFO, a symlink, a socket) is opened
 *    and written into, as a shell's '>' would, never replaced, and "-" is
 *    standard output: /dev/full stays a device and /dev/stdout a link;
 *  - a target that turned into something else while it was written is
 *    left as it is: an error.
 * A write error (ENOSPC, EPIPE) is an error either way.
 */
/* What a caller lets a target be when it is opened (outfile_open_as()). */
enum outfile_target {
	OUTFILE_ANY, /* the rule above */
	/*
	 * Absent or a regular file, replaced by the rule; anything else
	 * (a symlink) is left as it is, an error, never written into.
	 */
	OUTFILE_REGULAR,
	/*
	 * Absent, and made without replacing what appears meanwhile: a
	 * file, a symlink there at the open or at the rename is left as it
	 * is, an error, never written into or through.
	 */
	OUTFILE_NEW,
};

struct outfile {
	char tmp[4096];
	const char *path;
	FILE *f; /* writes go to fd, through outfile.c's own writer */
	int fd;
	int err; /* the errno of the first failed write, 0 if none */
	mode_t perm; /* the permission bits the file may have at most */
	enum outfile_target target;
	bool direct; /* written into path (or stdout): no rename */
};

/* Open for writing; NULL with a message on failure. */
FILE *outfile_open(struct outfile *o, const char *path);
/*
 * The same, for a target that may be only what @target says, where the
 * caller looked at it long before (vfsbench record, before its command
 * ran: a symlink planted meanwhile is never written through), and whose
 * permission bits are at most @perm (0600 for a file that holds what only
 * its owner may read): a new file is made with 0666 & @perm less the
 * umask, a regular file replaced keeps its bits less those @perm lacks.
 * A target written into (OUTFILE_ANY: a FIFO, a device, through a
 * symlink, standard output; "-" with any @target) keeps its own.
 */
FILE *outfile_open_as(struct outfile *o, const char *path,
		      enum outfile_target target, mode_t perm);
/*
 * Flush, close and (for a temporary file) put in place; 0, or -1 with a
 * message naming the file and the error (the temporary file is removed).
 */
int outfile_commit(struct outfile *o);
/* Close without putting anything in place: a temporary file is removed. */
void outfile_abort(struct outfile *o);
/* Write @root as indented JSON to @path the same way; 0 or -1. */
int outfile_json(const json_t *root, const char *path);

/*
 * For a file another program writes by its name (perf record -o): the
 * temporary file "PATH.tmpPID" is made, empty, with @mode (less the
 * umask), for the program to write; 0 or -1 with a message.
 * outfile_finish() then puts it in place by the rule above, or copies it
 * into a target that is not a regular file, and removes it; 0 or -1 with
 * a message. outfile_abort() removes it.
 */
int outfile_reserve(struct outfile *o, const char *path, mode_t mode);
int outfile_finish(struct outfile *o);

/*
 * A file an invocation names, for outfile_check(): @opt is how the
 * command line named it ("--json", "-c"), @path as given; an input is
 * only read.
 */
struct outfile_name {
	const char *opt;
	const char *path;
	bool input;
};

/*
 * Before anything runs: no two outputs of @names may be the same file,
 * and no output an input. The same is the same device and inode for files
 * that exist ("-" is standard output's; a symlink is its target's), and
 * the same normalised path for files that do not (a dangling link's
 * target, the directory part resolved); an input that does not exist is
 * no file (a built-in loadfile's name). Returns 0, or -1 with @msg
 * (of @len bytes) saying which two.
 */
int outfile_check(const struct outfile_name *names, size_t n, char *msg,
		  size_t len);

#endif /* VB_WORKDIR_OUTFILE_H */
