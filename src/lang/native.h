/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_LANG_NATIVE_H
#define VB_LANG_NATIVE_H

#include <stddef.h>

struct loadfile;

/*
 * Parse the native language into @lf (fresh, with its name set): the ops
 * of [setup] then of [run], sealed. On error prints "NAME:LINE:COL:
 * message" and returns -EINVAL; the caller releases @lf.
 */
int native_parse(struct loadfile *lf, const char *buf, size_t len);

#endif /* VB_LANG_NATIVE_H */
