/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The boots of a vfsbench kernels result read back: kernels[] for their
 * labels, boots[] each with its kernel and the guest's own result.
 */
#include <config.h>
#include "compare/resultkernels.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/msg.h"
#include "compare/jsonfield.h"
#include "compare/resultlabel.h"
#include "compare/resultsweep.h"

/* The embedded result of boots[@b], as a file of its own would be. */
static int read_boot(struct resultfile **out, unsigned int *nout,
		     const struct resultfile *top, json_t *boot, unsigned int b,
		     unsigned int kernel, const char *label)
{
	struct resultfile *rf = xcalloc(1, sizeof(*rf));
	json_t *res, *schema, *version;
	unsigned int n = 1;
	char where[64];
	int ret;

	snprintf(where, sizeof(where), "boots[%u]", b);
	res = jsonfield_object(top->path, boot, where, "result");
	if (!res) {
		free(rf);
		return -EINVAL;
	}
	schema = json_object_get(res, "schema");
	version = json_object_get(res, "schema_version");
	if (!json_is_string(schema) ||
	    strcmp(json_string_value(schema), "vfsbench-result") ||
	    !json_is_integer(version) || json_integer_value(version) < 1 ||
	    json_integer_value(version) > RESULTFILE_VERSION) {
		error("'%s': %s.result: not a vfsbench result of runs this vfsbench reads (schema vfsbench-result, version 1 to %d)",
		      top->path, where, RESULTFILE_VERSION);
		free(rf);
		return -EINVAL;
	}
	/* its messages name the boot */
	rf->path = xmalloc(strlen(top->path) + sizeof(where) + 16);
	sprintf(rf->path, "%s (%s.result)", top->path, where);
	rf->label = xstrdup(label);
	rf->file = top->file;
	rf->kind = RESULTFILE_SWEEP;
	rf->schema_version = json_integer_value(version);
	rf->nvariants = 1;
	rf->kernel = kernel;
	rf->kernel_label = xstrdup(label);
	rf->boot = b;
	ret = resultsweep_read(&rf, &n, res);
	for (unsigned int v = 0; v < n; v++) {
		free(rf[v].path);
		rf[v].path = xstrdup(top->path);
	}
	*out = xrealloc(*out, (*nout + n) * sizeof(**out));
	memcpy(*out + *nout, rf, n * sizeof(*rf));
	*nout += n;
	free(rf);
	return ret;
}

int resultkernels_read(struct resultfile **rfp, unsigned int *n, json_t *root)
{
	struct resultfile top = **rfp, *out = NULL;
	unsigned int nout = 0, nk;
	json_t *kernels, *boots, *b;
	char **labels;
	int ret = 0;
	size_t i;

	kernels = jsonfield_member(top.path, root, "", "kernels",
				   jsonfield_is_array, "an array");
	boots = jsonfield_member(top.path, root, "", "boots",
				 jsonfield_is_array, "an array");
	if (!kernels || !boots)
		return -EINVAL;
	nk = (unsigned int)json_array_size(kernels);
	if (!nk || nk > 1000 || !json_array_size(boots)) {
		error("'%s': kernels and boots: expected 1 to 1000 kernels and a boot at least",
		      top.path);
		return -EINVAL;
	}
	labels = xcalloc(nk, sizeof(*labels));
	for (unsigned int k = 0; !ret && k < nk; k++) {
		char where[32];
		json_t *kern;

		snprintf(where, sizeof(where), "kernels[%u]", k);
		kern = json_array_get(kernels, k);
		if (!json_is_object(kern)) {
			ret = error("'%s': %s: expected an object", top.path,
				    where);
			break;
		}
		if (jsonfield_str(top.path, kern, where, "label", &labels[k]))
			ret = -EINVAL;
		else
			labels[k] = resultlabel_sanitize(labels[k]);
	}
	json_array_foreach(boots, i, b)
	{
		char where[32];
		uint64_t k;

		if (ret)
			break;
		snprintf(where, sizeof(where), "boots[%zu]", i);
		if (!json_is_object(b)) {
			ret = error("'%s': %s: expected an object", top.path,
				    where);
		} else if (jsonfield_u64(top.path, b, where, "kernel", &k)) {
			ret = -EINVAL;
		} else if (k >= nk) {
			ret = error(
				"'%s': %s.kernel: %llu names no kernel (kernels[] has %u)",
				top.path, where, (unsigned long long)k, nk);
		} else {
			ret = read_boot(&out, &nout, &top, b, (unsigned int)i,
					(unsigned int)k, labels[k]);
		}
	}
	for (unsigned int k = 0; k < nk; k++)
		free(labels[k]);
	free(labels);
	/* the caller's entry gives way to the boots' */
	resultfile_release(*rfp);
	free(*rfp);
	*rfp = out;
	*n = nout;
	return ret ? -EINVAL : 0;
}
