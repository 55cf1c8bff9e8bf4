/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_COMPARE_RESULTFDSCALE_H
#define VB_COMPARE_RESULTFDSCALE_H

#include "compare/resultfile.h"

typedef struct json_t json_t;

/*
 * The settings and steps[] of a "vfsbench-fdscale" file, @root, into
 * @rf (resultfile.h says which members). Returns 0, or -EINVAL with the
 * message printed; what was read is for the caller to release.
 */
int resultfdscale_read(struct resultfile *rf, json_t *root);

#endif /* VB_COMPARE_RESULTFDSCALE_H */
