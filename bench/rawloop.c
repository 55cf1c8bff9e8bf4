/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rawloop: the physical limit vfsbench is measured against. A bare C loop
 * of the system calls one pass of a one-op vfsbench loadfile issues, in a
 * directory set up the way that loadfile's [setup] section sets up a
 * client's, with no harness: no per-op clock, no histogram, no indirect
 * call. bench/overhead.sh builds it (cc -O2) and runs it side by side with
 * vfsbench; see doc/performance.md.
 *
 *   rawloop [-t SECONDS] [-w SECONDS] [-T] DIR OP
 *   rawloop clock
 *
 * OP (the system calls of one pass; vfsbench counts the ops in brackets):
 *   stat1         stat("f")                                      [1 op]
 *   stat8         stat("a/b/c/d/e/f/g/h"), 8 components            [1]
 *   statfs        statfs(".")                                      [1]
 *   statvfs       statvfs(".")                                     [1]
 *   openclose     open("f", O_RDONLY), close                       [2]
 *   createunlink  open("f", O_CREAT|O_WRONLY|O_TRUNC, 0644), close,
 *                 unlink("f")                                      [2]
 *   readdir       open("r", O_RDONLY|O_DIRECTORY|O_CLOEXEC),
 *                 getdents64(64 KiB) until 0, close; r holds 16 files [1]
 *   pread         open("f", O_RDONLY), 64 x pread(4 KiB at 0), close [66]
 *
 * The loop runs for -w seconds (default 1) untimed, then for -t seconds
 * (default 2): it reads CLOCK_MONOTONIC once per batch of passes (a batch
 * lasts about a millisecond), not per op, so the clock costs nothing
 * measurable. It prints "ops/s X passes/s Y ns/op Z cpu_ns/op C", ops
 * counted as vfsbench counts them, so the figure compares with vfsbench's
 * "Total: X ops/s" for the same loadfile; C is the loop thread's CPU time
 * (getrusage(RUSAGE_THREAD), user + system) per op, which leaves out the
 * time it waited for a CPU, as vfsbench's CPU line does for its clients.
 *
 * -T runs the loop in a second thread while the first waits in
 * pthread_join(), as vfsbench's main thread waits while a client runs: a
 * multi-threaded process pays for atomic file reference counts in every
 * fd-based system call (fdget() skips them only when the fd table is not
 * shared), so -T separates that cost, which any thread-per-client design
 * pays, from the harness's.
 *
 * "rawloop clock" prints the cost of one read of each candidate clock
 * (clock_gettime of several clock ids, rdtsc, rdtscp) and of a clock read
 * plus a vfsbench histogram update, the per-op budget of the harness.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define HAVE_TSC 1
#endif

/* vfsbench's histogram, for the "clock" budget figure: same code. */
#include "../src/stats/hist.h"

#define PREADS	     64
#define IOSIZE	     4096
#define DIRBUF	     (64u << 10)
#define READDIR_NFILES 16
#define DEEP	     "a/b/c/d/e/f/g/h"

static char *iobuf, *dirbuf;
static unsigned long failures;

static inline void check(long ret)
{
	if (__builtin_expect(ret < 0, 0))
		failures++;
}

static void pass_stat1(void)
{
	struct stat st;

	check(stat("f", &st));
}

static void pass_stat8(void)
{
	struct stat st;

	check(stat(DEEP, &st));
}

static void pass_statfs(void)
{
	struct statfs sf;

	check(statfs(".", &sf));
}

static void pass_statvfs(void)
{
	struct statvfs sv;

	check(statvfs(".", &sv));
}

static void pass_openclose(void)
{
	int fd = open("f", O_RDONLY);

	check(fd);
	check(close(fd));
}

static void pass_createunlink(void)
{
	int fd = open("f", O_CREAT | O_WRONLY | O_TRUNC, 0644);

	check(fd);
	check(close(fd));
	check(unlink("f"));
}

