/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_CLI_KERNELS_H
#define VB_CLI_KERNELS_H

#include <stdbool.h>

#include "cli/usage.h"

/*
 * vfsbench kernels: each kernel booted in a throw-away QEMU guest, boots
 * alternated, the same vfsbench run in each, one result with every boot
 * (doc/kernels.md, vfsbench-kernels(1)).
 */

/* One --kernel and the options after it that are its own. */
struct kernel_spec {
	char *image;
	char *label; /* NULL: its release */
	char *initrd, *modules, *append, *config; /* NULL: none, or found */
};

enum kernels_accel {
	ACCEL_AUTO, /* KVM where /dev/kvm works, else TCG */
	ACCEL_KVM,
	ACCEL_TCG,
};

struct kernels_config {
	struct kernel_spec *kernels;
	unsigned int nkernels;
	unsigned int boots; /* per kernel */
	char *fs;
	unsigned long long disk_mib;
	unsigned int cpus, memory_mib; /* 0: the defaults */
	enum kernels_accel accel;
	unsigned int boot_timeout_s, run_timeout_s; /* 0: the defaults */
	char *directory; /* where the boots' files go */
	char *json;
	char *qemu, *busybox;
	bool quiet;
	/* vfsbench's arguments in each guest: those after "--" */
	char **guest_argv;
	unsigned int guest_argc;
};

/* Parse vfsbench kernels' command line (@argv[0] "kernels"). */
enum options_action kernels_options(struct kernels_config *kc, int argc,
				    const char **argv);
void kernels_config_release(struct kernels_config *kc);

/*
 * vfsbench kernels: the exit status (vfsbench-kernels(1)): 0, 2 for bad
 * usage or input (a kernel image that is no bzImage, bad guest
 * arguments), 3 when a boot or a guest's run failed, 128 + the signal.
 * @argc, @argv: the whole command line, for the result file.
 */
int kernels_main(int argc, const char **argv, bool quiet, int cmdc,
		 const char **cmdv);

#endif /* VB_CLI_KERNELS_H */
