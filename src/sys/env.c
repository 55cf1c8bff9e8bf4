/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The environment fingerprint recorded with every result: uname, CPU,
 * clocksource, libc, ASLR, cpufreq governor, and the target filesystem's
 * line of /proc/self/mountinfo.
 */
#include <config.h>
#include "sys/env.h"

#include <gnu/libc-version.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/compiler.h"
#include "base/jsonstr.h"
#include "base/octal.h"

/* The first line of a small file, without its newline, or NULL. */
static char *read_line(const char *path)
{
	char buf[512];
	FILE *f = fopen(path, "re");
	char *ret = NULL;

	if (!f)
		return NULL;
	if (fgets(buf, sizeof(buf), f)) {
		buf[strcspn(buf, "\n")] = '\0';
		ret = xstrdup(buf);
	}
	fclose(f);
	return ret;
}

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
 * mountinfo: "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS [TAGS] - TYPE SOURCE
 * SUPEROPTS". Of the mounts on the directory's device, the one whose mount
 * point is the longest prefix of the directory's real path.
 */
static void target_fs(struct env *e, const char *dir)
{
	char *real = realpath(dir, NULL), *line = NULL;
	size_t alloc = 0, best = 0;
	struct stat st;
	FILE *f;

	if (!real || stat(real, &st))
		goto out;
	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		goto out;
	while (getline(&line, &alloc, f) > 0) {
		char *field[6], *dash, *type, *src, *sopts, *save = NULL;
		unsigned int maj, min;
		size_t len;
		int i;

		dash = strstr(line, " - ");
		if (!dash)
			continue;
		*dash = '\0';
		for (i = 0; i < 6; i++) {
			field[i] = strtok_r(i ? NULL : line, " ", &save);
			if (!field[i])
				break;
		}
		if (i < 6 || sscanf(field[2], "%u:%u", &maj, &min) != 2 ||
		    makedev(maj, min) != st.st_dev)
			continue;
		unescape_octal(field[4]);
		len = strlen(field[4]);
		if (strncmp(real, field[4], len) ||
		    (real[len] && real[len] != '/' && len > 1) || len < best)
			continue;
		save = NULL;
		type = strtok_r(dash + 3, " \n", &save);
		src = strtok_r(NULL, " \n", &save);
		sopts = strtok_r(NULL, " \n", &save);
		best = len;
		free(e->mount_point);
		free(e->mount_options);
		free(e->fs_type);
		free(e->fs_source);
		free(e->super_options);
		e->mount_point = xstrdup(field[4]);
		e->mount_options = xstrdup(field[5]);
		e->fs_type = type ? xstrdup(type) : NULL;
		e->fs_source = src ? xstrdup(src) : NULL;
		e->super_options = sopts ? xstrdup(sopts) : NULL;
	}
	free(line);
	fclose(f);
out:
	free(real);
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
	e->cpu_model = cpu_model();
	e->cpus_online = sysconf(_SC_NPROCESSORS_ONLN);
	e->clocksource = read_line(
		"/sys/devices/system/clocksource/clocksource0/current_clocksource");
	e->libc = xstrdup(gnu_get_libc_version());
	aslr = read_line("/proc/sys/kernel/randomize_va_space");
	e->aslr = aslr ? atoi(aslr) : -1;
	free(aslr);
	e->governor = read_line(
		"/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
	target_fs(e, dir);
}

void env_release(struct env *e)
{
	char **s[] = { &e->sysname,	  &e->release,	    &e->version,
		       &e->machine,	  &e->hostname,	    &e->cpu_model,
		       &e->clocksource,	  &e->libc,	    &e->governor,
		       &e->fs_type,	  &e->fs_source,    &e->mount_point,
		       &e->mount_options, &e->super_options };

	for (unsigned int i = 0; i < ARRAY_SIZE(s); i++) {
		free(*s[i]);
		*s[i] = NULL;
	}
}

/* NULL becomes JSON null. */
/* What the system says may not be UTF-8 (a mount point): jsonstr.h. */
static json_t *str(const char *s)
{
	return jsonstr_new(s);
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
	return o;
}
