/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_REPORT_CLOCKJSON_H
#define VB_REPORT_CLOCKJSON_H

#include <jansson.h>

/*
 * What timed the ops, for a result file's environment.clock: the TSC with
 * its calibration and how far it has drifted from CLOCK_MONOTONIC by now
 * (base/clock.h's clock_state); or CLOCK_MONOTONIC and @why_not_tsc.
 */
json_t *clock_json(const char *why_not_tsc);

#endif /* VB_REPORT_CLOCKJSON_H */
