/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One boot of a kernel in QEMU (guest.h): the disk, QEMU's command line,
 * the watch over its boot and run, and what the result port said.
 */
#include <config.h>
#include "vm/guest.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/kvm.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/msg.h"
#include "sys/command.h"
#include "vm/guestproto.h"
#include "vm/tool.h"

static const struct guest_fs filesystems[] = {
	{ .name = "tmpfs" },
	{ .name = "ext4",
	  .mkfs = "mkfs.ext4",
	  .mkfs_opts = { "-q", "-F" },
	  .package = "e2fsprogs",
	  .module = "ext4" },
	{ .name = "xfs",
	  .mkfs = "mkfs.xfs",
	  .mkfs_opts = { "-q", "-f" },
	  .package = "xfsprogs",
	  .module = "xfs" },
	{ .name = "btrfs",
	  .mkfs = "mkfs.btrfs",
	  .mkfs_opts = { "-q", "-f" },
	  .package = "btrfs-progs",
	  .module = "btrfs" },
};

const char guest_fs_names[] = "tmpfs, ext4, xfs or btrfs";

const struct guest_fs *guest_fs_find(const char *name)
{
	for (size_t i = 0; i < sizeof(filesystems) / sizeof(*filesystems); i++)
		if (!strcmp(filesystems[i].name, name))
			return &filesystems[i];
	return NULL;
}

bool guest_kvm_usable(void)
{
	int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	bool ok;

	if (fd < 0)
		return false;
	ok = ioctl(fd, KVM_GET_API_VERSION, 0) == KVM_API_VERSION;
	close(fd);
	return ok;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* "DIR/TAG.EXT", allocated. */
static char *file_of(const char *dir, const char *tag, const char *ext)
{
	size_t len = strlen(dir) + strlen(tag) + strlen(ext) + 3;
	char *p = xmalloc(len);

	snprintf(p, len, "%s/%s.%s", dir, tag, ext);
	return p;
}

/* A fresh image of the file system, made by the host's mkfs. */
static int make_disk(const struct guest_config *gc, int dirfd, const char *dir,
		     const char *tag, const volatile sig_atomic_t *stop)
{
	char name[256], *path = file_of(dir, tag, "img");
	const char *argv[8];
	struct vmtool t;
	int fd, ret, n = 0;

	snprintf(name, sizeof(name), "%s.img", tag);
	fd = openat(dirfd, name,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 || ftruncate(fd, (off_t)(gc->disk_mib << 20))) {
		ret = -errno;
		error("cannot make the disk image '%s': %s", path,
		      strerror(-ret));
		if (fd >= 0)
			close(fd);
		free(path);
		return ret;
	}
	close(fd);
	argv[n++] = gc->fs->mkfs;
	for (unsigned int i = 0; i < 3 && gc->fs->mkfs_opts[i]; i++)
		argv[n++] = gc->fs->mkfs_opts[i];
	argv[n++] = path;
	argv[n] = NULL;
	snprintf(name, sizeof(name), "%s.mkfs", tag);
	ret = vmtool_run(&t, argv, dirfd, name, gc->fs->package, 0, stop);
	vmtool_release(&t);
	free(path);
	return ret;
}

/* The watch over a boot: its phase, from the serial log's markers. */
struct watch {
	int fd; /* the serial log */
	off_t seen; /* bytes searched */
	char carry[64]; /* the end of what was searched, for a split mark */
	bool init, run; /* GUEST_MARK_INIT, GUEST_MARK_RUN seen */
	double start, run_at;
	double boot_timeout, run_timeout;
	bool boot_expired, run_expired;
};

/* Look at what the log grew by since the last look. */
static void watch_read(struct watch *w)
{
	char buf[4096 + sizeof(w->carry)];
	size_t keep = strlen(w->carry);
	ssize_t r;

	memcpy(buf, w->carry, keep);
	while ((r = pread(w->fd, buf + keep, 4096, w->seen)) > 0) {
		size_t n = keep + (size_t)r;

		w->seen += r;
		buf[n] = '\0';
		/* the console writes no NUL; one would hide a mark */
		for (size_t i = 0; i < n; i++)
			if (!buf[i])
				buf[i] = ' ';
		if (!w->init && strstr(buf, GUEST_MARK_INIT))
			w->init = true;
		if (!w->run && strstr(buf, GUEST_MARK_RUN)) {
			w->run = true;
			w->run_at = now_s();
		}
		keep = n < sizeof(w->carry) - 1 ? n : sizeof(w->carry) - 1;
		memmove(buf, buf + n - keep, keep);
	}
	memcpy(w->carry, buf, keep);
	w->carry[keep] = '\0';
}

static bool expired(void *ctx)
{
	struct watch *w = ctx;
	double t = now_s();

	watch_read(w);
	if (!w->run && t - w->start > w->boot_timeout)
		return w->boot_expired = true;
	if (w->run && t - w->run_at > w->run_timeout)
		return w->run_expired = true;
	return false;
}

/* The last @n lines of the file at @path, allocated ("" if none). */
static char *tail_of(const char *path, unsigned int n)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char *buf = xcalloc(65537, 1), *out;
	off_t end = fd >= 0 ? lseek(fd, 0, SEEK_END) : 0;
	off_t from = end > 65536 ? end - 65536 : 0;
	ssize_t r = fd >= 0 ? pread(fd, buf, (size_t)(end - from), from) : 0;

	if (fd >= 0)
		close(fd);
	buf[r > 0 ? r : 0] = '\0';
	/* carriage returns and NULs of a serial console */
	for (ssize_t i = 0; i < r; i++)
		if (buf[i] == '\r' || !buf[i])
			buf[i] = buf[i] == '\r' ? ' ' : '.';
	out = xstrdup(vmtool_tail(buf, n));
	free(buf);
	return out;
}

