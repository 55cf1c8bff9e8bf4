/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vfsbench fdscale: how open() costs grow with the number of open fds,
 * cache-hot and cache-cold, with one thread or several sharing (or not)
 * the fd table. The table is grown between steps, untimed; only the
 * open() that refills a just-freed slot is timed.
 */
#include <config.h>
#include "fdscale/fdscale.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/clock.h"
#include "base/msg.h"
#include "fdscale/fdring.h"
#include "run/gate.h"
#include "sys/cpucache.h"
#include "sys/fdtable.h"

/* fds the process keeps besides the benchmark's (stdio, files, slack) */
#define FD_MARGIN 64
/*
 * Cold mode writes twice the size of the cache it evicts: caches are not
 * LRU, and once their size leaves some of the old lines in place.
 */
#define EVICT_FACTOR 2
/* dups between two looks at the clock for the progress line */
#define GROW_PROGRESS 1024

unsigned int fdscale_sequence(uint64_t max, double step, uint64_t *out)
{
	unsigned int n = 0;
	uint64_t v = 1;

	for (;;) {
		double next;

		if (out)
			out[n] = v;
		n++;
		if (v >= max)
			break;
		/* 170 x 1.1 is 187.00000000000003 in binary: not 188 */
		next = ceil((double)v * step * (1 - 1e-12));
		if (next >= (double)max)
			v = max;
		else
			v = next > (double)v ? (uint64_t)next : v + 1;
	}
	return n;
}

static uint64_t read_u64(const char *path)
{
	unsigned long long v = 0;
	FILE *f = fopen(path, "re");

	if (f) {
		if (fscanf(f, "%llu", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v;
}

uint64_t fdscale_limit(uint64_t want, char **why)
{
	uint64_t nr_open = read_u64("/proc/sys/fs/nr_open"), need;
	struct rlimit rl;
	char msg[512];
	int n;

	*why = NULL;
	if (want > UINT32_MAX)
		want = UINT32_MAX; /* far above any fs.nr_open */
	need = want + FD_MARGIN;
	if (getrlimit(RLIMIT_NOFILE, &rl))
		return 0;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < need) {
		/* root may raise the hard limit up to fs.nr_open */
		struct rlimit up = rl;

		up.rlim_max = nr_open && nr_open < need ? nr_open : need;
		up.rlim_cur = up.rlim_max;
		if (!setrlimit(RLIMIT_NOFILE, &up))
			rl = up;
	}
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < need) {
		rl.rlim_cur =
			rl.rlim_max == RLIM_INFINITY || rl.rlim_max > need ?
				need :
				rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
		getrlimit(RLIMIT_NOFILE, &rl);
	}
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= need)
		return want;
	n = snprintf(
		msg, sizeof(msg),
		"capped at %llu fds: RLIMIT_NOFILE is %llu (hard %llu) and fs.nr_open is %llu; raise the hard limit with 'ulimit -Hn %llu' as root",
		(unsigned long long)(rl.rlim_cur > FD_MARGIN ?
					     rl.rlim_cur - FD_MARGIN :
					     0),
		(unsigned long long)rl.rlim_cur,
		(unsigned long long)rl.rlim_max, (unsigned long long)nr_open,
		(unsigned long long)need);
	/* name the sysctl only when it is what stands in the way */
	if (nr_open && nr_open < need && n > 0 && (size_t)n < sizeof(msg))
		snprintf(msg + n, sizeof(msg) - (size_t)n,
			 ", after 'sysctl fs.nr_open=%llu'",
			 (unsigned long long)need);
	*why = xstrdup(msg);
	return rl.rlim_cur > FD_MARGIN ? rl.rlim_cur - FD_MARGIN : 0;
}

uint64_t fdscale_evict_size(const struct cpucache *c, enum fdscale_evict e)
{
	uint64_t bytes;

	if (e == FDEVICT_LLC)
		return EVICT_FACTOR * (c->llc ? c->llc : FDSCALE_LLC_ASSUMED);
	bytes = EVICT_FACTOR * (c->l2 ? c->l2 : FDSCALE_L2_ASSUMED);
	return bytes < FDSCALE_EVICT_MIN ? FDSCALE_EVICT_MIN :
	       bytes > FDSCALE_EVICT_MAX ? FDSCALE_EVICT_MAX :
					   bytes;
}

