/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_ENGINE_POSIX_H
#define VB_ENGINE_POSIX_H

#include <errno.h>

#include "engine/engine.h"

/*
 * Internals shared by the posix engine's two files: engine-posix.c (the
 * native ops) and engine-dbench.c (dbench's ops, built from the same
 * calls).
 */

/* 0, or -errno of the call that just failed. */
#define RET(x) ((x) < 0 ? -(long)errno : 0)

engine_op_fn posix_statfs;
engine_op_fn posix_statvfs;
engine_op_fn posix_statvfs_legacy;

engine_op_fn posix_db_ntcreatex;
engine_op_fn posix_db_close;
engine_op_fn posix_db_rename;
engine_op_fn posix_db_unlink;
engine_op_fn posix_db_deltree;
engine_op_fn posix_db_rmdir;
engine_op_fn posix_db_mkdir;
engine_op_fn posix_db_qpathinfo;
engine_op_fn posix_db_qfileinfo;
engine_op_fn posix_db_qfsinfo;
engine_op_fn posix_db_sfileinfo;
engine_op_fn posix_db_find;
engine_op_fn posix_db_writex;
engine_op_fn posix_db_readx;
engine_op_fn posix_db_lockx;
engine_op_fn posix_db_unlockx;
engine_op_fn posix_db_flush;
engine_op_fn posix_db_sleep;

#endif /* VB_ENGINE_POSIX_H */
