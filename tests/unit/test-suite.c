// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Suite indexes (lang/suite.c): the workload lines, their errors at
 * file:line:col, and every built-in suite with loadfiles that compile.
 */
#include <config.h>
#include "lang/builtin.h"
#include "lang/loadfile.h"
#include "lang/reader.h"
#include "lang/suite.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

static int parse(struct suite *s, const char *text, char **err)
{
	struct capture c;
	int ret;

	capture_start(&c);
	ret = suite_parse(s, "t", "t.suite", text, strlen(text), NULL);
	*err = capture_end(&c);
	return ret;
}

START_TEST(test_parse)
{
	struct suite s;
	char *err;

	ck_assert_int_eq(
		parse(&s,
		      "# t.suite: a test.\n"
		      "\n"
		      "A  a.load  private  1\n"
		      "  B\tb.load shared 64  the rest of the line  # c\n",
		      &err),
		0);
	ck_assert_str_eq(err, "");
	free(err);
	ck_assert_uint_eq(s.n, 2);
	ck_assert_str_eq(s.name, "t");
	ck_assert_str_eq(s.w[0].name, "A");
	ck_assert_str_eq(s.w[0].loadfile, "a.load");
	ck_assert_int_eq(s.w[0].cwd, SUITE_CWD_PRIVATE);
	ck_assert_uint_eq(s.w[0].works, 1);
	ck_assert_str_eq(s.w[0].description, "");
	ck_assert_str_eq(s.w[1].name, "B");
	ck_assert_int_eq(s.w[1].cwd, SUITE_CWD_SHARED);
	ck_assert_uint_eq(s.w[1].works, 64);
	ck_assert_str_eq(s.w[1].description, "the rest of the line");
	suite_release(&s);
}
END_TEST

static const struct {
	const char *text, *err;
} errors[] = {
	{ "A a.load private\n",
	  "t.suite:1:10: expected NAME LOADFILE CWD WORKS [DESCRIPTION]\n" },
	{ "# c\nA a.load both 1\n",
	  "t.suite:2:10: bad cwd 'both' (expected private or shared)\n" },
	{ "A a.load shared 0\n",
	  "t.suite:1:17: bad works '0' (expected a count of 1 or more)\n" },
	{ "A a.load shared x\n",
	  "t.suite:1:17: bad works 'x' (expected a count of 1 or more)\n" },
	{ "A a.load shared 1\n A b.load shared 1\n",
	  "t.suite:2:2: workload 'A' given twice\n" },
	{ "# nothing\n", "error: t.suite: no workloads\n" },
};

START_TEST(test_errors)
{
	struct suite s;
	char *err;

	ck_assert_int_ne(parse(&s, errors[_i].text, &err), 0);
	ck_assert_str_eq(err, errors[_i].err);
	free(err);
	suite_release(&s);
}
END_TEST

/* Each built-in suite reads, and each of its loadfiles compiles. */
START_TEST(test_builtin_suites)
{
	unsigned int n = 0;

	for (const struct builtin_loadfile *b = builtin_loadfiles; b->name;
	     b++) {
		struct suite s;
		char name[128];

		if (!builtin_is_suite(b))
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)(strlen(b->name) - 6),
			 b->name);
		ck_assert_ptr_eq(builtin_find_suite(name), b);
		ck_assert_ptr_eq(builtin_find(b->name), NULL);
		ck_assert_int_eq(suite_parse(&s, name, b->name, b->text,
					     strlen(b->text), NULL),
				 0);
		for (unsigned int i = 0; i < s.n; i++) {
			struct loadfile lf;
			struct capture c;
			char *err;
			int ret;

			capture_start(&c);
			ret = loadfile_load(&lf, s.w[i].loadfile, NULL);
			err = capture_end(&c);
			ck_assert_msg(!ret && !err[0], "%s %s: %s", name,
				      s.w[i].name, err);
			free(err);
			loadfile_release(&lf);
		}
		suite_release(&s);
		n++;
	}
	ck_assert_uint_eq(n, 3);
}
END_TEST

static Suite *suite_suite(void)
{
	Suite *s = suite_create("suite");
	TCase *tc = tcase_create("index");

	tcase_add_test(tc, test_parse);
	tcase_add_loop_test(tc, test_errors, 0,
			    (int)(sizeof(errors) / sizeof(*errors)));
	tcase_add_test(tc, test_builtin_suites);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(suite_suite());
}
