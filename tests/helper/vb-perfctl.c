/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vb-perfctl CTL ACK LOG [PIDFILE]: the far end of vfsbench --perf-ctl
 * CTL,ACK, for the tests: it opens both FIFOs as perf record --control
 * fifo:CTL,ACK does (read-write, so that neither open waits), then for
 * every command line that arrives on CTL appends "NS COMMAND" to LOG,
 * NS the CLOCK_MONOTONIC time it arrived (the clock of the result
 * files' windows), and answers on ACK as perf does, "ack\n" and a NUL.
 * With PIDFILE (which the test writes once it has started vfsbench;
 * the reader waits for it before it answers), the line also has the
 * state letter of each thread of that process but the first, sorted:
 * the reader holds its ack of "enable" until they are all asleep ("SS": two
 * clients at the gate), or for 10 s, and logs what it saw last (a client
 * that runs ops all along shows R).
 * It creates LOG once both FIFOs are open, and runs until killed.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_char(const void *a, const void *b)
{
	return *(const char *)a - *(const char *)b;
}

/* The pid in @pidfile, waiting up to 10 s for it to be written. */
static long wait_pid(const char *pidfile)
{
	for (int i = 0; i < 1000; i++) {
		FILE *f = fopen(pidfile, "r");
		long pid = 0;

		if (f) {
			if (fscanf(f, "%ld", &pid) != 1)
				pid = 0;
			fclose(f);
		}
		if (pid > 0)
			return pid;
		usleep(10000);
	}
	return 0;
}

/* The state letters of the threads of @pid but the first, sorted. */
static void states(long pid, char *out, size_t len)
{
	char path[384];
	struct dirent *de;
	size_t n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%ld/task", pid);
	d = opendir(path);
	while (d && (de = readdir(d)) && n + 1 < len) {
		char buf[512], *p;
		FILE *f;

		if (de->d_name[0] == '.' || atol(de->d_name) == pid)
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/task/%s/stat", pid,
			 de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')) &&
		    p[1] == ' ' && p[2])
			out[n++] = p[2];
		fclose(f);
	}
	if (d)
		closedir(d);
	out[n] = '\0';
	qsort(out, n, 1, cmp_char);
}

int main(int argc, char **argv)
{
	char line[64];
	size_t n = 0;
	FILE *log;
	int ctl, ack;

	if (argc != 4 && argc != 5) {
		fprintf(stderr, "usage: vb-perfctl CTL ACK LOG [PIDFILE]\n");
		return 2;
	}
	ctl = open(argv[1], O_RDWR);
	ack = open(argv[2], O_RDWR);
	if (ctl < 0 || ack < 0) {
		fprintf(stderr, "vb-perfctl: %s: %s\n", argv[ctl < 0 ? 1 : 2],
			strerror(errno));
		return 1;
	}
	log = fopen(argv[3], "w");
	if (!log) {
		fprintf(stderr, "vb-perfctl: %s: %s\n", argv[3],
			strerror(errno));
		return 1;
	}
	for (;;) {
		char c;
		ssize_t r = read(ctl, &c, 1);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return 1;
		if (c != '\n' && n + 1 < sizeof(line)) {
			line[n++] = c;
			continue;
		}
		line[n] = '\0';
		if (argc == 5) {
			uint64_t t = now_ns();
			char st[256];

			long pid = wait_pid(argv[4]);

			/* a client arriving at the gate runs a moment more;
			 * after "disable" the clients are gone */
			for (int i = 0; !strcmp(line, "enable") && i < 10000;
			     i++) {
				states(pid, st, sizeof(st));
				if (!st[strspn(st, "S")])
					break;
				usleep(1000);
			}
			fprintf(log, "%llu %s %s\n", (unsigned long long)t,
				line, st);
		} else {
			fprintf(log, "%llu %s\n", (unsigned long long)now_ns(),
				line);
		}
		fflush(log);
		n = 0;
		if (write(ack, "ack\n", 5) != 5)
			return 1;
	}
}
