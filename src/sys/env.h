/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_SYS_ENV_H
#define VB_SYS_ENV_H

#include <stddef.h>

#include "sys/cgroup.h"

/* One file of /sys/devices/system/cpu/vulnerabilities: its name, state. */
struct env_vuln {
	char *name, *state;
};

/*
 * struct env: the environment a result was measured in, recorded with it
 * so that two results can be told apart: kernel, machine, CPU, the target
 * filesystem and its mount options, libc, ASLR, and what moves results
 * from run to run (the 2009 VFS-scaling thread's lesson): the kernel
 * command line, the scheduler's features, CPU frequency governor and
 * boost, SMT, NUMA nodes, CPU vulnerabilities and their mitigations,
 * transparent huge pages, the load average when vfsbench started, the
 * cgroup's CPU limits and the process's affinity mask. Collected when
 * vfsbench starts. Fields that cannot be read are NULL (or -1).
 */
struct env {
	char *sysname, *release, *version, *machine; /* uname(2) */
	char *hostname;
	/* /proc/sys/kernel/random/boot_id: which boot, for compare's unit */
	char *boot_id;
	char *cpu_model; /* /proc/cpuinfo "model name" */
	long cpus_online;
	char *clocksource; /* the kernel's current clocksource */
	char *libc; /* gnu_get_libc_version() */
	int aslr; /* /proc/sys/kernel/randomize_va_space, -1 if unknown */
	char *governor; /* cpufreq governor of cpu0, NULL if none */
	char *cpufreq_driver; /* of cpu0 */
	int boost; /* cpufreq boost (turbo): 1 on, 0 off, -1 unknown */
	/* the filesystem holding the -D directory, from mountinfo */
	char *fs_type, *fs_source, *mount_point, *mount_options, *super_options;
	char *cmdline; /* /proc/cmdline */
	/* debugfs sched/features; when NULL, why in sched_features_why */
	char *sched_features, *sched_features_why;
	char *smt_control; /* /sys/devices/system/cpu/smt/control */
	int smt_active; /* its "active": 1, 0, -1 unknown */
	char *numa_nodes; /* /sys/devices/system/node/online, "0-1" */
	struct env_vuln *vulns; /* [nvulns], by name */
	unsigned int nvulns;
	char *thp_enabled, *thp_defrag; /* the [chosen] value of each */
	double loadavg[3]; /* /proc/loadavg; -1 if unreadable */
	struct cgroup_cpu cgroup;
	char *affinity; /* the process's affinity mask, "0-3" */
	unsigned int cpus_allowed; /* the CPUs in it */
};

typedef struct json_t json_t;

/* Collect everything, for the directory @dir. Never fails. */
void env_collect(struct env *e, const char *dir);
void env_release(struct env *e);
/* The "environment" object of the result files (doc/json-schema.md). */
json_t *env_json(const struct env *e);

/*
 * The cpu vulnerabilities whose state starts with "Vulnerable": how
 * many, and their names, comma-separated, into @names (truncated).
 */
unsigned int env_vulnerable(const struct env *e, char *names, size_t len);

#endif /* VB_SYS_ENV_H */
