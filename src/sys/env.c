/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The environment fingerprint recorded with every result: uname, CPU,
 * clocksource, libc, ASLR, cpufreq, the target filesystem's line of
 * /proc/self/mountinfo, and what moves results (env.h): the kernel's
 * command line, debugfs's sched features, SMT, NUMA, vulnerabilities,
 * THP, the load average, the cgroup's CPU limits and the affinity mask.
 */
#include <config.h>
#include "sys/env.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <gnu/libc-version.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/compiler.h"
#include "base/jsonstr.h"
#include "sys/cpulist.h"
#include "sys/mountinfo.h"
#include "sys/sysfile.h"

static char *cpu_model(void)
{
	char buf[512], *ret = NULL;
	FILE *f = fopen("/proc/cpuinfo", "re");

	if (!f)
		return NULL;
	while (!ret && fgets(buf, sizeof(buf), f)) {
		char *colon = strchr(buf, ':');

		if (strncmp(buf, "model name", 10) || !colon)
			continue;
		colon += 1 + strspn(colon + 1, " \t");
		colon[strcspn(colon, "\n")] = '\0';
		ret = xstrdup(colon);
	}
	fclose(f);
	return ret;
}

/*
 * Of the mounts on the directory's device, the one whose mount point is
 * the longest prefix of the directory's real path.
 */
static void target_fs(struct env *e, const char *dir)
{
	char *real = realpath(dir, NULL);
	struct mountinfo m = { 0 };
	struct statx stx;
	size_t best = 0;
	bool by_id;
	FILE *f;

	if (!real ||
	    statx(AT_FDCWD, real, 0, STATX_BASIC_STATS | STATX_MNT_ID, &stx))
		goto out;
	/*
	 * By the mount's id where statx() gives it (Linux 5.8): btrfs's
	 * files have a device number of their subvolume, not the mount's
	 */
	by_id = stx.stx_mask & STATX_MNT_ID;
	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		goto out;
	while (mountinfo_next(f, &m)) {
		size_t len = strlen(m.mount_point);

		if (by_id ? m.id != stx.stx_mnt_id :
			    m.major != stx.stx_dev_major ||
				    m.minor != stx.stx_dev_minor ||
				    strncmp(real, m.mount_point, len) ||
				    (real[len] && real[len] != '/' &&
				     len > 1) ||
				    len < best)
			continue;
		best = len;
		free(e->mount_point);
		free(e->mount_options);
		free(e->fs_type);
		free(e->fs_source);
		free(e->super_options);
		e->mount_point = xstrdup(m.mount_point);
		e->mount_options = xstrdup(m.options);
		e->fs_type = m.fstype ? xstrdup(m.fstype) : NULL;
		e->fs_source = m.source ? xstrdup(m.source) : NULL;
		e->super_options =
			m.super_options ? xstrdup(m.super_options) : NULL;
	}
	free(m.line);
	fclose(f);
out:
	free(real);
}

/* "always [madvise] never": the word in brackets. */
static char *chosen(const char *path)
{
	char *line = sysfile_line(NULL, path), *lb, *rb, *ret = NULL;

	if (!line)
		return NULL;
	lb = strchr(line, '[');
	rb = lb ? strchr(lb, ']') : NULL;
	if (rb)
		ret = xstrndup(lb + 1, (size_t)(rb - lb - 1));
	free(line);
	return ret;
}

/* A file holding 0 or 1: that, or -1. */
static int read_flag(const char *path)
{
	char *s = sysfile_line(NULL, path);
	int v = -1;

	if (s && (!strcmp(s, "0") || !strcmp(s, "1")))
		v = s[0] == '1';
	free(s);
	return v;
}

#define DEBUGFS	      "/sys/kernel/debug"
#define DEBUGFS_MAGIC 0x64626720

/*
 * The scheduler's features from debugfs (sched/features since 5.13,
 * sched_features before), or why they cannot be read.
 */
static void sched_features(struct env *e)
{
	static const char *const paths[] = { DEBUGFS "/sched/features",
					     DEBUGFS "/sched_features" };
	struct statfs sf;
	int err = ENOENT;

	for (unsigned int i = 0; i < ARRAY_SIZE(paths); i++) {
		e->sched_features = sysfile_line(NULL, paths[i]);
		if (e->sched_features)
			return;
		if (errno != ENOENT)
			err = errno;
	}
	if (statfs(DEBUGFS, &sf) || sf.f_type != DEBUGFS_MAGIC)
		e->sched_features_why =
			xstrdup("debugfs is not mounted at " DEBUGFS
				" (mount -t debugfs none " DEBUGFS ")");
	else if (err == EACCES || err == EPERM)
		e->sched_features_why = xstrdup(
			"debugfs: permission denied (it needs root, and no kernel lockdown)");
	else if (err == ENOENT)
		e->sched_features_why = xstrdup(
			"debugfs has no sched/features (a kernel without CONFIG_SCHED_DEBUG)");
	else
		e->sched_features_why = xstrdup(strerror(err));
}

