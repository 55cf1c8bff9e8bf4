/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vfsbench kernels' command line: the kernels, each with the options
 * that follow it, the settings of every boot, and after "--" the
 * arguments of vfsbench in the guest.
 */
#include <config.h>
#include "cli/kernels.h"

#include <popt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/units.h"
#include "cli/help.h"

enum {
	OPT_K_KERNEL = 1,
	OPT_K_LABEL,
	OPT_K_INITRD,
	OPT_K_MODULES,
	OPT_K_APPEND,
	OPT_K_CONFIG,
	OPT_K_BOOTS,
	OPT_K_FS,
	OPT_K_DISK,
	OPT_K_CPUS,
	OPT_K_MEMORY,
	OPT_K_ACCEL,
	OPT_K_BOOT_TIMEOUT,
	OPT_K_RUN_TIMEOUT,
	OPT_K_DIR,
	OPT_K_JSON,
	OPT_K_QEMU,
	OPT_K_BUSYBOX,
	OPT_K_QUIET,
	OPT_K_HELP,
};

static const struct poptOption kernels_table[] = {
	{ "kernel", 'k', POPT_ARG_STRING, NULL, OPT_K_KERNEL,
	  "a kernel to boot: an x86 bzImage (arch/x86/boot/bzImage, /boot/vmlinuz-*); give two or more, each followed by its own --label, --initrd, --modules, --append, --config",
	  "IMAGE" },
	{ "label", 'l', POPT_ARG_STRING, NULL, OPT_K_LABEL,
	  "the kernel's name in tables and the result (default: its release)",
	  "NAME" },
	{ "initrd", '\0', POPT_ARG_STRING, NULL, OPT_K_INITRD,
	  "an archive the kernel unpacks before vfsbench's own initramfs",
	  "FILE" },
	{ "modules", '\0', POPT_ARG_STRING, NULL, OPT_K_MODULES,
	  "the kernel's modules (lib/modules/RELEASE; default: beside the image, then /lib/modules/RELEASE, else none: all built in)",
	  "DIR" },
	{ "append", '\0', POPT_ARG_STRING, NULL, OPT_K_APPEND,
	  "the kernel's command line, after vfsbench's console=ttyS0 panic=-1 quiet",
	  "ARGS" },
	{ "config", '\0', POPT_ARG_STRING, NULL, OPT_K_CONFIG,
	  "the kernel's .config, whose sha256 the result records (default: config-RELEASE beside the image, or the tree's .config)",
	  "FILE" },
	{ "boots", 'b', POPT_ARG_STRING, NULL, OPT_K_BOOTS,
	  "boots of each kernel, alternated A B A B ... (default: 3)", "N" },
	{ "fs", '\0', POPT_ARG_STRING, NULL, OPT_K_FS,
	  "the guest's -D: tmpfs, or a fresh ext4, xfs or btrfs image made by the host's mkfs for every boot (default: tmpfs)",
	  "tmpfs|ext4|xfs|btrfs" },
	{ "disk-size", '\0', POPT_ARG_STRING, NULL, OPT_K_DISK,
	  "the image's size (default: 1G)", "SIZE" },
	{ "cpus", '\0', POPT_ARG_STRING, NULL, OPT_K_CPUS,
	  "the guest's CPUs (default: the CPUs vfsbench may use)", "N" },
	{ "memory", '\0', POPT_ARG_STRING, NULL, OPT_K_MEMORY,
	  "the guest's memory (default: 1G)", "SIZE" },
	{ "accel", '\0', POPT_ARG_STRING, NULL, OPT_K_ACCEL,
	  "kvm, tcg, or auto: KVM where /dev/kvm works, else TCG (default: auto)",
	  "auto|kvm|tcg" },
	{ "boot-timeout", '\0', POPT_ARG_STRING, NULL, OPT_K_BOOT_TIMEOUT,
	  "a boot that has not started vfsbench by then fails (default: 120s with KVM, 600s with TCG)",
	  "TIME" },
	{ "run-timeout", '\0', POPT_ARG_STRING, NULL, OPT_K_RUN_TIMEOUT,
	  "a guest's run that has not ended by then fails (default: twice what -t, --runs and the counts ask, plus 300s; 1h with --loops)",
	  "TIME" },
	{ "directory", 'D', POPT_ARG_STRING, NULL, OPT_K_DIR,
	  "where the boots' files go: initramfs, disk images, serial logs (default: $TMPDIR, else /tmp)",
	  "DIR" },
	{ "json", '\0', POPT_ARG_STRING, NULL, OPT_K_JSON,
	  "every boot, its kernel and its result in one file, for vfsbench compare",
	  "FILE" },
	{ "qemu", '\0', POPT_ARG_STRING, NULL, OPT_K_QEMU,
	  "the QEMU program (default: qemu-system-x86_64)", "PROGRAM" },
	{ "busybox", '\0', POPT_ARG_STRING, NULL, OPT_K_BUSYBOX,
	  "the static busybox of the guest (default: /bin/busybox, from busybox-static)",
	  "FILE" },
	{ "quiet", 'q', POPT_ARG_NONE, NULL, OPT_K_QUIET, "no progress lines",
	  NULL },
	{ "help", 'h', POPT_ARG_NONE, NULL, OPT_K_HELP,
	  "show this help and exit", NULL },
	POPT_TABLEEND
};

