/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_BASE_EXIT_H
#define VB_BASE_EXIT_H

/* Exit codes, documented in vfsbench(1). Only main() and die() exit. */
enum vb_exit {
	VB_EXIT_OK = 0,
	VB_EXIT_UNEXPECTED = 1, /* --strict mismatch or --max-errors reached */
	VB_EXIT_USAGE = 2, /* bad option, value or loadfile */
	VB_EXIT_RUNTIME = 3, /* setup or run failed */
	VB_EXIT_SIGHUP = 129,
	VB_EXIT_SIGINT = 130,
	VB_EXIT_SIGPIPE = 141, /* standard output closed */
	VB_EXIT_SIGTERM = 143,
};

/* The status of a run stopped by signal @sig, as a shell reports one. */
#define VB_EXIT_SIGNAL(sig) (128 + (sig))

#endif /* VB_BASE_EXIT_H */
