/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_RUN_CLIENTDIR_H
#define VB_RUN_CLIENTDIR_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/engine.h"

struct run_config;
struct workdir;

/*
 * The longest path of a client's directory inside the work directory
 * (run.c refuses a --depth that would not fit).
 */
#define CLIENTDIR_MAX 8192

/* --resolve's names, by enum resolve_mode: "cwd", "dirfd"... */
extern const char *const resolve_names[RESOLVE_NR];

/*
 * The prefix of every path client @client of run @index resolves, into
 * @buf: --depth's components ("d/d/"), its own directory with --prefix
 * shared ("client7/"), and with @abs_wd (--resolve abs: the work
 * directory's absolute path, clientdir_abs_root()) the absolute path of
 * the directory it starts from before them. Its length, or -ENAMETOOLONG.
 */
int clientdir_prefix(const struct run_config *cfg, unsigned int index,
		     const char *abs_wd, unsigned int client, char *buf,
		     size_t len);

/*
 * The components clientdir_prefix() puts in front of a path: --depth's
 * and --prefix shared's, and with @from_wd those from the work directory
 * to where the walk starts ("run0/clients/client7": 3).
 */
unsigned int clientdir_walk_components(const struct run_config *cfg,
				       bool from_wd);

/*
 * The absolute path of the work directory, without links (realpath),
 * checked to be the directory @wd holds: 0, -ESTALE when the name leads
 * elsewhere now, or -errno.
 */
int clientdir_abs_root(const struct workdir *wd, char *buf, size_t len);

/*
 * Create the directory of client @client (its number in the job) of the
 * run @index and the walk below it (--depth, --prefix), and open the
 * directory its walk starts from (a duplicate of @shared_fd when clients
 * share one), just before the client starts: the fd table then holds one
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