uint64_t fdscale_evict_default(enum fdscale_evict e)
{
	struct cpucache c;

	cpucache_read(&c, CPUCACHE_SYSFS);
	return fdscale_evict_size(&c, e);
}

/*
 * One thread's share: its fds (a table of its own: private, or its ring's
 * file table with --uring-fixed) or its slice of them.
 */
struct worker {
	struct fdscale *fs;
	unsigned int id;
	pthread_t thread;
	int *fds; /* a table of its own: this worker's fds, or slots */
	uint64_t nfds;
	struct fdring *ring; /* --engine uring: &ring_store; else NULL */
	struct fdring ring_store;
	uint64_t fd_table_size; /* this step's, once its table is grown */
	char *evict; /* cold mode */
	uint64_t evict_ns, evictions; /* what the evictions cost */
	uint64_t rng;
	/* this step's measurements */
	uint64_t best, worst, count;
	double sum;
	int error;
};

/* What all workers share. */
struct shared {
	const struct fdscale_config *cfg;
	struct gate start; /* every thread created, or not: then abort */
	bool abort;
	pthread_barrier_t barrier; /* the main thread and the workers */
	pthread_barrier_t loop; /* the workers, to free and refill together */
	int *fds; /* shared table: the benchmark's fds, lowest first */
	uint64_t nfds;
	uint64_t target; /* this step's num_fds; 0 ends the run */
	unsigned int step, nsteps; /* this step (from 1), for progress */
	/* the progress line: when the run started, when it last printed */
	uint64_t start_ns;
	atomic_uint_fast64_t progress_at;
	bool tty;
};

static struct shared sh;

static uint64_t progress_clock(const struct fdscale_config *cfg)
{
	return cfg->clock ? cfg->clock() : clock_now_ns();
}

/*
 * The progress line, at most once a second, from whichever thread gets
 * here first once the second is up: the fds open in the table it fills
 * (@held of this step's target) and the step. Cheap enough to call after
 * every timed open and every GROW_PROGRESS dups.
 */
static void progress(const struct fdscale_config *cfg, uint64_t held)
{
	uint_fast64_t last;
	uint64_t now;

	if (cfg->quiet)
		return;
	now = progress_clock(cfg);
	last = atomic_load_explicit(&sh.progress_at, memory_order_relaxed);
	if (now < last + NSEC_PER_SEC ||
	    !atomic_compare_exchange_strong(&sh.progress_at, &last, now))
		return;
	fprintf(stderr,
		"%sfdscale: %llu of %llu fds open (step %u of %u), %llu s%s",
		sh.tty ? "\r" : "", (unsigned long long)held,
		(unsigned long long)sh.target, sh.step, sh.nsteps,
		(unsigned long long)((now - sh.start_ns) / NSEC_PER_SEC),
		sh.tty ? "\033[K" : "\n");
}

/* Write every cache line of the buffer, so the next open() starts cold. */
static void evict(struct worker *w)
{
	volatile char *p = w->evict;
	uint64_t n = w->fs->evict_bytes;

	for (uint64_t i = 0; i < n; i += 64)
		p[i]++;
}

/* A stop (cfg->stop): every thread looks between two dups or opens. */
static bool stopped(const struct fdscale_config *cfg)
{
	return cfg->stop && *cfg->stop;
}

/* Whether each thread has a table of its own to grow and measure. */
static bool own_table(const struct fdscale_config *cfg)
{
	return cfg->private_table || cfg->uring_fixed;
}

/*
 * --uring-fixed: fill the ring's file table up to @target slots with
 * references to @base, untimed, a chunk at a time.
 */
static int grow_fixed(struct worker *w, uint64_t target, int base)
{
	const struct fdscale_config *cfg = w->fs->cfg;

	if (target > w->nfds)
		w->fds = xrealloc(w->fds, target * sizeof(*w->fds));
	while (w->nfds < target) {
		uint64_t to = w->nfds + GROW_PROGRESS < target ?
				      w->nfds + GROW_PROGRESS :
				      target;
		int ret;

		if (stopped(cfg))
			return -EINTR;
		ret = fdring_fill(w->ring, w->nfds, to, base);
		if (ret)
			return ret;
		for (; w->nfds < to; w->nfds++)
			w->fds[w->nfds] = (int)w->nfds;
		progress(cfg, w->nfds);
	}
	return 0;
}

