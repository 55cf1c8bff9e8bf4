/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The top locks of each profiled point, as perf lock contention gave
 * them (stats/lockstat.h): its rows in the JSON and the report, or the
 * reason there are none.
 */
#include <config.h>
#include "report/proflocks.h"

#include <math.h>
#include <stdio.h>

#include "stats/lockstat.h"

/* Why a point whose perf record failed has no locks either. */
#define NO_RECORD "perf record failed: the point has no profile"

void proflocks_json(json_t *o, const struct report_profile *p)
{
	const struct lock_stat *ls = p->locks;
	json_t *a = json_array();

	json_object_set_new(o, "lock_file",
			    p->lock_file ? json_string(p->lock_file) :
					   json_null());
	for (unsigned int i = 0; ls && !ls->absent && i < ls->n; i++) {
		const struct lock_row *r = &ls->row[i];

		json_array_append_new(
			a, json_pack("{s:s, s:s, s:I, s:I, s:I, s:I}", "caller",
				     r->caller, "type", r->type, "contended",
				     (json_int_t)r->contended, "wait_total_ns",
				     (json_int_t)llround(r->wait_total),
				     "wait_max_ns",
				     (json_int_t)llround(r->wait_max),
				     "wait_avg_ns",
				     (json_int_t)llround(r->wait_avg)));
	}
	if (!ls || ls->absent) {
		json_decref(a);
		a = json_null();
	}
	json_object_set_new(o, "locks", a);
	json_object_set_new(o, "locks_absent",
			    !ls	       ? json_string(NO_RECORD) :
			    ls->absent ? json_string(ls->absent) :
					 json_null());
}

/* @ns as perf prints a time: "20.19 ms", "850 ns". */
static const char *fmt_ns(double ns, char *buf, size_t len)
{
	if (ns >= 1e9)
		snprintf(buf, len, "%.2f s", ns / 1e9);
	else if (ns >= 1e6)
		snprintf(buf, len, "%.2f ms", ns / 1e6);
	else if (ns >= 1e3)
		snprintf(buf, len, "%.2f us", ns / 1e3);
	else
		snprintf(buf, len, "%.0f ns", ns);
	return buf;
}

void proflocks_print(const struct report_profile *p)
{
	const struct lock_stat *ls = p->locks;
	char t[3][32];

	if (!ls || ls->absent) {
		printf("    locks: none (%s)\n", ls ? ls->absent : NO_RECORD);
		return;
	}
	if (!ls->n) {
		printf("    locks (%s): none contended\n", p->lock_file);
		return;
	}
	printf("    locks (%s), by total wait:\n", p->lock_file);
	printf("      %10s %12s %12s %12s  %-10s %s\n", "contended",
	       "total wait", "max wait", "avg wait", "type", "caller");
	for (unsigned int i = 0; i < ls->n && i < PROFLOCKS_PRINTED; i++) {
		const struct lock_row *r = &ls->row[i];

		printf("      %10llu %12s %12s %12s  %-10s %s\n",
		       (unsigned long long)r->contended,
		       fmt_ns(r->wait_total, t[0], sizeof(t[0])),
		       fmt_ns(r->wait_max, t[1], sizeof(t[1])),
		       fmt_ns(r->wait_avg, t[2], sizeof(t[2])), r->type,
		       r->caller);
	}
	if (ls->n > PROFLOCKS_PRINTED)
		printf("      (%u more in the JSON)\n",
		       ls->n - PROFLOCKS_PRINTED);
}
