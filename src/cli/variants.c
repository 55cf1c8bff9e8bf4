/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The variants of one invocation: --variant specs, their cross product
 * and the variants' labels.
 */
#include <config.h>
#include "cli/variants.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/escape.h"
#include "base/label.h"

int variant_axis_parse(struct variant_axis *axis, const char *spec)
{
	const char *eq = strchr(spec, '='), *s;

	memset(axis, 0, sizeof(*axis));
	if (!eq || eq == spec || !eq[1])
		return -1;
	axis->name = xstrndup(spec, (size_t)(eq - spec));
	for (s = eq + 1;; s++) {
		size_t len = strcspn(s, ",");

		if (!len) {
			variant_axis_release(axis);
			return -1;
		}
		axis->values =
			xrealloc(axis->values,
				 (axis->nvalues + 1) * sizeof(*axis->values));
		axis->values[axis->nvalues++] = xstrndup(s, len);
		s += len;
		if (!*s)
			break;
	}
	return 0;
}

void variant_axis_release(struct variant_axis *axis)
{
	for (unsigned int i = 0; i < axis->nvalues; i++)
		free(axis->values[i]);
	free(axis->values);
	free(axis->name);
	memset(axis, 0, sizeof(*axis));
}

unsigned int variant_count(const struct variant_axis *axes, unsigned int n)
{
	unsigned long total = 1;

	for (unsigned int i = 0; i < n; i++) {
		total *= axes[i].nvalues;
		if (total > MAX_VARIANTS)
			return 0;
	}
	return (unsigned int)total;
}

void variant_pick(const struct variant_axis *axes, unsigned int n,
		  unsigned int k, unsigned int *idx)
{
	for (unsigned int i = n; i-- > 0;) {
		idx[i] = k % axes[i].nvalues;
		k /= axes[i].nvalues;
	}
}

/* "dir/statfs.load" -> "statfs" */
static char *loadfile_label(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	n = strlen(base);
	if (n > 5 && !strcmp(base + n - 5, ".load"))
		n -= 5;
	return xstrndup(base, n);
}

static char *raw_label(const struct variant_axis *axes, unsigned int n,
		       const unsigned int *idx, int loadfile_opt,
		       const char *loadfile)
{
	char *label;

	if (!n)
		return loadfile_label(loadfile);
	label = xstrdup("");

	for (unsigned int i = 0; i < n; i++) {
		const char *v = axes[i].values[idx[i]];
		char *part, *joined;
		size_t len;

		if (axes[i].opt == loadfile_opt) {
			part = loadfile_label(v);
		} else {
			len = strlen(axes[i].name) + strlen(v) + 2;
			part = xmalloc(len);
			snprintf(part, len, "%s=%s", axes[i].name, v);
		}
		len = strlen(label) + strlen(part) + 2;
		joined = xmalloc(len);
		snprintf(joined, len, "%s%s%s", label, *label ? "," : "", part);
		free(label);
		free(part);
		label = joined;
	}
	return label;
}

/*
 * Escaped once, here, for every place that shows it (the header, the
 * per-run and sweep lines, the result file that compare and plot read
 * back): a loadfile named with a newline or an escape sequence must not
 * split a line that parsers read, nor reach the terminal raw.
 */
char *variant_label(const struct variant_axis *axes, unsigned int n,
		    const unsigned int *idx, int loadfile_opt,
		    const char *loadfile)
{
	char *raw = raw_label(axes, n, idx, loadfile_opt, loadfile);
	char *label = escape_shown(raw);

	free(raw);
	return label;
}

void variant_labels_unique(struct variant_config *v, unsigned int n)
{
	char **labels = xcalloc(n + 1, sizeof(*labels));

	for (unsigned int i = 0; i < n; i++)
		labels[i] = v[i].label;
	label_number_repeats(labels, n);
	for (unsigned int i = 0; i < n; i++)
		v[i].label = labels[i];
	free(labels);
}

void variant_config_release(struct variant_config *v)
{
	free(v->label);
	free(v->loadfile);
	free(v->engine);
	free(v->placement_spec);
	placement_release(&v->placement);
	memset(v, 0, sizeof(*v));
}
