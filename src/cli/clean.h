/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_CLI_CLEAN_H
#define VB_CLI_CLEAN_H

/*
 * vfsbench clean -D DIR: remove the work directories that vfsbench runs
 * left in DIR and whose process is gone (workdir/stale.h). @argc, @argv:
 * its command line, argv[0] "clean". Returns the exit status: 0, 2 for
 * a usage error or a bad -D, 3 when a tree was refused or could not be
 * removed, or the stop signal's.
 */
int clean_main(int argc, const char **argv);

#endif /* VB_CLI_CLEAN_H */
