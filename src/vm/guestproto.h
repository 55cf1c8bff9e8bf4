/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_VM_GUESTPROTO_H
#define VB_VM_GUESTPROTO_H

/*
 * What the guest's /init (initramfs.c) and the host (guest.c) agree on.
 * The guest writes its outcome to the virtio serial port named
 * GUEST_PORT, which QEMU writes into a file of the host's:
 *
 *   vfsbench-guest 1
 *   status N           vfsbench's exit status in the guest
 *   uptime S           the kernel's uptime when /init began: the boot
 *   release R          uname -r
 *   cmdline ...        /proc/cmdline
 *   json LEN           then LEN bytes: the --json result, and a newline
 *   vfsbench-guest end
 *
 * and on the console (the serial log) GUEST_MARK_INIT when /init
 * begins, GUEST_MARK_RUN when vfsbench starts, and "vfsbench-guest:
 * error: ..." when it cannot get that far.
 */
#define GUEST_PORT	 "org.vfsbench.result"
#define GUEST_MAGIC	 "vfsbench-guest 1\n"
#define GUEST_END	 "vfsbench-guest end\n"
#define GUEST_MARK_INIT	 "vfsbench-guest: init"
#define GUEST_MARK_RUN	 "vfsbench-guest: run"
#define GUEST_MARK_ERROR "vfsbench-guest: error: "
/* Where the guest's vfsbench works and writes its result. */
#define GUEST_TARGET "/mnt"
#define GUEST_JSON   "/vfsbench/result.json"

#endif /* VB_VM_GUESTPROTO_H */
