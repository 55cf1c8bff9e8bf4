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
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/msg.h"
#include "run/runconfig.h"
#include "workdir/workdir.h"

const char *const resolve_names[RESOLVE_NR] = {
	[RESOLVE_CWD] = "cwd",
	[RESOLVE_DIRFD] = "dirfd",
	[RESOLVE_ABS] = "abs",
	[RESOLVE_MODE_BENEATH] = "beneath",
};

/*
 * The client's directory, inside the workdir: its cwd, where its walk
 * starts. "run3/clients/client7", or "run3/walk" that all clients of a
 * --prefix shared run start from, "run3/shared" with --cwd shared;
 * "client7" in dbench's tree, whose work directory is DIR/clients.
 */
static int root_dir(const struct run_config *cfg, unsigned int index, char *buf,
		    size_t len, unsigned int client)
{
	int n;

	if (cfg->dbench_tree)
		n = snprintf(buf, len, "client%u", client);
	else if (cfg->cwd == CWD_SHARED)
		n = snprintf(buf, len, "run%u/shared", index);
	else if (cfg->prefix == PREFIX_SHARED)
		n = snprintf(buf, len, "run%u/walk", index);
	else
		n = snprintf(buf, len, "run%u/clients/client%u", index, client);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : n;
}

/*
 * The walk below it: --depth's "d/" components, then, with --prefix
 * shared, the client's own "client7/" (a private directory needs none).
 */
static int walk_dirs(const struct run_config *cfg, char *buf, size_t len,
		     unsigned int client)
{
	size_t n = 0;
	int k;

	for (unsigned int d = 0; d < cfg->depth; d++) {
		if (n + 3 > len)
			return -ENAMETOOLONG;
		memcpy(buf + n, "d/", 3);
		n += 2;
	}
	buf[n] = '\0';
	if (cfg->prefix == PREFIX_SHARED && cfg->cwd == CWD_PRIVATE &&
	    !cfg->dbench_tree) {
		k = snprintf(buf + n, len - n, "client%u/", client);
		if (k < 0 || (size_t)k >= len - n)
			return -ENAMETOOLONG;
		n += (size_t)k;
	}
	return (int)n;
}

int clientdir_open(const struct run_config *cfg, unsigned int index,
		   struct workdir *wd, unsigned int client, int shared_fd,
		   int *fd)
{
	char path[CLIENTDIR_MAX];
	int ret, n;

	if (shared_fd >= 0) {
		*fd = fcntl(shared_fd, F_DUPFD_CLOEXEC, 0);
		if (*fd < 0)
			return error("cannot duplicate a directory fd: %s",
				     strerror(errno));
		return 0;
	}
	n = root_dir(cfg, index, path, sizeof(path), client);
	if (n < 0)
		return error("the directory of client %u: %s", client,
			     strerror(-n));
	/* the walk's directories first: the root is what stays open */
	path[n] = '/';
	ret = walk_dirs(cfg, path + n + 1, sizeof(path) - (size_t)n - 1,
			client);
	if (ret > 0) {
		ret = workdir_mkdir(wd, path, NULL);
		if (ret)
			return error("cannot create '%s/%s': %s", wd->path,
				     path, strerror(-ret));
	} else if (ret < 0) {
		return error("the directory of client %u: %s", client,
			     strerror(-ret));
	}
	path[n] = '\0';
	ret = workdir_mkdir(wd, path, fd);
	if (ret)
		return error("cannot create '%s/%s': %s", wd->path, path,
			     strerror(-ret));
	return 0;
}

int clientdir_prefix(const struct run_config *cfg, unsigned int index,
		     const char *abs_wd, unsigned int client, char *buf,
		     size_t len)
{
	int n = 0, k;

	if (abs_wd) {
		n = snprintf(buf, len, "%s/", abs_wd);
		if (n < 0 || (size_t)n >= len)
			return -ENAMETOOLONG;
		k = root_dir(cfg, index, buf + n, len - (size_t)n, client);
		if (k < 0 || (size_t)(n + k) + 1 >= len)
			return -ENAMETOOLONG;
		n += k;
		buf[n++] = '/';
	}
	k = walk_dirs(cfg, buf + n, len - (size_t)n, client);
	return k < 0 ? k : n + k;
}

int clientdir_abs_root(const struct workdir *wd, char *buf, size_t len)
{
	struct stat st;
	char *p = realpath(wd->path, NULL);

	if (!p)
		return -errno;
	/* the name must still lead to our directory, through no link */
	if (stat(p, &st) || st.st_dev != wd->dev || st.st_ino != wd->ino ||
	    strlen(p) >= len) {
		free(p);
		return -ESTALE;
	}
	strcpy(buf, p);
	free(p);
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

unsigned int clientdir_walk_components(const struct run_config *cfg,
				       bool from_wd)
{
	unsigned int n = cfg->depth;

	if (cfg->prefix == PREFIX_SHARED && cfg->cwd == CWD_PRIVATE &&
	    !cfg->dbench_tree)
		n++; /* "client7" */
	if (from_wd) /* as root_dir() names them */
		n += cfg->dbench_tree ? 1 :
		     cfg->cwd == CWD_SHARED || cfg->prefix == PREFIX_SHARED ?
					2 :
					3;
	return n;
}
