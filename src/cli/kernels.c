/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vfsbench kernels (kernels.h): the kernels found and checked, their
 * guests' initramfs made, the boots alternated, each boot's result read
 * back, then compare's table with the boot as the unit and one result
 * file of every boot.
 */
#include <config.h>
#include "cli/kernels.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/exit.h"
#include "base/msg.h"
#include "cli/kernelguest.h"
#include "cli/steps.h"
#include "compare/compare.h"
#include "compare/compareset.h"
#include "report/kernels.h"
#include "report/report.h"
#include "run/signals.h"
#include "sys/cpulist.h"
#include "sys/env.h"
#include "vm/guest.h"
#include "vm/initramfs.h"
#include "vm/kimage.h"
#include "vm/modset.h"
#include "workdir/outfile.h"
#include "workdir/workchain.h"
#include "workdir/workdir.h"

/* A kernel as found, and what its guests boot with. */
struct found {
	struct kimage img;
	char *label;
	char *modules; /* its modules' directory, or NULL: all built in */
	char *config;
	char config_hex[65];
	struct modset mods;
	char *initramfs;
};

/* Everything an invocation holds, for its steps and its end. */
struct kernels_run {
	struct kernels_config kc;
	struct guest_plan plan;
	struct found *found;
	const struct guest_fs *fs;
	bool kvm;
	unsigned int cpus, memory_mib, boot_timeout_s, run_timeout_s;
	struct workdir wd;
	bool have_wd;
	struct env host;
	/* the boots done: their records, and their results' entries */
	struct kernels_boot *boots;
	struct guest_outcome *outcomes;
	unsigned int nboots;
	struct resultfile *rf;
	unsigned int nrf;
};

/* @prog in PATH (or a path), as posix_spawnp() would find it. */
static bool in_path(const char *prog)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX];

	if (strchr(prog, '/'))
		return !access(prog, X_OK);
	for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
		size_t n = strcspn(p, ":");

		snprintf(buf, sizeof(buf), "%.*s%s%s", (int)n, p, n ? "/" : "",
			 prog);
		if (!access(buf, X_OK))
			return true;
		p += n + (p[n] == ':');
	}
	return false;
}

/* A directory that exists, or NULL. */
static char *dir_if(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode) ? xstrdup(path) : NULL;
}

/*
 * The modules of @f: --modules, else lib/modules/RELEASE beside the
 * image's directory (an unpacked Debian package: boot/ and lib/), else
 * the host's /lib/modules/RELEASE, else none.
 */
static int find_modules(struct found *f, const struct kernel_spec *k)
{
	char *dir, *buf;
	size_t len;

	if (k->modules) {
		f->modules = dir_if(k->modules);
		if (!f->modules) {
			usage_error(
				"--modules '%s' of the kernel '%s' is not a directory",
				k->modules, k->image);
			return -ENOENT;
		}
		return 0;
	}
	dir = xstrdup(k->image);
	*(strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir) = '\0';
	len = strlen(dir) + strlen(f->img.release) + 32;
	buf = xmalloc(len);
	snprintf(buf, len, "%s../lib/modules/%s", *dir ? dir : "./",
		 f->img.release);
	f->modules = dir_if(buf);
	if (!f->modules) {
		snprintf(buf, len, "/lib/modules/%s", f->img.release);
		f->modules = dir_if(buf);
	}
	free(buf);
	free(dir);
	return 0;
}

/* Each kernel's image, release, label, modules and config. */
static int find_kernels(struct kernels_run *r)
{
	const struct kernels_config *kc = &r->kc;

	r->found = xcalloc(kc->nkernels, sizeof(*r->found));
	for (unsigned int i = 0; i < kc->nkernels; i++) {
		const struct kernel_spec *k = &kc->kernels[i];
		struct found *f = &r->found[i];
		struct stat st;

		if (kimage_read(&f->img, k->image) || find_modules(f, k) ||
		    kimage_config(&f->img, k->image, k->config, &f->config,
				  f->config_hex))
			return -EINVAL;
		if (k->initrd &&
		    (stat(k->initrd, &st) || !S_ISREG(st.st_mode))) {
			usage_error(
				"--initrd '%s' of the kernel '%s' is not a file",
				k->initrd, k->image);
			return -EINVAL;
		}
		f->label = xstrdup(k->label ? k->label : f->img.release);
		for (unsigned int j = 0; j < i; j++)
			if (!strcmp(r->found[j].label, f->label)) {
				usage_error(
					"two kernels would be labelled '%s': give each a --label",
					f->label);
				return -EINVAL;
			}
	}
	return 0;
}

