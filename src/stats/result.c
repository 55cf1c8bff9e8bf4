/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Per-client results and their merge after the clients are joined.
 */
#include <config.h>
#include "stats/result.h"

#include <errno.h>
#include <stdlib.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>

#include "base/alloc.h"

int result_init(struct result *r, unsigned int nslots)
{
	memset(r, 0, sizeof(*r));
	r->lat = calloc_aligned(nslots, sizeof(*r->lat));
	r->err = calloc_aligned(nslots, sizeof(*r->err));
	r->count = calloc_aligned(nslots, sizeof(*r->count));
	if (!r->lat || !r->err || !r->count) {
		result_release(r);
		return -ENOMEM;
	}
	r->nslots = nslots;
	result_reset(r);
	return 0;
}

void result_reset(struct result *r)
{
	for (unsigned int i = 0; i < r->nslots; i++)
		hist_init(&r->lat[i]);
	memset(r->err, 0, r->nslots * sizeof(*r->err));
	memset(r->count, 0, r->nslots * sizeof(*r->count));
	r->ops = r->unexpected = r->skipped = r->interrupted = 0;
	r->bytes = r->passes = 0;
	r->t_start = r->t_end = 0;
	memset(&r->usage, 0, sizeof(r->usage));
}

void result_merge(struct result *dst, const struct result *src)
{
	for (unsigned int i = 0; i < dst->nslots; i++) {
		hist_merge(&dst->lat[i], &src->lat[i]);
		dst->count[i] += src->count[i];
		for (unsigned int e = 0; e < ERR_NR; e++)
			dst->err[i][e] += src->err[i][e];
	}
	dst->ops += src->ops;
	dst->unexpected += src->unexpected;
	dst->skipped += src->skipped;
	dst->interrupted += src->interrupted;
	dst->bytes += src->bytes;
	dst->passes += src->passes;
	dst->usage.user_s += src->usage.user_s;
	dst->usage.sys_s += src->usage.sys_s;
	dst->usage.voluntary += src->usage.voluntary;
	dst->usage.involuntary += src->usage.involuntary;
	dst->usage.run_delay_ns += src->usage.run_delay_ns;
	dst->usage.run_delay_known |= src->usage.run_delay_known;
	dst->usage.migrations += src->usage.migrations;
	dst->usage.migrations_known |= src->usage.migrations_known;
	dst->usage.iowq_ns += src->usage.iowq_ns;
	dst->usage.iowq_known |= src->usage.iowq_known;
	if (src->t_end) {
		if (!dst->t_start || src->t_start < dst->t_start)
			dst->t_start = src->t_start;
		if (src->t_end > dst->t_end)
			dst->t_end = src->t_end;
	}
}

/* The scalars of a result, in the order packed. */
#define RESULT_SCALARS 18

size_t result_packed_size(unsigned int nslots)
{
	return (RESULT_SCALARS + (size_t)nslots * (7 + HIST_NR + ERR_NR)) *
	       sizeof(uint64_t);
}

static uint64_t bits_of(double d)
{
	uint64_t u;

	memcpy(&u, &d, sizeof(u));
	return u;
}

static double double_of(uint64_t u)
{
	double d;

	memcpy(&d, &u, sizeof(d));
	return d;
}

void result_pack(const struct result *r, void *buf)
{
	uint64_t *w = buf;

	*w++ = r->ops;
	*w++ = r->unexpected;
	*w++ = r->skipped;
	*w++ = r->interrupted;
	*w++ = r->bytes;
	*w++ = r->passes;
	*w++ = r->t_start;
	*w++ = r->t_end;
	*w++ = bits_of(r->usage.user_s);
	*w++ = bits_of(r->usage.sys_s);
	*w++ = r->usage.voluntary;
	*w++ = r->usage.involuntary;
	*w++ = r->usage.run_delay_ns;
	*w++ = r->usage.run_delay_known;
	*w++ = r->usage.migrations;
	*w++ = r->usage.migrations_known;
	*w++ = r->usage.iowq_ns;
	*w++ = r->usage.iowq_known;
	for (unsigned int i = 0; i < r->nslots; i++) {
		const struct hist *h = &r->lat[i];

		*w++ = r->count[i];
		*w++ = h->count;
		*w++ = h->sum;
		*w++ = h->min;
		*w++ = h->max;
		*w++ = h->sumsq_lo;
		*w++ = h->sumsq_hi;
		memcpy(w, h->bucket, sizeof(h->bucket));
		w += HIST_NR;
		memcpy(w, r->err[i], sizeof(r->err[i]));
		w += ERR_NR;
	}
}

void result_unpack(struct result *r, const void *buf)
{
	const uint64_t *w = buf;

	r->ops = *w++;
	r->unexpected = *w++;
	r->skipped = *w++;
	r->interrupted = *w++;
	r->bytes = *w++;
	r->passes = *w++;
	r->t_start = *w++;
	r->t_end = *w++;
	r->usage.user_s = double_of(*w++);
	r->usage.sys_s = double_of(*w++);
	r->usage.voluntary = *w++;
	r->usage.involuntary = *w++;
	r->usage.run_delay_ns = *w++;
	r->usage.run_delay_known = *w++ != 0;
	r->usage.migrations = *w++;
	r->usage.migrations_known = *w++ != 0;
	r->usage.iowq_ns = *w++;
	r->usage.iowq_known = *w++ != 0;
	for (unsigned int i = 0; i < r->nslots; i++) {
		struct hist *h = &r->lat[i];

		r->count[i] = *w++;
		h->count = *w++;
		h->sum = *w++;
		h->min = *w++;
		h->max = *w++;
		h->sumsq_lo = *w++;
		h->sumsq_hi = *w++;
		memcpy(h->bucket, w, sizeof(h->bucket));
		w += HIST_NR;
		memcpy(r->err[i], w, sizeof(r->err[i]));
		w += ERR_NR;
	}
}

