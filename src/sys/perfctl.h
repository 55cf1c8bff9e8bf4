/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_SYS_PERFCTL_H
#define VB_SYS_PERFCTL_H

#include <signal.h>

/*
 * struct perf_ctl: the control protocol of perf record (and perf stat)
 * --control: vfsbench writes "enable\n" or "disable\n" to the control
 * fd, and with an ack fd waits for perf's "ack\n" before it goes on, so
 * that the events are on before the measurement starts and off after it
 * ends. perf record -D -1 starts with the events off.
 */
struct perf_ctl {
	int ctl; /* written */
	int ack; /* read; -1 without */
	char *name; /* for messages: "FIFO,ACK" as given, or "perf record" */
	/* a second perf (perf stat, perf lock record) sent the same
	 * commands after this one, a chain; not owned, NULL without */
	const struct perf_ctl *also;
	/*
	 * How long to wait for an ack, in ms; -1, no deadline, for a perf
	 * of our own: its ack pipe has no other writer, so its exit ends
	 * the wait, and a loaded machine cannot make it fail.
	 */
	int timeout_ms;
	/* non-zero once a stop signal came: the wait ends; NULL: none */
	const volatile sig_atomic_t *stop;
	/*
	 * perf's standard error, read after each ack (perf_ctl_forward()):
	 * perf stat says "Events enabled" there at every command, -q or
	 * not; -1: none, perf writes to ours. Not owned.
	 */
	int noise;
};

/* How long the perf behind --perf-ctl's FIFOs may take to ack, in ms. */
#define PERF_CTL_TIMEOUT_MS 10000

/*
 * Open the FIFOs of --perf-ctl FIFO[,ACK]: @fifo for writing (perf must
 * have it open already: perf record opens both when it starts), @ack
 * (may be NULL) for reading. Returns 0, or -errno with a message.
 */
int perf_ctl_open(struct perf_ctl *pc, const char *fifo, const char *ack,
		  const volatile sig_atomic_t *stop);

/* A control over pipes to a perf we started: no deadline on its acks. */
void perf_ctl_init(struct perf_ctl *pc, int ctl, int ack, const char *name,
		   const volatile sig_atomic_t *stop);

/*
 * Send @cmd ("enable", "disable") and, with an ack fd, wait for the ack
 * (up to pc->timeout_ms). Returns 0; -EPIPE when perf has gone (it
 * closed its end), -ETIMEDOUT, -EINTR when a stop signal came first,
 * -EPROTO for a reply other than "ack", or another -errno of write(2)
 * or read(2). Prints nothing. Then the
 * same to pc->also, and to its also in turn (perf stat, perf lock
 * record), whose failures are not returned: each such perf's own exit
 * status says it lost the windows (sys/perfstat.h, sys/perflock.h).
 */
int perf_ctl_send(const struct perf_ctl *pc, const char *cmd);

/* perf_ctl_send()'s errors in words: "perf has gone (it closed the FIFO)". */
const char *perf_ctl_strerror(int err);

/*
 * What perf wrote to @fd (non-blocking) so far, to our stderr, line by
 * line, but its "Events enabled" and "Events disabled": the report of
 * each command vfsbench sends, noise around the progress lines.
 */
void perf_ctl_forward(int fd);

void perf_ctl_close(struct perf_ctl *pc);

#endif /* VB_SYS_PERFCTL_H */
