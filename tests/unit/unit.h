/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Helpers shared by the Check unit tests in tests/unit: the main() every
 * test program runs (TAP on stdout), a capture of what goes to stderr,
 * and C escapes that keep a message on one TAP line.
 */
#ifndef VB_UNIT_H
#define VB_UNIT_H

#include <check.h>
#include <stddef.h>
#include <stdio.h>

/* Runs @s with TAP on stdout; EXIT_FAILURE if any test failed. */
int unit_main(Suite *s);

/* Everything written to fd 2 between capture_start() and capture_end(). */
struct capture {
	FILE *f;
	int saved;
};

void capture_start(struct capture *c);
/* Returns the captured text, NUL-terminated; free() it. */
char *capture_end(struct capture *c);

/*
 * @len bytes of @s in C escapes, so that a message stays on one TAP line.
 * Truncates to fit @size.
 */
const char *esc(char *buf, size_t size, const char *s, size_t len);

#endif /* VB_UNIT_H */