uint64_t result_elapsed(const struct result *r)
{
	return r->t_end > r->t_start ? r->t_end - r->t_start : 0;
}

static double tv_s(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

/* A small file of /proc/thread-self into @buf; its length, or -1. */
static ssize_t read_self(const char *name, char *buf, size_t len)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/thread-self/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return n;
}

/* "se.nr_migrations    :    12" of /proc/thread-self/sched. */
static bool read_migrations(uint64_t *migrations)
{
	char buf[4096];
	const char *p;
	unsigned long long v;

	if (read_self("sched", buf, sizeof(buf)) < 0)
		return false;
	p = strstr(buf, "\nse.nr_migrations");
	if (!p || !(p = strchr(p, ':')) || sscanf(p + 1, "%llu", &v) != 1)
		return false;
	*migrations = v;
	return true;
}

/*
 * Field 39 of /proc/thread-self/stat, the CPU the thread last ran on:
 * the 37th after the ")" that ends the command name (which may hold
 * spaces and parentheses itself).
 */
static int read_cpu(void)
{
	char buf[1024];
	const char *p;
	int cpu;

	if (read_self("stat", buf, sizeof(buf)) < 0)
		return -1;
	p = strrchr(buf, ')');
	for (int field = 2; p && field < 39; field++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p + 1, "%d", &cpu) != 1)
		return -1;
	return cpu;
}

void usage_mark(struct usage_mark *m)
{
	unsigned long long run, delay;
	char buf[128];

	getrusage(RUSAGE_THREAD, &m->ru);
	m->run_delay_known = false;
	if (read_self("schedstat", buf, sizeof(buf)) > 0 &&
	    sscanf(buf, "%llu %llu", &run, &delay) == 2) {
		m->run_delay_ns = delay;
		m->run_delay_known = true;
	}
	m->migrations_known = read_migrations(&m->migrations);
	m->cpu = read_cpu();
}

void result_add_usage(struct result *r, const struct usage_mark *from,
		      const struct usage_mark *to)
{
	r->usage.user_s += tv_s(&to->ru.ru_utime) - tv_s(&from->ru.ru_utime);
	r->usage.sys_s += tv_s(&to->ru.ru_stime) - tv_s(&from->ru.ru_stime);
	r->usage.voluntary += (uint64_t)(to->ru.ru_nvcsw - from->ru.ru_nvcsw);
	r->usage.involuntary +=
		(uint64_t)(to->ru.ru_nivcsw - from->ru.ru_nivcsw);
	if (from->run_delay_known && to->run_delay_known) {
		r->usage.run_delay_ns += to->run_delay_ns - from->run_delay_ns;
		r->usage.run_delay_known = true;
	}
	if (from->migrations_known && to->migrations_known) {
		r->usage.migrations += to->migrations - from->migrations;
		r->usage.migrations_known = true;
	}
}

double result_cpu_share(const struct result *r, unsigned int nclients,
			double cpus)
{
	double could = cpus > 0 && nclients > cpus ? cpus : (double)nclients;
	double window = (double)result_elapsed(r) / 1e9;

	if (window <= 0 || could <= 0)
		return 0;
	return (r->usage.user_s + r->usage.sys_s +
		(double)r->usage.iowq_ns / 1e9) /
	       (could * window);
}

double result_wait_share(const struct result *r, unsigned int nclients,
			 unsigned int unmeasured)
{
	double window = (double)result_elapsed(r);

	if (!r->usage.run_delay_known || window <= 0 || !nclients)
		return -1;
	return ((double)r->usage.run_delay_ns + unmeasured * window) /
	       (window * nclients);
}

bool result_starved(const struct result *r, unsigned int nclients,
		    unsigned int lanes, unsigned int unmeasured, double cpus)
{
	double wait = result_wait_share(r, nclients, unmeasured);

	if (unmeasured && cpus > 0 && nclients > cpus)
		return true;
	return result_elapsed(r) >= 100000000 &&
	       result_cpu_share(r, nclients * lanes, cpus) < 0.5 &&
	       (wait < 0 || wait > 0.1);
}

void result_all_ops(const struct result *r, struct hist *all)
{
	hist_init(all);
	for (unsigned int i = 0; i < r->nslots; i++)
		hist_merge(all, &r->lat[i]);
}

uint64_t result_max_latency(const struct result *r)
{
	uint64_t max = 0;

	for (unsigned int i = 0; i < r->nslots; i++)
		if (r->lat[i].count && r->lat[i].max > max)
			max = r->lat[i].max;
	return max;
}

void result_release(struct result *r)
{
	free(r->lat);
	free(r->err);
	free(r->count);
	memset(r, 0, sizeof(*r));
}
