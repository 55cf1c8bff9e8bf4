/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_CLI_LISTING_H
#define VB_CLI_LISTING_H

/*
 * --list-loadfiles: each built-in loadfile's name, the first sentence of
 * its comment (wrapped) and the ops of its [run] section, on stdout.
 */
void listing_loadfiles(void);

/* --list-ops: every op and the system calls it issues, on stdout. */
void listing_ops(void);

#endif /* VB_CLI_LISTING_H */
