/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_COMPARE_RESULTKERNELS_H
#define VB_COMPARE_RESULTKERNELS_H

#include "compare/resultfile.h"

typedef struct json_t json_t;

/*
 * A "vfsbench-kernels" file (vfsbench kernels --json, doc/json-schema.md),
 * @root, whose schema *@rf (one entry: path, label, file set) has passed:
 * each boot's result read as a result of runs (resultsweep.h), one entry
 * per boot and variant, with its kernel's index and label and the boot's
 * position. *@rf grows to *@n entries. Returns 0, or -EINVAL with the
 * message printed (the entries are then the caller's to release).
 */
int resultkernels_read(struct resultfile **rf, unsigned int *n, json_t *root);

#endif /* VB_COMPARE_RESULTKERNELS_H */
