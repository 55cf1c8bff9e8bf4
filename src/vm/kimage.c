/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A kernel image's release, from its bzImage setup header: the offsets
 * are those of the x86 boot protocol (boot.rst), stable since 2.00.
 */
#include <config.h>
#include "vm/kimage.h"

#include <errno.h>
#include <fcntl.h>
#include <nettle/sha2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/msg.h"

#define SETUP_BOOT_FLAG	     0x1fe /* 0xaa55 */
#define SETUP_HEADER	     0x202 /* "HdrS" */
#define SETUP_VERSION	     0x206 /* the protocol, u16 */
#define SETUP_KERNEL_VERSION 0x20e /* u16: the string's offset - 0x200 */
/* setup_sects is at most 127 (boot.rst): the string is in the first
 * 64 KiB */
#define SETUP_MAX (128 * 512)

static unsigned int le16(const unsigned char *p)
{
	return (unsigned int)p[0] | (unsigned int)p[1] << 8;
}

static int not_bzimage(const char *path, const char *why)
{
	error("'%s' is not a bzImage (%s): vfsbench kernels boots x86 kernel images, as arch/x86/boot/bzImage or /boot/vmlinuz-*",
	      path, why);
	return -ENOEXEC;
}

/* The header in @buf[0..@len). */
static int parse(struct kimage *k, const char *path, const unsigned char *buf,
		 size_t len)
{
	unsigned int off;
	size_t n;

	if (len < SETUP_KERNEL_VERSION + 2)
		return not_bzimage(path, "too short");
	if (le16(buf + SETUP_BOOT_FLAG) != 0xaa55)
		return not_bzimage(path, "no boot sector signature");
	if (memcmp(buf + SETUP_HEADER, "HdrS", 4))
		return not_bzimage(path, "no HdrS setup header");
	k->protocol = le16(buf + SETUP_VERSION);
	if (k->protocol < 0x200)
		return not_bzimage(path, "boot protocol before 2.00");
	off = le16(buf + SETUP_KERNEL_VERSION);
	if (!off || off + 0x200 >= len)
		return not_bzimage(path, "no kernel version string");
	off += 0x200;
	n = strnlen((const char *)buf + off, len - off);
	if (!n || n >= sizeof(k->version) || off + n >= len)
		return not_bzimage(path, "no kernel version string");
	memcpy(k->version, buf + off, n);
	n = strcspn(k->version, " ");
	if (!n || n >= sizeof(k->release))
		return not_bzimage(path, "no release in the version string");
	memcpy(k->release, k->version, n);
	/* a release names a directory: no '/' and nothing unprintable */
	for (size_t i = 0; i < n; i++)
		if (k->release[i] == '/' ||
		    (unsigned char)k->release[i] <= ' ' ||
		    (unsigned char)k->release[i] >= 0x7f)
			return not_bzimage(path, "a release that is no name");
	return 0;
}

int kimage_read(struct kimage *k, const char *path)
{
	unsigned char *buf;
	ssize_t len;
	int fd, err;

	memset(k, 0, sizeof(*k));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		error("cannot open kernel image '%s': %s", path,
		      strerror(-err));
		return err;
	}
	buf = xmalloc(SETUP_MAX);
	len = pread(fd, buf, SETUP_MAX, 0);
	err = len < 0 ? -errno : 0;
	close(fd);
	if (err)
		error("cannot read kernel image '%s': %s", path,
		      strerror(-err));
	else
		err = parse(k, path, buf, (size_t)len);
	free(buf);
	return err;
}

/* The sha256 of @path's bytes in hex; -errno when it cannot be read. */
static int hash_file(const char *path, char *hex)
{
	uint8_t digest[SHA256_DIGEST_SIZE], buf[65536];
	struct sha256_ctx ctx;
	ssize_t r;
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return -errno;
	sha256_init(&ctx);
	while ((r = read(fd, buf, sizeof(buf))) > 0)
		sha256_update(&ctx, (size_t)r, buf);
	if (r < 0)
		err = -errno;
	close(fd);
	sha256_digest(&ctx, sizeof(digest), digest);
	for (unsigned int i = 0; i < sizeof(digest); i++)
		snprintf(hex + 2 * i, 3, "%02x", digest[i]);
	return err;
}

int kimage_config(const struct kimage *k, const char *image, const char *given,
		  char **path, char *hex)
{
	const char *tail = "arch/x86/boot/bzImage";
	size_t len = strlen(image), tl = strlen(tail);
	char *dir = xstrdup(image), *slash, *cand[2] = { NULL, NULL };
	struct stat st;
	int err = 0;

	*path = NULL;
	hex[0] = '\0';
	if (given) {
		err = hash_file(given, hex);
		if (err)
			error("cannot read the kernel config '%s': %s", given,
			      strerror(-err));
		else
			*path = xstrdup(given);
		free(dir);
		return err;
	}
	slash = strrchr(dir, '/');
	if (slash)
		slash[1] = '\0';
	else
		dir[0] = '\0';
	cand[0] = xmalloc(strlen(dir) + strlen(k->release) + 8);
	sprintf(cand[0], "%sconfig-%s", dir, k->release);
	if (len >= tl && !strcmp(image + len - tl, tail)) {
		cand[1] = xmalloc(len - tl + 8);
		sprintf(cand[1], "%.*s.config", (int)(len - tl), image);
	}
	for (unsigned int i = 0; i < 2 && !*path; i++)
		if (cand[i] && !stat(cand[i], &st) && S_ISREG(st.st_mode) &&
		    !hash_file(cand[i], hex))
			*path = xstrdup(cand[i]);
	if (!*path)
		hex[0] = '\0';
	free(cand[0]);
	free(cand[1]);
	free(dir);
	return 0;
}