static const char kernels_usage[] =
	"-k IMAGE [--label NAME ...] -k IMAGE [...] [OPTIONS] -- [vfsbench OPTIONS] CLIENTS...";

/* Seconds of a duration ("90", "2m", "1h"), at least 1. */
static int parse_seconds(const char *arg, unsigned int *s)
{
	uint64_t ns;

	if (units_parse_duration(arg, &ns) || ns < 1000000000ull ||
	    ns / 1000000000ull > 30 * 86400)
		return -1;
	*s = (unsigned int)(ns / 1000000000ull);
	return 0;
}

/* A size in MiB, from 16 MiB to 16 TiB. */
static int parse_mib(const char *arg, unsigned long long *mib)
{
	uint64_t b;

	if (units_parse_size(arg, &b) || b < (16ull << 20) || b > (16ull << 40))
		return -1;
	*mib = b >> 20;
	return 0;
}

/* The kernel a per-kernel option applies to: the last --kernel. */
static struct kernel_spec *current(struct kernels_config *kc, const char *opt)
{
	if (!kc->nkernels) {
		usage_error(
			"%s applies to the --kernel before it: give --kernel IMAGE first",
			opt);
		return NULL;
	}
	return &kc->kernels[kc->nkernels - 1];
}

/* Set *@field of the current kernel once. */
static enum options_action kernel_field(struct kernels_config *kc,
					const char *opt, size_t off,
					const char *arg)
{
	struct kernel_spec *k = current(kc, opt);
	char **field;

	if (!k)
		return OPTIONS_USAGE;
	field = (char **)((char *)k + off);
	if (*field)
		return usage_error("%s given twice for the kernel '%s'", opt,
				   k->image);
	*field = xstrdup(arg);
	return OPTIONS_RUN;
}

static enum options_action one(struct kernels_config *kc, int opt,
			       const char *arg)
{
	uint64_t v;

	switch (opt) {
	case OPT_K_KERNEL:
		kc->kernels = xrealloc(
			kc->kernels, (kc->nkernels + 1) * sizeof(*kc->kernels));
		memset(&kc->kernels[kc->nkernels], 0, sizeof(*kc->kernels));
		kc->kernels[kc->nkernels++].image = xstrdup(arg);
		return OPTIONS_RUN;
	case OPT_K_LABEL:
		if (!*arg)
			return usage_error("--label: an empty name");
		return kernel_field(kc, "--label",
				    offsetof(struct kernel_spec, label), arg);
	case OPT_K_INITRD:
		return kernel_field(kc, "--initrd",
				    offsetof(struct kernel_spec, initrd), arg);
	case OPT_K_MODULES:
		return kernel_field(kc, "--modules",
				    offsetof(struct kernel_spec, modules), arg);
	case OPT_K_APPEND:
		return kernel_field(kc, "--append",
				    offsetof(struct kernel_spec, append), arg);
	case OPT_K_CONFIG:
		return kernel_field(kc, "--config",
				    offsetof(struct kernel_spec, config), arg);
	case OPT_K_BOOTS:
		if (units_parse_uint(arg, 1000, &v) || !v)
			return usage_error(
				"bad --boots '%s': expected 1 to 1000", arg);
		kc->boots = (unsigned int)v;
		return OPTIONS_RUN;
	case OPT_K_FS:
		free(kc->fs);
		kc->fs = xstrdup(arg);
		return OPTIONS_RUN;
	case OPT_K_DISK:
		if (parse_mib(arg, &kc->disk_mib))
			return usage_error(
				"bad --disk-size '%s': expected a size from 16M to 16T, such as 1G",
				arg);
		return OPTIONS_RUN;
	case OPT_K_CPUS:
		if (units_parse_uint(arg, 1024, &v) || !v)
			return usage_error(
				"bad --cpus '%s': expected 1 to 1024", arg);
		kc->cpus = (unsigned int)v;
		return OPTIONS_RUN;
	case OPT_K_MEMORY: {
		unsigned long long mib;

		if (parse_mib(arg, &mib) || mib < 128 || mib > (1u << 24))
			return usage_error(
				"bad --memory '%s': expected a size from 128M to 16T, such as 1G",
				arg);
		kc->memory_mib = (unsigned int)mib;
		return OPTIONS_RUN;
	}
	case OPT_K_ACCEL:
		if (!strcmp(arg, "auto"))
			kc->accel = ACCEL_AUTO;
		else if (!strcmp(arg, "kvm"))
			kc->accel = ACCEL_KVM;
		else if (!strcmp(arg, "tcg"))
			kc->accel = ACCEL_TCG;
		else
			return usage_error(
				"bad --accel '%s': expected auto, kvm or tcg",
				arg);
		return OPTIONS_RUN;
	case OPT_K_BOOT_TIMEOUT:
	case OPT_K_RUN_TIMEOUT:
		if (parse_seconds(arg, opt == OPT_K_BOOT_TIMEOUT ?
					       &kc->boot_timeout_s :
					       &kc->run_timeout_s))
			return usage_error(
				"bad --%s '%s': expected a time from 1s to 30 days, such as 300s or 5m",
				opt == OPT_K_BOOT_TIMEOUT ? "boot-timeout" :
							    "run-timeout",
				arg);
		return OPTIONS_RUN;
	case OPT_K_DIR:
		free(kc->directory);
		kc->directory = xstrdup(arg);
		return OPTIONS_RUN;
	case OPT_K_JSON:
		free(kc->json);
		kc->json = xstrdup(arg);
		return OPTIONS_RUN;
	case OPT_K_QEMU:
		free(kc->qemu);
		kc->qemu = xstrdup(arg);
		return OPTIONS_RUN;
	case OPT_K_BUSYBOX:
		free(kc->busybox);
		kc->busybox = xstrdup(arg);
		return OPTIONS_RUN;
	case OPT_K_QUIET:
		kc->quiet = true;
		return OPTIONS_RUN;
	}
	return OPTIONS_USAGE;
}

