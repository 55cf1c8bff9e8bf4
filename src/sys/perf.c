/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perf record on vfsbench itself: started with its events off, driven
 * through a pair of pipes (perf record --control fd:CTL,ACK), stopped
 * with SIGINT once the sweep is over.
 */
#include <config.h>
#include "sys/perf.h"

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
#include "sys/command.h"
#include "sys/sysfile.h"

/* kernel.perf_event_paranoid, or -1000 when unreadable. */
static int paranoid(void)
{
	char *s = sysfile_line(NULL, "/proc/sys/kernel/perf_event_paranoid");
	int v = s ? atoi(s) : -1000;

	free(s);
	return v;
}

/* What may stop an unprivileged perf, for the messages. */
static void paranoid_hint(char *buf, size_t len)
{
	int p = paranoid();

	if (p == -1000)
		snprintf(buf, len, "perf_event_paranoid unreadable");
	else if (!geteuid())
		snprintf(buf, len, "perf_event_paranoid is %d; running as root",
			 p);
	else
		snprintf(
			buf, len,
			"perf_event_paranoid is %d: above 1 an unprivileged user may only profile user space, at 3 (Debian) not at all; sysctl kernel.perf_event_paranoid=1, or CAP_PERFMON",
			p);
}

/* perf exited or stopped answering before it was attached: why. */
static int start_failed(struct perf_record *pr, int err)
{
	char hint[256], st[64];
	int status;

	paranoid_hint(hint, sizeof(hint));
	kill(-pr->pid, SIGKILL);
	while (waitpid(pr->pid, &status, 0) < 0 && errno == EINTR)
		;
	if (err == -EINTR)
		error("--profile: a stop signal came while perf record was attaching");
	else
		error("--profile: perf record %s before it was attached: see its message above (%s)",
		      command_status(status, st, sizeof(st)), hint);
	perf_ctl_close(&pr->ctl);
	free(pr->file);
	pr->file = NULL;
	return -EPERM;
}

int perf_record_start(struct perf_record *pr, pid_t target, const char *file,
		      const char *event, const char *lock_file,
		      const volatile sig_atomic_t *stop)
{
	char pid[24], control[48];
	const char *argv[24]; /* the 16 below and the NULL, and room */
	int ctl[2], ack[2], keep[2], ret, n = 0;

	memset(pr, 0, sizeof(*pr));
	if (geteuid() && paranoid() > 2)
		return error(
			"--profile: perf_event_paranoid is %d: unprivileged users may not use perf at all (sysctl kernel.perf_event_paranoid=2 or lower, or run as root)",
			paranoid());
	if (pipe2(ctl, O_CLOEXEC))
		return error("--profile: pipe: %s", strerror(errno));
	if (pipe2(ack, O_CLOEXEC)) {
		ret = -errno;
		close(ctl[0]);
		close(ctl[1]);
		return error("--profile: pipe: %s", strerror(-ret));
	}
	snprintf(pid, sizeof(pid), "%ld", (long)target);
	snprintf(control, sizeof(control), "fd:%d,%d", ctl[0], ack[1]);
	argv[n++] = "perf";
	argv[n++] = "record";
	argv[n++] = "-q";
	argv[n++] = "-g";
	argv[n++] = "-k";
	argv[n++] = "mono";
	argv[n++] = "-D";
	argv[n++] = "-1";
	argv[n++] = "--control";
	argv[n++] = control;
	if (event) {
		argv[n++] = "-e";
		argv[n++] = event;
	}
	argv[n++] = "-p";
	argv[n++] = pid;
	argv[n++] = "-o";
	argv[n++] = file;
	argv[n] = NULL;
	keep[0] = ctl[0];
	keep[1] = ack[1];
	ret = command_spawn(argv, keep, 2, &pr->pid);
	close(ctl[0]);
	close(ack[1]);
	if (ret) {
		close(ctl[1]);
		close(ack[0]);
		if (ret == -ENOENT)
			return error(
				"--profile: perf is not installed (Debian: apt-get install linux-perf)");
		return error("--profile: cannot start perf: %s",
			     strerror(-ret));
	}
	perf_ctl_init(&pr->ctl, ctl[1], ack[0], "perf record", stop);
	pr->file = xstrdup(file);
	/*
	 * perf reads its control fd only once its events are open: the ack
	 * of a "disable" (they are off already) says it is attached. It may
	 * take long to synthesize the maps of a large process, and longer
	 * on a loaded machine: no deadline, its exit or a stop ends the wait.
	 */
	ret = perf_ctl_send(&pr->ctl, "disable");
	if (ret)
		return start_failed(pr, ret);
	pr->running = true;
	ret = perf_stat_start(&pr->stat, target, stop);
	if (!ret && lock_file)
		ret = perf_lock_start(&pr->lock, target, lock_file, stop);
	if (ret) {
		perf_record_release(pr);
		return ret;
	}
	return 0;
}

void perf_record_pin(struct perf_record *pr)
{
	struct perf_ctl *lock = pr->lock.running ? &pr->lock.ctl : NULL;

	pr->ctl.also = pr->stat.running ? &pr->stat.ctl : lock;
	if (pr->stat.running)
		pr->stat.ctl.also = lock;
}

int perf_record_stop(struct perf_record *pr)
{
	char st[64], why[96];
	struct child_wait cw;
	int ret = 0;

	if (!pr->running)
		return 0;
	pr->ctl.also = NULL;
	perf_stat_stop(&pr->stat);
	perf_lock_stop(&pr->lock);
	/*
	 * Its SIGINT is its stop; a stop signal of ours, before or while it
	 * writes its file, leaves it the grace, then kills its group: a perf
	 * that ignores SIGINT is not waited for without end.
	 */
	kill(pr->pid, SIGINT);
	child_wait_init(&cw, pr->pid, pr->ctl.stop, 0, 0);
	if (child_wait_end(&cw, &pr->status))
		pr->status = -1;
	pr->running = false;
	perf_ctl_close(&pr->ctl);
	if (child_wait_killed(&cw, why, sizeof(why)))
		return error("--profile: perf record for '%s' %s", pr->file,
			     why);
	/* perf record writes its file, then re-raises the SIGINT */
	if (pr->status == -1 ||
	    !((WIFEXITED(pr->status) && !WEXITSTATUS(pr->status)) ||
	      (WIFSIGNALED(pr->status) && WTERMSIG(pr->status) == SIGINT))) {
		ret = error("--profile: perf record for '%s' %s", pr->file,
			    pr->status == -1 ?
				    "could not be waited for" :
				    command_status(pr->status, st, sizeof(st)));
	}
	return ret;
}

void perf_record_release(struct perf_record *pr)
{
	perf_record_stop(pr);
	perf_stat_release(&pr->stat);
	perf_lock_release(&pr->lock);
	free(pr->file);
	pr->file = NULL;
}
