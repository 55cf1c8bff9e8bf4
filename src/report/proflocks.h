/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_REPORT_PROFLOCKS_H
#define VB_REPORT_PROFLOCKS_H

#include <jansson.h>

#include "report/report.h"

/* The top locks of a profiled point at most printed in its report. */
#define PROFLOCKS_PRINTED 5

/*
 * A profile's top locks (perf lock contention) into its JSON object @o:
 * "lock_file", "locks" (an array, or null) and "locks_absent" (why
 * there are none, or null).
 */
void proflocks_json(json_t *o, const struct report_profile *p);

/* "    locks (FILE):" and its rows, or "    locks: none (WHY)". */
void proflocks_print(const struct report_profile *p);

#endif /* VB_REPORT_PROFLOCKS_H */