/* Everything after the first "--": the guest's vfsbench arguments. */
static int split_guest(struct kernels_config *kc, int argc, const char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			kc->guest_argc = (unsigned int)(argc - i - 1);
			kc->guest_argv =
				xcalloc(kc->guest_argc + 1, sizeof(char *));
			for (int j = i + 1; j < argc; j++)
				kc->guest_argv[j - i - 1] = xstrdup(argv[j]);
			return i;
		}
	return argc;
}

static enum options_action check(struct kernels_config *kc)
{
	if (kc->nkernels < 2)
		return usage_error(
			"vfsbench kernels compares two kernels or more: give --kernel IMAGE for each (the same image twice, with --append, compares two command lines)");
	if (!kc->guest_argc)
		return usage_error(
			"no run for the guests: give vfsbench's arguments after '--', such as '-- -c stat1.load -t 5s 1 2'");
	for (unsigned int i = 0; i < kc->nkernels; i++)
		for (unsigned int j = 0; j < i; j++)
			if (kc->kernels[i].label && kc->kernels[j].label &&
			    !strcmp(kc->kernels[i].label, kc->kernels[j].label))
				return usage_error(
					"two kernels are labelled '%s': each --label names one",
					kc->kernels[i].label);
	return OPTIONS_RUN;
}

enum options_action kernels_options(struct kernels_config *kc, int argc,
				    const char **argv)
{
	static char name[] = "vfsbench kernels";
	enum options_action act = OPTIONS_RUN;
	const char **args, **rest;
	poptContext pc;
	int n, rc;

	memset(kc, 0, sizeof(*kc));
	kc->boots = 3;
	kc->disk_mib = 1024;
	usage_set_command(name);
	n = split_guest(kc, argc, argv);
	args = xcalloc((size_t)n + 1, sizeof(*args));
	memcpy(args, argv, (size_t)n * sizeof(*args));
	args[0] = name;
	pc = poptGetContext(name, n, args, kernels_table, 0);
	poptSetOtherOptionHelp(pc, kernels_usage);
	while (act == OPTIONS_RUN && (rc = poptGetNextOpt(pc)) > 0) {
		char *arg = poptGetOptArg(pc);

		if (rc == OPT_K_HELP) {
			help_print(stdout, name, kernels_usage, kernels_table,
				   NULL);
			act = OPTIONS_EXIT_OK;
		} else {
			act = one(kc, rc, arg);
		}
		free(arg);
	}
	if (act == OPTIONS_RUN && rc < -1)
		act = usage_error("%s: %s", poptBadOption(pc, 0),
				  poptStrerror(rc));
	rest = act == OPTIONS_RUN ? poptGetArgs(pc) : NULL;
	if (rest && rest[0])
		act = usage_error(
			"'%s': vfsbench's arguments in the guests go after '--'",
			rest[0]);
	poptFreeContext(pc);
	free(args);
	if (!kc->fs)
		kc->fs = xstrdup("tmpfs");
	return act == OPTIONS_RUN ? check(kc) : act;
}

void kernels_config_release(struct kernels_config *kc)
{
	for (unsigned int i = 0; i < kc->nkernels; i++) {
		struct kernel_spec *k = &kc->kernels[i];

		free(k->image);
		free(k->label);
		free(k->initrd);
		free(k->modules);
		free(k->append);
		free(k->config);
	}
	free(kc->kernels);
	for (unsigned int i = 0; i < kc->guest_argc; i++)
		free(kc->guest_argv[i]);
	free(kc->guest_argv);
	free(kc->fs);
	free(kc->directory);
	free(kc->json);
	free(kc->qemu);
	free(kc->busybox);
	memset(kc, 0, sizeof(*kc));
}
