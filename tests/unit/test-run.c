/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Clients end a timed phase by themselves: with thousands of clients the
 * main thread may not get a CPU for seconds after -t has passed, so each
 * client compares the time it reads after every op with the phase's end
 * (state.measure_at, state.stop_at) and moves the run on. Here no main
 * thread supervises: the clients must stop, or the test times out.
 */
#include <config.h>

#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/compiler.h"
#include "base/clock.h"
#include "engine/engine.h"
#include "lang/loadfile.h"
#include "lang/reader.h"
#include "run/client.h"
#include "run/runconfig.h"
#include "run/run.h"
#include "workdir/workdir.h"
#include "sys/fdtable.h"
#include "unit.h"

struct fixture {
	struct run_config cfg;
	struct loadfile lf;
	struct run run;
};

/* @n clients of a one-op loadfile on @e, set up and waiting at the gate. */
static void fixture_start_on(struct fixture *f, unsigned int n,
			     const struct engine *e)
{
	static const char text[] = "stat f\n";
	struct run *run = &f->run;

	memset(f, 0, sizeof(*f));
	f->cfg.cwd = CWD_SHARED;
	f->cfg.fs = FS_SHARED;
	f->cfg.fdt = FDT_SHARED;
	f->cfg.time_ns = NSEC_PER_SEC;
	ck_assert_int_eq(
		loadfile_parse(&f->lf, "t.load", text, sizeof(text) - 1, NULL),
		0);
	run_init(run, &f->cfg, &f->lf, e, n, 0, 0);
	run->clients = xcalloc_aligned(n, sizeof(*run->clients));
	run->state.progress = xcalloc_aligned(n, sizeof(*run->state.progress));
	for (unsigned int i = 0; i < n; i++) {
		struct client *c = &run->clients[i];

		client_init(c, &run->state, i, -1, "");
		ck_assert_int_eq(
			pthread_create(&c->thread, NULL, client_main, c), 0);
		run->started++;
	}
	gate_wait(&run->state.gate, n);
}

/* ... on the null engine. */
static void fixture_start(struct fixture *f, unsigned int n)
{
	fixture_start_on(f, n, &engine_null);
}

static void fixture_join(struct fixture *f)
{
	struct run *run = &f->run;

	for (unsigned int i = 0; i < run->started; i++)
		ck_assert_int_eq(pthread_join(run->clients[i].thread, NULL), 0);
	ck_assert_int_eq(atomic_load(&run->state.phase), PHASE_STOP);
	ck_assert_int_eq(atomic_load(&run->state.end), RUN_END_COMPLETE);
}

static void fixture_release(struct fixture *f)
{
	for (unsigned int i = 0; i < f->run.started; i++)
		client_release(&f->run.clients[i]);
	run_release(&f->run);
	loadfile_release(&f->lf);
}

static uint64_t ops_done(const struct run *run, unsigned int i)
{
	return atomic_load(&run->state.progress[i].ops);
}

/*
 * The measurement's end has passed when the gate opens: every client
 * does at most the one op during which it reads the time, and one of
 * them does it.
 */
START_TEST(test_stop_at)
{
	struct fixture f;
	uint64_t total = 0;

	fixture_start(&f, 4);
	f.run.state.stop_at = clock_now_ns();
	run_state_advance(&f.run.state, PHASE_MEASURE);
	gate_open(&f.run.state.gate);
	fixture_join(&f);
	for (unsigned int i = 0; i < 4; i++) {
		ck_assert_uint_le(f.run.clients[i].res.ops, 1);
		ck_assert_uint_eq(ops_done(&f.run, i),
				  f.run.clients[i].res.ops);
		total += f.run.clients[i].res.ops;
	}
	ck_assert_uint_ge(total, 1);
	fixture_release(&f);
}
END_TEST

/*
 * A warmup by time that has ended: the client's first op is warmup, after
 * which it starts the measurement itself; its second op is measured and
 * ends the run. Two ops done, one kept, one whole pass.
 */
START_TEST(test_measure_at)
{
	struct fixture f;

	fixture_start(&f, 1);
	f.run.state.measure_at = f.run.state.stop_at = clock_now_ns();
	run_state_advance(&f.run.state, PHASE_WARMUP);
	gate_open(&f.run.state.gate);
	fixture_join(&f);
	ck_assert_uint_eq(ops_done(&f.run, 0), 2);
	ck_assert_uint_eq(f.run.clients[0].res.ops, 1);
	ck_assert_uint_eq(f.run.clients[0].res.passes, 1);
	fixture_release(&f);
}
END_TEST