/* QEMU's command line, owned strings in @own (freed by the caller). */
static const char **qemu_argv(const struct guest_config *gc, const char *dir,
			      const char *tag, char **own)
{
	const char **a = xcalloc(48, sizeof(*a));
	char *serial = file_of(dir, tag, "serial");
	char *result = file_of(dir, tag, "result");
	char *img = file_of(dir, tag, "img");
	size_t len;
	int n = 0, k = 0;

	a[n++] = gc->qemu;
	a[n++] = "-nodefaults";
	a[n++] = "-no-user-config";
	a[n++] = "-display";
	a[n++] = "none";
	a[n++] = "-no-reboot";
	a[n++] = "-nic";
	a[n++] = "none";
	a[n++] = "-machine";
	a[n++] = "q35";
	a[n++] = "-accel";
	a[n++] = gc->kvm ? "kvm" : "tcg,thread=multi";
	a[n++] = "-cpu";
	a[n++] = gc->kvm ? "host" : "max";
	a[n++] = "-smp";
	own[k] = xmalloc(16);
	snprintf(own[k], 16, "%u", gc->cpus);
	a[n++] = own[k++];
	a[n++] = "-m";
	own[k] = xmalloc(24);
	snprintf(own[k], 24, "%uM", gc->memory_mib);
	a[n++] = own[k++];
	a[n++] = "-kernel";
	a[n++] = gc->kernel;
	a[n++] = "-initrd";
	a[n++] = gc->initramfs;
	len = strlen(GUEST_APPEND_BASE) +
	      (gc->append ? strlen(gc->append) : 0) + 2;
	own[k] = xmalloc(len);
	snprintf(own[k], len, "%s%s%s", GUEST_APPEND_BASE,
		 gc->append ? " " : "", gc->append ? gc->append : "");
	a[n++] = "-append";
	a[n++] = own[k++];
	len = strlen(serial) + 32;
	own[k] = xmalloc(len);
	snprintf(own[k], len, "file,id=con,path=%s", serial);
	a[n++] = "-chardev";
	a[n++] = own[k++];
	a[n++] = "-serial";
	a[n++] = "chardev:con";
	/* ioeventfd off: the guest's write to the port returns once QEMU
	 * has written it out, so that the power-off cannot overtake it */
	a[n++] = "-device";
	a[n++] = "virtio-serial-pci,ioeventfd=off";
	len = strlen(result) + 32;
	own[k] = xmalloc(len);
	snprintf(own[k], len, "file,id=res,path=%s", result);
	a[n++] = "-chardev";
	a[n++] = own[k++];
	a[n++] = "-device";
	a[n++] = "virtserialport,chardev=res,name=" GUEST_PORT;
	if (gc->fs->mkfs) {
		len = strlen(img) + 64;
		own[k] = xmalloc(len);
		snprintf(own[k], len, "file=%s,format=raw,if=virtio", img);
		a[n++] = "-drive";
		a[n++] = own[k++];
	}
	a[n] = NULL;
	free(serial);
	free(result);
	free(img);
	return a;
}

