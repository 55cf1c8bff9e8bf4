/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_REPORT_OUTFILE_H
#define VB_REPORT_OUTFILE_H

#include <stdio.h>

typedef struct json_t json_t;

/*
 * struct outfile: a result file written beside its target as
 * "PATH.tmpPID" and renamed over PATH only once complete, so a reader
 * never sees half a file and a failed write leaves nothing.
 */
struct outfile {
	char tmp[4096];
	const char *path;
	FILE *f;
};

/* Open the temporary file; NULL with a message on failure. */
FILE *outfile_open(struct outfile *o, const char *path);
/* Close and rename into place; 0, or -1 with a message (tmp removed). */
int outfile_commit(struct outfile *o);
/* Write @root as indented JSON to @path the same way; 0 or -1. */
int outfile_json(const json_t *root, const char *path);

#endif /* VB_REPORT_OUTFILE_H */
