/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_CLI_DBENCHMAIN_H
#define VB_CLI_DBENCHMAIN_H

/*
 * vfsbench dbench [dbench's options] N (and vfsbench-dbench): one run at
 * N clients in DIR/clients, reported as dbench reports it. Returns the
 * exit status (base/exit.h).
 */
int dbenchmain_run(int argc, const char **argv);

#endif /* VB_CLI_DBENCHMAIN_H */
