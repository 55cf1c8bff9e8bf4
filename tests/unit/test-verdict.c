/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for the starved verdict by CPU share (run/verdict.c on
 * stats/result.c's arithmetic) and where it is reported: the text
 * report's CPU lines and the JSON's rusage. A real run cannot be made to
 * land at a given CPU share, so each run here is made by hand: a run of
 * 4 clients (or 8) set up, every client measured, over a window of 1 s,
 * with the CPU time and the run-queue wait given. A run is starved when
 * its clients used under half of the CPU time they could have had
 * (min(clients, CPUs) x window) and waited for a CPU over a tenth of
 * their time, over a window of at least 100 ms; each threshold is tried
 * on both sides. Output is TAP on stdout.
 */
#include <config.h>
#include "run/verdict.h"

#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"
#include "engine/engine.h"
#include "lang/loadfile.h"
#include "lang/reader.h"
#include "report/report.h"
#include "run/run.h"
#include "run/runconfig.h"
#include "run/sweep.h"
#include "stats/result.h"
#include "sys/env.h"
#include "unit.h"

/* The window of every run here, from an arbitrary start. */
#define T0	  5000000000ull
#define WINDOW_NS 1000000000ull

struct fixture {
	struct run_config cfg;
	struct loadfile lf;
	struct run run;
};

/*
 * A run of @n clients on @cpus CPUs, set up and ended complete, each
 * client with one op measured, over a window of @window_ns; its clients
 * used @cpu_s of CPU time (user and sys) and waited @wait_ns for a CPU
 * (wait_ns < 0: schedstat unreadable).
 */
static void fixture_make(struct fixture *f, unsigned int n, double cpus,
			 double cpu_s, long long wait_ns, uint64_t window_ns)
{
	static const char text[] = "stat f\n";
	struct run *run = &f->run;
	struct result *r = &run->total;

	memset(f, 0, sizeof(*f));
	f->cfg.time_ns = WINDOW_NS;
	ck_assert_int_eq(
		loadfile_parse(&f->lf, "t.load", text, sizeof(text) - 1, NULL),
		0);
	run_init(run, &f->cfg, &f->lf, &engine_null, n, 0, 0);
	run->cpus = cpus;
	run->started = run->ready = n;
	run->samples = xcalloc(n, sizeof(*run->samples));
	ck_assert_int_eq(result_init(r, f->lf.nslots), 0);
	for (unsigned int i = 0; i < n; i++) {
		run->samples[i].ops = 1;
		run->samples[i].cpu = run->samples[i].last_cpu = -1;
		hist_add(&r->lat[0], 1000 + i);
		r->count[0]++;
		r->ops++;
	}
	r->t_start = T0;
	r->t_end = T0 + window_ns;
	/* a quarter sys: the report prints both */
	r->usage.user_s = cpu_s * 0.75;
	r->usage.sys_s = cpu_s * 0.25;
	r->usage.voluntary = 12;
	r->usage.involuntary = 34;
	if (wait_ns >= 0) {
		r->usage.run_delay_ns = (uint64_t)wait_ns;
		r->usage.run_delay_known = true;
	}
}

static void fixture_release(struct fixture *f)
{
	run_release(&f->run);
	loadfile_release(&f->lf);
}

static struct run_verdict verdict_of(double cpus, unsigned int n, double cpu_s,
				     long long wait_ns, uint64_t window_ns)
{
	struct fixture f;
	struct run_verdict v;

	fixture_make(&f, n, cpus, cpu_s, wait_ns, window_ns);
	run_verdict(&f.run, &v);
	fixture_release(&f);
	return v;
}

/* Issue 38: 4 clients on 4 CPUs, 0.4 s of CPU in 1 s, 3 s waited. */
START_TEST(test_starved_by_share)
{
	struct run_verdict v = verdict_of(4, 4, 0.4, 3000000000, WINDOW_NS);

	ck_assert(v.starved);
	ck_close(v.cpu_share, 0.1, 1e-12, "cpu_share");
	ck_close(v.wait_share, 0.75, 1e-12, "wait_share");
	EXPECT_UINT("starved by share", v.unmeasured, 0);
	/* starved is no bit of incomplete: compare reads it of its own */
	EXPECT_UINT("starved by share", v.incomplete, 0);
}
END_TEST

/*
 * The CPU share's threshold, 0.5, from both sides with the wait well
 * over its own: just under starves, exactly half and over do not.
 */
START_TEST(test_share_threshold)
{
	static const struct {
		double cpu_s; /* of 4 CPU-seconds */
		bool starved;
	} cases[] = {
		{ 1.0, true },	{ 1.99, true },	     { 1.999999, true },
		{ 2.0, false }, { 2.000001, false }, { 2.01, false },
		{ 3.9, false },
	};

	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct run_verdict v =
			verdict_of(4, 4, cases[i].cpu_s, 3000000000, WINDOW_NS);

		ck_assert_msg(v.starved == cases[i].starved,
			      "%g s of 4 CPU-seconds: starved %d, want %d",
			      cases[i].cpu_s, v.starved, cases[i].starved);
		ck_close(v.cpu_share, cases[i].cpu_s / 4, 1e-12, "cpu_share");
	}
	/* a CPU time one double under 2 s, then exactly 2 s */
	{
		struct fixture f;
		struct run_verdict v;

		fixture_make(&f, 4, 4, 0, 3000000000, WINDOW_NS);
		f.run.total.usage.user_s = nextafter(2.0, 0);
		run_verdict(&f.run, &v);
		ck_assert(v.cpu_share < 0.5);
		ck_assert(v.starved);
		f.run.total.usage.user_s = 2.0;
		run_verdict(&f.run, &v);
		ck_assert(v.cpu_share == 0.5);
		ck_assert(!v.starved);
		fixture_release(&f);
	}
}
END_TEST

