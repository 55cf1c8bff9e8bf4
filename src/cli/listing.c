/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The lists vfsbench prints instead of running: the built-in loadfiles
 * and the ops.
 */
#include <config.h>
#include "cli/listing.h"

#include <stdio.h>
#include <string.h>

#include "cli/suite.h"
#include "engine/engine.h"
#include "lang/builtin.h"
#include "lang/loadfile.h"
#include "lang/ops.h"
#include "lang/reader.h"

#define NAME_WIDTH 22 /* the name column, then one space */
#define LINE_WIDTH 79

/*
 * @text in words, from column NAME_WIDTH + 1 up to LINE_WIDTH, each line
 * after the first indented to that column; the caller printed the first
 * line's start.
 */
static void wrap(const char *text)
{
	const size_t width = LINE_WIDTH - NAME_WIDTH - 1;
	size_t col = 0;

	while (*text) {
		size_t w = strcspn(text, " ");

		if (col && col + 1 + w > width) {
			printf("\n%*s", NAME_WIDTH + 1, "");
			col = 0;
		} else if (col) {
			putchar(' ');
			col++;
		}
		printf("%.*s", (int)w, text);
		col += w;
		text += w;
		while (*text == ' ')
			text++;
	}
	putchar('\n');
}

/* "ops: stat open close": the [run] op kinds, in order of first use. */
static void run_ops(const struct builtin_loadfile *b, char *buf, size_t len)
{
	struct loadfile lf;
	size_t n;

	n = (size_t)snprintf(buf, len, "ops:");
	if (loadfile_parse(&lf, b->name, b->text, strlen(b->text), NULL)) {
		snprintf(buf, len, "ops: (does not compile)");
		return;
	}
	for (unsigned int s = 0; s < lf.nslots && n < len; s++)
		n += (size_t)snprintf(buf + n, len - n, " %s",
				      op_table[lf.slot_op[s]].name);
	loadfile_release(&lf);
}

void listing_loadfiles(void)
{
	for (const struct builtin_loadfile *b = builtin_loadfiles; b->name;
	     b++) {
		char summary[1024], ops[512];

		if (builtin_is_suite(b))
			continue;
		builtin_summary(b->text, b->name, summary, sizeof(summary));
		run_ops(b, ops, sizeof(ops));
		/* a name wider than its column stands on a line of its own */
		if (strlen(b->name) > NAME_WIDTH)
			printf("%s\n%*s", b->name, NAME_WIDTH + 1, "");
		else
			printf("%-*s ", NAME_WIDTH, b->name);
		wrap(summary);
		printf("%*s", NAME_WIDTH + 1, "");
		wrap(ops);
	}
	/* indented: the first column names loadfiles only (-c's completion) */
	printf("\n  suites, for vfsbench suite NAME:\n");
	suite_cli_list(2);
}

/* Each op that resolves a path, as --resolve dirfd or beneath issues it. */
static void listing_mode(bool beneath)
{
	for (unsigned int i = 0; i < OP_NATIVE_NR; i++) {
		const struct op_desc *d = &op_table[i];
		const char *calls =
			beneath ? d->syscalls_beneath : d->syscalls_at;

		if (op_resolves((enum op_id)i))
			printf("%-16s %s\n", d->name,
			       calls ? calls :
			       beneath ?
				       "refused in [run] ([setup] runs as dirfd)" :
				       "refused");
	}
}

/* -e uring: what goes through the ring, and what does not. */
static void listing_uring(void)
{
	const struct engine *e = &engine_uring;

	printf("\n-e uring (through the client's io_uring, one op at a time; \"system call\": no opcode, issued as the first table says):\n");
	for (unsigned int i = 0; i < OP_NATIVE_NR; i++) {
		if (!e->queued[i])
			printf("%-16s system call: %s\n", op_table[i].name,
			       e->fallback[i]);
		else if (e->fallback[i])
			printf("%-16s %s; system call: %s\n", op_table[i].name,
			       e->queued[i], e->fallback[i]);
		else
			printf("%-16s %s\n", op_table[i].name, e->queued[i]);
	}
}

void listing_ops(void)
{
	for (unsigned int i = 0; i < OP_NATIVE_NR; i++)
		printf("%-16s %s\n", op_table[i].name, op_table[i].syscalls);
	printf("\n--resolve dirfd (from the client's O_PATH directory fd; ops on a handle as above):\n");
	listing_mode(false);
	printf("\n--resolve beneath (openat2 RESOLVE_BENEATH from that fd; ops on a handle as above):\n");
	listing_mode(true);
	printf("\n--resolve abs issues the calls of the first table on absolute paths.\n");
	listing_uring();
	printf("\ndbench loadfiles (one op per line of dbench's format; --resolve cwd and abs):\n");
	for (unsigned int i = OP_NATIVE_NR; i < OP_NR; i++)
		printf("%-16s %s\n", op_table[i].name, op_table[i].syscalls);
}
