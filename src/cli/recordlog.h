/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_CLI_RECORDLOG_H
#define VB_CLI_RECORDLOG_H

struct record;

/*
 * Read the strace log @log (a file, a FIFO or a pipe) into @r
 * (lang/record.h), a line at a time (doc/recording.md, "The log"): at
 * most STRACE_LINE_MAX bytes a line, no more kept ops than a loadfile may
 * hold, and a stop signal obeyed at every line and in every read, so that
 * a log that never ends (an endless pipe, an endless line) is stopped or
 * refused before it fills the memory. Returns 0 with the tasks seen in
 * *@ntasks, or an exit status with a message: 2 for a log that is not
 * strace's or is cut short, 3 for a recording a loadfile cannot hold, the
 * signal's for a stop.
 */
int recordlog_read(const char *log, struct record *r, unsigned int *ntasks);

#endif /* VB_CLI_RECORDLOG_H */
