/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where each client of a run works, inside the work directory: the name
 * of its directory (by run, by client, --cwd shared, dbench's tree,
 * --depth) and its creation just before the client starts. Apart from
 * run.c, which decides when; the files are removed by workdir.c.
 */
#include <config.h>
#include "run/clientdir.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include "base/msg.h"
#include "run/config.h"
#include "run/workdir.h"

/*
 * "run3" and "run3/clients/client7/d/d" style paths, inside the workdir;
 * "client7" in dbench's tree, whose work directory is DIR/clients.
 */
static void run_dir(const struct run_config *cfg, unsigned int index, char *buf,
		    size_t len, unsigned int client)
{
	int n;

	if (cfg->dbench_tree)
		n = snprintf(buf, len, "client%u", client);
	else if (cfg->cwd == CWD_SHARED)
		n = snprintf(buf, len, "run%u/shared", index);
	else
		n = snprintf(buf, len, "run%u/clients/client%u", index, client);
	for (unsigned int d = 0; d < cfg->depth && n > 0 && (size_t)n + 3 < len;
	     d++)
		n += snprintf(buf + n, len - (size_t)n, "/d");
}

int clientdir_open(const struct run_config *cfg, unsigned int index,
		   struct workdir *wd, unsigned int client, int shared_fd,
		   int *fd)
{
	char path[CLIENTDIR_MAX];
	int ret;

	if (shared_fd >= 0) {
		*fd = fcntl(shared_fd, F_DUPFD_CLOEXEC, 0);
		if (*fd < 0)
			return error("cannot duplicate a directory fd: %s",
				     strerror(errno));
		return 0;
	}
	run_dir(cfg, index, path, sizeof(path), client);
	ret = workdir_mkdir(wd, path, fd);
	if (ret)
		return error("cannot create '%s/%s': %s", wd->path, path,
			     strerror(-ret));
	return 0;
}

int clientdir_make_per_thread(struct workdir *wd, const unsigned int *ids,
			      unsigned int nthreads, unsigned int per)
{
	char path[32];
	int ret;

	/* this rank's threads' clients, by their numbers in the job */
	for (unsigned int i = 0; i < nthreads * per; i++) {
		snprintf(path, sizeof(path), "client%u",
			 ids[i / per] * per + i % per);
		ret = workdir_mkdir(wd, path, NULL);
		if (ret)
			return error("cannot create '%s/%s': %s", wd->path,
				     path, strerror(-ret));
	}
	return 0;
}
