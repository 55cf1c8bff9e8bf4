/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The guest's initramfs (initramfs.h): what it holds, and its /init.
 */
#include <config.h>
#include "vm/initramfs.h"

#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/msg.h"
#include "vm/cpio.h"
#include "vm/guestproto.h"
#include "vm/modset.h"

/* The archive being written and the directories already in it. */
struct build {
	struct cpio c;
	char **dirs;
	unsigned int ndirs;
};

/* Each parent directory of @path (no leading '/') once, mode 0755. */
static void parents(struct build *b, const char *path)
{
	char *p = xstrdup(path);

	for (char *s = strchr(p, '/'); s; s = strchr(s + 1, '/')) {
		unsigned int i;

		*s = '\0';
		for (i = 0; i < b->ndirs && strcmp(b->dirs[i], p); i++)
			;
		if (i == b->ndirs) {
			b->dirs = xrealloc(b->dirs,
					   (b->ndirs + 1) * sizeof(*b->dirs));
			b->dirs[b->ndirs++] = xstrdup(p);
			cpio_dir(&b->c, p, 0755);
		}
		*s = '/';
	}
	free(p);
}

/* A directory of its own (and its parents). */
static void dir(struct build *b, const char *path)
{
	char *p = xmalloc(strlen(path) + 2);

	sprintf(p, "%s/", path);
	parents(b, p);
	free(p);
}

/* The host file @from as @to in the archive (@to absolute or not). */
static int carry(struct build *b, const char *from, const char *to,
		 unsigned int mode)
{
	struct stat st;
	int fd, err;

	to += strspn(to, "/");
	fd = open(from, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		err = -errno;
		error("cannot read '%s' for the guest: %s", from,
		      strerror(-err));
		if (fd >= 0)
			close(fd);
		return err;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		error("'%s' is not a regular file: it cannot go into the guest",
		      from);
		return -EINVAL;
	}
	parents(b, to);
	cpio_copy(&b->c, to, mode ? mode : st.st_mode & 0777, fd,
		  (uint64_t)st.st_size);
	close(fd);
	return 0;
}

/* What dl_iterate_phdr() finds: the loaded objects and the interpreter. */
struct objects {
	char **paths;
	unsigned int n;
	const char *interp;
};

static int each_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct objects *o = arg;

	(void)size;
	/* the program itself: its PT_INTERP, the loader's name in it */
	if (!info->dlpi_name || !*info->dlpi_name) {
		for (int i = 0; i < info->dlpi_phnum; i++)
			if (info->dlpi_phdr[i].p_type == PT_INTERP)
				o->interp = (const char *)(info->dlpi_addr +
							   info->dlpi_phdr[i]
								   .p_vaddr);
		return 0;
	}
	/* the vDSO has no file */
	if (info->dlpi_name[0] != '/')
		return 0;
	o->paths = xrealloc(o->paths, (o->n + 1) * sizeof(*o->paths));
	o->paths[o->n++] = xstrdup(info->dlpi_name);
	return 0;
}

/*
 * vfsbench as it runs now: /proc/self/exe, every shared object loaded
 * (they are all loaded at start: nothing is dlopen()ed later that a run
 * needs), and the interpreter at the name the program asks for.
 */
static int carry_vfsbench(struct build *b)
{
	struct objects o = { 0 };
	int ret;

	dl_iterate_phdr(each_object, &o);
	ret = carry(b, "/proc/self/exe", "usr/bin/vfsbench", 0755);
	for (unsigned int i = 0; !ret && i < o.n; i++)
		ret = carry(b, o.paths[i], o.paths[i], 0);
	if (!ret && o.interp)
		ret = carry(b, o.interp, o.interp, 0755);
	for (unsigned int i = 0; i < o.n; i++)
		free(o.paths[i]);
	free(o.paths);
	return ret;
}

int initramfs_guest_path(const char *cwd, const char *name, char *buf,
			 unsigned long len)
{
	char *joined = xmalloc(strlen(cwd) + strlen(name) + 2);
	size_t n = 0;
	const char *p;

	sprintf(joined, "%s/%s", name[0] == '/' ? "" : cwd, name);
	for (p = joined; *p;) {
		size_t k;

		p += strspn(p, "/");
		k = strcspn(p, "/");
		if (!k)
			break;
		if (k == 1 && p[0] == '.') {
			/* nothing */
		} else if (k == 2 && p[0] == '.' && p[1] == '.') {
			while (n && buf[n - 1] != '/')
				n--;
			if (n)
				n--;
		} else {
			if (n + k + 2 > len) {
				free(joined);
				return -ENAMETOOLONG;
			}
			buf[n++] = '/';
			memcpy(buf + n, p, k);
			n += k;
		}
		p += k;
	}
	if (!n)
		buf[n++] = '/';
	buf[n] = '\0';
	free(joined);
	return 0;
}

