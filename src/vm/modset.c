/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The guest's kernel modules, resolved by kmod's own depmod and modprobe
 * in a staged copy of the modules directory's indexes.
 */
#include <config.h>
#include "vm/modset.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/msg.h"
#include "vm/tool.h"

/* Copy @name of @from into @to, when @from has it. */
static int copy_index(int from, int to, const char *name)
{
	char buf[65536];
	ssize_t r;
	int in, out, err = 0;

	in = openat(from, name, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return errno == ENOENT ? 0 : -errno;
	out = openat(to, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (out < 0) {
		err = -errno;
		close(in);
		return err;
	}
	while ((r = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)r) != r) {
			err = -EIO;
			break;
		}
	if (r < 0)
		err = -errno;
	close(in);
	close(out);
	return err;
}

/* The files kmod reads besides the modules, which depmod does not make. */
static const char *const indexes[] = { "modules.builtin",
				       "modules.builtin.modinfo",
				       "modules.order" };

/*
 * @stage/lib/modules/@release: each directory of @moddir (kernel/,
 * extra/, updates/) a link to it, its indexes above copied.
 */
static int stage_tree(const char *moddir, const char *release,
		      const char *stage)
{
	char *real = realpath(moddir, NULL), path[PATH_MAX];
	int from = -1, to = -1, err = 0;
	struct dirent *de;
	DIR *d = NULL;

	if (!real) {
		err = -errno;
		error("cannot use the modules directory '%s': %s", moddir,
		      strerror(-err));
		return err;
	}
	snprintf(path, sizeof(path), "%s/lib", stage);
	if (mkdir(path, 0700) && errno != EEXIST)
		goto out_errno;
	snprintf(path, sizeof(path), "%s/lib/modules", stage);
	if (mkdir(path, 0700) && errno != EEXIST)
		goto out_errno;
	snprintf(path, sizeof(path), "%s/lib/modules/%s", stage, release);
	if (mkdir(path, 0700))
		goto out_errno;
	to = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	from = open(real, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	d = from >= 0 ? fdopendir(dup(from)) : NULL;
	if (to < 0 || !d)
		goto out_errno;
	while ((de = readdir(d))) {
		struct stat st;
		char target[PATH_MAX];

		if (de->d_name[0] == '.' || fstatat(from, de->d_name, &st, 0) ||
		    !S_ISDIR(st.st_mode))
			continue;
		snprintf(target, sizeof(target), "%s/%s", real, de->d_name);
		if (symlinkat(target, to, de->d_name))
			goto out_errno;
	}
	for (size_t i = 0; !err && i < sizeof(indexes) / sizeof(*indexes); i++)
		err = copy_index(from, to, indexes[i]);
	if (err)
		error("cannot stage the modules of '%s': %s", moddir,
		      strerror(-err));
	goto out;

out_errno:
	err = -errno;
	error("cannot stage the modules of '%s' in '%s': %s", moddir, stage,
	      strerror(-err));
out:
	if (d)
		closedir(d);
	if (from >= 0)
		close(from);
	if (to >= 0)
		close(to);
	free(real);
	return err;
}

/* Add @path once. */
static void add(struct modset *m, const char *path)
{
	const char *base = strrchr(path, '/');

	for (unsigned int i = 0; i < m->n; i++)
		if (!strcmp(m->paths[i], path))
			return;
	m->paths = xrealloc(m->paths, (m->n + 1) * sizeof(*m->paths));
	m->names = xrealloc(m->names, (m->n + 1) * sizeof(*m->names));
	m->paths[m->n] = xstrdup(path);
	m->names[m->n++] = xstrdup(base ? base + 1 : path);
}

/* modprobe --show-depends: "insmod PATH [ARGS]" and "builtin NAME". */
static void parse_depends(struct modset *m, char *text)
{
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		if (!strncmp(line, "insmod ", 7)) {
			char *path = line + 7;

			path[strcspn(path, " ")] = '\0';
			add(m, path);
		} else if (!strncmp(line, "builtin ", 8)) {
			m->builtin++;
		}
	}
}

/* A wanted module that modprobe did not find: the first one it names. */
static int missing(const struct vmtool *t, const char *prog, const char *moddir,
		   const char *release)
{
	const char *p = strstr(t->err, "Module ");
	int n = p ? (int)strcspn(p + 7, " ") : 0;

	if (!p || !strstr(p, "not found")) {
		vmtool_failed(t, prog);
		return -EIO;
	}
	error("the kernel %s has no module %.*s, built in or in '%s': the guest needs it (build it in, or as a module there)",
	      release, n, p + 7, moddir);
	return -ENOENT;
}

int modset_resolve(struct modset *m, const char *moddir, const char *release,
		   const char *stage, const char *const *want,
		   unsigned int nwant, const volatile sig_atomic_t *stop)
{
	const char **argv = xcalloc(nwant + 9, sizeof(*argv));
	struct vmtool t = { 0 };
	int dirfd, ret, n = 0;

	memset(m, 0, sizeof(*m));
	ret = stage_tree(moddir, release, stage);
	if (ret)
		goto out;
	dirfd = open(stage, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dirfd < 0) {
		ret = -errno;
		error("cannot open '%s': %s", stage, strerror(-ret));
		goto out;
	}
	argv[n++] = "depmod";
	argv[n++] = "-b";
	argv[n++] = stage;
	argv[n++] = release;
	argv[n] = NULL;
	ret = vmtool_run(&t, argv, dirfd, "depmod", "kmod", 0, stop);
	vmtool_release(&t);
	if (!ret) {
		n = 0;
		argv[n++] = "modprobe";
		argv[n++] = "-d";
		argv[n++] = stage;
		argv[n++] = "-S";
		argv[n++] = release;
		argv[n++] = "--show-depends";
		argv[n++] = "-a";
		for (unsigned int i = 0; i < nwant; i++)
			argv[n++] = want[i];
		argv[n] = NULL;
		/* its failure is told below, by the module it lacks */
		ret = vmtool_run(&t, argv, dirfd, "modprobe", "kmod",
				 VMTOOL_QUIET, stop);
		if (ret == -EIO)
			ret = missing(&t, argv[0], moddir, release);
		if (!ret)
			parse_depends(m, t.out);
		vmtool_release(&t);
	}
	close(dirfd);
out:
	free(argv);
	if (ret)
		modset_release(m);
	return ret;
}

void modset_release(struct modset *m)
{
	for (unsigned int i = 0; i < m->n; i++) {
		free(m->paths[i]);
		free(m->names[i]);
	}
	free(m->paths);
	free(m->names);
	memset(m, 0, sizeof(*m));
}
