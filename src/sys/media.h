/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_SYS_MEDIA_H
#define VB_SYS_MEDIA_H

/*
 * FxMark's media name for the filesystem of a work directory (the first
 * field of its log's "## media:fs:bench:ncore:iotype" lines, which LKP's
 * fxmark parser requires to be one of these): "mem" for tmpfs and ramfs,
 * as FxMark runs its mem media on tmpfs; else the kind of the block
 * device that the mount's @fs_source names: "nvme" for an NVMe
 * namespace, "hdd" where its queue says it rotates, "ssd" where it says
 * not. NULL when there is no such device (a network or overlay
 * filesystem) or its queue cannot be read.
 */
const char *media_of(const char *fs_type, const char *fs_source);

#endif /* VB_SYS_MEDIA_H */
