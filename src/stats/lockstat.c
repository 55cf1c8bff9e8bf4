/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perf lock contention's table read back. perf 6.1 prints (to its
 * standard error) a header " contended   total wait     max wait
 * avg wait         type   caller", a blank line, then one row a lock
 * caller: the count, three times as "20.19 ms" (units h, m, s, ms, us,
 * ns), the lock type and the caller "symbol+0xoff". Anything else it
 * printed is a message, kept as the reason when there is no table.
 */
#include <config.h>
#include "stats/lockstat.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

/* The most tokens of a row: count, 3 x (value, unit), type, caller. */
#define ROW_TOKENS 9

/* Split @line (modified) at blanks into @tok; the count, at most @max+1. */
static unsigned int split(char *line, char **tok, unsigned int max)
{
	unsigned int n = 0;
	char *save = NULL;

	for (char *t = strtok_r(line, " \t", &save); t;
	     t = strtok_r(NULL, " \t", &save)) {
		if (n == max)
			return max + 1;
		tok[n++] = t;
	}
	return n;
}

/* "20.19" "ms" -> nanoseconds; false when it is not a time of perf's. */
static bool time_ns(const char *value, const char *unit, double *ns)
{
	static const struct {
		const char *unit;
		double ns;
	} units[] = {
		{ "ns", 1 },  { "us", 1e3 }, { "ms", 1e6 },
		{ "s", 1e9 }, { "m", 60e9 }, { "h", 3600e9 },
	};
	char *end;
	double v = strtod(value, &end);

	if (end == value || *end || v < 0)
		return false;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(unit, units[i].unit)) {
			*ns = v * units[i].ns;
			return true;
		}
	return false;
}

/* One row of the table into @r; false when @line is not one. */
static bool parse_row(const char *line, struct lock_row *r)
{
	char *copy = xstrdup(line), *tok[ROW_TOKENS], *end;
	unsigned long long count;
	bool ok = false;

	if (split(copy, tok, ROW_TOKENS) != ROW_TOKENS)
		goto out;
	count = strtoull(tok[0], &end, 10);
	if (end == tok[0] || *end || tok[0][0] == '-')
		goto out;
	if (!time_ns(tok[1], tok[2], &r->wait_total) ||
	    !time_ns(tok[3], tok[4], &r->wait_max) ||
	    !time_ns(tok[5], tok[6], &r->wait_avg))
		goto out;
	r->contended = count;
	r->type = xstrdup(tok[7]);
	r->caller = xstrdup(tok[8]);
	ok = true;
out:
	free(copy);
	return ok;
}

static bool is_header(const char *line)
{
	char *copy = xstrdup(line), *tok[16];
	unsigned int n = split(copy, tok, 15);
	bool ok = n >= 2 && n <= 15 && !strcmp(tok[0], "contended") &&
		  !strcmp(tok[n - 1], "caller");

	free(copy);
	return ok;
}

/* Append @line, trimmed, to the messages @msg ("a; b"). */
static void add_message(char **msg, const char *line, size_t len)
{
	size_t have = *msg ? strlen(*msg) : 0;

	while (len && (*line == ' ' || *line == '\t')) {
		line++;
		len--;
	}
	while (len && strchr(" \t\r", line[len - 1]))
		len--;
	if (!len)
		return;
	*msg = xrealloc(*msg, have + len + 3);
	if (have) {
		memcpy(*msg + have, "; ", 2);
		have += 2;
	}
	memcpy(*msg + have, line, len);
	(*msg)[have + len] = '\0';
}

int lock_stat_parse(struct lock_stat *ls, const char *text, const char *status)
{
	const char *line = text ? text : "";
	char *msg = NULL, *one;
	bool table = false;
	size_t len;

	memset(ls, 0, sizeof(*ls));
	while (*line) {
		const char *end = strchrnul(line, '\n');
		struct lock_row r = { 0 };

		one = xstrndup(line, (size_t)(end - line));
		if (!table && is_header(one)) {
			table = true;
		} else if (table && parse_row(one, &r)) {
			ls->row = xrealloc(ls->row,
					   (ls->n + 1) * sizeof(*ls->row));
			ls->row[ls->n++] = r;
		} else {
			add_message(&msg, one, strlen(one));
		}
		free(one);
		line = *end ? end + 1 : end;
	}
	if (table && !status) {
		free(msg);
		return 0;
	}
	/* no table, or perf failed after printing one: why, in its words */
	len = (msg ? strlen(msg) : 0) + (status ? strlen(status) : 0) + 96;
	ls->absent = xmalloc(len);
	snprintf(ls->absent, len, "perf lock contention %s: %s",
		 status ? status : "printed no table",
		 msg ? msg : "it printed nothing");
	free(msg);
	for (unsigned int i = 0; i < ls->n; i++) {
		free(ls->row[i].type);
		free(ls->row[i].caller);
	}
	free(ls->row);
	ls->row = NULL;
	ls->n = 0;
	return 0;
}

void lock_stat_release(struct lock_stat *ls)
{
	for (unsigned int i = 0; i < ls->n; i++) {
		free(ls->row[i].type);
		free(ls->row[i].caller);
	}
	free(ls->row);
	free(ls->absent);
	memset(ls, 0, sizeof(*ls));
}
