/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_SYS_PERFSCRIPT_H
#define VB_SYS_PERFSCRIPT_H

#include <stdio.h>
#include <sys/types.h>

/*
 * struct perf_script: "perf script -F tid,period,event,ip,sym,dso" of a
 * perf.data, its output read through a pipe (stats/perfprofile.h reads
 * it). perf's messages go to our standard error.
 */
struct perf_script {
	pid_t pid;
	FILE *out; /* perf script's standard output */
};

/* The fields asked of perf script, for the messages and the docs. */
#define PERF_SCRIPT_FIELDS "tid,period,event,ip,sym,dso"

/*
 * Start perf script on @file. Returns 0, or -errno with a message
 * (-ENOENT: perf is not installed).
 */
int perf_script_open(struct perf_script *ps, const char *file);

/*
 * Close the pipe, wait for perf script. Returns 0 when it exited with
 * status 0, else -1 with a message naming @file.
 */
int perf_script_close(struct perf_script *ps, const char *file);

#endif /* VB_SYS_PERFSCRIPT_H */
