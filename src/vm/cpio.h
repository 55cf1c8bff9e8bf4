/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_VM_CPIO_H
#define VB_VM_CPIO_H

#include <stddef.h>
#include <stdint.h>

/*
 * struct cpio: an initramfs written as the kernel unpacks it: the "newc"
 * cpio format (Documentation/driver-api/early-userspace/
 * buffer-format.rst), uncompressed, every entry owned by root with mtime
 * 0. Names are relative ("bin/busybox"); a directory must come before
 * what is in it. Each function returns 0 or the first -errno of the
 * writes to the fd (the later calls then do nothing), without a message.
 */
struct cpio {
	int fd;
	uint64_t off; /* bytes written */
	unsigned int ino;
	int err;
};

void cpio_init(struct cpio *c, int fd);
int cpio_dir(struct cpio *c, const char *name, unsigned int mode);
int cpio_data(struct cpio *c, const char *name, unsigned int mode,
	      const void *data, size_t len);
/* The @len bytes of @srcfd from its offset 0. */
int cpio_copy(struct cpio *c, const char *name, unsigned int mode, int srcfd,
	      uint64_t len);
int cpio_symlink(struct cpio *c, const char *name, const char *target);
/* The trailer: the archive's end. */
int cpio_finish(struct cpio *c);

#endif /* VB_VM_CPIO_H */
