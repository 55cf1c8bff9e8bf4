/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_REPORT_WALK_H
#define VB_REPORT_WALK_H

struct loadfile;
struct report_config;
struct run_config;

/*
 * How many components a lookup of a variant walks: @added in front of
 * every path an op resolves (--depth, --prefix shared's own directory,
 * --resolve abs's path from /), @mounts the mount points those cross
 * (abs), @own the mean of the [run] section's own paths.
 */
struct walk_figures {
	unsigned int added;
	unsigned int mounts;
	double own;
};

void walk_figures(struct walk_figures *w, const struct report_config *rc,
		  const struct run_config *cfg, const struct loadfile *lf);

/*
 * Whether the directories above the client directory are one chain for
 * all clients ("shared") or each client's own ("private"): --prefix
 * shared, and --cwd shared too, where they are the shared directory's.
 */
const char *walk_prefix(const struct run_config *cfg);

#endif /* VB_REPORT_WALK_H */