static int grow(const struct fdscale_config *cfg, int **fds, uint64_t *nfds,
		uint64_t target, int base)
{
	if (target > *nfds)
		*fds = xrealloc(*fds, target * sizeof(**fds));
	while (*nfds < target) {
		int fd;

		if (stopped(cfg))
			return -EINTR;
		fd = dup(base);

		if (fd < 0)
			return error("cannot hold %llu fds: %s",
				     (unsigned long long)target,
				     strerror(errno));
		(*fds)[(*nfds)++] = fd;
		if (!(*nfds % GROW_PROGRESS))
			progress(cfg, *nfds);
	}
	return 0;
}

static uint64_t rng_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* The index of the fd to free for @pos, for worker @w. */
/*
 * The index of the fd to free for @pos. Workers sharing a table each own
 * the indexes congruent to their id modulo the worker count, so no two
 * ever free the same fd: the position picks a block of @nworkers indexes
 * and the worker takes its own one in it. The caller makes sure
 * n >= nworkers and id < nworkers.
 */
static uint64_t pick(struct worker *w, enum fdscale_pos pos, uint64_t n,
		     unsigned int nworkers)
{
	uint64_t blocks = n / nworkers, block;

	switch (pos) {
	case FDPOS_LOW:
		block = 0;
		break;
	case FDPOS_MIDDLE:
		block = blocks / 2;
		break;
	case FDPOS_HIGH:
		block = blocks - 1;
		break;
	default:
		block = rng_next(&w->rng) % blocks;
		break;
	}
	return block * nworkers + (nworkers > 1 ? w->id : 0);
}

/*
 * Free the fd at @idx and time the open() that refills it: open(2), or
 * through the worker's ring.
 */
static int measure_one(struct worker *w, int *fds, uint64_t idx)
{
	const struct fdscale_config *cfg = w->fs->cfg;
	uint64_t t0, dt;
	int fd;

	if (w->ring)
		fdring_close(w->ring, fds[idx]);
	else
		close(fds[idx]);
	if (cfg->cold) {
		uint64_t e0 = clock_now_ns();

		evict(w);
		t0 = clock_now_ns();
		w->evict_ns += t0 - e0;
		w->evictions++;
	} else {
		t0 = clock_now_ns();
	}
	if (w->ring) {
		fd = fdring_open(w->ring, cfg->file);
		dt = clock_now_ns() - t0;
	} else {
		fd = open(cfg->file, O_RDONLY);
		dt = clock_now_ns() - t0;
		if (fd < 0)
			fd = -errno;
	}
	fds[idx] = fd < 0 ? -1 : fd; /* -1: nothing left to close there */
	if (fd < 0)
		return error("open '%s' failed: %s", cfg->file, strerror(-fd));
	if (!w->count || dt < w->best)
		w->best = dt;
	if (dt > w->worst)
		w->worst = dt;
	w->sum += (double)dt;
	w->count++;
	return 0;
}

static void measure_step(struct worker *w, unsigned int nworkers)
{
	const struct fdscale_config *cfg = w->fs->cfg;
	bool private = own_table(cfg);
	int *fds = private ? w->fds : sh.fds;
	uint64_t n = private ? w->nfds : sh.nfds;

	w->best = w->worst = w->count = 0;
	w->sum = 0;
	for (unsigned int l = 0; l < cfg->loops; l++) {
		for (unsigned int p = 1; p <= FDPOS_RANDOM; p <<= 1) {
			if (!(cfg->positions & p))
				continue;
			/* every worker meets every position of every loop,
			 * even one with nothing to do, so they free and
			 * refill together */
			if (nworkers > 1)
				pthread_barrier_wait(&sh.loop);
			/* on a shared table each worker needs fds of its own:
			 * with fewer fds than workers, the first n work */
			if (w->error || (!private && w->id >= n) ||
			    stopped(cfg))
				continue;
			w->error = measure_one(w, fds,
					       pick(w, (enum fdscale_pos)p, n,
						    private ? 1 :
						    nworkers < n ?
							      nworkers :
							      (unsigned int)n));
			progress(cfg, n);
		}
	}
}

