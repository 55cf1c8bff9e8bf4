/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_CLI_WALK_H
#define VB_CLI_WALK_H

struct config;
struct engine;
struct loadfile;
struct report_config;
struct run_config;
struct workdir;

/*
 * Can @lf run on @e with the walk @cfg asks for (--resolve, --depth,
 * --prefix)? Checked before anything is created: an op with no form in
 * the mode (engine_check()), a probe on a kernel without RESOLVE_CACHED,
 * a walk with several clients per thread, fewer clients than [run N]
 * streams. 0, or -EINVAL with the message
 * printed (a usage error).
 */
int walk_check(const struct run_config *cfg, const struct engine *e,
	       const struct loadfile *lf);

/*
 * --resolve abs in any variant: the directories from / to -D, which it
 * resolves again at every op, must be changeable by root and the caller
 * alone (workchain_check()). 0, or -EPERM with the message printed (a
 * usage error), before anything is created.
 */
int walk_check_root(const struct config *cfg);

/*
 * --resolve abs: the components from / to the work directory @wd and the
 * mount points they cross, into @rc for the report (a warning if they
 * cannot be counted).
 */
void walk_root(struct report_config *rc, const struct workdir *wd);

#endif /* VB_CLI_WALK_H */
