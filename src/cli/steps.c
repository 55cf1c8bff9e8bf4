/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Around a sweep: the clock chosen before it, the work directory guarded
 * while it runs and removed after it, standard output watched.
 */
#include <config.h>
#include "cli/steps.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/exit.h"
#include "base/msg.h"
#include "run/signals.h"
#include "sys/pipe.h"
#include "sys/tsc.h"

/* The work directory for die()'s hook, while it exists. */
static struct workdir *die_wd;

/* An allocation failed in main()'s thread: remove what was created. */
static void die_cleanup(void)
{
	if (die_wd && workdir_remove(die_wd, NULL))
		fprintf(stderr, "vfsbench: files left in '%s'\n", die_wd->path);
}

/*
 * die()'s hook removes @wd, the run's work directory, where an
 * allocation fails in main()'s thread; NULL: nothing to remove.
 */
void steps_guard_workdir(struct workdir *wd)
{
	die_wd = wd;
	die_set_hook(wd ? die_cleanup : NULL);
}

/* @say: print where --skip-cleanup left the files (dbench does not). */
int steps_finish_workdir(bool skip_cleanup, struct workdir *wd, bool stuck,
			 bool say)
{
	int ret;

	/* rank 0's, in an MPI job: its to remove */
	if (wd->attached) {
		workdir_release(wd);
		return 0;
	}
	if (stuck) {
		fprintf(stderr,
			"vfsbench: cleanup skipped: a client could not be stopped: files left in '%s'\n",
			wd->path);
		workdir_release(wd);
		return -EBUSY;
	}
	if (skip_cleanup) {
		if (say)
			fprintf(stderr,
				"vfsbench: --skip-cleanup: files left in '%s'\n",
				wd->path);
		workdir_release(wd);
		return 0;
	}
	if (signals.abort_cleanup && !signals.cleanup_cut) {
		fprintf(stderr,
			"vfsbench: cleanup skipped after a second signal: files left in '%s'\n",
			wd->path);
		workdir_release(wd);
		return 0;
	}
	ret = signals.cleanup_cut ? -EINTR :
				    workdir_remove(wd, &signals.abort_cleanup);
	if (ret == -EINTR) {
		fprintf(stderr,
			"vfsbench: cleanup interrupted by a second signal: files left in '%s'\n",
			wd->path);
		workdir_release(wd);
		return 0;
	}
	if (ret) {
		error("cleanup of '%s' failed: %s", wd->path, strerror(-ret));
		workdir_release(wd);
	}
	return ret;
}

/* How long the TSC's calibration sleeps between its two readings. */
#define CLOCK_CALIBRATION_NS (20 * NSEC_PER_MSEC)

/*
 * --clock: the TSC where sys/tsc.h finds it usable (auto) or where asked
 * for (tsc: an error, exit 2, where it is not), else CLOCK_MONOTONIC.
 * Before any thread starts (base/clock.h). What was chosen and why goes
 * to the result files through cfg->report.
 */
int steps_choose_clock(struct config *cfg)
{
	static const char *const names[] = {
		[CLOCK_CHOICE_AUTO] = "auto",
		[CLOCK_CHOICE_TSC] = "tsc",
		[CLOCK_CHOICE_MONOTONIC] = "monotonic",
	};
	static char why[256];

	cfg->report.clock_option = names[cfg->clock];
	cfg->report.clock_why = why;
	if (cfg->clock == CLOCK_CHOICE_MONOTONIC) {
		snprintf(why, sizeof(why), "--clock monotonic");
		return 0;
	}
	if (!tsc_usable(why, sizeof(why))) {
		if (!clock_use_tsc(CLOCK_CALIBRATION_NS)) {
			const char *skew = getenv("VFSBENCH_TEST_TSC_SKEW_PPM");

			/* tests of the end-of-run cross-check (vfsbench(1)) */
			if (skew)
				clock_tsc_skew(strtod(skew, NULL));
			cfg->report.clock_why = NULL;
			return 0;
		}
		snprintf(why, sizeof(why),
			 "the TSC did not advance during its calibration");
	}
	if (cfg->clock == CLOCK_CHOICE_TSC) {
		error("--clock tsc: %s", why);
		return -ENOTSUP;
	}
	return 0;
}

/*
 * A closed standard output (vfsbench | head) stops the sweep as a signal
 * does: SIGPIPE is ignored, so a write fails with EPIPE instead of
 * killing vfsbench before it cleans up and writes its result files.
 */
void steps_check_stdout(void)
{
	if ((fflush(stdout) == EOF || ferror(stdout)) &&
	    pipe_reader_gone(STDOUT_FILENO))
		signals_raise(SIGPIPE);
}

int steps_end_status(int status)
{
	if (signals.count && status == VB_EXIT_OK)
		status = VB_EXIT_SIGNAL(signals.last);
	if ((fflush(stdout) == EOF || ferror(stdout)) &&
	    !pipe_reader_gone(STDOUT_FILENO)) {
		error("cannot write the report to standard output");
		if (status == VB_EXIT_OK)
			status = VB_EXIT_RUNTIME;
	}
	return status;
}