/*
 * The run-queue wait's threshold, a tenth, from both sides with the CPU
 * share low: a run blocked on I/O (little CPU, little wait) is not
 * starved. Without schedstat the share alone decides.
 */
START_TEST(test_wait_threshold)
{
	static const struct {
		long long wait_ns; /* of 4 client-seconds */
		bool starved;
	} cases[] = {
		{ 0, false },	     { 390000000, false }, { 400000000, false },
		{ 400000001, true }, { 410000000, true },  { -1, true },
	};

	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct run_verdict v =
			verdict_of(4, 4, 0.4, cases[i].wait_ns, WINDOW_NS);

		ck_assert_msg(v.starved == cases[i].starved,
			      "%lld ns waited of 4 s: starved %d, want %d",
			      cases[i].wait_ns, v.starved, cases[i].starved);
		if (cases[i].wait_ns < 0)
			ck_assert(v.wait_share == -1);
		else
			ck_close(v.wait_share, (double)cases[i].wait_ns / 4e9,
				 1e-12, "wait_share");
	}
	/* without schedstat, over half is not starved either */
	ck_assert(!verdict_of(4, 4, 2.0, -1, WINDOW_NS).starved);
	ck_assert(verdict_of(4, 4, 1.99, -1, WINDOW_NS).starved);
}
END_TEST

/* Windows under 100 ms are within the accounting's noise. */
START_TEST(test_window_threshold)
{
	/* the same shares, 0.1 and 0.75, over 100 ms and 1 ns less */
	ck_assert(verdict_of(4, 4, 0.04, 300000000, 100000000).starved);
	ck_assert(!verdict_of(4, 4, 0.04, 300000000, 99999999).starved);
}
END_TEST

/*
 * More clients than CPUs: the share is of the CPUs (8 clients could use
 * 4 CPU-seconds a second, not 8), and clients that never ran starve the
 * run whatever the share; with fewer clients than CPUs one that measured
 * nothing was blocked, not starved.
 */
START_TEST(test_share_of_cpus)
{
	struct fixture f;
	struct run_verdict v;

	v = verdict_of(4, 8, 2.01, 6000000000, WINDOW_NS);
	ck_close(v.cpu_share, 0.5025, 1e-12, "cpu_share");
	ck_assert(!v.starved);
	v = verdict_of(4, 8, 1.99, 6000000000, WINDOW_NS);
	ck_assert(v.starved);

	fixture_make(&f, 8, 4, 3.9, 0, WINDOW_NS);
	f.run.samples[5].ops = 0;
	run_verdict(&f.run, &v);
	ck_assert(v.starved);
	EXPECT_UINT("8 on 4, one idle", v.unmeasured, 1);
	ck_close(v.wait_share, 1.0 / 8, 1e-12, "wait_share");
	EXPECT_UINT("8 on 4, one idle", v.incomplete, INCOMPLETE_UNMEASURED);
	fixture_release(&f);

	fixture_make(&f, 4, 8, 3.9, 0, WINDOW_NS);
	f.run.samples[1].ops = 0;
	run_verdict(&f.run, &v);
	ck_assert(!v.starved);
	ck_close(v.wait_share, 0, 1e-12, "wait_share");
	fixture_release(&f);
}
END_TEST

