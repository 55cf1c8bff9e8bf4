/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Result files that appear whole or not at all.
 */
#include <config.h>
#include "report/outfile.h"

#include <errno.h>
#include <jansson.h>
#include <string.h>
#include <unistd.h>

#include "base/msg.h"

FILE *outfile_open(struct outfile *o, const char *path)
{
	o->path = path;
	snprintf(o->tmp, sizeof(o->tmp), "%s.tmp%ld", path, (long)getpid());
	o->f = fopen(o->tmp, "we");
	if (!o->f)
		error("cannot write '%s': %s", o->tmp, strerror(errno));
	return o->f;
}

int outfile_commit(struct outfile *o)
{
	int bad = ferror(o->f);

	if (fclose(o->f) || bad) {
		unlink(o->tmp);
		return error("cannot write '%s': %s", o->tmp, strerror(errno));
	}
	if (rename(o->tmp, o->path)) {
		unlink(o->tmp);
		return error("cannot rename '%s' to '%s': %s", o->tmp, o->path,
			     strerror(errno));
	}
	return 0;
}

int outfile_json(const json_t *root, const char *path)
{
	struct outfile o;

	if (!outfile_open(&o, path))
		return -1;
	if (json_dumpf(root, o.f, JSON_INDENT(1) | JSON_REAL_PRECISION(17)) ||
	    fputc('\n', o.f) == EOF) {
		fclose(o.f);
		unlink(o.tmp);
		return error("cannot write '%s': %s", o.tmp, strerror(errno));
	}
	return outfile_commit(&o);
}
