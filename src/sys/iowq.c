/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The io-wq workers' CPU time, for -e uring: what the ops punted out of
 * io_uring_enter(2) cost on the workers, outside the clients' own time.
 */
#include <config.h>
#include "sys/iowq.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/sysfile.h"

int iowq_cpu_ns(int tid, uint64_t *ns)
{
	char want[32], dir[288];
	struct dirent *d;
	uint64_t sum = 0, run;
	DIR *tasks = opendir("/proc/self/task");

	if (!tasks)
		return -errno;
	snprintf(want, sizeof(want), "iou-wrk-%d", tid);
	while ((d = readdir(tasks))) {
		char *comm, *stat;

		if (d->d_name[0] == '.')
			continue;
		snprintf(dir, sizeof(dir), "/proc/self/task/%s", d->d_name);
		comm = sysfile_line(dir, "comm");
		if (comm && !strcmp(comm, want)) {
			/* a worker that exits between the two reads: none */
			stat = sysfile_line(dir, "schedstat");
			if (stat && sscanf(stat, "%" SCNu64, &run) == 1)
				sum += run;
			free(stat);
		}
		free(comm);
	}
	closedir(tasks);
	*ns = sum;
	return 0;
}
