/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_RUN_LAYOUT_H
#define VB_RUN_LAYOUT_H

/*
 * struct layout: the ranks of an MPI job, the hosts they are on, and
 * where a run's clients go (doc/multi-host.md). Plain data: main() fills
 * it once, from the host names the ranks exchanged, and every run_config
 * points to it; a process started without MPI is one rank on one host.
 *
 * A run of N clients numbers them 0..N-1 across the job, and each is run
 * by one rank, as mdtest gives tasks to ranks. --distribute round-robin
 * (the default) deals them to the hosts in turn: client k to host k mod H,
 * so a sweep puts its second client on a second host; host-by-host fills
 * a host with per_host clients (the sweep's largest count over the hosts,
 * rounded up) before the next gets any. Within a host, its ranks take its
 * clients in turn. Client 0 is always rank 0's. A rank that gets no client
 * at some count still takes part in the run's meeting points.
 */

/* The longest host name kept (HOST_NAME_MAX is 64 on Linux). */
#define LAYOUT_HOST_MAX 256

enum distribute {
	DISTRIBUTE_ROUND_ROBIN,
	DISTRIBUTE_HOST_BY_HOST,
};

struct layout {
	unsigned int rank, nranks; /* this process, and the job's size */
	unsigned int nhosts;
	unsigned int *host_of; /* [nranks]: host index, hosts in the order
				* of their first rank */
	char **hosts; /* [nhosts] */
	/* the ranks of host h: by_host[first[h] .. first[h + 1]) */
	unsigned int *by_host; /* [nranks] */
	unsigned int *first; /* [nhosts + 1] */
	enum distribute distribute;
	unsigned int per_host; /* host-by-host: clients a host takes */
};

/* One process: rank 0 of 1, on host @host. */
void layout_single(struct layout *l, const char *host);
/*
 * The job of @nranks ranks whose host names are @names (@nranks strings
 * of LAYOUT_HOST_MAX bytes each, rank by rank), seen by @rank.
 */
void layout_build(struct layout *l, unsigned int rank, unsigned int nranks,
		  const char *names);
/* How clients are dealt; @largest: the sweep's largest client count. */
void layout_distribute(struct layout *l, enum distribute how,
		       unsigned int largest);
/* The rank that runs client @client of a run. */
unsigned int layout_rank_of(const struct layout *l, unsigned int client);
/*
 * The clients of a run of @total that rank @rank runs: their numbers in
 * @ids (ascending; NULL to only count), and how many.
 */
unsigned int layout_place(const struct layout *l, unsigned int total,
			  unsigned int rank, unsigned int *ids);
/* "rank 2 (host b)": for messages, into @buf. */
const char *layout_name(const struct layout *l, unsigned int rank, char *buf,
			unsigned long len);
void layout_release(struct layout *l);

#endif /* VB_RUN_LAYOUT_H */