static int cmp_vuln(const void *a, const void *b)
{
	return strcmp(((const struct env_vuln *)a)->name,
		      ((const struct env_vuln *)b)->name);
}

#define VULNS "/sys/devices/system/cpu/vulnerabilities"

static void vulnerabilities(struct env *e)
{
	DIR *d = opendir(VULNS);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char path[512];
		char *state;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), VULNS "/%s", de->d_name);
		state = sysfile_line(NULL, path);
		if (!state)
			continue;
		e->vulns =
			xrealloc(e->vulns, (e->nvulns + 1) * sizeof(*e->vulns));
		e->vulns[e->nvulns++] =
			(struct env_vuln){ .name = xstrdup(de->d_name),
					   .state = state };
	}
	closedir(d);
	if (e->nvulns)
		qsort(e->vulns, e->nvulns, sizeof(*e->vulns), cmp_vuln);
}

unsigned int env_vulnerable(const struct env *e, char *names, size_t len)
{
	unsigned int n = 0;
	size_t used = 0;

	if (len)
		names[0] = '\0';
	for (unsigned int i = 0; i < e->nvulns; i++) {
		if (strncmp(e->vulns[i].state, "Vulnerable", 10))
			continue;
		if (used < len)
			used += (size_t)snprintf(names + used, len - used,
						 "%s%s", n ? "," : "",
						 e->vulns[i].name);
		n++;
	}
	return n;
}

