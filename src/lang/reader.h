/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_LANG_READER_H
#define VB_LANG_READER_H

#include <stddef.h>

struct loadfile;
struct loadfile_opts;

/*
 * The largest loadfile read (vfsbench-loadfile(5), LIMITS): more than any
 * real one (dbench's client.txt is 26 MB), small enough that an endless
 * stream (-c <(yes 'stat .')) is refused before its ops fill the memory.
 * vfsbench record writes none larger.
 */
#define LOADFILE_MAX_BYTES (64u << 20)
#define LOADFILE_MAX_LINES 2000000u

/*
 * Compile @len bytes of @buf (need not be NUL-terminated). @name is used
 * in messages; @opts may be NULL for the defaults. On error prints
 * "NAME:LINE:COL: message" on stderr and returns -EINVAL with @lf
 * released; returns 0 on success.
 */
int loadfile_parse(struct loadfile *lf, const char *name, const char *buf,
		   size_t len, const struct loadfile_opts *opts);

/*
 * Find and compile a loadfile: @spec is a path to an existing file, or the
 * name of a built-in loadfile with or without ".load". Returns 0,
 * -EINVAL (bad loadfile, message printed), -EINTR without a message (a
 * signal while the file was opened or read: a FIFO nobody writes) or
 * -ENOENT / -errno (message printed).
 */
int loadfile_load(struct loadfile *lf, const char *spec,
		  const struct loadfile_opts *opts);

#endif /* VB_LANG_READER_H */
