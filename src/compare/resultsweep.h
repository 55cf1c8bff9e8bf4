/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_COMPARE_RESULTSWEEP_H
#define VB_COMPARE_RESULTSWEEP_H

#include "compare/resultfile.h"

typedef struct json_t json_t;

/*
 * The runs of a "vfsbench-result" file, @root, whose schema *@rf (one
 * entry: path, label, file, kind and schema_version set) has passed:
 * *@rf grown to one entry per variant (*@n of them), each with its
 * settings, points and complete runs. Returns 0, or -EINVAL with the
 * message printed; the entries are then for the caller to release (*@n
 * of them).
 */
int resultsweep_read(struct resultfile **rf, unsigned int *n, json_t *root);

#endif /* VB_COMPARE_RESULTSWEEP_H */
