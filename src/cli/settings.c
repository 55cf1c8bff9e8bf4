/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * struct config's release: what options_parse() and the option handlers
 * allocated in it. A file of its own so that the files that fill it
 * (options.c, optvalue.c, variantopts.c) share the struct without
 * including each other.
 */
#include <config.h>
#include "cli/settings.h"

#include <stdlib.h>
#include <string.h>

void config_release(struct config *cfg)
{
	for (unsigned int i = 0; i < cfg->nloadfiles; i++)
		free(cfg->loadfiles[i]);
	free(cfg->loadfiles);
	for (unsigned int i = 0; i < cfg->naxes; i++)
		variant_axis_release(&cfg->axes[i]);
	free(cfg->axes);
	for (unsigned int i = 0; cfg->variants && i < cfg->nvariants; i++)
		variant_config_release(&cfg->variants[i]);
	free(cfg->variants);
	free(cfg->percentiles);
	free(cfg->loadfile);
	free(cfg->directory);
	free(cfg->engine);
	free(cfg->run.clients);
	free(cfg->basedir);
	free(cfg->json);
	free(cfg->csv);
	free(cfg->ministat);
	free(cfg->placement);
	free(cfg->perf_ctl);
	free(cfg->profile_event);
	free(cfg->exec_before);
	free(cfg->exec_after);
	cpuopts_release(&cfg->cpus);
	memset(cfg, 0, sizeof(*cfg));
}