/* A run stopped in its setup opened no window: not starved. */
START_TEST(test_setup_stopped)
{
	struct fixture f;
	struct run_verdict v;

	fixture_make(&f, 4, 4, 0.4, 3000000000, WINDOW_NS);
	f.run.ready = 3;
	run_verdict(&f.run, &v);
	ck_assert(!v.starved);
	ck_assert(v.wait_share == -1);
	fixture_release(&f);
}
END_TEST

/*
 * The usage block of report_run()'s text for the run: from its "CPU:"
 * line to the noise line, which is left out.
 */
static char *usage_text(const struct run *run)
{
	struct report_config rc = { .format = FORMAT_NATIVE };
	struct capture o;
	char *t, *from, *to;

	capture_fd_start(&o, STDOUT_FILENO);
	report_run(&rc, run, NULL);
	t = capture_end(&o);
	from = strstr(t, "\nCPU: ");
	ck_assert_msg(from != NULL, "no CPU line in:\n%s", t);
	to = strstr(from, "\nNoise per client: ");
	ck_assert_msg(to != NULL, "no noise line in:\n%s", t);
	to[1] = '\0';
	memmove(t, from + 1, strlen(from + 1) + 1);
	return t;
}

#define SWITCHES "  switches 12 voluntary, 34 involuntary\n"

/* The text report: the CPU line, and the warning on the starved side only. */
START_TEST(test_text_report)
{
	static const struct {
		double cpu_s;
		long long wait_ns;
		const char *text;
	} cases[] = {
		/* issue 38's run */
		{ 0.4, 3000000000,
		  "CPU: user 0.30 s  sys 0.10 s  (10% of what the clients could use)  run-queue wait 75%" SWITCHES
		  "warning: starved: the clients used 10% of the CPU time they could have had and waited for a CPU 75% of the time\n" },
		/* the share's threshold: 49%, 50%, 51% */
		{ 1.96, 3000000000,
		  "CPU: user 1.47 s  sys 0.49 s  (49% of what the clients could use)  run-queue wait 75%" SWITCHES
		  "warning: starved: the clients used 49% of the CPU time they could have had and waited for a CPU 75% of the time\n" },
		{ 2.0, 3000000000,
		  "CPU: user 1.50 s  sys 0.50 s  (50% of what the clients could use)  run-queue wait 75%" SWITCHES },
		{ 2.04, 3000000000,
		  "CPU: user 1.53 s  sys 0.51 s  (51% of what the clients could use)  run-queue wait 75%" SWITCHES },
		/* the wait's threshold: 10% is not over a tenth, 11% is */
		{ 0.4, 400000000,
		  "CPU: user 0.30 s  sys 0.10 s  (10% of what the clients could use)  run-queue wait 10%" SWITCHES },
		{ 0.4, 440000000,
		  "CPU: user 0.30 s  sys 0.10 s  (10% of what the clients could use)  run-queue wait 11%" SWITCHES
		  "warning: starved: the clients used 10% of the CPU time they could have had and waited for a CPU 11% of the time\n" },
	};

	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fixture f;
		char *t;

		fixture_make(&f, 4, 4, cases[i].cpu_s, cases[i].wait_ns,
			     WINDOW_NS);
		t = usage_text(&f.run);
		ck_assert_msg(!strcmp(t, cases[i].text),
			      "case %u:\n%s\nwant:\n%s", i, t, cases[i].text);
		free(t);
		fixture_release(&f);
	}
}
END_TEST

/*
 * report_json() of a sweep of the one run @f: the file read back, its
 * runs[0].
 */
