/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The settings in the JSON result file (jsonoptions.c). */
#ifndef VB_REPORT_JSONOPTIONS_H
#define VB_REPORT_JSONOPTIONS_H

#include <jansson.h>

struct loadfile;
struct report_config;
struct sweep;

/* "options": the invocation's; those a variant may change are variant 0's. */
json_t *report_json_options(const struct report_config *rc,
			    const struct sweep *sw);
/* "variants": each variant's label, options and loadfile. */
json_t *report_json_variants(const struct report_config *rc,
			     const struct sweep *sw);
/* "loadfile": its name, sha256, dialect and sizes. */
json_t *report_json_loadfile(const struct loadfile *lf);

#endif /* VB_REPORT_JSONOPTIONS_H */
