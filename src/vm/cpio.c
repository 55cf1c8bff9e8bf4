/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The newc cpio writer of the guest's initramfs: a 110-byte header of
 * hex fields, the name, the data, each padded to 4 bytes. Written here
 * rather than by cpio(1) so that nothing of the host's tree is archived
 * by path: every entry's bytes come from an fd vfsbench opened itself.
 */
#include <config.h>
#include "vm/cpio.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CPIO_HEADER 110

void cpio_init(struct cpio *c, int fd)
{
	c->fd = fd;
	c->off = 0;
	c->ino = 1;
	c->err = 0;
}

static int put(struct cpio *c, const void *p, size_t len)
{
	const char *b = p;

	while (!c->err && len) {
		ssize_t w = write(c->fd, b, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			c->err = w < 0 ? -errno : -EIO;
			break;
		}
		b += w;
		len -= (size_t)w;
		c->off += (uint64_t)w;
	}
	return c->err;
}

/* Zeros up to the next multiple of 4. */
static int pad(struct cpio *c)
{
	static const char zero[4];

	return put(c, zero, (4 - c->off % 4) % 4);
}

static int header(struct cpio *c, const char *name, unsigned int mode,
		  uint64_t size)
{
	char h[CPIO_HEADER + 1];
	size_t nlen = strlen(name) + 1;

	/* newc's sizes are 32-bit */
	if (size > 0xffffffffu && !c->err)
		c->err = -EFBIG;
	if (c->err)
		return c->err;
	/* magic, ino, mode, uid, gid, nlink, mtime, filesize, devmajor,
	 * devminor, rdevmajor, rdevminor, namesize, check */
	snprintf(h, sizeof(h),
		 "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
		 c->ino++, mode, 0u, 0u, S_ISDIR(mode) ? 2u : 1u, 0u,
		 (unsigned int)size, 0u, 0u, 0u, 0u, (unsigned int)nlen, 0u);
	put(c, h, CPIO_HEADER);
	put(c, name, nlen);
	return pad(c);
}

int cpio_dir(struct cpio *c, const char *name, unsigned int mode)
{
	return header(c, name, S_IFDIR | (mode & 07777), 0);
}

int cpio_data(struct cpio *c, const char *name, unsigned int mode,
	      const void *data, size_t len)
{
	header(c, name, S_IFREG | (mode & 07777), len);
	put(c, data, len);
	return pad(c);
}

int cpio_copy(struct cpio *c, const char *name, unsigned int mode, int srcfd,
	      uint64_t len)
{
	char buf[65536];
	uint64_t done = 0;

	header(c, name, S_IFREG | (mode & 07777), len);
	while (!c->err && done < len) {
		size_t want = len - done < sizeof(buf) ? (size_t)(len - done) :
							 sizeof(buf);
		ssize_t r = pread(srcfd, buf, want, (off_t)done);

		if (r < 0 && errno == EINTR)
			continue;
		/* a file that shrank: the header said more */
		if (r <= 0) {
			c->err = r < 0 ? -errno : -EIO;
			break;
		}
		put(c, buf, (size_t)r);
		done += (uint64_t)r;
	}
	return pad(c);
}

int cpio_symlink(struct cpio *c, const char *name, const char *target)
{
	size_t len = strlen(target);

	header(c, name, S_IFLNK | 0777, len);
	put(c, target, len);
	return pad(c);
}

int cpio_finish(struct cpio *c)
{
	return header(c, "TRAILER!!!", 0, 0);
}