static void cpufreq(struct env *e)
{
	int no_turbo;

	e->governor = sysfile_line(
		NULL, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
	e->cpufreq_driver = sysfile_line(
		NULL, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_driver");
	/* acpi-cpufreq and amd-pstate's boost; intel_pstate's inverse */
	e->boost = read_flag("/sys/devices/system/cpu/cpufreq/boost");
	if (e->boost < 0) {
		no_turbo = read_flag(
			"/sys/devices/system/cpu/intel_pstate/no_turbo");
		e->boost = no_turbo < 0 ? -1 : !no_turbo;
	}
}

static void affinity(struct env *e)
{
	struct cpulist l;

	if (cpulist_affinity(&l, 0))
		return;
	e->affinity = cpulist_string(&l);
	e->cpus_allowed = l.n;
	cpulist_release(&l);
}

static void load_average(struct env *e)
{
	FILE *f = fopen("/proc/loadavg", "re");

	e->loadavg[0] = e->loadavg[1] = e->loadavg[2] = -1;
	if (!f)
		return;
	if (fscanf(f, "%lf %lf %lf", &e->loadavg[0], &e->loadavg[1],
		   &e->loadavg[2]) != 3)
		e->loadavg[0] = e->loadavg[1] = e->loadavg[2] = -1;
	fclose(f);
}

void env_collect(struct env *e, const char *dir)
{
	struct utsname u;
	char host[256];
	char *aslr;

	memset(e, 0, sizeof(*e));
	if (!uname(&u)) {
		e->sysname = xstrdup(u.sysname);
		e->release = xstrdup(u.release);
		e->version = xstrdup(u.version);
		e->machine = xstrdup(u.machine);
	}
	if (!gethostname(host, sizeof(host))) {
		host[sizeof(host) - 1] = '\0';
		e->hostname = xstrdup(host);
	}
	e->boot_id = sysfile_line(NULL, "/proc/sys/kernel/random/boot_id");
	e->cpu_model = cpu_model();
	e->cpus_online = sysconf(_SC_NPROCESSORS_ONLN);
	e->clocksource = sysfile_line(
		NULL,
		"/sys/devices/system/clocksource/clocksource0/current_clocksource");
	e->libc = xstrdup(gnu_get_libc_version());
	aslr = sysfile_line(NULL, "/proc/sys/kernel/randomize_va_space");
	e->aslr = aslr ? atoi(aslr) : -1;
	free(aslr);
	cpufreq(e);
	target_fs(e, dir);
	e->cmdline = sysfile_line(NULL, "/proc/cmdline");
	sched_features(e);
	e->smt_control =
		sysfile_line(NULL, "/sys/devices/system/cpu/smt/control");
	e->smt_active = read_flag("/sys/devices/system/cpu/smt/active");
	e->numa_nodes = sysfile_line(NULL, "/sys/devices/system/node/online");
	vulnerabilities(e);
	e->thp_enabled = chosen("/sys/kernel/mm/transparent_hugepage/enabled");
	e->thp_defrag = chosen("/sys/kernel/mm/transparent_hugepage/defrag");
	load_average(e);
	cgroup_cpu_read(&e->cgroup);
	affinity(e);
}

void env_release(struct env *e)
{
	char **s[] = {
		&e->sysname,	   &e->release,	       &e->version,
		&e->machine,	   &e->hostname,       &e->cpu_model,
		&e->clocksource,   &e->libc,	       &e->governor,
		&e->fs_type,	   &e->fs_source,      &e->mount_point,
		&e->mount_options, &e->super_options,  &e->cpufreq_driver,
		&e->cmdline,	   &e->sched_features, &e->sched_features_why,
		&e->smt_control,   &e->numa_nodes,     &e->thp_enabled,
		&e->thp_defrag,	   &e->affinity,       &e->boot_id
	};

	for (unsigned int i = 0; i < ARRAY_SIZE(s); i++) {
		free(*s[i]);
		*s[i] = NULL;
	}
	for (unsigned int i = 0; i < e->nvulns; i++) {
		free(e->vulns[i].name);
		free(e->vulns[i].state);
	}
	free(e->vulns);
	e->vulns = NULL;
	e->nvulns = 0;
	cgroup_cpu_release(&e->cgroup);
}

/* NULL becomes JSON null. */
/* What the system says may not be UTF-8 (a mount point): jsonstr.h. */
static json_t *str(const char *s)
{
	return jsonstr_new(s);
}

static json_t *tristate(int v)
{
	return v < 0 ? json_null() : json_boolean(v);
}

/* What moves results from run to run (env.h). */
static void moving_json(json_t *o, const struct env *e)
{
	const struct cgroup_cpu *cg = &e->cgroup;
	json_t *vulns = json_object(), *load = json_array();

	json_object_set_new(
		o, "cpufreq",
		json_pack("{so so so}", "governor", str(e->governor), "driver",
			  str(e->cpufreq_driver), "boost", tristate(e->boost)));
	json_object_set_new(o, "cmdline", str(e->cmdline));
	json_object_set_new(o, "sched_features", str(e->sched_features));
	json_object_set_new(o, "sched_features_unavailable",
			    str(e->sched_features_why));
	json_object_set_new(o, "smt",
			    json_pack("{so so}", "control", str(e->smt_control),
				      "active", tristate(e->smt_active)));
	json_object_set_new(o, "numa_nodes", str(e->numa_nodes));
	for (unsigned int i = 0; i < e->nvulns; i++)
		json_object_set_new(vulns, e->vulns[i].name,
				    str(e->vulns[i].state));
	json_object_set_new(o, "cpu_vulnerabilities", vulns);
	json_object_set_new(o, "transparent_hugepage",
			    json_pack("{so so}", "enabled", str(e->thp_enabled),
				      "defrag", str(e->thp_defrag)));
	for (unsigned int i = 0; i < 3 && e->loadavg[0] >= 0; i++)
		json_array_append_new(load, json_real(e->loadavg[i]));
	json_object_set_new(o, "loadavg", load);
	json_object_set_new(
		o, "cgroup",
		json_pack("{sI so so so so}", "version",
			  (json_int_t)cg->version, "path", str(cg->path),
			  "cpu_max", str(cg->cpu_max), "cpu_quota",
			  cg->quota > 0 ? json_real(cg->quota) : json_null(),
			  "cpuset_cpus", str(cg->cpuset)));
	json_object_set_new(o, "affinity", str(e->affinity));
	json_object_set_new(o, "cpus_allowed", json_integer(e->cpus_allowed));
}

json_t *env_json(const struct env *e)
{
	json_t *o = json_object();

	json_object_set_new(
		o, "kernel",
		json_pack("{so so so so}", "sysname", str(e->sysname),
			  "release", str(e->release), "version",
			  str(e->version), "machine", str(e->machine)));
	json_object_set_new(o, "hostname", str(e->hostname));
	json_object_set_new(o, "boot_id", str(e->boot_id));
	json_object_set_new(o, "cpu_model", str(e->cpu_model));
	json_object_set_new(o, "cpus_online", json_integer(e->cpus_online));
	json_object_set_new(o, "clocksource", str(e->clocksource));
	json_object_set_new(o, "libc", str(e->libc));
	json_object_set_new(o, "aslr",
			    e->aslr < 0 ? json_null() : json_integer(e->aslr));
	json_object_set_new(o, "cpufreq_governor", str(e->governor));
	json_object_set_new(o, "target",
			    json_pack("{so so so so so}", "fs_type",
				      str(e->fs_type), "source",
				      str(e->fs_source), "mount_point",
				      str(e->mount_point), "mount_options",
				      str(e->mount_options), "super_options",
				      str(e->super_options)));
	json_object_set_new(o, "vfsbench_version",
			    json_string(PACKAGE_VERSION));
	moving_json(o, e);
	return o;
}
