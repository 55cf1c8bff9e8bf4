/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_SYS_CGROUP_H
#define VB_SYS_CGROUP_H

/*
 * struct cgroup_cpu: what the process's cgroup allows its CPUs, as read
 * when vfsbench starts: the CPU bandwidth limit (cgroup v2 cpu.max, v1
 * cpu.cfs_quota_us and cpu.cfs_period_us) of its cgroup and of every
 * ancestor (the tightest applies), and the cpuset's effective CPUs. A
 * container's --cpus=1.5 is a quota of 1.5 CPUs; its --cpuset-cpus
 * narrows the affinity mask itself. Strings are NULL where unreadable.
 */
struct cgroup_cpu {
	int version; /* 1 or 2, 0 when no cpu controller was found */
	char *path; /* the cgroup of the cpu controller, "/" at the root */
	char *cpu_max; /* its own limit: "max 100000", "150000 100000" */
	double quota; /* the tightest limit on the path, in CPUs; 0: none */
	char *cpuset; /* its cpuset's effective CPUs, "0-3" */
};

/* Read it; never fails (what cannot be read stays NULL or 0). */
void cgroup_cpu_read(struct cgroup_cpu *cg);
void cgroup_cpu_release(struct cgroup_cpu *cg);

#endif /* VB_SYS_CGROUP_H */
