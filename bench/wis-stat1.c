// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stat1: a will-it-scale testcase (upstream has no stat test), for
 * bench/peers.sh. It is built with will-it-scale's own main.c, which
 * calls testcase_prepare() once, runs testcase() in every task and counts
 * *iterations; so, like open1, each task has its own file made by
 * mkstemp() in /tmp, and the loop is one stat() of it: glibc 2.33 and
 * later issue newfstatat(AT_FDCWD, path, buf, 0), the call of vfsbench's
 * stat op (bench/peers/wis-stat1.load).
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *testcase_description = "Separate file stat";

#define NAME_TEMPLATE "/tmp/willitscale.XXXXXX"

static char (*names)[sizeof(NAME_TEMPLATE)];
static unsigned long nr_names;

void testcase_prepare(unsigned long nr_tasks)
{
	unsigned long i;

	names = calloc(nr_tasks, sizeof(*names));
	assert(names);
	for (i = 0; i < nr_tasks; i++) {
		int fd;

		strcpy(names[i], NAME_TEMPLATE);
		fd = mkstemp(names[i]);
		assert(fd >= 0);
		close(fd);
	}
	nr_names = nr_tasks;
}

void *testcase(unsigned long long *iterations, unsigned long nr)
{
	struct stat st;

	for (;;) {
		int ret = stat(names[nr], &st);

		assert(ret == 0);
		(*iterations)++;
	}
	return NULL;
}

void testcase_cleanup(void)
{
	unsigned long i;

	for (i = 0; i < nr_names; i++)
		unlink(names[i]);
	free(names);
}
