/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_BASE_RESERVED_H
#define VB_BASE_RESERVED_H

/*
 * The name of the marker file that says a directory is a vfsbench
 * instance's work directory (workdir/marker.h). Here, at the bottom,
 * because the loadfile parser (lang/) refuses it in a path too: a tree
 * with such a file in it is another instance's to the cleanup, which
 * leaves it.
 */
#define VB_MARKER_NAME ".vfsbench-workdir"

#endif /* VB_BASE_RESERVED_H */
