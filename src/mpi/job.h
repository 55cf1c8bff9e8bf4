/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_MPI_JOB_H
#define VB_MPI_JOB_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The MPI job this process is a rank of (doc/multi-host.md): the
 * transport, and nothing about runs. Only job.c includes mpi.h, and it is
 * built only by ./configure --with-mpi; without it these are the stubs
 * below, and the process is rank 0 of a job of one. With it, MPI is
 * initialised only when an MPI launcher started the process (mpirun sets
 * OMPI_COMM_WORLD_SIZE, PMIx launchers PMIX_RANK, PMI ones PMI_RANK:
 * mpi/launcher.h), so a plain `vfsbench` of an MPI build runs exactly as
 * one of a plain build. A plain build under a launcher refuses to run
 * (cli/ranks.h: ranks_refuse_plain()).
 *
 * Only the main thread calls these (MPI_THREAD_FUNNELED). Every wait is
 * the caller's: requests are started here and tested with job_test(), so
 * a caller that must not hang (a signal, a rank that died) can give up.
 * Returns are 0 or -errno; -EIO is an error of the MPI library, whose
 * message job.c prints.
 */

/* A request in flight: a send, a receive or a broadcast. */
struct job_req {
	_Alignas(8) unsigned char impl[16];
	bool active;
	unsigned int source; /* of a receive, once done */
};

/* Any rank, for job_irecv(). */
#define JOB_ANY (~0u)

#ifdef HAVE_MPI

/* Built with MPI (./configure --with-mpi)? */
static inline bool job_built(void)
{
	return true;
}

/* Was the process started by an MPI launcher (mpi/launcher.h)? */
bool job_launched(void);
/* Initialise MPI if job_launched(); 0 (also when not), or -EIO. */
int job_init(void);
/* The MPI library's version line ("Open MPI v4.1.4, ..."), or NULL. */
const char *job_library(void);
unsigned int job_rank(void);
unsigned int job_size(void);
/* Leave MPI in order (every rank calls it), or abort the whole job. */
void job_finalize(void);
void job_abort(int status);

/* Start sending @len bytes of @buf (kept valid until done) to @to. */
int job_isend(struct job_req *q, unsigned int to, int tag, const void *buf,
	      size_t len);
/*
 * Start receiving up to @len bytes into @buf from @from (or JOB_ANY);
 * q->source is the sender once done.
 */
int job_irecv(struct job_req *q, unsigned int from, int tag, void *buf,
	      size_t len);
/* Rank 0's @len bytes of @buf to every rank (collective). */
int job_ibcast(struct job_req *q, void *buf, size_t len);
/* 1 when @q is done (or was never started), 0 while in flight, -EIO. */
int job_test(struct job_req *q);
/* Give up a receive still in flight (a send cannot be cancelled). */
void job_cancel(struct job_req *q);

/*
 * This rank's CLOCK_MONOTONIC minus rank 0's, by Cristian's method:
 * @rounds ping-pongs with rank 0, the one with the shortest round trip
 * kept; *@err_ns is half that round trip, the bound of the estimate.
 * Collective: rank 0 answers the others' pings (and gets 0, 0). Gives up
 * at @deadline_ns (this rank's clock): -ETIMEDOUT.
 */
int job_clock_offset(unsigned int rounds, uint64_t deadline_ns,
		     int64_t *offset_ns, uint64_t *err_ns);

#else /* !HAVE_MPI: one process, rank 0 of 1 */

static inline bool job_built(void)
{
	return false;
}

static inline bool job_launched(void)
{
	return false;
}

static inline int job_init(void)
{
	return 0;
}

static inline const char *job_library(void)
{
	return NULL;
}

static inline unsigned int job_rank(void)
{
	return 0;
}

static inline unsigned int job_size(void)
{
	return 1;
}

static inline void job_finalize(void)
{
}

static inline void job_abort(int status)
{
	(void)status;
}

/* A job of one has no one to send to: callers never get here. */
static inline int job_isend(struct job_req *q, unsigned int to, int tag,
			    const void *buf, size_t len)
{
	(void)to, (void)tag, (void)buf, (void)len;
	q->active = false;
	return -ENOSYS;
}

static inline int job_irecv(struct job_req *q, unsigned int from, int tag,
			    void *buf, size_t len)
{
	(void)from, (void)tag, (void)buf, (void)len;
	q->active = false;
	return -ENOSYS;
}

/* Rank 0's buffer is already every rank's. */
static inline int job_ibcast(struct job_req *q, void *buf, size_t len)
{
	(void)buf, (void)len;
	q->active = false;
	return 0;
}

static inline int job_test(struct job_req *q)
{
	(void)q;
	return 1;
}

static inline void job_cancel(struct job_req *q)
{
	q->active = false;
}

static inline int job_clock_offset(unsigned int rounds, uint64_t deadline_ns,
				   int64_t *offset_ns, uint64_t *err_ns)
{
	(void)rounds, (void)deadline_ns;
	*offset_ns = 0;
	*err_ns = 0;
	return 0;
}

#endif /* HAVE_MPI */

#endif /* VB_MPI_JOB_H */