/* "NAME VALUE\n" at *@p: VALUE, allocated, and *@p past it; or NULL. */
static char *field(const char **p, const char *end, const char *name)
{
	size_t n = strlen(name), rest = (size_t)(end - *p);
	const char *nl;
	char *v;

	if (rest <= n + 1 || memcmp(*p, name, n) || (*p)[n] != ' ')
		return NULL;
	nl = memchr(*p + n + 1, '\n', rest - n - 1);
	if (!nl)
		return NULL;
	v = xstrndup(*p + n + 1, (size_t)(nl - (*p + n + 1)));
	*p = nl + 1;
	return v;
}

/*
 * The result port's file: the header, the JSON (written to @tag.json)
 * and the end mark. -EIO with a message when it is cut short or
 * malformed, -ENODATA without one when the guest wrote nothing.
 */
static int read_result(int dirfd, const char *dir, const char *tag,
		       struct guest_outcome *out)
{
	char name[256], *text, *status = NULL, *uptime = NULL, *jlen = NULL;
	const char *p, *end;
	struct stat st;
	int fd, ret = -EIO;
	unsigned long long len;
	ssize_t r;

	snprintf(name, sizeof(name), "%s.result", tag);
	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) || !st.st_size) {
		if (fd >= 0)
			close(fd);
		return -ENODATA;
	}
	/* its JSON is a result file's: bounded as report/json.c bounds */
	if (st.st_size > (off_t)1 << 30) {
		close(fd);
		error("the guest's result is %lld bytes: too large",
		      (long long)st.st_size);
		return -EIO;
	}
	text = xmalloc((size_t)st.st_size + 1);
	r = pread(fd, text, (size_t)st.st_size, 0);
	close(fd);
	if (r != st.st_size)
		goto out_bad;
	text[r] = '\0';
	p = text;
	end = text + r;
	if (strncmp(p, GUEST_MAGIC, strlen(GUEST_MAGIC)))
		goto out_bad;
	p += strlen(GUEST_MAGIC);
	status = field(&p, end, "status");
	uptime = field(&p, end, "uptime");
	out->release = field(&p, end, "release");
	out->cmdline = field(&p, end, "cmdline");
	jlen = field(&p, end, "json");
	if (!status || !uptime || !out->release || !out->cmdline || !jlen ||
	    sscanf(jlen, "%llu", &len) != 1 ||
	    len > (unsigned long long)(end - p))
		goto out_bad;
	out->status = atoi(status);
	out->uptime = strtod(uptime, NULL);
	if (strncmp(p + len, "\n" GUEST_END, strlen(GUEST_END) + 1) ||
	    p + len + 1 + strlen(GUEST_END) != end)
		goto out_bad;
	if (len) {
		snprintf(name, sizeof(name), "%s.json", tag);
		fd = openat(dirfd, name,
			    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				    O_CLOEXEC,
			    0600);
		if (fd < 0 || write(fd, p, len) != (ssize_t)len) {
			error("cannot keep the guest's result in '%s/%s': %s",
			      dir, name, strerror(errno));
			if (fd >= 0)
				close(fd);
			goto out;
		}
		close(fd);
		out->json = file_of(dir, tag, "json");
	}
	ret = 0;
	goto out;

out_bad:
	error("the guest's result port gave %s: cut short or malformed",
	      r > 0 ? "a partial result" : "nothing usable");
