/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Helpers shared by the Check unit tests in tests/unit: see unit.h. Linked
 * into every test program.
 */
#include <config.h>
#include "unit.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

int unit_main(Suite *s)
{
	SRunner *sr;
	int failed;

	sr = srunner_create(s);
	srunner_set_tap(sr, "-");
	srunner_run_all(sr, CK_SILENT);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

void capture_start(struct capture *c)
{
	c->f = tmpfile();
	ck_assert_msg(c->f != NULL, "tmpfile: %s", strerror(errno));
	fflush(stderr);
	c->saved = dup(STDERR_FILENO);
	ck_assert_msg(c->saved >= 0, "dup: %s", strerror(errno));
	ck_assert_msg(dup2(fileno(c->f), STDERR_FILENO) == STDERR_FILENO,
		      "dup2: %s", strerror(errno));
}

/* Returns the captured text, NUL-terminated; free() it. */
char *capture_end(struct capture *c)
{
	int fd = fileno(c->f), restored;
	off_t size;
	char *text;

	fflush(stderr);
	restored = dup2(c->saved, STDERR_FILENO);
	close(c->saved);
	ck_assert_msg(restored == STDERR_FILENO, "dup2 back: %s",
		      strerror(errno));
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
