/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_VM_INITRAMFS_H
#define VB_VM_INITRAMFS_H

struct modset;

/*
 * The guest's initramfs: busybox (static, from busybox-static), this very
 * vfsbench binary with the shared objects it has loaded and its program
 * interpreter, the kernel modules the guest needs, the loadfiles the
 * run names (at the paths it names them by), and /init, a busybox sh
 * script that mounts /proc, /sys and /dev, loads the modules, mounts
 * the target file system on /mnt, runs vfsbench there with the user's
 * arguments, writes what came of it to the result port (guest.h) and
 * powers off. Nothing in it is a link to the host: every file is a copy
 * read through an fd.
 */
struct initramfs_spec {
	const char *busybox; /* the host's static busybox */
	const struct modset *mods; /* may be NULL: nothing to load */
	const char *initrd; /* an archive to put first, or NULL */
	/* vfsbench's arguments in the guest, after -D and --json */
	const char *const *argv;
	unsigned int argc;
	const char *cwd; /* the host's, which the guest's is made */
	/* host files to carry (loadfiles), by the names argv gives them */
	const char *const *files;
	unsigned int nfiles;
	const char *fs; /* "tmpfs", or the file system on /dev/vda */
};

/*
 * Write the archive to @fd (a new file). Returns 0, or -errno with a
 * message naming what could not be read or written.
 */
int initramfs_write(const struct initramfs_spec *s, int fd);

/*
 * The path @name has in the guest, as the guest's kernel resolves it
 * from the directory @cwd: made absolute and "." and ".." resolved
 * lexically (the guest's tree has no symbolic links). Into @buf;
 * -ENAMETOOLONG, or 0.
 */
int initramfs_guest_path(const char *cwd, const char *name, char *buf,
			 unsigned long len);

#endif /* VB_VM_INITRAMFS_H */