out:
	free(status);
	free(uptime);
	free(jlen);
	free(text);
	return ret;
}

/* The serial log's end, quoted after a message. */
static void quote_serial(const char *serial)
{
	char *tail = tail_of(serial, 20);

	msg_quote("  serial| ", *tail ? tail : "(nothing)");
	free(tail);
}

void guest_quote_serial(const struct guest_outcome *out)
{
	quote_serial(out->serial);
}

int guest_boot(const struct guest_config *gc, int dirfd, const char *dir,
	       const char *tag, struct guest_outcome *out,
	       const volatile sig_atomic_t *stop)
{
	struct command_io io = { .out = -1, .err = -1 };
	struct watch w = { .fd = -1 };
	char name[256], *own[8] = { 0 }, how[128];
	const char **argv = NULL;
	enum command_end end;
	int ret, status;

	memset(out, 0, sizeof(*out));
	out->status = -1;
	out->serial = file_of(dir, tag, "serial");
	if (gc->fs->mkfs) {
		ret = make_disk(gc, dirfd, dir, tag, stop);
		if (ret)
			return ret;
	}
	snprintf(name, sizeof(name), "%s.serial", tag);
	w.fd = openat(dirfd, name,
		      O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	snprintf(name, sizeof(name), "%s.qemu", tag);
	io.out = io.err = openat(
		dirfd, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		0600);
	if (w.fd < 0 || io.out < 0) {
		ret = -errno;
		error("cannot make the files of %s in '%s': %s", tag, dir,
		      strerror(-ret));
		goto out;
	}
	argv = qemu_argv(gc, dir, tag, own);
	w.start = now_s();
	w.boot_timeout = gc->boot_timeout_s;
	w.run_timeout = gc->run_timeout_s;
	io.expired = expired;
	io.ctx = &w;
	ret = command_run_io(argv, &io, stop, &status, &end);
	out->seconds = now_s() - w.start;
	if (ret == -ENOENT) {
		error("cannot run '%s': not found (on Debian: apt-get install qemu-system-x86)",
		      gc->qemu);
		goto out;
	}
	if (ret) {
		error("cannot run '%s': %s", gc->qemu, strerror(-ret));
		goto out;
	}
	watch_read(&w);
	if (end == COMMAND_TIMED_OUT) {
		if (w.boot_expired)
			error("%s: the guest did not %s within --boot-timeout %u s; the serial log's end:",
			      tag, w.init ? "start its run" : "boot",
			      gc->boot_timeout_s);
		else
			error("%s: the guest's run did not end within --run-timeout %u s; the serial log's end:",
			      tag, gc->run_timeout_s);
		quote_serial(out->serial);
		ret = -ETIMEDOUT;
		goto out;
	}
	if (end != COMMAND_ENDED) {
		ret = -EINTR;
		goto out;
	}
	ret = read_result(dirfd, dir, tag, out);
	if (!ret)
		goto out;
	if (ret != -ENODATA) {
		/* read_result() said what was wrong with it */
	} else if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		char *qtail;

		snprintf(name, sizeof(name), "%s/%s.qemu", dir, tag);
		qtail = tail_of(name, 5);
		error("%s: %s %s%s", tag, gc->qemu,
		      command_status(status, how, sizeof(how)),
		      *qtail ? "; it said:" : "");
		msg_quote("  | ", qtail);
		free(qtail);
	} else {
		error("%s: the guest %s; the serial log's end:", tag,
		      w.run  ? "stopped without a result" :
		      w.init ? "stopped before its run" :
			       "did not boot");
	}
	quote_serial(out->serial);
	ret = -EIO;
out:
	for (unsigned int i = 0; i < sizeof(own) / sizeof(*own); i++)
		free(own[i]);
	free(argv);
	if (w.fd >= 0)
		close(w.fd);
	if (io.out >= 0)
		close(io.out);
	return ret;
}

void guest_outcome_release(struct guest_outcome *out)
{
	free(out->release);
	free(out->cmdline);
	free(out->json);
	free(out->serial);
	memset(out, 0, sizeof(*out));
}
