/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * CPU lists: the kernel's "0-3,8" syntax in both directions, and the
 * affinity masks of threads, read and set with sched_{get,set}affinity(2)
 * through dynamically sized cpu sets (a machine may have more CPUs than
 * a cpu_set_t holds).
 */
#include <config.h>
#include "sys/cpulist.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/units.h"

void cpulist_add(struct cpulist *l, unsigned int cpu)
{
	l->cpu = xrealloc(l->cpu, (l->n + 1) * sizeof(*l->cpu));
	l->cpu[l->n++] = cpu;
}

/* One number of a list, ending at @end. */
static int parse_cpu(const char *s, const char *end, unsigned int *cpu)
{
	char buf[16];
	uint64_t v;

	if (end == s || (size_t)(end - s) >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, (size_t)(end - s));
	buf[end - s] = '\0';
	if (units_parse_uint(buf, CPULIST_MAX_CPU, &v))
		return -EINVAL;
	*cpu = (unsigned int)v;
	return 0;
}

int cpulist_parse(struct cpulist *l, const char *s)
{
	struct cpulist out = { 0 };

	for (;;) {
		const char *end = s + strcspn(s, ",");
		const char *dash = memchr(s, '-', (size_t)(end - s));
		unsigned int lo, hi;

		if (parse_cpu(s, dash ? dash : end, &lo) ||
		    (dash && parse_cpu(dash + 1, end, &hi)) ||
		    (dash && hi < lo)) {
			cpulist_release(&out);
			return -EINVAL;
		}
		if (!dash)
			hi = lo;
		for (unsigned int c = lo; c <= hi; c++)
			cpulist_add(&out, c);
		if (!*end)
			break;
		s = end + 1;
	}
	*l = out;
	return 0;
}

int cpulist_affinity(struct cpulist *l, pid_t tid)
{
	size_t ncpus = 1024;

	memset(l, 0, sizeof(*l));
	for (;;) {
		cpu_set_t *set = CPU_ALLOC(ncpus);
		size_t size = CPU_ALLOC_SIZE(ncpus);
		int err;

		if (!set)
			return -ENOMEM;
		if (!sched_getaffinity(tid, size, set)) {
			for (size_t c = 0; c < ncpus; c++)
				if (CPU_ISSET_S(c, size, set))
					cpulist_add(l, (unsigned int)c);
			CPU_FREE(set);
			return 0;
		}
		err = errno;
		CPU_FREE(set);
		/* EINVAL: the kernel's mask is wider than ours */
		if (err != EINVAL || ncpus > 1u << 20)
			return -err;
		ncpus *= 2;
	}
}

int cpulist_set_affinity(const struct cpulist *l, pid_t tid)
{
	unsigned int max = 0;
	cpu_set_t *set;
	size_t size;
	int ret = 0;

	for (unsigned int i = 0; i < l->n; i++)
		if (l->cpu[i] > max)
			max = l->cpu[i];
	set = CPU_ALLOC(max + 1);
	if (!set)
		return -ENOMEM;
	size = CPU_ALLOC_SIZE(max + 1);
	CPU_ZERO_S(size, set);
	for (unsigned int i = 0; i < l->n; i++)
		CPU_SET_S(l->cpu[i], size, set);
	if (sched_setaffinity(tid, size, set))
		ret = -errno;
	CPU_FREE(set);
	return ret;
}

bool cpulist_contains(const struct cpulist *l, unsigned int cpu)
{
	for (unsigned int i = 0; i < l->n; i++)
		if (l->cpu[i] == cpu)
			return true;
	return false;
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return (x > y) - (x < y);
}

/* @l's CPUs ascending and unique, into a new array of *@n. */
static unsigned int *sorted(const struct cpulist *l, unsigned int *n)
{
	unsigned int *s = xcalloc(l->n + 1, sizeof(*s)), k = 0;

	if (l->n)
		memcpy(s, l->cpu, l->n * sizeof(*s));
	qsort(s, l->n, sizeof(*s), cmp_uint);
	for (unsigned int i = 0; i < l->n; i++)
		if (!k || s[k - 1] != s[i])
			s[k++] = s[i];
	*n = k;
	return s;
}

unsigned int cpulist_distinct(const struct cpulist *l)
{
	unsigned int n, *s = sorted(l, &n);

	free(s);
	return n;
}

char *cpulist_format(const struct cpulist *l, char *buf, size_t len)
{
	unsigned int n, *s = sorted(l, &n);
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	for (unsigned int i = 0; i < n && used < len; i++) {
		unsigned int j = i;

		while (j + 1 < n && s[j + 1] == s[j] + 1)
			j++;
		if (j == i)
			used += (size_t)snprintf(buf + used, len - used, "%s%u",
						 i ? "," : "", s[i]);
		else
			used += (size_t)snprintf(buf + used, len - used,
						 "%s%u-%u", i ? "," : "", s[i],
						 s[j]);
		i = j;
	}
	free(s);
	return buf;
}

char *cpulist_string(const struct cpulist *l)
{
	/* at most 12 bytes a CPU: ",8191-8191" and room */
	size_t len = (size_t)l->n * 12 + 1;
	char *buf = xmalloc(len);

	return cpulist_format(l, buf, len);
}

void cpulist_release(struct cpulist *l)
{
	free(l->cpu);
	memset(l, 0, sizeof(*l));
}
