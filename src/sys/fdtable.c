/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Sizing the fd table before the measurement starts.
 */
#include <config.h>
#include "sys/fdtable.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <string.h>
#include <unistd.h>

#include "base/msg.h"

int fdtable_reserve(unsigned int n)
{
	struct rlimit rl;
	unsigned long target;
	int fd, big, ret = 0;

	fd = open("/", O_PATH | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* fd is the lowest free slot; clients' opens fill from there up */
	target = (unsigned long)fd + n;
	if (getrlimit(RLIMIT_NOFILE, &rl)) {
		ret = -errno;
		goto out_close;
	}
	if (rl.rlim_cur != RLIM_INFINITY && target >= rl.rlim_cur) {
		if (rl.rlim_max != RLIM_INFINITY && target >= rl.rlim_max) {
			error("this run needs %lu file descriptors but the hard limit RLIMIT_NOFILE is %lu; raise it (ulimit -Hn, or fs.nr_open)",
			      target + 1, (unsigned long)rl.rlim_max);
			ret = -EMFILE;
			goto out_close;
		}
		/*
		 * Up to the hard limit, not just to @n: a Deltree of a tree
		 * that renames made deeper than any path of the loadfile
		 * needs more, and would fail with EMFILE at exactly @n.
		 */
		rl.rlim_cur =
			rl.rlim_max != RLIM_INFINITY ? rl.rlim_max : target + 1;
		if (setrlimit(RLIMIT_NOFILE, &rl)) {
			ret = -errno;
			error("cannot raise RLIMIT_NOFILE to %lu: %s",
			      (unsigned long)rl.rlim_cur, strerror(errno));
			goto out_close;
		}
	}
	big = fcntl(fd, F_DUPFD_CLOEXEC, (int)target);
	if (big < 0) {
		ret = -errno;
		error("cannot reserve %u file descriptors: %s", n,
		      strerror(errno));
		goto out_close;
	}
	close(big);
out_close:
	close(fd);
	return ret;
}

unsigned long fdtable_size(void)
{
	FILE *f = fopen("/proc/thread-self/status", "re");
	unsigned long size = 0;
	char line[128];

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "FDSize: %lu", &size) == 1)
			break;
	fclose(f);
	return size;
}
