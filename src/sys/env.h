/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_SYS_ENV_H
#define VB_SYS_ENV_H

/*
 * struct env: the environment a result was measured in, recorded with it
 * so that two results can be told apart: kernel, machine, CPU, the target
 * filesystem and its mount options, libc, ASLR and the CPU frequency
 * governor. Fields that cannot be read are NULL (or -1).
 */
struct env {
	char *sysname, *release, *version, *machine; /* uname(2) */
	char *hostname;
	char *cpu_model; /* /proc/cpuinfo "model name" */
	long cpus_online;
	char *clocksource; /* the kernel's current clocksource */
	char *libc; /* gnu_get_libc_version() */
	int aslr; /* /proc/sys/kernel/randomize_va_space, -1 if unknown */
	char *governor; /* cpufreq governor of cpu0, NULL if none */
	/* the filesystem holding the -D directory, from mountinfo */
	char *fs_type, *fs_source, *mount_point, *mount_options, *super_options;
};

typedef struct json_t json_t;

/* Collect everything, for the directory @dir. Never fails. */
void env_collect(struct env *e, const char *dir);
void env_release(struct env *e);
/* The "environment" object of the result files (doc/json-schema.md). */
json_t *env_json(const struct env *e);

#endif /* VB_SYS_ENV_H */
