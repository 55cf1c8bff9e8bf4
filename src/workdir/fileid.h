/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_WORKDIR_FILEID_H
#define VB_WORKDIR_FILEID_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * struct fileid: where a file lives (device, inode and, if the kernel
 * reports one, mount id), with the mode and link count seen by the same
 * statx(). It tells whether a directory is still the one we opened and
 * whether a walk is about to leave the mount it started on.
 *
 * A fileid is a plain value: it holds no resources and may be copied.
 */
struct fileid {
	dev_t dev;
	ino_t ino;
	uint64_t mnt_id; /* valid only if has_mnt_id */
	bool has_mnt_id; /* false on kernels before 5.8 and after fstatat() */
	mode_t mode;
	nlink_t nlink;
};

/*
 * Fill `id` for `name` in `dirfd`, as statx(dirfd, name, flags) would see
 * it; `flags` are AT_* flags such as AT_SYMLINK_NOFOLLOW or AT_EMPTY_PATH.
 * Falls back to fstatat() (no mount id) where statx() is missing or
 * forbidden. Returns 0 or a negative errno, without a message; `id` is
 * undefined on error.
 */
int fileid_at(int dirfd, const char *name, int flags, struct fileid *id);

/* fileid_at() of the open file `fd` itself. */
int fileid_of_fd(int fd, struct fileid *id);

/*
 * Whether `a` and `b` are on the same mount: the same device and, when
 * both have one, the same mount id (which tells a bind mount of the same
 * filesystem apart).
 */
bool fileid_same_mount(const struct fileid *a, const struct fileid *b);

/* Whether `a` and `b` are the same file: the same device and inode. */
bool fileid_same_file(const struct fileid *a, const struct fileid *b);

#endif /* VB_WORKDIR_FILEID_H */
