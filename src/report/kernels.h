/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_REPORT_KERNELS_H
#define VB_REPORT_KERNELS_H

#include <stdbool.h>

struct env;
struct resultfile;

/*
 * What vfsbench kernels did, as plain data for its report and its JSON
 * file ("vfsbench-kernels", doc/json-schema.md): the kernels, and each
 * boot with the guest's own result file.
 */
struct kernels_kernel {
	const char *label, *image, *release, *version;
	const char *append, *initrd, *modules; /* NULL: none */
	const char *config, *config_sha256; /* NULL: not found */
	const char *const *loaded; /* the modules it loads, in order */
	unsigned int nloaded;
};

struct kernels_boot {
	unsigned int kernel;
	const char *release, *cmdline; /* as the guest said */
	double uptime; /* the kernel's uptime when /init began, s */
	double seconds; /* QEMU's start to its end */
	int status; /* vfsbench's in the guest */
	const char *json; /* its --json result file */
};

struct kernels_record {
	const struct kernels_kernel *kernels;
	unsigned int nkernels;
	const struct kernels_boot *boots;
	unsigned int nboots;
	unsigned int boots_per_kernel;
	const char *fs;
	unsigned long long disk_mib;
	unsigned int cpus, memory_mib;
	const char *accel; /* "kvm" or "tcg" */
	const char *qemu;
	const char *const *guest_argv; /* vfsbench's arguments in a guest */
	unsigned int guest_argc;
	const char *const *argv; /* the whole command line */
	int argc;
	bool complete; /* every boot asked for */
	const struct env *host;
};

/*
 * One line on stdout for boot @b of @kr as it ends: which boot of which
 * kernel, its release, how long it took to boot, and each client
 * count's median ops/s of @rf (@n entries: its result's variants).
 */
void report_kernels_boot(const struct kernels_record *kr, unsigned int b,
			 const struct resultfile *rf, unsigned int n);

/* The "vfsbench-kernels" file at @path (workdir/outfile.h's rule): 0 or -1. */
int report_kernels_json(const struct kernels_record *kr, const char *path);

#endif /* VB_REPORT_KERNELS_H */
