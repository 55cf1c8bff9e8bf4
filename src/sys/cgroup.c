/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The cgroup's CPU limits: /proc/self/cgroup names the process's cgroup
 * per hierarchy, /proc/self/mountinfo where each hierarchy is mounted
 * (in a container, the mount's root is the container's own cgroup).
 * Both cgroup v2 and the v1 cpu and cpuset controllers are read.
 */
#include <config.h>
#include "sys/cgroup.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "sys/mountinfo.h"
#include "sys/sysfile.h"

/* A token of a comma-separated list. */
static bool has_token(const char *list, const char *tok)
{
	size_t n = strlen(tok);

	for (const char *p = list; p && *p; p = strchr(p, ',')) {
		if (*p == ',')
			p++;
		if (!strncmp(p, tok, n) && (p[n] == ',' || !p[n]))
			return true;
	}
	return false;
}

/*
 * The cgroup path of the hierarchy with controller @ctl in
 * /proc/self/cgroup (NULL: the v2 hierarchy, "0::PATH"), or NULL.
 */
static char *cgroup_path(const char *ctl)
{
	FILE *f = fopen("/proc/self/cgroup", "re");
	char *line = NULL, *ret = NULL;
	size_t alloc = 0;

	if (!f)
		return NULL;
	while (!ret && getline(&line, &alloc, f) > 0) {
		char *c1 = strchr(line, ':'),
		     *c2 = c1 ? strchr(c1 + 1, ':') : NULL;

		if (!c2)
			continue;
		*c2 = '\0';
		c2[1 + strcspn(c2 + 1, "\n")] = '\0';
		/* v2's line has no controllers: "0::/PATH" */
		if (ctl ? has_token(c1 + 1, ctl) : !c1[1])
			ret = xstrdup(c2 + 1);
	}
	free(line);
	fclose(f);
	return ret;
}

/*
 * The directory of cgroup @path in the hierarchy mounted with fstype
 * @fstype (and, for v1, the super option @ctl), or NULL.
 */
static char *cgroup_dir(const char *fstype, const char *ctl, const char *path)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	struct mountinfo m = { 0 };
	char *ret = NULL;

	if (!f)
		return NULL;
	while (!ret && mountinfo_next(f, &m)) {
		size_t rl = strlen(m.root);
		const char *rest = path;

		if (!m.fstype || strcmp(m.fstype, fstype) ||
		    (ctl && !has_token(m.super_options, ctl)))
			continue;
		/* the mount shows the hierarchy from its root down */
		if (strcmp(m.root, "/")) {
			if (strncmp(path, m.root, rl) ||
			    (path[rl] && path[rl] != '/'))
				continue;
			rest = path + rl;
		}
		ret = xmalloc(strlen(m.mount_point) + strlen(rest) + 2);
		sprintf(ret, "%s%s", m.mount_point,
			strcmp(rest, "/") ? rest : "");
	}
	free(m.line);
	fclose(f);
	return ret;
}

/* The limit of cgroup directory @dir in CPUs, 0 for none; its text. */
static double dir_quota(int version, const char *dir, char **text)
{
	double quota = 0;
	long long q, p;

	*text = NULL;
	if (version == 2) {
		char *s = sysfile_line(dir, "cpu.max"), max[32];

		if (s && sscanf(s, "%31s %lld", max, &p) == 2 &&
		    strcmp(max, "max") && p > 0)
			quota = strtod(max, NULL) / (double)p;
		*text = s;
	} else {
		char *sq = sysfile_line(dir, "cpu.cfs_quota_us");
		char *sp = sysfile_line(dir, "cpu.cfs_period_us");

		if (sq && sp && sscanf(sq, "%lld", &q) == 1 &&
		    sscanf(sp, "%lld", &p) == 1) {
			char buf[64];

			if (q > 0 && p > 0)
				quota = (double)q / (double)p;
			snprintf(buf, sizeof(buf), "%s %lld",
				 q > 0 ? sq : "max", p);
			*text = xstrdup(buf);
		}
		free(sq);
		free(sp);
	}
	return quota;
}

/* The tightest limit from @dir up to the hierarchy's mount point @top. */
static double path_quota(int version, const char *dir, size_t top, char **own)
{
	char *d = xstrdup(dir);
	double best = 0;
	bool first = true;

	for (;;) {
		char *text, *slash;
		double q = dir_quota(version, d, &text);

		if (first)
			*own = text;
		else
			free(text);
		first = false;
		if (q > 0 && (!best || q < best))
			best = q;
		slash = strrchr(d, '/');
		if (!slash || (size_t)(slash - d) < top)
			break;
		*slash = '\0';
	}
	free(d);
	return best;
}

void cgroup_cpu_read(struct cgroup_cpu *cg)
{
	char *path, *dir, *root;

	memset(cg, 0, sizeof(*cg));
	path = cgroup_path("cpu");
	dir = path ? cgroup_dir("cgroup", "cpu", path) : NULL;
	root = dir ? cgroup_dir("cgroup", "cpu", "/") : NULL;
	if (dir) {
		cg->version = 1;
	} else {
		free(path);
		path = cgroup_path(NULL);
		dir = path ? cgroup_dir("cgroup2", NULL, path) : NULL;
		root = dir ? cgroup_dir("cgroup2", NULL, "/") : NULL;
		cg->version = dir ? 2 : 0;
	}
	if (dir) {
		cg->path = xstrdup(path);
		cg->quota = path_quota(cg->version, dir, strlen(root),
				       &cg->cpu_max);
	}
	free(dir);
	free(root);
	free(path);
	if (cg->version == 2) {
		path = cgroup_path(NULL);
		dir = path ? cgroup_dir("cgroup2", NULL, path) : NULL;
		if (dir)
			cg->cpuset = sysfile_line(dir, "cpuset.cpus.effective");
	} else {
		path = cgroup_path("cpuset");
		dir = path ? cgroup_dir("cgroup", "cpuset", path) : NULL;
		if (dir)
			cg->cpuset = sysfile_line(dir, "cpuset.effective_cpus");
	}
	free(dir);
	free(path);
}

void cgroup_cpu_release(struct cgroup_cpu *cg)
{
	free(cg->path);
	free(cg->cpu_max);
	free(cg->cpuset);
	memset(cg, 0, sizeof(*cg));
}
