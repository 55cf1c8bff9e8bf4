/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The CPU's cache sizes from sysfs: see cpucache.h.
 */
#include <config.h>
#include "sys/cpucache.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* The first line of @dir/index@i/@name into @buf; 0 or -1. */
static int read_attr(const char *dir, unsigned int i, const char *name,
		     char *buf, size_t len)
{
	char path[4096];
	FILE *f;
	int ret = -1;

	snprintf(path, sizeof(path), "%s/index%u/%s", dir, i, name);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (fgets(buf, (int)len, f)) {
		buf[strcspn(buf, "\n")] = '\0';
		ret = 0;
	}
	fclose(f);
	return ret;
}

/* "32K", "1024K", "32M" or a plain byte count; 0 if none of these. */
static uint64_t parse_size(const char *s)
{
	unsigned long long v;
	char unit = '\0';
	int n = sscanf(s, "%llu%c", &v, &unit);

	if (n < 1)
		return 0;
	if (n == 1)
		return v;
	return unit == 'K' ? (uint64_t)v << 10 :
	       unit == 'M' ? (uint64_t)v << 20 :
	       unit == 'G' ? (uint64_t)v << 30 :
			     0;
}

int cpucache_read(struct cpucache *c, const char *dir)
{
	memset(c, 0, sizeof(*c));
	/* index0, index1, ...: the kernel numbers them without gaps */
	for (unsigned int i = 0; i < 32; i++) {
		char type[64], level[16], size[32];
		unsigned int lv;
		uint64_t bytes;

		if (read_attr(dir, i, "type", type, sizeof(type)))
			break;
		if (strcmp(type, "Data") && strcmp(type, "Unified"))
			continue;
		if (read_attr(dir, i, "level", level, sizeof(level)) ||
		    sscanf(level, "%u", &lv) != 1 ||
		    read_attr(dir, i, "size", size, sizeof(size)))
			continue;
		bytes = parse_size(size);
		if (!bytes)
			continue;
		if (lv == 1 && bytes > c->l1d)
			c->l1d = bytes;
		if (lv == 2 && bytes > c->l2)
			c->l2 = bytes;
		if (lv > c->llc_level ||
		    (lv == c->llc_level && bytes > c->llc)) {
			c->llc_level = lv;
			c->llc = bytes;
		}
	}
	return c->llc ? 0 : -ENOENT;
}
