/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The strace log reader (lang/strace.c) and the recorder's quoting
 * (lang/record.c): strace's escapes, -y paths, arguments split at the top
 * level only, unfinished and resumed calls, and logs cut short.
 */
#include <config.h>

#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lang/pidmap.h"
#include "lang/record.h"
#include "lang/strace.h"
#include "unit.h"

START_TEST(test_unescape)
{
	char out[64];

	ck_assert_int_eq(strace_string("\"a\\tb\\\\c\\\"d\"", out, sizeof(out)),
			 7);
	ck_assert_str_eq(out, "a\tb\\c\"d");
	ck_assert_int_eq(
		strace_string("\"\\x41\\101\\76\\n\"", out, sizeof(out)), 4);
	ck_assert_str_eq(out, "AA>\n");
	/* a NUL would cut the name where the kernel did not */
	ck_assert_int_eq(strace_string("\"a\\0b\"", out, sizeof(out)), -EINVAL);
	/* a string cut at -s, a pointer, an escape at the end */
	ck_assert_int_eq(strace_string("\"abc\"...", out, sizeof(out)),
			 -EINVAL);
	ck_assert_int_eq(strace_string("0x7ffd", out, sizeof(out)), -EINVAL);
	ck_assert_int_eq(strace_string("\"a\\\"", out, sizeof(out)), -EINVAL);
	ck_assert_int_eq(strace_string("\"abcdef\"", out, 4), -EINVAL);
}
END_TEST

START_TEST(test_fd)
{
	char path[64];
	int fd;

	ck_assert_int_eq(strace_fd("3</a/b\\76c>", &fd, path, sizeof(path)), 0);
	ck_assert_int_eq(fd, 3);
	ck_assert_str_eq(path, "/a/b>c");
	ck_assert_int_eq(strace_fd("AT_FDCWD</w>", &fd, path, sizeof(path)), 0);
	ck_assert_int_eq(fd, -100);
	ck_assert_str_eq(path, "/w");
	ck_assert_int_eq(strace_fd("7", &fd, path, sizeof(path)), 0);
	ck_assert_int_eq(fd, 7);
	ck_assert_str_eq(path, "");
	ck_assert_int_eq(strace_fd("x", &fd, path, sizeof(path)), -EINVAL);
	ck_assert_int_eq(strace_fd("3</a", &fd, path, sizeof(path)), -EINVAL);
}
END_TEST

/* Feed @text's lines; the calls come back in @c, their number returned. */
static int feed(struct strace *s, const char *text, struct strace_call *c,
		int max, int *err)
{
	char *copy = strdup(text), *line, *save;
	int n = 0;

	*err = 0;
	for (line = strtok_r(copy, "\n", &save); line && !*err;
	     line = strtok_r(NULL, "\n", &save)) {
		int r = strace_line(s, line, &c[n < max ? n : max - 1]);

		if (r < 0)
			*err = r;
		else if (r && n < max)
			n++;
	}
	free(copy);
	return n;
}

START_TEST(test_call)
{
	struct strace s;
	struct strace_call c[4];
	struct capture cap;
	char *msg;
	int n, err;

	strace_init(&s, "log");
	n = feed(
		&s,
		"5 1.5 newfstatat(AT_FDCWD</r>, \"a, b)\", {st_mode=S_IFREG|0644, st_size=3, ...}, 0) = 0\n"
		"5 1.6 openat(AT_FDCWD</r>, \"x\", O_RDONLY) = -1 ENOENT (No such file or directory)\n"
		"5 1.7 getdents64(3</r/d>, 0x55 /* 2 entries, (sic) */, 32768) = 48\n"
		"5 1.8 +++ exited with 0 +++\n",
		c, 4, &err);
	/* the reader's buffer holds the last call only: check it */
	ck_assert_int_eq(err, 0);
	ck_assert_int_eq(n, 3);
	ck_assert_str_eq(c[2].name, "getdents64");
	ck_assert_uint_eq(c[2].nargs, 3);
	ck_assert_str_eq(c[2].args[0], "3</r/d>");
	ck_assert_str_eq(c[2].args[2], "32768");
	ck_assert_int_eq(c[2].ret, 48);
	ck_assert_int_eq(strace_end(&s), 0);
	strace_release(&s);

	strace_init(&s, "log");
	n = feed(
		&s,
		"5 1.6 openat(AT_FDCWD</r>, \"x\", O_RDONLY) = -1 ENOENT (No such file or directory)\n",
		c, 4, &err);
	ck_assert_int_eq(n, 1);
	ck_assert_uint_eq(c[0].nargs, 3);
	ck_assert_str_eq(c[0].args[1], "\"x\"");
	ck_assert_int_eq(c[0].ret, -1);
	ck_assert_str_eq(c[0].err, "ENOENT");
	strace_release(&s);

	strace_init(&s, "log");
	n = feed(
		&s,
		"5 1.5 newfstatat(AT_FDCWD</r>, \"a, b)\", {st_mode=S_IFREG|0644, ...}, 0)   = 0\n",
		c, 4, &err);
	ck_assert_int_eq(n, 1);
	ck_assert_uint_eq(c[0].nargs, 4);
	ck_assert_str_eq(c[0].args[1], "\"a, b)\"");
	ck_assert_str_eq(c[0].args[3], "0");
	strace_release(&s);

	/* a call cut in two by another task comes back once, whole */
	strace_init(&s, "log");
	n = feed(&s,
		 "5 1.0 openat(AT_FDCWD</r>, \"f\", O_RDONLY <unfinished ...>\n"
		 "6 1.1 close(4) = 0\n"
		 "5 1.2 <... openat resumed>) = 3</r/f>\n"
		 "6 1.3 +++ killed by SIGKILL +++\n"
		 "5 1.4 +++ exited with 0 +++\n",
		 c, 4, &err);
	ck_assert_int_eq(err, 0);
	ck_assert_int_eq(n, 2);
	ck_assert_str_eq(c[1].name, "openat");
	ck_assert_uint_eq(c[1].nargs, 3);
	ck_assert_str_eq(c[1].args[2], "O_RDONLY");
	ck_assert_int_eq(c[1].ret, 3);
	ck_assert_str_eq(c[1].ret_fd_path, "/r/f");
	ck_assert_uint_eq(strace_ntasks(&s), 2);
	ck_assert_int_eq(strace_end(&s), 0);
	strace_release(&s);

	/* a resumed call never started */
	strace_init(&s, "log");
	capture_start(&cap);
	feed(&s, "5 1.2 <... openat resumed>) = 3\n", c, 4, &err);
	msg = capture_end(&cap);
	ck_assert_int_eq(err, -EINVAL);
	ck_assert_str_eq(msg,
			 "log:1:7: a call resumed that was never started\n");
	free(msg);
	strace_release(&s);
}
END_TEST