/* The host's programs a boot needs, before anything is made. */
static int find_programs(struct kernels_run *r)
{
	const char *qemu = r->kc.qemu ? r->kc.qemu : "qemu-system-x86_64";
	const char *busybox = r->kc.busybox ? r->kc.busybox : "/bin/busybox";
	bool modules = false;

	for (unsigned int i = 0; i < r->kc.nkernels; i++)
		modules = modules || r->found[i].modules;
	if (!in_path(qemu))
		return error(
			"cannot find '%s' (on Debian: apt-get install qemu-system-x86)",
			qemu);
	if (access(busybox, R_OK))
		return error(
			"cannot read '%s', the guest's busybox (on Debian: apt-get install busybox-static)",
			busybox);
	if (r->fs->mkfs && !in_path(r->fs->mkfs))
		return error(
			"cannot find '%s' for --fs %s (on Debian: apt-get install %s)",
			r->fs->mkfs, r->fs->name, r->fs->package);
	if (modules && (!in_path("depmod") || !in_path("modprobe")))
		return error(
			"cannot find depmod and modprobe, which resolve the guest's modules (on Debian: apt-get install kmod)");
	return 0;
}

/* The CPUs vfsbench may use: the guest's default. */
static unsigned int host_cpus(void)
{
	struct cpulist l = { 0 };
	unsigned int n = 1;

	if (!cpulist_affinity(&l, 0) && l.n)
		n = l.n;
	free(l.cpu);
	return n;
}

/* The settings of every boot, from the options and the machine. */
static int settle(struct kernels_run *r)
{
	const struct kernels_config *kc = &r->kc;

	r->fs = guest_fs_find(kc->fs);
	if (!r->fs) {
		usage_error("bad --fs '%s': expected %s", kc->fs,
			    guest_fs_names);
		return -EINVAL;
	}
	r->kvm = kc->accel == ACCEL_KVM ||
		 (kc->accel == ACCEL_AUTO && guest_kvm_usable());
	if (kc->accel == ACCEL_KVM && !guest_kvm_usable()) {
		usage_error(
			"--accel kvm: /dev/kvm cannot run a guest here (no KVM, or no access); --accel tcg emulates");
		return -EINVAL;
	}
	r->cpus = kc->cpus ? kc->cpus : host_cpus();
	r->memory_mib = kc->memory_mib ? kc->memory_mib : 1024;
	r->boot_timeout_s = kc->boot_timeout_s ? kc->boot_timeout_s :
			    r->kvm	       ? 120 :
						 600;
	r->run_timeout_s =
		kc->run_timeout_s ? kc->run_timeout_s :
		r->plan.seconds	  ? (unsigned int)(2 * r->plan.seconds + 300) :
				    3600;
	return 0;
}

/* --json must not be a kernel, an initrd, a config or a loadfile. */
static int check_output(const struct kernels_run *r)
{
	const struct kernels_config *kc = &r->kc;
	unsigned int n = 0, max = 1 + 3 * kc->nkernels + r->plan.nfiles;
	struct outfile_name *names;
	char msg[1024];
	int ret = 0;

	if (!kc->json)
		return 0;
	names = xcalloc(max, sizeof(*names));
	names[n++] = (struct outfile_name){ "--json", kc->json, false };
	for (unsigned int i = 0; i < kc->nkernels; i++) {
		names[n++] =
			(struct outfile_name){ "--kernel", kc->kernels[i].image,
					       true };
		if (kc->kernels[i].initrd)
			names[n++] = (struct outfile_name){
				"--initrd", kc->kernels[i].initrd, true
			};
		if (r->found[i].config)
			names[n++] = (struct outfile_name){ "--config",
							    r->found[i].config,
							    true };
	}
	for (unsigned int i = 0; i < r->plan.nfiles; i++)
		names[n++] =
			(struct outfile_name){ "-c", r->plan.files[i], true };
	if (outfile_check(names, n, msg, sizeof(msg))) {
		usage_error("%s", msg);
		ret = -EINVAL;
	}
	free(names);
	return ret;
}

