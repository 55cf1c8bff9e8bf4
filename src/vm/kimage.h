/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_VM_KIMAGE_H
#define VB_VM_KIMAGE_H

/*
 * struct kimage: what vfsbench kernels reads of a kernel image before
 * it boots it: an x86 bzImage's setup header (Documentation/arch/x86/
 * boot.rst) and the version string it points to, whose first word is
 * the release ("6.1.0-57-amd64"), the name of its modules' directory.
 */

#define KIMAGE_RELEASE_MAX 65 /* struct utsname's release, with the NUL */
#define KIMAGE_VERSION_MAX 256

struct kimage {
	char release[KIMAGE_RELEASE_MAX];
	/* the whole string: "6.1.0-57-amd64 (debian-kernel@...) #1 SMP ..." */
	char version[KIMAGE_VERSION_MAX];
	unsigned int protocol; /* the boot protocol, 0x20f for 2.15 */
};

/*
 * Read @path's setup header. Returns 0, -ENOEXEC with a message naming
 * what is missing when @path is not a bzImage (no boot sector signature,
 * no "HdrS", a protocol before 2.00 or no version string), or -errno
 * with a message when it cannot be read.
 */
int kimage_read(struct kimage *k, const char *path);

/*
 * The kernel's configuration, for the result: @given (--config) or, when
 * NULL, the first that exists of config-RELEASE beside @image (Debian's
 * /boot) and the tree's .config above arch/x86/boot/bzImage. Its path
 * into *@path (allocated, NULL when none) and its sha256 in hex into
 * @hex[65]. Returns 0 (also when none is found), or -errno with a
 * message when @given cannot be read.
 */
int kimage_config(const struct kimage *k, const char *image, const char *given,
		  char **path, char *hex);

#endif /* VB_VM_KIMAGE_H */
