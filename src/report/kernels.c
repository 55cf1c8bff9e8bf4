/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vfsbench kernels' report: a line per boot, and the file that holds
 * every boot with the guest's own result in it.
 */
#include <config.h>
#include "report/kernels.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/msg.h"
#include "compare/resultfile.h"
#include "stats/summary.h"
#include "sys/env.h"
#include "workdir/outfile.h"

void report_kernels_boot(const struct kernels_record *kr, unsigned int b,
			 const struct resultfile *rf, unsigned int n)
{
	const struct kernels_boot *bt = &kr->boots[b];
	const struct kernels_kernel *k = &kr->kernels[bt->kernel];

	printf("boot %u of %u: %s (%s), %s: up in %.1f s, %.1f s in all", b + 1,
	       kr->nkernels * kr->boots_per_kernel, k->label, bt->release,
	       kr->accel, bt->uptime, bt->seconds);
	for (unsigned int v = 0; v < n; v++)
		for (unsigned int p = 0; p < rf[v].npoints; p++) {
			const struct resultfile_point *pt = &rf[v].points[p];
			struct summary s;

			if (!pt->nruns)
				continue;
			summary_of(&s, pt->ops_s, pt->nruns);
			printf("; %s%s%u client%s %.0f ops/s",
			       n > 1 ? rf[v].variant_label : "",
			       n > 1 ? " " : "", pt->clients,
			       pt->clients == 1 ? "" : "s", s.median);
		}
	printf("\n");
	fflush(stdout);
}

/* A string member, or null. */
static json_t *str(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *strings(const char *const *v, unsigned int n)
{
	json_t *a = json_array();

	for (unsigned int i = 0; i < n; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

static json_t *kernel_json(const struct kernels_kernel *k)
{
	json_t *o = json_object();

	json_object_set_new(o, "label", json_string(k->label));
	json_object_set_new(o, "image", json_string(k->image));
	json_object_set_new(o, "release", json_string(k->release));
	json_object_set_new(o, "version", json_string(k->version));
	json_object_set_new(o, "append", str(k->append));
	json_object_set_new(o, "initrd", str(k->initrd));
	json_object_set_new(o, "modules", str(k->modules));
	json_object_set_new(o, "modules_loaded",
			    strings(k->loaded, k->nloaded));
	json_object_set_new(o, "config", str(k->config));
	json_object_set_new(o, "config_sha256", str(k->config_sha256));
	return o;
}

/* Boot @b, with the guest's result read back; NULL with a message. */
static json_t *boot_json(const struct kernels_record *kr, unsigned int b)
{
	const struct kernels_boot *bt = &kr->boots[b];
	json_error_t jerr;
	json_t *o, *res;

	res = json_load_file(bt->json, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL,
			     &jerr);
	if (!res) {
		error("'%s': line %d: %s", bt->json, jerr.line, jerr.text);
		return NULL;
	}
	o = json_object();
	json_object_set_new(o, "index", json_integer(b));
	json_object_set_new(o, "kernel", json_integer(bt->kernel));
	json_object_set_new(o, "label",
			    json_string(kr->kernels[bt->kernel].label));
	json_object_set_new(o, "release", json_string(bt->release));
	json_object_set_new(o, "cmdline", json_string(bt->cmdline));
	json_object_set_new(o, "config_sha256",
			    str(kr->kernels[bt->kernel].config_sha256));
	json_object_set_new(o, "accel", json_string(kr->accel));
	json_object_set_new(o, "boot_seconds", json_real(bt->uptime));
	json_object_set_new(o, "wall_seconds", json_real(bt->seconds));
	json_object_set_new(o, "status", json_integer(bt->status));
	json_object_set_new(o, "result", res);
	return o;
}

int report_kernels_json(const struct kernels_record *kr, const char *path)
{
	json_t *root = json_object(), *opts = json_object();
	json_t *kernels = json_array(), *boots = json_array(), *argv;
	int ret = 0;

	json_object_set_new(root, "schema", json_string("vfsbench-kernels"));
	json_object_set_new(root, "schema_version",
			    json_integer(RESULTFILE_KERNELS_VERSION));
	json_object_set_new(root, "vfsbench_version",
			    json_string(PACKAGE_VERSION));
	argv = json_array();
	for (int i = 0; i < kr->argc; i++)
		json_array_append_new(argv, json_string(kr->argv[i]));
	json_object_set_new(root, "command_line", argv);
	json_object_set_new(opts, "boots", json_integer(kr->boots_per_kernel));
	json_object_set_new(opts, "order", json_string("alternate"));
	json_object_set_new(opts, "fs", json_string(kr->fs));
	json_object_set_new(opts, "disk_mib",
			    json_integer((json_int_t)kr->disk_mib));
	json_object_set_new(opts, "cpus", json_integer(kr->cpus));
	json_object_set_new(opts, "memory_mib", json_integer(kr->memory_mib));
	json_object_set_new(opts, "accel", json_string(kr->accel));
	json_object_set_new(opts, "qemu", json_string(kr->qemu));
	json_object_set_new(opts, "guest_args",
			    strings(kr->guest_argv, kr->guest_argc));
	json_object_set_new(root, "options", opts);
	json_object_set_new(root, "complete", json_boolean(kr->complete));
	json_object_set_new(root, "host", env_json(kr->host));
	for (unsigned int k = 0; k < kr->nkernels; k++)
		json_array_append_new(kernels, kernel_json(&kr->kernels[k]));
	json_object_set_new(root, "kernels", kernels);
	for (unsigned int b = 0; !ret && b < kr->nboots; b++) {
		json_t *o = boot_json(kr, b);

		if (o)
			json_array_append_new(boots, o);
		else
			ret = -1;
	}
	json_object_set_new(root, "boots", boots);
	if (!ret)
		ret = outfile_json(root, path);
	json_decref(root);
	return ret;
}
