/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Whether the TSC is a clock to time ops with: the CPU's word (CPUID and
 * the flags the kernel derived from it and from the hypervisor) and the
 * kernel's (its clocksource). The calibration is base/clock.c's.
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

/* The flags a TSC needs under kvm-clock, in the order they are named. */
static const char *const vm_flags[] = { "constant_tsc", "nonstop_tsc",
					"tsc_reliable" };

/* Is @word one of the space-separated words of @list? */
static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; (p = strstr(p, word)); p += n) {
		bool starts = p == list || p[-1] == ' ' || p[-1] == '\t';
		bool ends = p[n] == '\0' || p[n] == ' ' || p[n] == '\t' ||
			    p[n] == '\n';

		if (starts && ends)
			return true;
	}
	return false;
}

int tsc_judge(bool invariant, const char *clocksource, const char *flags,
	      char *why, size_t len)
{
	if (!invariant) {
		snprintf(
			why, len,
			"the CPU's TSC is not invariant (CPUID 0x80000007 EDX bit 8 is clear)");
		return -ENOTSUP;
	}
	if (!strcmp(clocksource, "tsc"))
		return 0;
	if (strcmp(clocksource, "kvm-clock")) {
		snprintf(
			why, len,
			"the kernel's clocksource is %s, not tsc or kvm-clock (%s)",
			clocksource[0] ? clocksource : "unknown",
			TSC_CLOCKSOURCE_FILE);
		return -ENOTSUP;
	}
	for (size_t i = 0; i < sizeof(vm_flags) / sizeof(vm_flags[0]); i++) {
		if (!flags || !has_word(flags, vm_flags[i])) {
			snprintf(
				why, len,
				"the kernel's clocksource is kvm-clock and the CPU does not flag its TSC %s (%s)",
				vm_flags[i], TSC_CPUINFO_FILE);
			return -ENOTSUP;
		}
	}
	return 0;
}

/* The first line of @path, without its newline, in @buf; "" if none. */
static int first_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");

	buf[0] = '\0';
	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/*
 * The first "flags" line of @path (/proc/cpuinfo's format), its value in
 * @buf; "" if none. Every CPU's line is the same in a VM's cpuinfo but
 * for bugs the kernel found late, which do not touch these flags.
 */
static int cpu_flags(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	char line[4096];

	buf[0] = '\0';
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, "flags", 5) || !colon ||
		    strspn(line + 5, " \t") != (size_t)(colon - line - 5))
			continue;
		snprintf(buf, len, "%s", colon + 1);
		break;
	}
	fclose(f);
	return 0;
}

int tsc_usable_at(bool invariant, const char *clocksource_file,
		  const char *cpuinfo_file, char *why, size_t len)
{
	char src[64], flags[4096];
	int ret;

	if (!TSC_ARCH) {
		snprintf(why, len, "this CPU has no TSC (not x86)");
		return -ENOTSUP;
	}
	ret = first_line(clocksource_file, src, sizeof(src));
	if (ret) {
		snprintf(why, len, "cannot read %s: %s", clocksource_file,
			 strerror(-ret));
		return -ENOTSUP;
	}
	/* the flags matter only under kvm-clock; unreadable is no flags */
	if (!strcmp(src, "kvm-clock"))
		cpu_flags(cpuinfo_file, flags, sizeof(flags));
	else
		flags[0] = '\0';
	return tsc_judge(invariant, src, flags, why, len);
}

int tsc_usable(char *why, size_t len)
{
	return tsc_usable_at(tsc_invariant(), TSC_CLOCKSOURCE_FILE,
			     TSC_CPUINFO_FILE, why, len);
}