/*
 * A worker's own table and ring, in that order: the ring is made after
 * the unshare, so that it (and its io-wq) works on the worker's table.
 * The file its own table is grown with is @*base.
 */
static int worker_setup(struct worker *w, int *base)
{
	const struct fdscale_config *cfg = w->fs->cfg;

	if (cfg->private_table && unshare(CLONE_FILES))
		return error("unshare(CLONE_FILES): %s", strerror(errno));
	if (own_table(cfg)) {
		*base = open(cfg->file, O_RDONLY | O_CLOEXEC);
		if (*base < 0)
			return error("cannot open '%s': %s", cfg->file,
				     strerror(errno));
	}
	if (cfg->engine != FDENGINE_URING)
		return 0;
	if (fdring_init(&w->ring_store, cfg->uring_fixed, w->fs->max))
		return -EIO;
	w->ring = &w->ring_store;
	return 0;
}

/*
 * A worker thread. Steps are driven by the main thread through the
 * barrier: wait for the target, grow a table of its own if it has one,
 * note the fd table's size, wait, measure, wait.
 */
static void *worker_main(void *arg)
{
	struct worker *w = arg;
	const struct fdscale_config *cfg = w->fs->cfg;
	unsigned int nworkers = cfg->threads;
	int base = -1;

	gate_arrive(&sh.start);
	if (sh.abort)
		return NULL;
	w->error = worker_setup(w, &base);
	for (;;) {
		pthread_barrier_wait(&sh.barrier);
		if (!sh.target)
			break;
		if (cfg->uring_fixed && !w->error)
			w->error = grow_fixed(w, sh.target, base);
		else if (cfg->private_table && !w->error)
			w->error =
				grow(cfg, &w->fds, &w->nfds, sh.target, base);
		w->fd_table_size = fdtable_size();
		pthread_barrier_wait(&sh.barrier);
		measure_step(w, nworkers); /* it meets the barriers */
		pthread_barrier_wait(&sh.barrier);
	}
	/* slots are not fds: they go with the ring */
	for (uint64_t i = 0; !cfg->uring_fixed && i < w->nfds; i++)
		if (w->fds[i] >= 0)
			close(w->fds[i]);
	if (w->ring)
		fdring_release(w->ring);
	if (base >= 0)
		close(base);
	return NULL;
}

static void record(struct fdscale *fs, struct worker *w, unsigned int nw,
		   uint64_t num_fds)
{
	struct fdscale_step *s = &fs->steps[fs->nsteps++];
	double sum = 0;

	memset(s, 0, sizeof(*s));
	s->num_fds = num_fds;
	for (unsigned int i = 0; i < nw; i++) {
		if (w[i].fd_table_size > s->fd_table_size)
			s->fd_table_size = w[i].fd_table_size;
		if (!w[i].count)
			continue;
		if (!s->samples || w[i].best < s->best_ns)
			s->best_ns = w[i].best;
		if (w[i].worst > s->worst_ns)
			s->worst_ns = w[i].worst;
		s->samples += w[i].count;
		sum += w[i].sum;
	}
	s->mean_ns = s->samples ? sum / (double)s->samples : 0;
}

static int setup(struct fdscale *fs, const struct fdscale_config *cfg,
		 uint64_t **seq, unsigned int *nseq)
{
	struct cpucache cache;

	memset(fs, 0, sizeof(*fs));
	fs->cfg = cfg;
	fs->max = fdscale_limit(cfg->max, &fs->capped);
	if (fs->capped)
		warning("%s", fs->capped);
	if (!fs->max)
		return error("no file descriptors to spare");
	cpucache_read(&cache, CPUCACHE_SYSFS);
	fs->llc_bytes = cache.llc;
	fs->l2_bytes = cache.l2;
	fs->evict_bytes = cfg->evict == FDEVICT_SIZE ?
				  cfg->evict_bytes :
				  fdscale_evict_size(&cache, cfg->evict);
	*nseq = fdscale_sequence(fs->max, cfg->step, NULL);
	*seq = xcalloc(*nseq, sizeof(**seq));
	fdscale_sequence(fs->max, cfg->step, *seq);
	fs->steps = xcalloc(*nseq, sizeof(*fs->steps));
	return 0;
}

