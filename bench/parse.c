/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parse: the time and memory of compiling one loadfile, nothing else.
 * Linked with a build's src/libvfsbench.a, it calls loadfile_load() (read,
 * SHA-256, parse, seal: what vfsbench does before anything else) on FILE
 * once, in a fresh process, and prints
 *
 *   bytes B lines L ops N seconds S cpu_seconds C peak_kib P kept_kib K heap_kib H
 *
 * S: wall time of loadfile_load(), CLOCK_MONOTONIC.
 * C: CPU time (user + system, getrusage) of loadfile_load(): on a shared
 *    machine the process is not always on a CPU, and C leaves that out.
 * P: peak RSS growth during the load, ru_maxrss after it minus the RSS
 *    before it (/proc/self/statm): what the load needed at its peak,
 *    freed buffers included.
 * K: RSS growth that remains after the load, while the compiled loadfile
 *    is alive.
 * H: heap bytes in use for the compiled loadfile (mallinfo2), which does
 *    not depend on what the allocator keeps mapped.
 *
 * bench/parse.sh builds it and runs it; see doc/performance.md.
 *
 *   parse [-d auto|native|dbench] FILE
 */
#define _GNU_SOURCE
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "lang/loadfile.h"
#include "lang/reader.h"

static long rss_kib(void)
{
	long size, res;
	FILE *f = fopen("/proc/self/statm", "r");

	if (!f || fscanf(f, "%ld %ld", &size, &res) != 2) {
		perror("parse: /proc/self/statm");
		exit(3);
	}
	fclose(f);
	return res * (sysconf(_SC_PAGESIZE) / 1024);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

static long file_lines(const char *path, long *bytes)
{
	char buf[1 << 16];
	long lines = 0;
	size_t n;
	FILE *f = fopen(path, "r");

	*bytes = 0;
	if (!f)
		return -1;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		*bytes += (long)n;
		for (size_t i = 0; i < n; i++)
			lines += buf[i] == '\n';
	}
	fclose(f);
	return lines;
}

int main(int argc, char **argv)
{
	struct loadfile_opts opts = { .dialect = DIALECT_AUTO };
	struct loadfile lf;
	struct rusage ru;
	struct mallinfo2 m0, m1;
	long before, after, bytes, lines;
	double t0, t1, c0, c1;
	int o;

	while ((o = getopt(argc, argv, "d:")) != -1) {
		if (o == 'd' && !strcmp(optarg, "native"))
			opts.dialect = DIALECT_NATIVE;
		else if (o == 'd' && !strcmp(optarg, "dbench"))
			opts.dialect = DIALECT_DBENCH;
		else if (o == 'd' && !strcmp(optarg, "auto"))
			opts.dialect = DIALECT_AUTO;
		else {
			fprintf(stderr, "usage: parse [-d auto|native|dbench] FILE\n");
			return 2;
		}
	}
	if (argc - optind != 1) {
		fprintf(stderr, "usage: parse [-d auto|native|dbench] FILE\n");
		return 2;
	}
	/* counted first, so the page cache is warm for both sides alike */
	lines = file_lines(argv[optind], &bytes);
	if (lines < 0) {
		perror(argv[optind]);
		return 3;
	}
	before = rss_kib();
	m0 = mallinfo2();
	c0 = cpu_s();
	t0 = now_s();
	if (loadfile_load(&lf, argv[optind], &opts))
		return 3;
	t1 = now_s();
	c1 = cpu_s();
	m1 = mallinfo2();
	after = rss_kib();
	getrusage(RUSAGE_SELF, &ru);
	printf("bytes %ld lines %ld ops %u seconds %.4f cpu_seconds %.4f peak_kib %ld kept_kib %ld heap_kib %zu\n",
	       bytes, lines, lf.nops, t1 - t0, c1 - c0, ru.ru_maxrss - before,
	       after - before,
	       ((m1.uordblks + m1.hblkhd) - (m0.uordblks + m0.hblkhd)) / 1024);
	loadfile_release(&lf);
	return 0;
}
