/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_REPORT_HEADER_H
#define VB_REPORT_HEADER_H

/*
 * The report's header (report_header() in report.h): each variant's
 * settings, the run's length and order, the machine, the directory and
 * an MPI job's layout.
 */
#include <stddef.h>

#include "run/layout.h"

/* "0-2,5": host @h's ranks, ascending, into @buf of @len bytes. */
void report_rank_list(const struct layout *l, unsigned int h, char *buf,
		      size_t len);

#endif /* VB_REPORT_HEADER_H */