/* The modules every guest loads: virtio for the port and the disk, the fs. */
static void wanted(const struct kernels_run *r, const char **want,
		   unsigned int *n)
{
	*n = 0;
	want[(*n)++] = "virtio_pci";
	want[(*n)++] = "virtio_console";
	if (r->fs->mkfs)
		want[(*n)++] = "virtio_blk";
	if (r->fs->module)
		want[(*n)++] = r->fs->module;
}

/* Kernel @i's modules resolved and its guests' initramfs written. */
static int prepare_kernel(struct kernels_run *r, unsigned int i)
{
	struct found *f = &r->found[i];
	const struct kernel_spec *k = &r->kc.kernels[i];
	struct initramfs_spec is = { 0 };
	const char *want[4];
	char name[32], *stage, cwd[PATH_MAX];
	unsigned int nwant;
	int fd, ret;

	snprintf(name, sizeof(name), "k%u", i);
	ret = workdir_mkdir(&r->wd, name, NULL);
	if (ret)
		return ret;
	stage = xmalloc(strlen(r->wd.path) + sizeof(name) + 2);
	sprintf(stage, "%s/%s", r->wd.path, name);
	wanted(r, want, &nwant);
	if (f->modules)
		ret = modset_resolve(&f->mods, f->modules, f->img.release,
				     stage, want, nwant, &signals.count);
	free(stage);
	if (ret)
		return ret;
	if (!getcwd(cwd, sizeof(cwd)))
		return error("cannot name the current directory: %s",
			     strerror(errno));
	snprintf(name, sizeof(name), "k%u.initramfs", i);
	fd = openat(r->wd.fd, name,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return error("cannot make '%s/%s': %s", r->wd.path, name,
			     strerror(errno));
	is.busybox = r->kc.busybox ? r->kc.busybox : "/bin/busybox";
	is.mods = f->modules ? &f->mods : NULL;
	is.initrd = k->initrd;
	is.argv = (const char *const *)r->kc.guest_argv;
	is.argc = r->kc.guest_argc;
	is.cwd = cwd;
	is.files = (const char *const *)r->plan.files;
	is.nfiles = r->plan.nfiles;
	is.fs = r->fs->name;
	ret = initramfs_write(&is, fd);
	if (close(fd) && !ret)
		ret = error("cannot write '%s/%s': %s", r->wd.path, name,
			    strerror(errno));
	if (ret)
		return ret;
	f->initramfs = xmalloc(strlen(r->wd.path) + sizeof(name) + 2);
	sprintf(f->initramfs, "%s/%s", r->wd.path, name);
	if (!r->kc.quiet)
		fprintf(stderr,
			"vfsbench kernels: %s: %s, %s, %u module%s to load\n",
			f->label, f->img.release,
			f->modules ? f->modules : "no modules directory",
			f->mods.n, f->mods.n == 1 ? "" : "s");
	return 0;
}

/* The record of everything, for the report and the JSON. */
static void record(const struct kernels_run *r, struct kernels_record *kr,
		   struct kernels_kernel *kk, int cmdc, const char **cmdv)
{
	for (unsigned int i = 0; i < r->kc.nkernels; i++) {
		const struct found *f = &r->found[i];
		const struct kernel_spec *k = &r->kc.kernels[i];

		kk[i] = (struct kernels_kernel){
			.label = f->label,
			.image = k->image,
			.release = f->img.release,
			.version = f->img.version,
			.append = k->append,
			.initrd = k->initrd,
			.modules = f->modules,
			.config = f->config,
			.config_sha256 = f->config ? f->config_hex : NULL,
			.loaded = (const char *const *)f->mods.names,
			.nloaded = f->mods.n,
		};
	}
	*kr = (struct kernels_record){
		.kernels = kk,
		.nkernels = r->kc.nkernels,
		.boots = r->boots,
		.nboots = r->nboots,
		.boots_per_kernel = r->kc.boots,
		.fs = r->fs->name,
		.disk_mib = r->kc.disk_mib,
		.cpus = r->cpus,
		.memory_mib = r->memory_mib,
		.accel = r->kvm ? "kvm" : "tcg",
		.qemu = r->kc.qemu ? r->kc.qemu : "qemu-system-x86_64",
		.guest_argv = (const char *const *)r->kc.guest_argv,
		.guest_argc = r->kc.guest_argc,
		.argv = cmdv,
		.argc = cmdc,
		.complete = r->nboots == r->kc.nkernels * r->kc.boots,
		.host = &r->host,
	};
}

/* Boot @b (kernel @k) once; 0, or an exit status. */
static int boot_once(struct kernels_run *r, unsigned int b, unsigned int k,
		     struct kernels_record *kr)
{
	const struct found *f = &r->found[k];
	const struct kernel_spec *ks = &r->kc.kernels[k];
	struct guest_outcome *out = &r->outcomes[b];
	struct guest_config gc = {
		.qemu = r->kc.qemu ? r->kc.qemu : "qemu-system-x86_64",
		.kernel = ks->image,
		.initramfs = f->initramfs,
		.append = ks->append,
		.fs = r->fs,
		.disk_mib = r->kc.disk_mib,
		.cpus = r->cpus,
		.memory_mib = r->memory_mib,
		.kvm = r->kvm,
		.boot_timeout_s = r->boot_timeout_s,
		.run_timeout_s = r->run_timeout_s,
	};
	unsigned int before = r->nrf, total = r->kc.nkernels * r->kc.boots;
	char tag[32], img[48];
	int ret;

	snprintf(tag, sizeof(tag), "boot%u", b + 1);
	if (!r->kc.quiet)
		fprintf(stderr, "vfsbench kernels: boot %u of %u: %s\n", b + 1,
			total, f->label);
	ret = guest_boot(&gc, r->wd.fd, r->wd.path, tag, out, &signals.count);
	/* the image is the boot's alone, and may be large */
	snprintf(img, sizeof(img), "%s.img", tag);
	unlinkat(r->wd.fd, img, 0);
	if (ret == -EINTR || signals.count)
		return VB_EXIT_SIGNAL(signals.last);
	if (ret)
		return VB_EXIT_RUNTIME;
	if (out->status) {
		error("boot %u (%s): vfsbench in the guest exited with status %d; the serial log's end:",
		      b + 1, f->label, out->status);
		guest_quote_serial(out);
		return VB_EXIT_RUNTIME;
	}
	if (!out->json ||
	    resultfile_read(out->json, b, false, &r->rf, &r->nrf)) {
		error("boot %u (%s): no result of the guest's run", b + 1,
		      f->label);
		return VB_EXIT_RUNTIME;
	}
	for (unsigned int i = before; i < r->nrf; i++) {
		r->rf[i].kernel = k;
		r->rf[i].kernel_label = xstrdup(f->label);
		r->rf[i].boot = b;
		r->rf[i].file = 0;
	}
	r->boots[b] = (struct kernels_boot){
		.kernel = k,
		.release = out->release,
		.cmdline = out->cmdline,
		.uptime = out->uptime,
		.seconds = out->seconds,
		.status = out->status,
		.json = out->json,
	};
	r->nboots = b + 1;
	kr->nboots = r->nboots;
	report_kernels_boot(kr, b, &r->rf[before], r->nrf - before);
	steps_check_stdout();
	return 0;
}

/* The boots, alternated: A B A B ... for --boots rounds. */
static int boot_all(struct kernels_run *r, struct kernels_record *kr)
{
	unsigned int nk = r->kc.nkernels, total = nk * r->kc.boots;
	int status = 0;

	r->boots = xcalloc(total, sizeof(*r->boots));
	r->outcomes = xcalloc(total, sizeof(*r->outcomes));
	kr->boots = r->boots;
	for (unsigned int b = 0; !status && b < total; b++)
		status = boot_once(r, b, b % nk, kr);
	return status;
}

/* compare's table of the boots, each kernel a side. */
static int compare_boots(struct kernels_run *r)
{
	struct compare_config cc = {
		.metric = CMP_OPS,
		.test = TEST_MWU,
		.correction = PADJUST_BH,
		.confidence = 0.95,
		.threshold = COMPARE_THRESHOLD,
	};
	struct compareset set;
	int ret;

	/* the comparisons take the entries over */
	ret = compareset_build_from(&set, &cc, r->rf, r->nrf);
	r->rf = NULL;
	r->nrf = 0;
	if (!ret)
		report_compareset(&set);
	compareset_release(&set);
	return ret;
}

static void kernels_release(struct kernels_run *r)
{
	for (unsigned int i = 0; r->found && i < r->kc.nkernels; i++) {
		struct found *f = &r->found[i];

		free(f->label);
		free(f->modules);
		free(f->config);
		free(f->initramfs);
		modset_release(&f->mods);
	}
	free(r->found);
	for (unsigned int b = 0;
	     r->outcomes && b < r->kc.nkernels * r->kc.boots; b++)
		guest_outcome_release(&r->outcomes[b]);
	free(r->outcomes);
	free(r->boots);
	resultfile_release_all(r->rf, r->nrf);
	env_release(&r->host);
	guest_plan_release(&r->plan);
	kernels_config_release(&r->kc);
}

/* Checks and settings, before anything is made: 0 or an exit status. */
static int check_all(struct kernels_run *r)
{
	if (!r->kc.directory) {
		const char *t = getenv("TMPDIR");

		r->kc.directory = xstrdup(t && *t ? t : "/tmp");
	}
	/* QEMU, depmod and mkfs open the boots' files by their paths */
	if (workchain_check(r->kc.directory, "vfsbench kernels -D",
			    "; give a -D that only root and you can change") ||
	    kernels_guest_check(&r->plan, r->kc.guest_argv, r->kc.guest_argc) ||
	    settle(r) || find_kernels(r) || check_output(r))
		return VB_EXIT_USAGE;
	return find_programs(r) ? VB_EXIT_RUNTIME : 0;
}

int kernels_main(int argc, const char **argv, bool quiet, int cmdc,
		 const char **cmdv)
{
	struct kernels_run r = { 0 };
	struct kernels_kernel *kk = NULL;
	struct kernels_record kr;
	enum options_action act;
	int status, ret;

	act = kernels_options(&r.kc, argc, argv);
	if (act != OPTIONS_RUN) {
		kernels_release(&r);
		return act == OPTIONS_EXIT_OK ? VB_EXIT_OK : VB_EXIT_USAGE;
	}
	r.kc.quiet = r.kc.quiet || quiet;
	status = check_all(&r);
	if (status)
		goto out;
	env_collect(&r.host, r.kc.directory);
	ret = workdir_create(&r.wd, r.kc.directory);
	if (ret) {
		status = ret == -ENOENT || ret == -ENOTDIR || ret == -ELOOP ?
				 VB_EXIT_USAGE :
				 VB_EXIT_RUNTIME;
		goto out;
	}
	r.have_wd = true;
	steps_guard_workdir(&r.wd);
	for (unsigned int i = 0; !status && i < r.kc.nkernels; i++) {
		ret = prepare_kernel(&r, i);
		/* a module the kernel lacks is the kernel's, as given */
		if (ret)
			status = signals.count	? VB_EXIT_SIGNAL(signals.last) :
				 ret == -ENOENT ? VB_EXIT_USAGE :
						  VB_EXIT_RUNTIME;
	}
	kk = xcalloc(r.kc.nkernels, sizeof(*kk));
	record(&r, &kr, kk, cmdc, cmdv);
	if (!status)
		status = boot_all(&r, &kr);
	if (!status && compare_boots(&r))
		status = VB_EXIT_RUNTIME;
	kr.complete = r.nboots == r.kc.nkernels * r.kc.boots;
	if (!status && r.kc.json && report_kernels_json(&kr, r.kc.json))
		status = VB_EXIT_RUNTIME;
	if (status && r.kc.json)
		fprintf(stderr,
			"vfsbench kernels: no result file written: %s\n",
			signals.count ? "stopped by a signal" :
					"not every boot completed");
out:
	steps_guard_workdir(NULL);
	if (r.have_wd && steps_finish_workdir(false, &r.wd, false, true) &&
	    !status)
		status = VB_EXIT_RUNTIME;
	free(kk);
	kernels_release(&r);
	return steps_end_status(status);
}