static void pass_readdir(void)
{
	long n;
	int fd = open("r", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	check(fd);
	do {
		n = syscall(SYS_getdents64, fd, dirbuf, DIRBUF);
	} while (n > 0);
	check(n);
	check(close(fd));
}

static void pass_pread(void)
{
	int fd = open("f", O_RDONLY);

	check(fd);
	for (int i = 0; i < PREADS; i++)
		check(pread(fd, iobuf, IOSIZE, 0) == IOSIZE ? 0 : -1);
	check(close(fd));
}

struct workload {
	const char *name;
	void (*pass)(void);
	unsigned int ops; /* per pass, as vfsbench counts them */
	unsigned int batch; /* passes between two clock reads */
};

static const struct workload workloads[] = {
	{ "stat1", pass_stat1, 1, 1024 },
	{ "stat8", pass_stat8, 1, 512 },
	{ "statfs", pass_statfs, 1, 1024 },
	{ "statvfs", pass_statvfs, 1, 1024 },
	{ "openclose", pass_openclose, 2, 512 },
	{ "createunlink", pass_createunlink, 2, 128 },
	{ "readdir", pass_readdir, 1, 256 },
	{ "pread", pass_pread, PREADS + 2, 16 },
	{ NULL, NULL, 0, 0 },
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void die(const char *what)
{
	fprintf(stderr, "rawloop: %s: %s\n", what, strerror(errno));
	exit(3);
}

static void make_file(const char *path, size_t size)
{
	int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);

	if (fd < 0)
		die(path);
	if (size && pwrite(fd, iobuf, size, 0) != (ssize_t)size)
		die(path);
	close(fd);
}

/* What each loadfile's [setup] creates (see bench/overhead.sh). */
static void setup(const struct workload *w)
{
	char path[64];

	if (!strcmp(w->name, "stat1") || !strcmp(w->name, "openclose"))
		make_file("f", 0);
	else if (!strcmp(w->name, "pread"))
		make_file("f", IOSIZE);
	else if (!strcmp(w->name, "stat8")) {
		strcpy(path, DEEP);
		for (char *s = path; (s = strchr(s, '/')); s++) {
			*s = '\0';
			if (mkdir(path, 0755))
				die(path);
			*s = '/';
		}
		make_file(path, 0);
	} else if (!strcmp(w->name, "readdir")) {
		if (mkdir("r", 0755))
			die("r");
		for (int i = 0; i < READDIR_NFILES; i++) {
			snprintf(path, sizeof(path), "r/%d", i);
			make_file(path, 0);
		}
	}
}

struct job {
	const struct workload *w;
	double warm_s, time_s;
	uint64_t passes, ns, cpu_ns;
};

/* CPU time of the calling thread, as vfsbench measures its clients'. */
static uint64_t thread_cpu_ns(void)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	return (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000u +
	       (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000u;
}

static void *run_job(void *arg)
{
	struct job *j = arg;
	const struct workload *w = j->w;
	uint64_t t0, t, end, c0, passes = 0;

	t0 = now_ns();
	end = t0 + (uint64_t)(j->warm_s * 1e9);
	do {
		for (unsigned int i = 0; i < w->batch; i++)
			w->pass();
	} while (now_ns() < end);
	c0 = thread_cpu_ns();
	t0 = now_ns();
	end = t0 + (uint64_t)(j->time_s * 1e9);
	do {
		for (unsigned int i = 0; i < w->batch; i++)
			w->pass();
		passes += w->batch;
		t = now_ns();
	} while (t < end);
	j->cpu_ns = thread_cpu_ns() - c0;
	j->passes = passes;
	j->ns = t - t0;
	return NULL;
}

/* Remove what setup() and the loop left in the current directory. */
static void cleanup(void)
{
	char path[64];

	unlink("f");
	strcpy(path, DEEP);
	for (char *s; (s = strrchr(path, '/')); *s = '\0') {
		unlink(path);
		rmdir(path);
	}
	rmdir(path);
	for (int i = 0; i < READDIR_NFILES; i++) {
		snprintf(path, sizeof(path), "r/%d", i);
		unlink(path);
	}
	rmdir("r");
}

static double per_read(uint64_t t0, uint64_t t1, unsigned long n)
{
	return (double)(t1 - t0) / (double)n;
}

#define CLOCK_READS 10000000ul

static double time_clock(clockid_t id)
{
	struct timespec ts;
	uint64_t t0 = now_ns(), sink = 0;

	for (unsigned long i = 0; i < CLOCK_READS; i++) {
		clock_gettime(id, &ts);
		sink += (uint64_t)ts.tv_nsec;
	}
	__asm__ volatile("" : : "r"(sink));
	return per_read(t0, now_ns(), CLOCK_READS);
}

/* The harness's per-op budget: one clock read and one hist_add(). */
static double time_clock_hist(void)
{
	static struct hist h;
	uint64_t t0, prev, t;

	memset(&h, 0, sizeof(h));
	h.min = UINT64_MAX;
	t0 = prev = now_ns();
	for (unsigned long i = 0; i < CLOCK_READS; i++) {
		t = now_ns();
		hist_add(&h, t - prev);
		prev = t;
	}
	__asm__ volatile("" : : "r"(h.count));
	return per_read(t0, now_ns(), CLOCK_READS);
}

static int clock_main(void)
{
	static const struct {
		const char *name;
		clockid_t id;
	} clocks[] = {
		{ "CLOCK_MONOTONIC", CLOCK_MONOTONIC },
		{ "CLOCK_MONOTONIC_RAW", CLOCK_MONOTONIC_RAW },
		{ "CLOCK_MONOTONIC_COARSE", CLOCK_MONOTONIC_COARSE },
		{ "CLOCK_REALTIME", CLOCK_REALTIME },
		{ "CLOCK_BOOTTIME", CLOCK_BOOTTIME },
	};
	struct timespec res;

	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		clock_getres(clocks[i].id, &res);
		printf("%-24s %7.1f ns/read  resolution %ld ns\n",
		       clocks[i].name, time_clock(clocks[i].id),
		       res.tv_sec * 1000000000l + res.tv_nsec);
	}
#ifdef HAVE_TSC
	{
		uint64_t t0 = now_ns(), sink = 0;
		unsigned int aux;

		for (unsigned long i = 0; i < CLOCK_READS; i++)
			sink += __rdtsc();
		printf("%-24s %7.1f ns/read\n", "rdtsc",
		       per_read(t0, now_ns(), CLOCK_READS));
		t0 = now_ns();
		for (unsigned long i = 0; i < CLOCK_READS; i++)
			sink += __rdtscp(&aux);
		printf("%-24s %7.1f ns/read\n", "rdtscp",
		       per_read(t0, now_ns(), CLOCK_READS));
		__asm__ volatile("" : : "r"(sink));
	}
#endif
	printf("%-24s %7.1f ns/op\n", "MONOTONIC + hist_add", time_clock_hist());
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: rawloop [-t SECONDS] [-w SECONDS] [-T] DIR OP\n"
		   "       rawloop clock\nOP:");
	for (const struct workload *w = workloads; w->name; w++)
		fprintf(f, " %s", w->name);
	fputc('\n', f);
}

