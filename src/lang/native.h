/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_LANG_NATIVE_H
#define VB_LANG_NATIVE_H

#include <stddef.h>

struct builder;
struct loadfile_opts;

/*
 * Parse the native language (vfsbench-loadfile(5)) into @b: the ops of
 * [setup] and of [run], read as @opts says (links_out). On error prints
 * "NAME:LINE:COL: message" and returns -EINVAL; the caller releases what was
 * built.
 */
int native_parse(struct builder *b, const char *buf, size_t len,
		 const struct loadfile_opts *opts);

#endif /* VB_LANG_NATIVE_H */