/* @s single-quoted for sh, into the string being built. */
static void quote(char **out, size_t *len, const char *s)
{
	size_t need = *len + 4 * strlen(s) + 4;

	*out = xrealloc(*out, need);
	(*out)[(*len)++] = '\'';
	for (; *s; s++) {
		if (*s == '\'') {
			memcpy(*out + *len, "'\\''", 4);
			*len += 4;
		} else {
			(*out)[(*len)++] = *s;
		}
	}
	(*out)[(*len)++] = '\'';
	(*out)[*len] = '\0';
}

static void append(char **out, size_t *len, const char *s)
{
	size_t n = strlen(s);

	*out = xrealloc(*out, *len + n + 1);
	memcpy(*out + *len, s, n + 1);
	*len += n;
}

/*
 * /init: every step either works or says why on the console and powers
 * off; the host reads what came of the run from the port (guestproto.h).
 */
static const char init_head[] =
	"#!/bin/busybox sh\n"
	"# vfsbench kernels: the guest's /init, made for this boot\n"
	"/bin/busybox mount -t proc proc /proc\n"
	"/bin/busybox mount -t sysfs sysfs /sys\n"
	"/bin/busybox mount -t devtmpfs devtmpfs /dev\n"
	"/bin/busybox --install -s /bin\n"
	"export PATH=/bin:/usr/bin\n"
	"up=$(cut -d' ' -f1 /proc/uptime)\n"
	"echo \"" GUEST_MARK_INIT " $up\"\n"
	"fail() {\n"
	"\techo \"" GUEST_MARK_ERROR "$*\"\n"
	"\tpoweroff -f\n"
	"}\n"
	/* a device node comes from devtmpfs a little after its device */
	"appear() {\n"
	"\ti=0\n"
	"\twhile test ! -e \"$1\" && test $i -lt 100; do\n"
	"\t\tusleep 100000\n"
	"\t\ti=$((i + 1))\n"
	"\tdone\n"
	"\ttest -e \"$1\"\n"
	"}\n"
	"while read -r m; do\n"
	"\tinsmod \"/vfsbench/modules/$m\" 2>/tmp/insmod.err ||\n"
	"\t\tgrep -q 'File exists' /tmp/insmod.err ||\n"
	"\t\techo \"vfsbench-guest: warning: insmod $m: $(cat "
	"/tmp/insmod.err)\"\n"
	"done </vfsbench/modules.list\n"
	/* the host announces its ports after the driver has bound */
	"port=\n"
	"i=0\n"
	"while test -z \"$port\" && test $i -lt 100; do\n"
	"\tfor p in /sys/class/virtio-ports/*; do\n"
	"\t\ttest \"$(cat \"$p/name\" 2>/dev/null)\" = " GUEST_PORT
	" && port=/dev/${p##*/}\n"
	"\tdone\n"
	"\ttest -n \"$port\" || usleep 100000\n"
	"\ti=$((i + 1))\n"
	"done\n"
	"test -n \"$port\" && appear \"$port\" ||\n"
	"\tfail 'no virtio serial port " GUEST_PORT
	": the kernel lacks virtio_pci or virtio_console (built in or as a "
	"module)'\n";

static const char init_tail[] =
	"rc=$?\n"
	"len=$(wc -c <" GUEST_JSON " 2>/dev/null || echo 0)\n"
	"{\n"
	"\tprintf '" GUEST_MAGIC "'\n"
	"\techo \"status $rc\"\n"
	"\techo \"uptime $up\"\n"
	"\techo \"release $(uname -r)\"\n"
	"\techo \"cmdline $(cat /proc/cmdline)\"\n"
	"\techo \"json $len\"\n"
	"\tcat " GUEST_JSON " 2>/dev/null\n"
	"\techo\n"
	"\tprintf '" GUEST_END "'\n"
	"} >\"$port\"\n"
	"poweroff -f\n";

