/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Helpers shared by the Check unit tests in tests/unit: see unit.h. Linked
 * into every test program.
 */
#include <config.h>
#include "unit.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "lang/loadfile.h"

/* The tests UNIT_SKIP() ended, among @sr's failures. */
static int count_skipped(SRunner *sr)
{
	TestResult **tr = srunner_results(sr);
	int n = srunner_ntests_run(sr), skipped = 0;

	for (int i = 0; i < n; i++)
		if (tr_rtype(tr[i]) == CK_FAILURE &&
		    !strncmp(tr_msg(tr[i]), UNIT_SKIP_MARK,
			     strlen(UNIT_SKIP_MARK)))
			skipped++;
	free(tr);
	return skipped;
}

/*
 * Copy Check's TAP from @f to stdout, turning the lines of skipped tests
 * ("not ok N - file:case:test: unit-skip: reason") into TAP skips.
 */
static void copy_tap(FILE *f)
{
	static const char skip[] = ": " UNIT_SKIP_MARK;
	char line[4096];

	rewind(f);
	while (fgets(line, sizeof(line), f)) {
		char *mark = strstr(line, skip);

		if (!strncmp(line, "not ok ", 7) && mark) {
			*mark = '\0';
			printf("ok %s # SKIP %s", line + 7,
			       mark + strlen(skip));
		} else {
			fputs(line, stdout);
		}
	}
	fflush(stdout);
}

int unit_main(Suite *s)
{
	const char *tmp = getenv("TMPDIR");
	char tap[PATH_MAX];
	SRunner *sr;
	FILE *f;
	int failed, fd;

	/* Check writes its TAP to a file, which is then copied, filtered */
	snprintf(tap, sizeof(tap), "%s/vb-unit-tap.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(tap);
	if (fd < 0) {
		perror(tap);
		return EXIT_FAILURE;
	}
	close(fd);
	sr = srunner_create(s);
	srunner_set_tap(sr, tap);
	srunner_run_all(sr, CK_SILENT);
	failed = srunner_ntests_failed(sr) - count_skipped(sr);
	srunner_free(sr);
	f = fopen(tap, "r");
	unlink(tap);
	if (!f) {
		perror(tap);
		return EXIT_FAILURE;
	}
	copy_tap(f);
	fclose(f);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

void capture_start(struct capture *c)
{
	capture_fd_start(c, STDERR_FILENO);
}

void capture_fd_start(struct capture *c, int fd)
{
	c->fd = fd;
	c->f = tmpfile();
	ck_assert_msg(c->f != NULL, "tmpfile: %s", strerror(errno));
	fflush(fd == STDOUT_FILENO ? stdout : stderr);
	c->saved = dup(fd);
	ck_assert_msg(c->saved >= 0, "dup: %s", strerror(errno));
	ck_assert_msg(dup2(fileno(c->f), fd) == fd, "dup2: %s",
		      strerror(errno));
}

/* Returns the captured text, NUL-terminated; free() it. */
char *capture_end(struct capture *c)
{
	int fd = fileno(c->f), restored;
	off_t size;
	char *text;

	fflush(c->fd == STDOUT_FILENO ? stdout : stderr);
	restored = dup2(c->saved, c->fd);
	close(c->saved);
	ck_assert_msg(restored == c->fd, "dup2 back: %s", strerror(errno));
	size = lseek(fd, 0, SEEK_END);
	ck_assert_msg(size >= 0, "lseek: %s", strerror(errno));
	text = malloc((size_t)size + 1);
	ck_assert_ptr_nonnull(text);
	ck_assert_int_eq(pread(fd, text, (size_t)size, 0), (ssize_t)size);
	text[size] = '\0';
	fclose(c->f);
	return text;
}

/*
 * @len bytes of @s in C escapes, so that a message stays on one TAP line.
 * Truncates to fit @size.
 */
const char *esc(char *buf, size_t size, const char *s, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len && n + 5 < size; i++) {
		char c = s[i];

		if (c == '\n' || c == '\r' || c == '\t' || c == '\0' ||
		    c == '\\' || c == '"') {
			buf[n++] = '\\';
			buf[n++] = c == '\n' ? 'n' :
				   c == '\r' ? 'r' :
				   c == '\t' ? 't' :
				   c == '\0' ? '0' :
					       c;
		} else {
			buf[n++] = c;
		}
	}
	buf[n] = '\0';
	return buf;
}

void assert_same(const struct loadfile *a, const struct loadfile *b,
		 const char *ctx)
{
	EXPECT_UINT(ctx, b->dialect, a->dialect);
	EXPECT_UINT(ctx, b->nops, a->nops);
	EXPECT_UINT(ctx, b->nsetup, a->nsetup);
	EXPECT_UINT(ctx, b->nslots, a->nslots);
	for (unsigned int i = 0; i < a->nslots; i++)
		EXPECT_UINT(ctx, b->slot_op[i], a->slot_op[i]);
	EXPECT_UINT(ctx, b->nhandles, a->nhandles);
	EXPECT_UINT(ctx, b->max_io, a->max_io);
	EXPECT_UINT(ctx, b->nexpand, a->nexpand);
	EXPECT_UINT(ctx, b->setup_fds, a->setup_fds);
	EXPECT_UINT(ctx, b->run_fds, a->run_fds);
	EXPECT_UINT(ctx, b->scratch, a->scratch);
	for (unsigned int i = 0; i < a->nops; i++) {
		const struct op *x = &a->ops[i], *y = &b->ops[i];

		EXPECT_UINT(ctx, y->id, x->id);
		EXPECT_INT(ctx, y->expect, x->expect);
		EXPECT_UINT(ctx, y->slot, x->slot);
		EXPECT_UINT(ctx, y->handle, x->handle);
		EXPECT_INT(ctx, y->flags, x->flags);
		EXPECT_UINT(ctx, y->mode, x->mode);
		EXPECT_UINT(ctx, y->xflags, x->xflags);
		EXPECT_UINT(ctx, y->offset, x->offset);
		EXPECT_UINT(ctx, y->size, x->size);
		EXPECT_STR(ctx, y->path, x->path);
		EXPECT_STR(ctx, y->path2, x->path2);
		EXPECT_UINT(ctx, y->has_handle, x->has_handle);
		EXPECT_UINT(ctx, y->opens, x->opens);
		EXPECT_UINT(ctx, y->expand, x->expand);
		EXPECT_UINT(ctx, y->xidx, x->xidx);
		EXPECT_UINT(ctx, y->line, x->line);
	}
}
