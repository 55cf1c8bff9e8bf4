/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_SYS_TSC_H
#define VB_SYS_TSC_H

#include <stddef.h>

/* Where the kernel says which clocksource CLOCK_MONOTONIC reads. */
#define TSC_CLOCKSOURCE_FILE \
	"/sys/devices/system/clocksource/clocksource0/current_clocksource"

/*
 * May vfsbench time ops with the TSC? Only when the CPU says its TSC is
 * invariant (CPUID 0x80000007, EDX bit 8: constant rate in every P-, C-
 * and T-state) and the kernel's clocksource is "tsc" (the kernel checked
 * at boot that the TSCs of all CPUs agree, and keeps checking: it leaves
 * tsc for another clocksource when they stop agreeing). Returns 0, or
 * -ENOTSUP with the reason, one phrase such as "the kernel's clocksource
 * is kvm-clock, not tsc", in @why (@len bytes).
 */
int tsc_usable(char *why, size_t len);

#endif /* VB_SYS_TSC_H */
