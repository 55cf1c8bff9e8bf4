/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * resultfile_read(): a result file opened and parsed (jansson; bad JSON
 * is reported at its line and column), its schema and version checked,
 * then handed to the reader of its kind: resultsweep.c for runs,
 * resultfdscale.c for fdscale steps. Above those readers, so that they
 * need not call back into it.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/msg.h"
#include "compare/jsonfield.h"
#include "compare/resultfdscale.h"
#include "compare/resultfile.h"
#include "compare/resultkernels.h"
#include "compare/resultlabel.h"
#include "compare/resultsweep.h"

/*
 * "schema" and "schema_version": which kind of file this is; *@kernels
 * for a vfsbench kernels file, whose boots are results of runs.
 */
static int read_schema(struct resultfile *rf, json_t *root, bool *kernels)
{
	json_t *schema = json_object_get(root, "schema"), *version;
	const char *name;
	int max;

	if (!json_is_object(root) || !json_is_string(schema)) {
		error("'%s': not a vfsbench result file (no \"schema\" member)",
		      rf->path);
		return -EINVAL;
	}
	name = json_string_value(schema);
	if (!strcmp(name, "vfsbench-result"))
		rf->kind = RESULTFILE_SWEEP;
	else if (!strcmp(name, "vfsbench-fdscale"))
		rf->kind = RESULTFILE_FDSCALE;
	else if (!strcmp(name, "vfsbench-kernels"))
		*kernels = true;
	else {
		error("'%s': not a vfsbench result file (schema '%s')",
		      rf->path, name);
		return -EINVAL;
	}
	version =
		jsonfield_member(rf->path, root, "", "schema_version",
				 jsonfield_is_count, "a non-negative integer");
	if (!version)
		return -EINVAL;
	rf->schema_version = json_integer_value(version);
	if (rf->schema_version < 1) {
		error("'%s': schema_version: %lld is not a version", rf->path,
		      rf->schema_version);
		return -EINVAL;
	}
	max = *kernels			     ? RESULTFILE_KERNELS_VERSION :
	      rf->kind == RESULTFILE_FDSCALE ? RESULTFILE_FDSCALE_VERSION :
					       RESULTFILE_VERSION;
	if (rf->schema_version > max) {
		error("'%s': schema_version %lld is newer than this vfsbench reads (%d): use a newer vfsbench",
		      rf->path, rf->schema_version, max);
		return -EINVAL;
	}
	return 0;
}

/* jansson's reader on a file descriptor, which keeps read()'s errno. */
struct fd_source {
	int fd;
	int err;
};

static size_t read_source(void *buf, size_t len, void *data)
{
	struct fd_source *src = data;
	ssize_t n = read(src->fd, buf, len);

	if (n < 0) {
		src->err = errno;
		return (size_t)-1;
	}
	return (size_t)n;
}

int resultfile_read(const char *path, unsigned int file, bool steps,
		    struct resultfile **out, unsigned int *nout)
{
	struct fd_source src = { 0 };
	struct resultfile *rf;
	unsigned int n = 1;
	bool kernels = false;
	json_error_t jerr;
	json_t *root;
	int ret;

	/* a FIFO's open and read block: a signal (EINTR) ends them, quietly */
	src.fd = open(path, O_RDONLY | O_CLOEXEC);
	if (src.fd < 0) {
		ret = -errno;
		if (ret != -EINTR)
			error("cannot open '%s': %s", path, strerror(errno));
		return ret;
	}
	/* JSON_ALLOW_NUL: the marker of a string kept as bytes (jsonstr.h) */
	root = json_load_callback(read_source, &src,
				  JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL,
				  &jerr);
	close(src.fd);
	if (!root && src.err) {
		if (src.err != EINTR)
			error("cannot read '%s': %s", path, strerror(src.err));
		return -src.err;
	}
	if (!root) {
		error("'%s': line %d, column %d: not valid JSON: %s", path,
		      jerr.line, jerr.column, jerr.text);
		return -EINVAL;
	}
	rf = xcalloc(1, sizeof(*rf));
	rf->path = xstrdup(path);
	rf->label = resultlabel_base(path);
	rf->file = file;
	rf->nvariants = 1;
	ret = read_schema(rf, root, &kernels);
	if (!ret && kernels)
		ret = resultkernels_read(&rf, &n, root);
	else if (!ret && rf->kind == RESULTFILE_FDSCALE && steps)
		ret = resultfdscale_read(rf, root);
	else if (!ret && rf->kind == RESULTFILE_SWEEP)
		ret = resultsweep_read(&rf, &n, root);
	/* each variant's own profiles, for compare/profdiff.h */
	for (unsigned int i = 0; !ret && i < n; i++) {
		json_t *all = json_object_get(root, "profiles"), *mine, *p;
		size_t k;

		if (!json_is_array(all))
			continue;
		mine = json_array();
		for (k = 0; (p = json_array_get(all, k)); k++)
			if (json_integer_value(json_object_get(p, "variant")) ==
			    (json_int_t)rf[i].variant)
				json_array_append(mine, p);
		rf[i].profiles = mine;
	}
	json_decref(root);
	if (ret) {
		resultfile_release_all(rf, n);
		return ret;
	}
	*out = xrealloc(*out, (*nout + n) * sizeof(**out));
	memcpy(*out + *nout, rf, n * sizeof(*rf));
	*nout += n;
	free(rf);
	return 0;
}
