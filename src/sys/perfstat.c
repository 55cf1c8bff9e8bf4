/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perf stat beside each perf record of --profile: the hardware counters
 * of the same measured windows, or, where the PMU has none (a VM), the
 * reason perf gave for each, so that their absence is recorded rather
 * than silently left out.
 */
#include <config.h>
#include "sys/perfstat.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/msg.h"
#include "sys/childwait.h"
#include "sys/command.h"

/* How long perf stat may take to attach. */
/* The most of its output read back: a line per event and its notes. */
#define PERF_STAT_LOG_MAX 65536

const char *const perf_stat_events[PERF_STAT_NEVENTS] = {
	"cycles",
	"instructions",
	"cache-misses",
};

static char *status_reason(const char *what, int status)
{
	char st[64], buf[160];

	snprintf(buf, sizeof(buf), "perf stat %s%s",
		 command_status(status, st, sizeof(st)), what);
	return xstrdup(buf);
}

/* perf stat exited, or did not answer, before it was attached. */
/* What perf stat said on its stderr, but its "Events ..." lines; closed. */
static void close_noise(struct perf_stat *ps)
{
	if (ps->noise < 0)
		return;
	perf_ctl_forward(ps->noise);
	close(ps->noise);
	ps->noise = -1;
}

static void start_failed(struct perf_stat *ps, int err)
{
	int status;

	kill(-ps->pid, SIGKILL);
	while (waitpid(ps->pid, &status, 0) < 0 && errno == EINTR)
		;
	if (err == -EINTR)
		ps->absent = xstrdup(
			"a stop signal came while perf stat was attaching");
	else
		ps->absent = status_reason(" before it was attached", status);
	perf_ctl_close(&ps->ctl);
	close(ps->log);
	ps->log = -1;
	close_noise(ps);
}

int perf_stat_start(struct perf_stat *ps, pid_t target,
		    const volatile sig_atomic_t *stop)
{
	char pid[24], control[48], logfd[16], events[64];
	const char *argv[20];
	int ctl[2], ack[2], lg[2], err[2], keep[3], ret, n = 0;

	memset(ps, 0, sizeof(*ps));
	ps->log = -1;
	ps->noise = -1;
	if (pipe2(ctl, O_CLOEXEC))
		return error("--profile: pipe: %s", strerror(errno));
	if (pipe2(ack, O_CLOEXEC)) {
		ret = errno;
		close(ctl[0]);
		close(ctl[1]);
		return error("--profile: pipe: %s", strerror(ret));
	}
	if (pipe2(lg, O_CLOEXEC)) {
		ret = errno;
		close(ctl[0]);
		close(ctl[1]);
		close(ack[0]);
		close(ack[1]);
		return error("--profile: pipe: %s", strerror(ret));
	}
	/* its stderr, read without blocking after each command's ack */
	if (pipe2(err, O_CLOEXEC) || fcntl(err[0], F_SETFL, O_NONBLOCK)) {
		ret = errno;
		close(ctl[0]);
		close(ctl[1]);
		close(ack[0]);
		close(ack[1]);
		close(lg[0]);
		close(lg[1]);
		return error("--profile: pipe: %s", strerror(ret));
	}
	snprintf(pid, sizeof(pid), "%ld", (long)target);
	snprintf(control, sizeof(control), "fd:%d,%d", ctl[0], ack[1]);
	snprintf(logfd, sizeof(logfd), "%d", lg[1]);
	snprintf(events, sizeof(events), "%s,%s,%s", perf_stat_events[0],
		 perf_stat_events[1], perf_stat_events[2]);
	argv[n++] = "perf";
	argv[n++] = "stat";
	argv[n++] = "-x";
	argv[n++] = ",";
	argv[n++] = "-D";
	argv[n++] = "-1";
	argv[n++] = "--control";
	argv[n++] = control;
	argv[n++] = "--log-fd";
	argv[n++] = logfd;
	argv[n++] = "-e";
	argv[n++] = events;
	argv[n++] = "-p";
	argv[n++] = pid;
	argv[n] = NULL;
	keep[0] = ctl[0];
	keep[1] = ack[1];
	keep[2] = lg[1];
	ret = command_spawn_err(argv, keep, 3, err[1], &ps->pid);
	close(ctl[0]);
	close(ack[1]);
	close(lg[1]);
	close(err[1]);
	if (ret) {
		close(ctl[1]);
		close(ack[0]);
		close(lg[0]);
		close(err[0]);
		ps->absent = xstrdup(ret == -ENOENT ? "perf is not installed" :
						      strerror(-ret));
		return 0;
	}
	perf_ctl_init(&ps->ctl, ctl[1], ack[0], "perf stat", stop);
	ps->log = lg[0];
	ps->noise = err[0];
	ps->ctl.noise = err[0];
	/* as perf record: the ack of a "disable" says it is attached */
	ret = perf_ctl_send(&ps->ctl, "disable");
	if (ret) {
		start_failed(ps, ret);
		return 0;
	}
	ps->running = true;
	return 0;
}