static json_t *run_json_of(struct fixture *f, json_t **root)
{
	static const struct loadfile_opts lopts;
	struct report_variant rv = { .loadfile = "t.load", .engine = "null" };
	struct sweep_variant sv = { .cfg = &f->cfg,
				    .lf = &f->lf,
				    .engine = &engine_null };
	struct report_config rc = { .format = FORMAT_NATIVE,
				    .lopts = &lopts,
				    .variants = &rv,
				    .nvariants = 1 };
	unsigned int clients = f->run.nclients, variant_of = 0;
	struct run *runs = &f->run;
	struct point pt = { .clients = clients, .runs = &runs, .nruns = 1 };
	struct sweep sw = { .cfg = &f->cfg,
			    .lf = &f->lf,
			    .variants = &sv,
			    .nvariants = 1,
			    .runs = &f->run,
			    .variant_of = &variant_of,
			    .nruns = 1,
			    .points = &pt,
			    .npoints = 1 };
	char dir[] = "/tmp/vb-verdict-XXXXXX", path[64];
	struct env env;
	json_error_t jerr;
	json_t *run;

	rv.lopts = &lopts;
	f->cfg.clients = &clients;
	f->cfg.nclients = 1;
	f->cfg.runs = 1;
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/r.json", dir);
	env_collect(&env, dir);
	ck_assert_int_eq(report_json(&rc, &sw, &env, path), 0);
	env_release(&env);
	*root = json_load_file(path, 0, &jerr);
	ck_assert_msg(*root != NULL, "%s: %s", path, jerr.text);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(rmdir(dir), 0);
	f->cfg.clients = NULL;
	run = json_array_get(json_object_get(*root, "runs"), 0);
	ck_assert_ptr_nonnull(run);
	return run;
}

/* The JSON: rusage.starved, cpu_share and wait_share on both sides. */
START_TEST(test_json)
{
	static const struct {
		double cpu_s;
		long long wait_ns;
		bool starved;
	} cases[] = {
		{ 0.4, 3000000000, true },  { 1.99, 3000000000, true },
		{ 2.0, 3000000000, false }, { 2.01, 3000000000, false },
		{ 0.4, 400000000, false },  { 0.4, 410000000, true },
		{ 1.99, -1, true },	    { 2.0, -1, false },
	};

	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fixture f;
		json_t *root, *run, *ru, *w;

		fixture_make(&f, 4, 4, cases[i].cpu_s, cases[i].wait_ns,
			     WINDOW_NS);
		run = run_json_of(&f, &root);
		ru = json_object_get(run, "rusage");
		ck_assert_ptr_nonnull(ru);
		ck_assert_msg(json_is_boolean(json_object_get(ru, "starved")),
			      "case %u: starved is no boolean", i);
		ck_assert_msg(json_is_true(json_object_get(ru, "starved")) ==
				      cases[i].starved,
			      "case %u: %g s, %lld ns: starved %d, want %d", i,
			      cases[i].cpu_s, cases[i].wait_ns,
			      json_is_true(json_object_get(ru, "starved")),
			      cases[i].starved);
		ck_close(json_real_value(json_object_get(ru, "cpu_share")),
			 cases[i].cpu_s / 4, 1e-12, "cpu_share");
		w = json_object_get(ru, "wait_share");
		if (cases[i].wait_ns < 0)
			ck_assert(json_is_null(w));
		else
			ck_close(json_real_value(w),
				 (double)cases[i].wait_ns / 4e9, 1e-12,
				 "wait_share");
		ck_close(json_real_value(json_object_get(ru, "cpus")), 4, 1e-12,
			 "cpus");
		/* starved is its own mark, not one of incomplete's */
		EXPECT_UINT("incomplete",
			    json_array_size(json_object_get(run, "incomplete")),
			    0);
		EXPECT_UINT("idle_clients",
			    json_integer_value(
				    json_object_get(run, "idle_clients")),
			    0);
		json_decref(root);
		fixture_release(&f);
	}
}
END_TEST

static Suite *verdict_suite(void)
{
	Suite *suite = suite_create("verdict");
	TCase *tc = tcase_create("verdict");

	tcase_add_test(tc, test_starved_by_share);
	tcase_add_test(tc, test_share_threshold);
	tcase_add_test(tc, test_wait_threshold);
	tcase_add_test(tc, test_window_threshold);
	tcase_add_test(tc, test_share_of_cpus);
	tcase_add_test(tc, test_setup_stopped);
	tcase_add_test(tc, test_text_report);
	tcase_add_test(tc, test_json);
	suite_add_tcase(suite, tc);
	return suite;
}

int main(void)
{
	return unit_main(verdict_suite());
}
