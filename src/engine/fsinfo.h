/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_ENGINE_FSINFO_H
#define VB_ENGINE_FSINFO_H

#include "engine/engine.h"

/*
 * statfs, statvfs and statvfs_legacy of a path: the native ops of those
 * names, and what dbench's QUERY_FS_INFORMATION issues (--fsinfo).
 */
engine_op_fn posix_statfs;
engine_op_fn posix_statvfs;
engine_op_fn posix_statvfs_legacy;

#endif /* VB_ENGINE_FSINFO_H */
