/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_LANG_NATIVE_H
#define VB_LANG_NATIVE_H

#include <stddef.h>

struct builder;

/*
 * Parse the native language (vfsbench-loadfile(5)) into @b: the ops of
 * [setup] and of [run]. On error prints "NAME:LINE:COL: message" and
 * returns -EINVAL; the caller releases what was built.
 */
int native_parse(struct builder *b, const char *buf, size_t len);

#endif /* VB_LANG_NATIVE_H */
