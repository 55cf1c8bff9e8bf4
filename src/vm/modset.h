/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_VM_MODSET_H
#define VB_VM_MODSET_H

#include <signal.h>

/*
 * struct modset: the kernel modules a guest loads, in the order to load
 * them, with what they depend on (their depends= and softdep pre:
 * modules), as kmod resolves them. A kernel's modules directory need not
 * hold depmod's indexes (Debian's package, unpacked, has none; depmod
 * writes them when the package is installed), so it is staged in a
 * directory of vfsbench's own: its subdirectories as symbolic links
 * (read, never written), its modules.builtin* and modules.order copied,
 * then "depmod -b" there and "modprobe -d ... --show-depends". Nothing is
 * written into the modules directory.
 */
struct modset {
	char **paths; /* [n] the modules, as opened (through the stage) */
	char **names; /* [n] their file names, "virtio_blk.ko" */
	unsigned int n;
	unsigned int builtin; /* wanted ones that are built in */
};

/*
 * Resolve @want (@nwant module names) for the kernel @release whose
 * modules are in @moddir, staged in @stage (a path of vfsbench's own, an
 * empty directory). Returns 0, -ENOENT with a message naming what is
 * missing (a module that is neither there nor built in), -EINTR when
 * *@stop grew (a stop signal; no message), or another -errno with a
 * message (depmod or modprobe could not run or failed: their output's
 * tail in it).
 */
int modset_resolve(struct modset *m, const char *moddir, const char *release,
		   const char *stage, const char *const *want,
		   unsigned int nwant, const volatile sig_atomic_t *stop);
void modset_release(struct modset *m);

#endif /* VB_VM_MODSET_H */
