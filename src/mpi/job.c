/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The MPI job: initialisation when an MPI launcher started us, and the
 * non-blocking sends, receives and broadcasts that run/meet.c and
 * run/peers.c build their meeting points from. Built only with
 * ./configure --with-mpi.
 */
#include <config.h>
#include "mpi/job.h"

#include <errno.h>
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/msg.h"
#include "mpi/launcher.h"

_Static_assert(sizeof(MPI_Request) <= sizeof(((struct job_req *)0)->impl),
	       "struct job_req too small for an MPI_Request");

/* The clock's ping-pong's tag, above run/meet.c's and run/peers.c's. */
#define TAG_CLOCK 100

static bool active;
static unsigned int rank, size;
static char library[MPI_MAX_LIBRARY_VERSION_STRING];
/*
 * The job's own communicator: a duplicate of MPI_COMM_WORLD, so that no
 * library sharing the process can match vfsbench's messages.
 */
static MPI_Comm comm = MPI_COMM_NULL;

static MPI_Request *req_of(struct job_req *q)
{
	return (MPI_Request *)(void *)q->impl;
}

/* An MPI error: its message, -EIO. */
static int failed(const char *what, int rc)
{
	char msg[MPI_MAX_ERROR_STRING];
	int len = 0;

	if (MPI_Error_string(rc, msg, &len) != MPI_SUCCESS)
		snprintf(msg, sizeof(msg), "MPI error %d", rc);
	error("MPI: %s: %.*s", what, len, msg);
	return -EIO;
}

bool job_launched(void)
{
	struct launcher l;

	return launcher_find(&l);
}

int job_init(void)
{
	int provided, r, n, len, rc;

	if (!job_launched())
		return 0;
	rc = MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided);
	if (rc != MPI_SUCCESS)
		return failed("initialisation", rc);
	/* errors come back to the caller, which stops cleanly */
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	rc = MPI_Comm_dup(MPI_COMM_WORLD, &comm);
	if (rc != MPI_SUCCESS)
		return failed("MPI_Comm_dup", rc);
	MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
	MPI_Comm_rank(comm, &r);
	MPI_Comm_size(comm, &n);
	rank = (unsigned int)r;
	size = (unsigned int)n;
	if (MPI_Get_library_version(library, &len) != MPI_SUCCESS)
		library[0] = '\0';
	/* the first line: Open MPI appends its repository and date */
	library[strcspn(library, "\n")] = '\0';
	active = true;
	return 0;
}

const char *job_library(void)
{
	return active && library[0] ? library : NULL;
}

unsigned int job_rank(void)
{
	return active ? rank : 0;
}

unsigned int job_size(void)
{
	return active ? size : 1;
}

void job_finalize(void)
{
	if (!active)
		return;
	MPI_Comm_free(&comm);
	MPI_Finalize();
	active = false;
}

void job_abort(int status)
{
	if (active)
		MPI_Abort(MPI_COMM_WORLD, status);
}

static int count_of(size_t len, int *count)
{
	if (len > INT_MAX)
		return error("MPI: a message of %zu bytes is too large", len);
	*count = (int)len;
	return 0;
}

int job_isend(struct job_req *q, unsigned int to, int tag, const void *buf,
	      size_t len)
{
	int count = 0, rc;

	q->active = false;
	if (count_of(len, &count))
		return -EMSGSIZE;
	rc = MPI_Isend(buf, count, MPI_BYTE, (int)to, tag, comm, req_of(q));
	if (rc != MPI_SUCCESS)
		return failed("send", rc);
	q->active = true;
	return 0;
}

int job_irecv(struct job_req *q, unsigned int from, int tag, void *buf,
	      size_t len)
{
	int count = 0, rc;

	q->active = false;
	if (count_of(len, &count))
		return -EMSGSIZE;
	rc = MPI_Irecv(buf, count, MPI_BYTE,
		       from == JOB_ANY ? MPI_ANY_SOURCE : (int)from, tag, comm,
		       req_of(q));
	if (rc != MPI_SUCCESS)
		return failed("receive", rc);
	q->active = true;
	return 0;
}

int job_ibcast(struct job_req *q, void *buf, size_t len)
{
	int count = 0, rc;

	q->active = false;
	if (count_of(len, &count))
		return -EMSGSIZE;
	rc = MPI_Ibcast(buf, count, MPI_BYTE, 0, comm, req_of(q));
	if (rc != MPI_SUCCESS)
		return failed("broadcast", rc);
	q->active = true;
	return 0;
}

int job_test(struct job_req *q)
{
	MPI_Status st;
	int flag = 0, rc;

	if (!q->active)
		return 1;
	rc = MPI_Test(req_of(q), &flag, &st);
	if (rc != MPI_SUCCESS) {
		q->active = false;
		return failed("wait", rc);
	}
	if (!flag)
		return 0;
	q->active = false;
	q->source = (unsigned int)st.MPI_SOURCE;
	return 1;
}

void job_cancel(struct job_req *q)
{
	MPI_Status st;

	if (!q->active)
		return;
	MPI_Cancel(req_of(q));
	MPI_Wait(req_of(q), &st);
	q->active = false;
}

/* Wait for @q until @deadline_ns, polling: 0, -ETIMEDOUT or -EIO. */
static int wait_until(struct job_req *q, uint64_t deadline_ns)
{
	for (;;) {
		int done = job_test(q);

		if (done)
			return done < 0 ? done : 0;
		if (clock_now_ns() >= deadline_ns) {
			job_cancel(q);
			return -ETIMEDOUT;
		}
	}
}

/* Rank 0: answer every other rank's @rounds pings with its clock. */
static int clock_serve(unsigned int rounds, uint64_t deadline_ns)
{
	uint64_t ping, now;
	struct job_req q;
	int err;

	for (unsigned int i = 0; i < rounds * (size - 1); i++) {
		unsigned int from;

		err = job_irecv(&q, JOB_ANY, TAG_CLOCK, &ping, sizeof(ping));
		if (!err)
			err = wait_until(&q, deadline_ns);
		if (err)
			return err;
		from = q.source;
		now = clock_now_ns();
		err = job_isend(&q, from, TAG_CLOCK, &now, sizeof(now));
		if (!err)
			err = wait_until(&q, deadline_ns);
		if (err)
			return err;
	}
	return 0;
}

int job_clock_offset(unsigned int rounds, uint64_t deadline_ns,
		     int64_t *offset_ns, uint64_t *err_ns)
{
	uint64_t best = UINT64_MAX, t0, t1, theirs;
	struct job_req q;
	int err;

	*offset_ns = 0;
	*err_ns = 0;
	if (!active || size < 2)
		return 0;
	if (rank == 0)
		return clock_serve(rounds, deadline_ns);
	for (unsigned int i = 0; i < rounds; i++) {
		t0 = clock_now_ns();
		err = job_isend(&q, 0, TAG_CLOCK, &t0, sizeof(t0));
		if (!err)
			err = wait_until(&q, deadline_ns);
		if (!err)
			err = job_irecv(&q, 0, TAG_CLOCK, &theirs,
					sizeof(theirs));
		if (!err)
			err = wait_until(&q, deadline_ns);
		if (err)
			return err;
		t1 = clock_now_ns();
		if (t1 - t0 < best) {
			best = t1 - t0;
			/* rank 0 read its clock half way, give or take */
			*offset_ns =
				(int64_t)(t0 + (t1 - t0) / 2) - (int64_t)theirs;
			*err_ns = (best + 1) / 2;
		}
	}
	return 0;
}