START_TEST(test_quote)
{
	char q[64];

	ck_assert_int_eq(record_quote("a/b", q, sizeof(q)), 0);
	ck_assert_str_eq(q, "a/b");
	ck_assert_int_eq(record_quote("a b#\"c\\", q, sizeof(q)), 0);
	ck_assert_str_eq(q, "\"a b#\\\"c\\\\\"");
	ck_assert_int_eq(record_quote("ENOENT", q, sizeof(q)), 0);
	ck_assert_str_eq(q, "./ENOENT");
	ck_assert_int_eq(record_quote("ok", q, sizeof(q)), 0);
	ck_assert_str_eq(q, "./ok");
	ck_assert_int_eq(record_quote("Eleven", q, sizeof(q)), 0);
	ck_assert_str_eq(q, "Eleven");
	ck_assert_int_eq(record_quote("a${client}", q, sizeof(q)), -EINVAL);
	ck_assert_int_eq(record_quote("a\nb", q, sizeof(q)), -EINVAL);
	ck_assert_int_eq(record_quote("", q, sizeof(q)), -EINVAL);
	/* a '$' is a variable to the parser; the marker no op may make */
	ck_assert_int_eq(record_quote("price$5", q, sizeof(q)), -EINVAL);
	ck_assert_int_eq(record_quote(".vfsbench-workdir", q, sizeof(q)),
			 -EINVAL);
	ck_assert_int_eq(record_quote("d/.vfsbench-workdir/f", q, sizeof(q)),
			 -EINVAL);
	ck_assert_int_eq(record_quote("x.vfsbench-workdir", q, sizeof(q)), 0);
	ck_assert_int_eq(record_quote(".vfsbench-workdirs/f", q, sizeof(q)), 0);
	/* a symlink's target is read as it is */
	ck_assert_int_eq(record_quote_target("price$5", q, sizeof(q)), 0);
	ck_assert_str_eq(q, "price$5");
	ck_assert_int_eq(record_quote_target("a\nb", q, sizeof(q)), -EINVAL);
}
END_TEST

/* The map of tasks: every pid found at its index, none that is not. */
START_TEST(test_pidmap)
{
	struct pidmap m;
	unsigned int idx;

	pidmap_init(&m);
	ck_assert(!pidmap_get(&m, 1, &idx));
	/* consecutive and spread pids, and 0 (a log without -f) */
	for (unsigned int i = 0; i < 100000; i++)
		pidmap_put(&m, i % 2 ? (long)i : (long)i * 41, i);
	for (unsigned int i = 0; i < 100000; i++) {
		ck_assert(pidmap_get(&m, i % 2 ? (long)i : (long)i * 41, &idx));
		ck_assert_uint_eq(idx, i);
	}
	ck_assert(!pidmap_get(&m, 4100002, &idx));
	ck_assert_uint_le(2 * m.n, m.cap);
	pidmap_release(&m);
}
END_TEST

/* Unfinished calls of many tasks, resumed in another order. */
START_TEST(test_many_pending)
{
	struct strace s;
	struct strace_call c;
	char line[128];

	strace_init(&s, "log");
	for (int i = 1; i <= 1000; i++) {
		snprintf(line, sizeof(line), "%d 1.0 close(%d <unfinished ...>",
			 i, i);
		ck_assert_int_eq(strace_line(&s, line, &c), 0);
	}
	for (int i = 1000; i >= 1; i -= 2) {
		snprintf(line, sizeof(line), "%d 1.1 <... close resumed>) = 0",
			 i);
		ck_assert_int_eq(strace_line(&s, line, &c), 1);
		ck_assert_int_eq(c.pid, i);
		ck_assert_int_eq(atoi(c.args[0]), i);
	}
	for (int i = 1; i <= 1000; i += 2) {
		snprintf(line, sizeof(line), "%d 1.1 <... close resumed>) = 0",
			 i);
		ck_assert_int_eq(strace_line(&s, line, &c), 1);
		ck_assert_int_eq(c.pid, i);
		ck_assert_int_eq(atoi(c.args[0]), i);
	}
	ck_assert_uint_eq(s.npend, 0);
	ck_assert_uint_eq(strace_ntasks(&s), 1000);
	strace_release(&s);
}
END_TEST

static Suite *strace_suite(void)
{
	Suite *s = suite_create("strace");
	TCase *tc = tcase_create("reader");

	tcase_add_test(tc, test_unescape);
	tcase_add_test(tc, test_fd);
	tcase_add_test(tc, test_call);
	tcase_add_test(tc, test_quote);
	tcase_add_test(tc, test_pidmap);
	tcase_add_test(tc, test_many_pending);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(strace_suite());
}