/* The script, with the target, the cwd and the arguments. */
static char *init_script(const struct initramfs_spec *s, const char *cwd)
{
	size_t len = 0;
	char *out = NULL;

	append(&out, &len, init_head);
	if (!strcmp(s->fs, "tmpfs")) {
		append(&out, &len,
		       "mount -t tmpfs -o mode=0755 tmpfs " GUEST_TARGET " ||\n"
		       "\tfail 'cannot mount a tmpfs on " GUEST_TARGET "'\n");
	} else {
		append(&out, &len,
		       "appear /dev/vda || fail 'no disk /dev/vda: the "
		       "kernel lacks virtio_blk'\n"
		       "mount -t ");
		append(&out, &len, s->fs);
		append(&out, &len,
		       " /dev/vda " GUEST_TARGET
		       " ||\n\tfail 'cannot mount /dev/vda as ");
		append(&out, &len, s->fs);
		append(&out, &len, "'\n");
	}
	append(&out, &len, "hostname vfsbench-guest\ncd ");
	quote(&out, &len, cwd);
	append(&out, &len,
	       " || fail 'cannot enter the working directory'\n"
	       "echo '" GUEST_MARK_RUN "'\n"
	       "/usr/bin/vfsbench -D " GUEST_TARGET " --json " GUEST_JSON);
	for (unsigned int i = 0; i < s->argc; i++) {
		append(&out, &len, " ");
		quote(&out, &len, s->argv[i]);
	}
	append(&out, &len, "\n");
	append(&out, &len, init_tail);
	return out;
}

/* The modules, numbered in load order, and their list. */
static int carry_modules(struct build *b, const struct modset *m)
{
	size_t len = 0;
	char *list = xstrdup(""), name[300];
	int ret = 0;

	dir(b, "vfsbench/modules");
	for (unsigned int i = 0; !ret && m && i < m->n; i++) {
		snprintf(name, sizeof(name), "vfsbench/modules/%03u-%s", i,
			 m->names[i]);
		ret = carry(b, m->paths[i], name, 0644);
		append(&list, &len, name + strlen("vfsbench/modules/"));
		append(&list, &len, "\n");
	}
	if (!ret)
		cpio_data(&b->c, "vfsbench/modules.list", 0644, list, len);
	free(list);
	return ret;
}

/* An archive given with --initrd, first: the kernel unpacks both. */
static int carry_initrd(struct build *b, const char *path)
{
	char buf[65536];
	ssize_t r;
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;

	if (fd < 0) {
		err = -errno;
		error("cannot read the initrd '%s': %s", path, strerror(-err));
		return err;
	}
	while (!b->c.err && (r = read(fd, buf, sizeof(buf))) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err = -errno;
			error("cannot read the initrd '%s': %s", path,
			      strerror(-err));
			break;
		}
		if (write(b->c.fd, buf, (size_t)r) != r)
			b->c.err = -EIO;
		b->c.off += (uint64_t)r;
	}
	close(fd);
	/* the next archive starts on a 4-byte boundary */
	while (!err && !b->c.err && b->c.off % 4) {
		if (write(b->c.fd, "", 1) != 1)
			b->c.err = -EIO;
		b->c.off++;
	}
	return err;
}

int initramfs_write(const struct initramfs_spec *s, int fd)
{
	struct build b = { 0 };
	char path[4096], *script;
	int ret = 0;

	cpio_init(&b.c, fd);
	if (s->initrd)
		ret = carry_initrd(&b, s->initrd);
	if (!ret) {
		static const char *const dirs[] = { "bin",     "dev", "proc",
						    "sys",     "tmp", "mnt",
						    "vfsbench" };

		for (size_t i = 0; i < sizeof(dirs) / sizeof(*dirs); i++)
			dir(&b, dirs[i]);
		ret = carry(&b, s->busybox, "bin/busybox", 0755);
	}
	if (!ret)
		ret = carry_vfsbench(&b);
	if (!ret)
		ret = carry_modules(&b, s->mods);
	for (unsigned int i = 0; !ret && i < s->nfiles; i++) {
		ret = initramfs_guest_path(s->cwd, s->files[i], path,
					   sizeof(path));
		if (ret)
			error("'%s': its path in the guest is too long",
			      s->files[i]);
		else
			ret = carry(&b, s->files[i], path, 0644);
	}
	if (!ret) {
		if (s->cwd[strspn(s->cwd, "/")])
			dir(&b, s->cwd + strspn(s->cwd, "/"));
		script = init_script(s, s->cwd);
		cpio_data(&b.c, "init", 0755, script, strlen(script));
		free(script);
		cpio_finish(&b.c);
		if (b.c.err) {
			ret = b.c.err;
			error("cannot write the guest's initramfs: %s",
			      strerror(-ret));
		}
	}
	for (unsigned int i = 0; i < b.ndirs; i++)
		free(b.dirs[i]);
	free(b.dirs);
	return ret;
}