/*
 * A --warmup in passes stopped before the clients leave the gate (a
 * signal, or --strict on an early client): every client still arrives at
 * the warmup gate, so the main thread's wait ends, and none replays ops
 * waiting for a phase change. Before, the main thread waited forever.
 */
START_TEST(test_stopped_warmup_gate)
{
	struct fixture f;

	fixture_start(&f, 3);
	f.cfg.warmup_kind = WARMUP_PASSES;
	f.cfg.warmup = 2;
	f.run.state.warm_gate = true;
	run_state_advance(&f.run.state, PHASE_WARMUP);
	run_state_stop(&f.run.state, RUN_END_SIGNAL);
	gate_open(&f.run.state.gate);
	gate_wait(&f.run.state.gate, 3);
	gate_open(&f.run.state.gate);
	for (unsigned int i = 0; i < 3; i++) {
		ck_assert_int_eq(pthread_join(f.run.clients[i].thread, NULL),
				 0);
		ck_assert_uint_eq(ops_done(&f.run, i), 0);
		ck_assert_uint_eq(f.run.clients[i].res.ops, 0);
	}
	fixture_release(&f);
}
END_TEST

/* Without a time, as with --loops, nothing ends by the clock. */
START_TEST(test_no_time)
{
	struct fixture f;

	fixture_start(&f, 2);
	f.cfg.loops = 3;
	run_state_advance(&f.run.state, PHASE_MEASURE);
	gate_open(&f.run.state.gate);
	for (unsigned int i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_join(f.run.clients[i].thread, NULL),
				 0);
	ck_assert_int_eq(atomic_load(&f.run.state.phase), PHASE_MEASURE);
	for (unsigned int i = 0; i < 2; i++) {
		ck_assert_uint_eq(f.run.clients[i].res.passes, 3);
		ck_assert_uint_eq(f.run.clients[i].res.ops, 3);
	}
	fixture_release(&f);
}
END_TEST

/* Idle clients are those whose sample has no op, of the started ones. */
START_TEST(test_idle_clients)
{
	struct client_sample samples[5] = {
		{ .ops = 0 }, { .ops = 3, .passes = 3 },
		{ .ops = 0 }, { .ops = 1, .passes = 1 },
		{ .ops = 0 },
	};
	struct run run = { .samples = samples, .nclients = 5, .started = 5 };

	ck_assert_uint_eq(run_idle_clients(&run), 3);
	/*
	 * A client never started (a signal stopped the setup) measured
	 * nothing either: 7 of 50 started and none measured is 50 idle, not
	 * "7 of 50 clients measured no op"
	 */
	run.started = 4;
	ck_assert_uint_eq(run_idle_clients(&run), 3);
	samples[1].ops = samples[3].ops = 0;
	run.started = 2;
	ck_assert_uint_eq(run_idle_clients(&run), 5);
	run.nclients = 0;
	ck_assert_uint_eq(run_idle_clients(&run), 0);
}
END_TEST

/*
 * The soft limit goes up to the hard limit, not just to the reservation:
 * an op may hold more fds than counted (a Deltree of a tree that renames
 * made deeper), and would otherwise fail at exactly the count. Check forks
 * each test, so the limits changed here do not outlive it.
 */
START_TEST(test_reserve_raises_to_hard)
{
	struct rlimit rl = { .rlim_cur = 64, .rlim_max = 1000 };
	struct capture cap;
	char *err;

	if (setrlimit(RLIMIT_NOFILE, &rl))
		return; /* cannot lower the limits here: nothing to test */
	ck_assert_int_eq(fdtable_reserve(100), 0);
	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &rl), 0);
	ck_assert_uint_eq(rl.rlim_cur, 1000);
	ck_assert_uint_eq(rl.rlim_max, 1000);

	capture_start(&cap);
	ck_assert_int_eq(fdtable_reserve(2000), -EMFILE);
	err = capture_end(&cap);
	ck_assert_ptr_nonnull(strstr(
		err,
		"but the hard limit RLIMIT_NOFILE is 1000; raise it (ulimit -Hn, or fs.nr_open)\n"));
	ck_assert_int_eq(strncmp(err, "error: this run needs ", 22), 0);
	free(err);
}
END_TEST

/*
 * Out of memory in a run, past the check before the sweep (which main()
 * makes and this test does not): run_execute() must fail the run through
 * its own cleanup, the run's directory removed, not die() leaving it.
 * Under a cap on the address space of the process (Check forks each
 * test), 100 clients of a 16 MiB buffer each do not fit. ASan and TSan
 * map terabytes of shadow memory and cannot run under such a cap.
 */