int main(int argc, char **argv)
{
	struct job job = { .warm_s = 1, .time_s = 2 };
	const struct workload *w;
	char tmpl[4096];
	bool threaded = false;
	int o;

	if (argc == 2 && !strcmp(argv[1], "clock"))
		return clock_main();
	while ((o = getopt(argc, argv, "t:w:Th")) != -1) {
		switch (o) {
		case 't':
			job.time_s = atof(optarg);
			break;
		case 'w':
			job.warm_s = atof(optarg);
			break;
		case 'T':
			threaded = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (argc - optind != 2 || job.time_s <= 0 || job.warm_s < 0) {
		usage(stderr);
		return 2;
	}
	for (w = workloads; w->name && strcmp(w->name, argv[optind + 1]); w++)
		;
	if (!w->name) {
		usage(stderr);
		return 2;
	}
	job.w = w;
	if (posix_memalign((void **)&iobuf, 64, IOSIZE) ||
	    posix_memalign((void **)&dirbuf, 64, DIRBUF))
		die("posix_memalign");
	memset(iobuf, 'v', IOSIZE);
	memset(dirbuf, 0, DIRBUF);
	snprintf(tmpl, sizeof(tmpl), "%s/rawloop.XXXXXX", argv[optind]);
	if (!mkdtemp(tmpl))
		die(tmpl);
	if (chdir(tmpl))
		die(tmpl);
	setup(w);
	if (threaded) {
		pthread_t t;

		errno = pthread_create(&t, NULL, run_job, &job);
		if (errno)
			die("pthread_create");
		pthread_join(t, NULL);
	} else {
		run_job(&job);
	}
	cleanup();
	if (chdir("..") || rmdir(tmpl))
		fprintf(stderr, "rawloop: cannot remove %s: %s\n", tmpl,
			strerror(errno));
	if (failures) {
		fprintf(stderr, "rawloop: %s: %lu calls failed\n", w->name,
			failures);
		return 3;
	}
	printf("ops/s %.2f passes/s %.2f ns/op %.2f cpu_ns/op %.2f\n",
	       (double)job.passes * w->ops * 1e9 / (double)job.ns,
	       (double)job.passes * 1e9 / (double)job.ns,
	       (double)job.ns / ((double)job.passes * w->ops),
	       (double)job.cpu_ns / ((double)job.passes * w->ops));
	return 0;
}
