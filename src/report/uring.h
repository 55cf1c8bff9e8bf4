/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_REPORT_URING_H
#define VB_REPORT_URING_H

#include <jansson.h>

struct run;

/*
 * -e uring's figures of a run (an engine with a queue: its ops' `queued`
 * table): per op, how it was issued and the share that completed inline,
 * and the io-wq workers' CPU time. Nothing for other engines.
 */
void report_uring_text(const struct run *run);

/* The same into the run's JSON object @o and its ops_detail rows @ops. */
void report_uring_json(json_t *o, json_t *ops, const struct run *run);

#endif /* VB_REPORT_URING_H */
