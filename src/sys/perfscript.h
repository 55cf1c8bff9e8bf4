/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_SYS_PERFSCRIPT_H
#define VB_SYS_PERFSCRIPT_H

#include <signal.h>
#include <stdio.h>
#include <sys/types.h>

#include "sys/childwait.h"

/*
 * struct perf_script: "perf script -F tid,period,event,ip,sym,dso" of a
 * perf.data, its output read through a pipe (stats/perfprofile.h reads
 * it). perf's messages go to our standard error. It runs in a process
 * group of its own, and its output is read as struct child_wait reads a
 * pipe: a stop signal leaves it the grace, then kills its group, and
 * the reading ends, however it treats its signals.
 */
struct perf_script {
	pid_t pid;
	int fd; /* the pipe's read end, under out */
	FILE *out; /* perf script's standard output */
	struct child_wait cw;
};

/* The fields asked of perf script, for the messages and the docs. */
#define PERF_SCRIPT_FIELDS "tid,period,event,ip,sym,dso"

/*
 * Start perf script on @file; a stop is *@stop other than 0 (may be
 * NULL), before it starts or while it runs. Returns 0, or -errno with a
 * message (-ENOENT: perf is not installed).
 */
int perf_script_open(struct perf_script *ps, const char *file,
		     const volatile sig_atomic_t *stop);

/*
 * Close the pipe, wait for perf script (a stop obeyed). Returns 0 when it
 * exited with status 0, else -1 with a message naming @file.
 */
int perf_script_close(struct perf_script *ps, const char *file);

#endif /* VB_SYS_PERFSCRIPT_H */
