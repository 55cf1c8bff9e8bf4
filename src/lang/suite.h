/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_LANG_SUITE_H
#define VB_LANG_SUITE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * struct suite: a suite's index (loadfiles/NAME.suite), the workloads
 * vfsbench suite NAME runs. One line per workload:
 *
 *   NAME  LOADFILE  CWD  WORKS  DESCRIPTION...
 *
 * CWD is private or shared (--cwd), WORKS the works of the peer's own
 * count in one pass of the loadfile (FxMark's line format), and the
 * comment lines before the first workload say what the suite is.
 */
enum suite_cwd { SUITE_CWD_PRIVATE, SUITE_CWD_SHARED };

struct suite_workload {
	char *name; /* "MRPL" */
	char *loadfile; /* a path, or the name of a built-in loadfile */
	enum suite_cwd cwd;
	unsigned int works; /* per pass */
	char *description;
};

struct suite {
	char *name; /* "fxmark" */
	char *source; /* where it was read: a path, or "NAME.suite (built-in)"
		       */
	struct suite_workload *w;
	unsigned int n;
};

/* Parse index @text (@len bytes) of @source: 0, or -EINVAL (said). */
int suite_parse(struct suite *s, const char *name, const char *source,
		const char *text, size_t len, const char *dir);

/*
 * The suite @spec: an index file when @spec names one, else NAME.suite in
 * the installed loadfiles directory, else a built-in suite. 0, or -errno
 * (said).
 */
int suite_load(struct suite *s, const char *spec);

void suite_release(struct suite *s);

#endif /* VB_LANG_SUITE_H */
