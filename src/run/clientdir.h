/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_RUN_CLIENTDIR_H
#define VB_RUN_CLIENTDIR_H

struct run_config;
struct workdir;

/*
 * The longest path of a client's directory inside the work directory
 * (run.c refuses a --depth that would not fit).
 */
#define CLIENTDIR_MAX 8192

/*
 * Create and open the directory of client @client (its number in the
 * job) of the run @index (a duplicate of @shared_fd when clients share
 * one), just before the client starts: the fd table then holds one
 * client directory at a time, so a client that unshares the table copies
 * a few fds, not one per client. 0, or -errno with a message.
 */
int clientdir_open(const struct run_config *cfg, unsigned int index,
		   struct workdir *wd, unsigned int client, int shared_fd,
		   int *fd);

/*
 * --clients-per-process: DIR/clients/clientN of every client of every
 * thread, as one client per thread gets its own: @per clients for each
 * of the @nthreads threads numbered @ids in the job. 0, or -errno with a
 * message.
 */
int clientdir_make_per_thread(struct workdir *wd, const unsigned int *ids,
			      unsigned int nthreads, unsigned int per);

#endif /* VB_RUN_CLIENTDIR_H */
