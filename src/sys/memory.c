/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The memory the process may still use: RLIMIT_AS, MemAvailable and the
 * memory cgroup.
 */
#include <config.h>
#include "sys/memory.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* The first number of @path (after @key, if given), times @unit. */
static uint64_t read_number(const char *path, const char *key, uint64_t unit)
{
	unsigned long long v;
	char line[256];
	uint64_t out = UINT64_MAX;
	FILE *f = fopen(path, "re");

	if (!f)
		return out;
	while (fgets(line, sizeof(line), f)) {
		const char *s = line;

		if (key) {
			if (strncmp(line, key, strlen(key)))
				continue;
			s += strlen(key);
		}
		if (sscanf(s, "%llu", &v) == 1)
			out = (uint64_t)v * unit;
		break;
	}
	fclose(f);
	return out;
}

static uint64_t left(uint64_t limit, uint64_t used)
{
	if (limit == UINT64_MAX || used == UINT64_MAX)
		return UINT64_MAX;
	return limit > used ? limit - used : 0;
}

/*
 * The cgroup's limit less its usage: v2 ("0::/path") or the v1 memory
 * controller ("N:memory:/path"), as mounted at /sys/fs/cgroup.
 */
static uint64_t cgroup_left(void)
{
	char line[512], path[1024];
	uint64_t limit = UINT64_MAX, used = UINT64_MAX;
	FILE *f = fopen("/proc/self/cgroup", "re");

	if (!f)
		return UINT64_MAX;
	while (limit == UINT64_MAX && fgets(line, sizeof(line), f)) {
		const char *p;

		line[strcspn(line, "\n")] = '\0';
		if ((p = strstr(line, ":memory:"))) {
			p += strlen(":memory:");
			snprintf(
				path, sizeof(path),
				"/sys/fs/cgroup/memory%s/memory.limit_in_bytes",
				p);
			limit = read_number(path, NULL, 1);
			snprintf(
				path, sizeof(path),
				"/sys/fs/cgroup/memory%s/memory.usage_in_bytes",
				p);
			used = read_number(path, NULL, 1);
		} else if (!strncmp(line, "0::", 3)) {
			snprintf(path, sizeof(path),
				 "/sys/fs/cgroup%s/memory.max", line + 3);
			limit = read_number(path, NULL, 1); /* "max": none */
			snprintf(path, sizeof(path),
				 "/sys/fs/cgroup%s/memory.current", line + 3);
			used = read_number(path, NULL, 1);
		}
	}
	fclose(f);
	/* v1 says "no limit" with a page-rounded LONG_MAX */
	if (limit >= (UINT64_MAX >> 2))
		return UINT64_MAX;
	return left(limit, used);
}

void memory_limits(struct memory_limits *m)
{
	long page = sysconf(_SC_PAGESIZE);
	struct rlimit rl;

	m->as_limit = UINT64_MAX;
	if (!getrlimit(RLIMIT_AS, &rl) && rl.rlim_cur != RLIM_INFINITY)
		m->as_limit = (uint64_t)rl.rlim_cur;
	/* statm's first field: the address space in use, in pages */
	m->as_left = left(m->as_limit, read_number("/proc/self/statm", NULL,
						   (uint64_t)page));
	m->available = read_number("/proc/meminfo", "MemAvailable:", 1024);
	m->cgroup_left = cgroup_left();
}
