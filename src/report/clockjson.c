/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * environment.clock, the same in every result file that times anything
 * (a run's and fdscale's).
 */
#include <config.h>
#include "report/clockjson.h"

#include <stdint.h>

#include "base/clock.h"
#include "base/jsonstr.h"

static json_t *u64(uint64_t v)
{
	return json_integer((json_int_t)v);
}

json_t *clock_json(const char *why_not_tsc)
{
	const struct clock_tsc *cal = &clock_state.cal;
	json_t *o = json_object();

	json_object_set_new(o, "source",
			    json_string(clock_state.tsc ? "tsc" : "monotonic"));
	json_object_set_new(o, "why_not_tsc",
			    jsonstr_new(clock_state.tsc ? NULL : why_not_tsc));
	if (!clock_state.tsc)
		return o;
	json_object_set_new(o, "tsc_hz", json_real(clock_tsc_hz(cal)));
	json_object_set_new(o, "calibration_ns", u64(cal->window_ns));
	json_object_set_new(o, "calibration_ticks", u64(cal->window_ticks));
	json_object_set_new(o, "mult", u64(cal->mult));
	json_object_set_new(o, "shift", json_integer(CLOCK_TSC_SHIFT));
	json_object_set_new(o, "drift_ppm", json_real(clock_tsc_drift_ppm()));
	return o;
}
