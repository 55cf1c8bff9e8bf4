/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_SYS_TSC_H
#define VB_SYS_TSC_H

#include <stdbool.h>
#include <stddef.h>

/* Where the kernel says which clocksource CLOCK_MONOTONIC reads. */
#define TSC_CLOCKSOURCE_FILE \
	"/sys/devices/system/clocksource/clocksource0/current_clocksource"
/* Where it says what it found the CPU's TSC to be (its "flags" line). */
#define TSC_CPUINFO_FILE "/proc/cpuinfo"

/*
 * May vfsbench time ops with the TSC? Only when the CPU says its TSC is
 * invariant (CPUID 0x80000007, EDX bit 8: constant rate in every P-, C-
 * and T-state) and either
 *  - the kernel's clocksource is "tsc" (the kernel checked at boot that
 *    the TSCs of all CPUs agree, and keeps checking: it leaves tsc for
 *    another clocksource when they stop agreeing), or
 *  - it is "kvm-clock" (a KVM guest, whose kernel keeps kvm-clock even
 *    over a good TSC) and the kernel flags the TSC constant_tsc,
 *    nonstop_tsc and tsc_reliable in /proc/cpuinfo (tsc_reliable: the
 *    hypervisor vouches that it is synchronized across vCPUs and stable,
 *    so the kernel does not watch it).
 * A TSC chosen under kvm-clock is still checked against CLOCK_MONOTONIC
 * at the end of every run (base/clock.h, clock_tsc_check()). Returns 0,
 * or -ENOTSUP with the reason, one phrase such as "the kernel's
 * clocksource is hpet, not tsc or kvm-clock", in @why (@len bytes).
 */
int tsc_usable(char *why, size_t len);

/*
 * tsc_usable() with what it reads given: @invariant (the CPUID bit), the
 * files of the clocksource and of /proc/cpuinfo's format (for tests).
 */
int tsc_usable_at(bool invariant, const char *clocksource_file,
		  const char *cpuinfo_file, char *why, size_t len);

/*
 * The decision itself: @clocksource as the kernel names it, @flags the
 * value of a cpuinfo "flags" line (NULL as ""). 0 or -ENOTSUP and @why.
 */
int tsc_judge(bool invariant, const char *clocksource, const char *flags,
	      char *why, size_t len);

#endif /* VB_SYS_TSC_H */
