/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_LANG_DBENCH_H
#define VB_LANG_DBENCH_H

#include <stdbool.h>
#include <stddef.h>

struct builder;
struct loadfile_opts;

/*
 * dbench's loadfile dialect (dbench 3 and 4's client.txt): detection and
 * translation into OP_DB_* ops with the semantics of dbench's fileio
 * backend. vfsbench-loadfile(5) documents the mapping.
 */

/*
 * True if the first op line of @buf ends in a dbench status
 * (NT_STATUS_... or 0x...), which no native line can.
 */
bool dbench_detect(const char *buf, size_t len);

/*
 * The dbench op called @name (in any case), spelled as dbench's table
 * spells it ("Unlink", "QUERY_PATH_INFORMATION"), or NULL: for a hint when
 * a native loadfile holds such a line.
 */
const char *dbench_op_name(const char *name);

/*
 * Translate @buf into @b, all lines in the [run] section. On error prints
 * "NAME:LINE:COL: message" and returns -EINVAL; the caller releases what
 * was built.
 */
int dbench_parse(struct builder *b, const char *buf, size_t len,
		 const struct loadfile_opts *opts);

#endif /* VB_LANG_DBENCH_H */
