/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * struct layout: the job's ranks grouped by host, and the rule that gives
 * each client of a run to a rank. Pure arithmetic on plain data, so the
 * same code places clients in a plain build (one rank) and in an MPI job.
 */
#include <config.h>
#include "run/layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

void layout_build(struct layout *l, unsigned int rank, unsigned int nranks,
		  const char *names)
{
	unsigned int *count;

	memset(l, 0, sizeof(*l));
	l->rank = rank;
	l->nranks = nranks;
	l->host_of = xcalloc(nranks, sizeof(*l->host_of));
	l->hosts = xcalloc(nranks, sizeof(*l->hosts));
	l->by_host = xcalloc(nranks, sizeof(*l->by_host));
	for (unsigned int r = 0; r < nranks; r++) {
		const char *name = names + (size_t)r * LAYOUT_HOST_MAX;
		unsigned int h;

		for (h = 0; h < l->nhosts; h++)
			if (!strncmp(l->hosts[h], name, LAYOUT_HOST_MAX))
				break;
		if (h == l->nhosts)
			l->hosts[l->nhosts++] =
				xstrndup(name, LAYOUT_HOST_MAX - 1);
		l->host_of[r] = h;
	}
	/* a counting sort keeps each host's ranks ascending */
	l->first = xcalloc(l->nhosts + 1, sizeof(*l->first));
	count = xcalloc(l->nhosts, sizeof(*count));
	for (unsigned int r = 0; r < nranks; r++)
		l->first[l->host_of[r] + 1]++;
	for (unsigned int h = 0; h < l->nhosts; h++)
		l->first[h + 1] += l->first[h];
	for (unsigned int r = 0; r < nranks; r++) {
		unsigned int h = l->host_of[r];

		l->by_host[l->first[h] + count[h]++] = r;
	}
	free(count);
	l->per_host = 1;
}

void layout_single(struct layout *l, const char *host)
{
	char name[LAYOUT_HOST_MAX] = "";

	snprintf(name, sizeof(name), "%s", host);
	layout_build(l, 0, 1, name);
}

void layout_distribute(struct layout *l, enum distribute how,
		       unsigned int largest)
{
	l->distribute = how;
	l->per_host = (largest + l->nhosts - 1) / l->nhosts;
	if (!l->per_host)
		l->per_host = 1;
}

unsigned int layout_rank_of(const struct layout *l, unsigned int client)
{
	unsigned int h, j, n;

	if (l->distribute == DISTRIBUTE_HOST_BY_HOST) {
		h = client / l->per_host;
		/* a count above the sweep's largest: the last host */
		if (h >= l->nhosts)
			h = l->nhosts - 1;
		j = client - h * l->per_host;
	} else {
		h = client % l->nhosts;
		j = client / l->nhosts;
	}
	n = l->first[h + 1] - l->first[h];
	return l->by_host[l->first[h] + j % n];
}

unsigned int layout_place(const struct layout *l, unsigned int total,
			  unsigned int rank, unsigned int *ids)
{
	unsigned int n = 0;

	for (unsigned int k = 0; k < total; k++) {
		if (layout_rank_of(l, k) != rank)
			continue;
		if (ids)
			ids[n] = k;
		n++;
	}
	return n;
}

const char *layout_name(const struct layout *l, unsigned int rank, char *buf,
			unsigned long len)
{
	/* before the host names are known: the rank alone */
	if (!l->hosts)
		snprintf(buf, len, "rank %u", rank);
	else
		snprintf(buf, len, "rank %u (host %s)", rank,
			 l->hosts[l->host_of[rank]]);
	return buf;
}

void layout_release(struct layout *l)
{
	for (unsigned int h = 0; h < l->nhosts; h++)
		free(l->hosts[h]);
	free(l->hosts);
	free(l->host_of);
	free(l->by_host);
	free(l->first);
	memset(l, 0, sizeof(*l));
}
