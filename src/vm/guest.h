/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_VM_GUEST_H
#define VB_VM_GUEST_H

#include <signal.h>
#include <stdbool.h>

/* A file system the guest's run can target (--fs). */
struct guest_fs {
	const char *name; /* "tmpfs", "ext4", "xfs", "btrfs" */
	/* how the host makes it on the image, NULL for tmpfs: the program,
	 * its options before the image, and the Debian package it is in */
	const char *mkfs;
	const char *mkfs_opts[3];
	const char *package;
	const char *module; /* the guest needs it loaded, NULL: none */
};

/* The --fs NAME, or NULL. */
const struct guest_fs *guest_fs_find(const char *name);
/* "tmpfs, ext4, xfs or btrfs", for messages. */
extern const char guest_fs_names[];

/*
 * struct guest_config: how vfsbench kernels boots a kernel in QEMU, the
 * same for every boot of it. The guest gets no network, no display and
 * nothing of the host's to write: its initramfs is a file QEMU reads, its
 * disk (--fs other than tmpfs) a fresh image made for the boot, and what
 * it says goes to two files QEMU writes: the serial console's log and
 * the result port's (guestproto.h).
 */
struct guest_config {
	const char *qemu; /* "qemu-system-x86_64" */
	const char *kernel; /* the image */
	const char *initramfs; /* ours (initramfs.h) */
	const char *append; /* the user's command line, or NULL */
	const struct guest_fs *fs;
	unsigned long long disk_mib; /* the image's size */
	unsigned int cpus, memory_mib;
	bool kvm; /* KVM, else TCG */
	/* QEMU's start to the guest's GUEST_MARK_RUN, and from there to
	 * its power-off */
	unsigned int boot_timeout_s, run_timeout_s;
};

/* The kernel command line before the user's --append. */
#define GUEST_APPEND_BASE "console=ttyS0 panic=-1 quiet"

/* What one boot gave. */
struct guest_outcome {
	int status; /* vfsbench's exit status in the guest */
	double uptime; /* the kernel's uptime when /init began, s */
	double seconds; /* QEMU's start to its end, wall clock */
	char *release, *cmdline; /* uname -r, /proc/cmdline */
	char *json; /* the path of its --json result, in the boot's dir */
	/* the serial log's path, whole, and its end (for messages) */
	char *serial;
};

/*
 * Boot @gc's kernel once. Its files are "@tag.*" in the directory @dir
 * (vfsbench's own, @dirfd open on it): the disk image, the serial log,
 * the result port's file, QEMU's own output and the result JSON.
 * Returns 0 when the guest ran vfsbench and reported what came of it
 * (whatever its status); -ETIMEDOUT when it did not boot or did not end
 * in time, -EIO when QEMU failed or the guest stopped without a result,
 * each with a message that quotes the serial log's end; -EINTR without
 * one when *@stop grew (QEMU killed); another -errno with a message.
 * @out needs guest_outcome_release() either way.
 */
int guest_boot(const struct guest_config *gc, int dirfd, const char *dir,
	       const char *tag, struct guest_outcome *out,
	       const volatile sig_atomic_t *stop);
void guest_outcome_release(struct guest_outcome *out);

/* The last 20 lines of @out's serial log on stderr, after a message. */
void guest_quote_serial(const struct guest_outcome *out);

/* Whether /dev/kvm can run a guest here (open, API version 12). */
bool guest_kvm_usable(void);

#endif /* VB_VM_GUEST_H */
