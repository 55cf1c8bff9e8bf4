/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_REPORT_OUTFILE_H
#define VB_REPORT_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

typedef struct json_t json_t;

/*
 * struct outfile: a result file that never replaces what is not its own.
 * A target that is absent or a regular file is written beside it as
 * "PATH.tmpPID" and renamed over it only once complete, so a reader never
 * sees half a file and a failed write leaves nothing. Any other target (a
 * device, a FIFO, a symlink, a socket) is opened and written into, as a
 * shell's '>' would, and "-" is standard output: /dev/full stays a device
 * and /dev/stdout a link. A write error (ENOSPC, EPIPE) is an error either
 * way.
 */
struct outfile {
	char tmp[4096];
	const char *path;
	FILE *f; /* writes go to fd, through outfile.c's own writer */
	int fd;
	int err; /* the errno of the first failed write, 0 if none */
	bool direct; /* written into path (or stdout): no rename */
};

/* Open for writing; NULL with a message on failure. */
FILE *outfile_open(struct outfile *o, const char *path);
/*
 * Flush, close and (for a temporary file) rename into place; 0, or -1
 * with a message naming the file and the error (the temporary file is
 * removed).
 */
int outfile_commit(struct outfile *o);
/* Write @root as indented JSON to @path the same way; 0 or -1. */
int outfile_json(const json_t *root, const char *path);

#endif /* VB_REPORT_OUTFILE_H */
