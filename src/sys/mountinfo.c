/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * /proc/self/mountinfo, line by line: for the target filesystem of the
 * environment (env.c) and the cgroup mounts (cgroup.c).
 */
#include <config.h>
#include "sys/mountinfo.h"

#include <stdio.h>
#include <string.h>

#include "base/octal.h"

int mountinfo_next(FILE *f, struct mountinfo *m)
{
	while (getline(&m->line, &m->alloc, f) > 0) {
		char *field[6], *dash, *save = NULL;
		int i;

		dash = strstr(m->line, " - ");
		if (!dash)
			continue;
		*dash = '\0';
		for (i = 0; i < 6; i++) {
			field[i] = strtok_r(i ? NULL : m->line, " ", &save);
			if (!field[i])
				break;
		}
		if (i < 6 || sscanf(field[0], "%llu", &m->id) != 1 ||
		    sscanf(field[2], "%u:%u", &m->major, &m->minor) != 2)
			continue;
		m->root = field[3];
		m->mount_point = field[4];
		m->options = field[5];
		unescape_octal(m->root);
		unescape_octal(m->mount_point);
		save = NULL;
		m->fstype = strtok_r(dash + 3, " \n", &save);
		m->source = strtok_r(NULL, " \n", &save);
		m->super_options = strtok_r(NULL, " \n", &save);
		return 1;
	}
	return 0;
}
