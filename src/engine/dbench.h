/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_ENGINE_DBENCH_H
#define VB_ENGINE_DBENCH_H

#include "engine/engine.h"

/*
 * dbench's ops (the OP_DB_* kinds), each the calls dbench's fileio backend
 * issues for its line, built from the posix engine's calls. The posix
 * engine's table (engine.c) holds them.
 */
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
engine_op_fn posix_db_pace;

#endif /* VB_ENGINE_DBENCH_H */
