/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_CLI_KERNELGUEST_H
#define VB_CLI_KERNELGUEST_H

#include <stdbool.h>

/*
 * What the guests of vfsbench kernels will run, checked here first as
 * vfsbench would check it: a bad option or loadfile fails before the
 * first boot, not after it.
 */
struct guest_plan {
	char **files; /* host loadfiles to carry into the guest, as named */
	unsigned int nfiles;
	/* how long the run should take in a guest: -t, warmup, --runs,
	 * the counts and the variants; 0 with --loops (unknown) */
	unsigned long long seconds;
};

/*
 * Check vfsbench's arguments @argv (@argc, no argv[0]) for a run in a
 * guest. Refused, with a message (exit 2): what the main parser refuses;
 * a bad loadfile; what vfsbench kernels does itself or a guest cannot do
 * (-D, --json, --csv, --ministat, --profile, --perf-ctl, --read-outside,
 * --links-out, a loadfile that is a pipe or device, --help and the
 * listings). Returns 0 with @gp filled, or -EINVAL.
 */
int kernels_guest_check(struct guest_plan *gp, char *const *argv,
			unsigned int argc);
void guest_plan_release(struct guest_plan *gp);

#endif /* VB_CLI_KERNELGUEST_H */
