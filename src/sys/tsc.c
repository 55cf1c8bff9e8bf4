/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Whether the TSC is a clock to time ops with: the CPU's word (CPUID) and
 * the kernel's (its clocksource). The calibration is base/clock.c's.
 */
#include <config.h>
#include "sys/tsc.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#	include <cpuid.h>

static bool tsc_invariant(void)
{
	unsigned int a, b, c, d;

	if (!__get_cpuid(0x80000000, &a, &b, &c, &d) || a < 0x80000007)
		return false;
	if (!__get_cpuid(0x80000007, &a, &b, &c, &d))
		return false;
	return d & (1u << 8);
}
#	define TSC_ARCH 1
#else
static bool tsc_invariant(void)
{
	return false;
}
#	define TSC_ARCH 0
#endif

int tsc_usable(char *why, size_t len)
{
	char src[64] = "";
	FILE *f;

	if (!TSC_ARCH) {
		snprintf(why, len, "this CPU has no TSC (not x86)");
		return -ENOTSUP;
	}
	if (!tsc_invariant()) {
		snprintf(
			why, len,
			"the CPU's TSC is not invariant (CPUID 0x80000007 EDX bit 8 is clear)");
		return -ENOTSUP;
	}
	f = fopen(TSC_CLOCKSOURCE_FILE, "re");
	if (!f) {
		snprintf(why, len, "cannot read %s: %s", TSC_CLOCKSOURCE_FILE,
			 strerror(errno));
		return -ENOTSUP;
	}
	if (!fgets(src, sizeof(src), f))
		src[0] = '\0';
	fclose(f);
	src[strcspn(src, "\n")] = '\0';
	if (strcmp(src, "tsc")) {
		snprintf(why, len,
			 "the kernel's clocksource is %s, not tsc (%s)",
			 src[0] ? src : "unknown", TSC_CLOCKSOURCE_FILE);
		return -ENOTSUP;
	}
	return 0;
}
