/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Helpers shared by the Check unit tests in tests/unit: the main() every
 * test program runs (TAP on stdout), a capture of what goes to stderr,
 * and C escapes that keep a message on one TAP line.
 */
#ifndef VB_UNIT_H
#define VB_UNIT_H

#include <check.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct loadfile;

/*
 * Runs @s with TAP on stdout; EXIT_FAILURE if any test failed. A test
 * ended by UNIT_SKIP() is reported as "ok N - ... # SKIP reason".
 */
int unit_main(Suite *s);

/*
 * Ends the running test as skipped, with a reason (a printf format and
 * its arguments), for a test that cannot run here (no CAP_SYS_ADMIN...).
 * Check has no skip of its own: this is a failure with a marked message,
 * which unit_main() turns into TAP's SKIP.
 */
#define UNIT_SKIP_MARK "unit-skip: "
#define UNIT_SKIP(...) ck_abort_msg(UNIT_SKIP_MARK __VA_ARGS__)

/*
 * Everything written to fd 2 (or to @fd: 1 or 2) between capture_start()
 * (capture_fd_start()) and capture_end().
 */
struct capture {
	FILE *f;
	int fd;
	int saved;
};

void capture_start(struct capture *c);
void capture_fd_start(struct capture *c, int fd);
/* Returns the captured text, NUL-terminated; free() it. */
char *capture_end(struct capture *c);

/*
 * @len bytes of @s in C escapes, so that a message stays on one TAP line.
 * Truncates to fit @size.
 */
const char *esc(char *buf, size_t size, const char *s, size_t len);

/* Assertions naming the expression that failed, after a context. */
#define EXPECT_UINT(ctx, got, want)                           \
	ck_assert_msg((uintmax_t)(got) == (uintmax_t)(want),  \
		      "%s: %s is %ju, want %ju", (ctx), #got, \
		      (uintmax_t)(got), (uintmax_t)(want))
#define EXPECT_INT(ctx, got, want)                                             \
	ck_assert_msg((intmax_t)(got) == (intmax_t)(want),                     \
		      "%s: %s is %jd, want %jd", (ctx), #got, (intmax_t)(got), \
		      (intmax_t)(want))
#define EXPECT_STR(ctx, got, want)                                  \
	ck_assert_msg(((got) == NULL && (want) == NULL) ||          \
			      ((got) != NULL && (want) != NULL &&   \
			       !strcmp((got), (want))),             \
		      "%s: %s is \"%s\", want \"%s\"", (ctx), #got, \
		      (got) ? (got) : "(null)", (want) ? (want) : "(null)")

/* |got - want| within @rel of want (or of 1, for wants near 0). */
static inline int close_to(double got, double want, double rel)
{
	return fabs(got - want) <= rel * fmax(1.0, fabs(want));
}

#define ck_close(got, want, rel, what)                                    \
	ck_assert_msg(close_to((got), (want), (rel)),                     \
		      "%s: got %.17g, want %.17g", (what), (double)(got), \
		      (double)(want))

/*
 * Two compiled loadfiles hold the same ops and the same summary (the same
 * text written differently: CRLF, spacing, comments, timestamps).
 */
void assert_same(const struct loadfile *a, const struct loadfile *b,
		 const char *ctx);

#endif /* VB_UNIT_H */