int fdscale_run(struct fdscale *fs, const struct fdscale_config *cfg)
{
	unsigned int nw = cfg->threads ? cfg->threads : 1, nseq = 0,
		     started = 0;
	uint64_t *seq = NULL, evict_ns = 0, evictions = 0;
	struct worker *w;
	int base, ret;

	ret = setup(fs, cfg, &seq, &nseq);
	if (ret)
		return ret;
	base = open(cfg->file, O_RDONLY | O_CLOEXEC);
	if (base < 0) {
		free(seq);
		return error("cannot open '%s': %s", cfg->file,
			     strerror(errno));
	}
	memset(&sh, 0, sizeof(sh));
	sh.cfg = cfg;
	sh.nsteps = nseq;
	sh.tty = isatty(STDERR_FILENO);
	sh.start_ns = progress_clock(cfg);
	atomic_init(&sh.progress_at, sh.start_ns);
	gate_init(&sh.start);
	pthread_barrier_init(&sh.barrier, NULL, nw + 1);
	pthread_barrier_init(&sh.loop, NULL, nw);
	w = xcalloc(nw, sizeof(*w));
	for (unsigned int i = 0; i < nw; i++) {
		w[i].fs = fs;
		w[i].id = i;
		w[i].rng = (cfg->seed ^ (0x9e3779b97f4a7c15ull * (i + 1))) | 1;
		if (cfg->cold)
			w[i].evict = xcalloc(1, fs->evict_bytes);
		if (pthread_create(&w[i].thread, NULL, worker_main, &w[i])) {
			ret = error("cannot start thread %u", i);
			break;
		}
		started++;
	}
	/* a thread that could not start would leave the barrier short */
	gate_wait(&sh.start, started);
	sh.abort = ret != 0;
	gate_open(&sh.start);
	for (unsigned int s = 0; !ret && s < nseq; s++) {
		sh.target = seq[s];
		sh.step = s + 1;
		if (!own_table(cfg))
			ret = grow(cfg, &sh.fds, &sh.nfds, seq[s], base);
		pthread_barrier_wait(&sh.barrier); /* target set */
		pthread_barrier_wait(&sh.barrier); /* tables grown */
		pthread_barrier_wait(&sh.barrier); /* measured */
		for (unsigned int i = 0; i < nw; i++)
			if (w[i].error && !ret)
				ret = w[i].error;
		/* a step the stop cut short is not one */
		if (!ret && stopped(cfg))
			ret = -EINTR;
		if (!ret)
			record(fs, w, nw, seq[s]);
	}
	fs->stopped = ret == -EINTR;
	sh.target = 0;
	if (!sh.abort)
		pthread_barrier_wait(&sh.barrier);
	for (unsigned int i = 0; i < started; i++)
		pthread_join(w[i].thread, NULL);
	/* a tty's progress line is rewritten in place: end it */
	if (sh.tty && atomic_load(&sh.progress_at) != sh.start_ns)
		fputc('\n', stderr);
	for (unsigned int i = 0; i < nw; i++) {
		evict_ns += w[i].evict_ns;
		evictions += w[i].evictions;
		free(w[i].fds);
		free(w[i].evict);
	}
	fs->evict_ns = evictions ? (double)evict_ns / (double)evictions : 0;
	for (uint64_t i = 0; i < sh.nfds; i++)
		if (sh.fds[i] >= 0)
			close(sh.fds[i]);
	free(sh.fds);
	pthread_barrier_destroy(&sh.barrier);
	pthread_barrier_destroy(&sh.loop);
	gate_release(&sh.start);
	close(base);
	free(w);
	free(seq);
	return ret;
}

int fdscale_usable(const struct fdscale_config *cfg)
{
	if (cfg->engine == FDENGINE_URING)
		return fdring_usable(cfg->uring_fixed);
	return 0;
}

void fdscale_release(struct fdscale *fs)
{
	free(fs->steps);
	free(fs->capped);
	memset(fs, 0, sizeof(*fs));
}