/* "<not supported>" -> "not supported"; NULL when not such a note. */
static char *note(const char *field, size_t len)
{
	if (len < 2 || field[0] != '<' || field[len - 1] != '>')
		return NULL;
	return xstrndup(field + 1, len - 2);
}

void perf_stat_parse(struct perf_counter *counter, const char *text)
{
	const char *line = text;

	for (unsigned int e = 0; e < PERF_STAT_NEVENTS; e++) {
		free(counter[e].absent);
		counter[e] = (struct perf_counter){ 0 };
	}
	while (line && *line) {
		const char *end = strchrnul(line, '\n');
		const char *c1 = memchr(line, ',', (size_t)(end - line));
		const char *c2 =
			c1 ? memchr(c1 + 1, ',', (size_t)(end - c1 - 1)) : NULL;
		const char *c3 =
			c2 ? memchr(c2 + 1, ',', (size_t)(end - c2 - 1)) : NULL;

		for (unsigned int e = 0; c3 && e < PERF_STAT_NEVENTS; e++) {
			const char *ev = perf_stat_events[e];
			size_t flen = (size_t)(c1 - line);
			char *num, *stop;

			/* "cycles" or with a modifier perf added, "cycles:u" */
			if (strncmp(c2 + 1, ev, strlen(ev)) ||
			    (c2 + 1 + strlen(ev) != c3 &&
			     c2[1 + strlen(ev)] != ':') ||
			    counter[e].counted || counter[e].absent)
				continue;
			counter[e].absent = note(line, flen);
			if (counter[e].absent)
				break;
			num = xstrndup(line, flen);
			counter[e].value = strtod(num, &stop);
			counter[e].counted = stop != num && !*stop;
			if (!counter[e].counted)
				counter[e].absent = xstrdup(
					"perf stat printed no number for it");
			free(num);
			break;
		}
		line = *end ? end + 1 : NULL;
	}
	for (unsigned int e = 0; e < PERF_STAT_NEVENTS; e++)
		if (!counter[e].counted && !counter[e].absent)
			counter[e].absent =
				xstrdup("perf stat printed no line for it");
}

void perf_stat_stop(struct perf_stat *ps)
{
	char why[96], buf[160];
	struct child_wait cw;
	int status = -1;
	char *log;

	if (!ps->running)
		return;
	ps->running = false;
	/* a stop signal of ours: the grace, then its group killed */
	child_wait_init(&cw, ps->pid, ps->ctl.stop, 0, 0);
	perf_ctl_close(&ps->ctl);
	kill(ps->pid, SIGINT);
	log = child_wait_read_all(&cw, ps->log, PERF_STAT_LOG_MAX);
	close(ps->log);
	ps->log = -1;
	if (child_wait_end(&cw, &status))
		status = -1;
	close_noise(ps);
	/* perf stat prints its counters, then re-raises the SIGINT */
	if (child_wait_killed(&cw, why, sizeof(why))) {
		snprintf(buf, sizeof(buf), "perf stat %s", why);
		ps->absent = xstrdup(buf);
	} else if (status != -1 &&
		   ((WIFEXITED(status) && !WEXITSTATUS(status)) ||
		    (WIFSIGNALED(status) && WTERMSIG(status) == SIGINT))) {
		perf_stat_parse(ps->counter, log);
	} else if (status == -1) {
		ps->absent = xstrdup("perf stat could not be waited for");
	} else {
		ps->absent = status_reason("", status);
	}
	free(log);
}

void perf_stat_release(struct perf_stat *ps)
{
	perf_stat_stop(ps);
	for (unsigned int e = 0; e < PERF_STAT_NEVENTS; e++) {
		free(ps->counter[e].absent);
		ps->counter[e].absent = NULL;
	}
	free(ps->absent);
	ps->absent = NULL;
}
