/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_CLI_RECORDER_H
#define VB_CLI_RECORDER_H

/*
 * vfsbench record: run a command under strace(1) and write its
 * file-system calls as a loadfile (vfsbench(1) RECORDING,
 * doc/recording.md). @argv[0] is "record". Returns the exit status.
 */
int recorder_main(int argc, const char **argv);

#endif /* VB_CLI_RECORDER_H */
