/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_REPORT_PROFILE_H
#define VB_REPORT_PROFILE_H

#include <jansson.h>

struct report_config;
struct sweep;

/*
 * The JSON "profiles" array: one summary per profiled point of
 * rc->profiles (doc/json-schema.md); an empty array without.
 */
json_t *report_profiles_json(const struct report_config *rc,
			     const struct sweep *sw);

#endif /* VB_REPORT_PROFILE_H */
