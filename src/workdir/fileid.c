/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * struct fileid: a file's identity (device, inode, mount id) read with
 * statx(), or fstatat() where statx() is not available, and the two ways
 * of comparing identities.
 */
#include <config.h>
#include "workdir/fileid.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#ifndef STATX_MNT_ID
#	define STATX_MNT_ID 0x1000U
#endif

int fileid_at(int dirfd, const char *name, int flags, struct fileid *id)
{
	struct statx stx;
	struct stat st;

	if (!statx(dirfd, name, flags | AT_STATX_SYNC_AS_STAT,
		   STATX_TYPE | STATX_MODE | STATX_NLINK | STATX_INO |
			   STATX_MNT_ID,
		   &stx)) {
		id->dev = makedev(stx.stx_dev_major, stx.stx_dev_minor);
		id->ino = stx.stx_ino;
		id->mnt_id = stx.stx_mnt_id;
		id->has_mnt_id = !!(stx.stx_mask & STATX_MNT_ID);
		id->mode = stx.stx_mode;
		id->nlink = stx.stx_nlink;
		return 0;
	}
	if (errno != ENOSYS && errno != EPERM)
		return -errno;
	if (fstatat(dirfd, name, &st, flags))
		return -errno;
	id->dev = st.st_dev;
	id->ino = st.st_ino;
	id->mnt_id = 0;
	id->has_mnt_id = false;
	id->mode = st.st_mode;
	id->nlink = st.st_nlink;
	return 0;
}

int fileid_of_fd(int fd, struct fileid *id)
{
	return fileid_at(fd, "", AT_EMPTY_PATH, id);
}

bool fileid_same_mount(const struct fileid *a, const struct fileid *b)
{
	if (a->dev != b->dev)
		return false;
	return !a->has_mnt_id || !b->has_mnt_id || a->mnt_id == b->mnt_id;
}

bool fileid_same_file(const struct fileid *a, const struct fileid *b)
{
	return a->dev == b->dev && a->ino == b->ino;
}