START_TEST(test_out_of_memory_cleans_up)
{
	static const char text[] = "open f wronly,creat @1\n"
				   "pwrite @1 0 16m\n"
				   "close @1\n";
	char dir[] = "/tmp/vb-test-run.XXXXXX";
	struct run_config cfg = { .loops = 1, .runs = 1, .stop_wait_ns = 1 };
	unsigned long long pages;
	struct loadfile lf;
	struct workdir wd;
	struct rlimit rl;
	struct capture cap;
	struct run run;
	char *err;
	FILE *f;
	int ret;

	if (getenv("VB_SANITIZER"))
		return;
	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(workdir_create(&wd, dir), 0);
	ck_assert_int_eq(
		loadfile_parse(&lf, "t.load", text, sizeof(text) - 1, NULL), 0);
	f = fopen("/proc/self/statm", "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fscanf(f, "%llu", &pages), 1);
	fclose(f);
	/* 256 MiB more than in use now: room for about 15 clients */
	rl.rlim_cur = rl.rlim_max =
		pages * (unsigned long long)sysconf(_SC_PAGESIZE) + (256 << 20);
	ck_assert_int_eq(setrlimit(RLIMIT_AS, &rl), 0);
	run_init(&run, &cfg, &lf, &engine_null, 100, 0, 0);
	capture_start(&cap);
	ret = run_execute(&run, &wd);
	err = capture_end(&cap);
	ck_assert_int_lt(ret, 0);
	ck_assert_int_eq(atomic_load(&run.state.end), RUN_END_FAILED);
	ck_assert_msg(strstr(err, "error: cannot set up client ") ||
			      strstr(err, "error: cannot start client "),
		      "stderr: %s", err);
	ck_assert_ptr_null(strstr(err, "fatal:"));
	free(err);
	ck_assert_uint_gt(run.started, 0);
	ck_assert_uint_lt(run.started, 100);
	ck_assert_int_eq(faccessat(wd.fd, "run0", F_OK, AT_SYMLINK_NOFOLLOW),
			 -1);
	ck_assert_int_eq(errno, ENOENT);
	run_release(&run);
	loadfile_release(&lf);
	ck_assert_int_eq(workdir_remove(&wd, NULL), 0);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/*
 * The cancel type a client's op runs with, as the op itself finds it:
 * setting it returns the one before, which is then put back.
 */
static atomic_int probe_type = -1;

static long probe_stat(UNUSED struct engine_ctx *c, UNUSED const struct op *op,
		       UNUSED const char *path, UNUSED const char *path2)
{
	int old;

	pthread_setcanceltype(PTHREAD_CANCEL_DEFERRED, &old);
	pthread_setcanceltype(old, NULL);
	atomic_store(&probe_type, old);
	return 0;
}

static const struct engine engine_probe = {
	.name = "probe",
	.op = { [OP_STAT] = probe_stat },
};

/*
 * Clients issue their calls with the asynchronous cancel type, so that
 * glibc's cancellable wrappers skip their two lock cmpxchg per call.
 */
START_TEST(test_cancel_type)
{
	struct fixture f;

	fixture_start_on(&f, 1, &engine_probe);
	f.run.state.stop_at = clock_now_ns();
	run_state_advance(&f.run.state, PHASE_MEASURE);
	gate_open(&f.run.state.gate);
	fixture_join(&f);
	ck_assert_uint_eq(f.run.clients[0].res.ops, 1);
	ck_assert_int_eq(atomic_load(&probe_type), PTHREAD_CANCEL_ASYNCHRONOUS);
	fixture_release(&f);
}
END_TEST

static Suite *run_suite(void)
{
	Suite *s = suite_create("run");
	TCase *tc = tcase_create("timed phases");

	/* a client that never stops by itself hangs: fail it soon */
	tcase_set_timeout(tc, 10);
	tcase_add_test(tc, test_stop_at);
	tcase_add_test(tc, test_measure_at);
	tcase_add_test(tc, test_no_time);
	tcase_add_test(tc, test_stopped_warmup_gate);
	tcase_add_test(tc, test_idle_clients);
	tcase_add_test(tc, test_cancel_type);
	suite_add_tcase(s, tc);
	tc = tcase_create("memory");
	tcase_add_test(tc, test_out_of_memory_cleans_up);
	suite_add_tcase(s, tc);
	tc = tcase_create("fd table");
	tcase_add_test(tc, test_reserve_raises_to_hard);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(run_suite());
}
