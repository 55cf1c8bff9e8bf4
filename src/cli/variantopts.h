/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_CLI_VARIANTOPTS_H
#define VB_CLI_VARIANTOPTS_H

#include <stdbool.h>

#include "cli/settings.h"
#include "cli/usage.h"

/* --variant OPTION=V1,V2,...: checked and appended to @cfg->axes. */
enum options_action variantopts_axis(struct config *cfg, const char *arg);

/*
 * Once the whole command line is parsed: @cfg->variants, every -c times
 * every --variant value (at least one variant), each with its own
 * settings, and --order shuffled by default when there are several.
 * @fs_set, @order_set: --fs-struct, --order given.
 */
enum options_action variantopts_build(struct config *cfg, bool fs_set,
				      bool order_set);

#endif /* VB_CLI_VARIANTOPTS_H */
