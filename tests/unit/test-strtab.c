/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A loadfile's strings: each stored intact, a string repeated soon
 * stored once.
 */
#include <config.h>

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang/strtab.h"
#include "unit.h"

START_TEST(test_same_string_once)
{
	struct strtab t;
	const char *a, *b, *c;

	strtab_init(&t);
	a = strtab_intern(&t, "dir/file", 8);
	b = strtab_intern(&t, "dir/file", 8);
	c = strtab_intern(&t, "dir/file2", 9);
	ck_assert_ptr_eq(a, b);
	ck_assert_ptr_ne(a, c);
	ck_assert_str_eq(a, "dir/file");
	ck_assert_str_eq(c, "dir/file2");
	strtab_release(&t);
}
END_TEST

/*
 * strtab_store: bytes with NULs kept whole and never shared, where
 * interning by strncmp() would take "a\0x" for "a\0y".
 */
START_TEST(test_store_bytes)
{
	static const char x[] = { 'a', 0, 'x', (char)0xff };
	static const char y[] = { 'a', 0, 'y', (char)0xff };
	struct strtab t;
	const char *a, *b, *c;

	strtab_init(&t);
	a = strtab_store(&t, x, sizeof(x));
	b = strtab_store(&t, y, sizeof(y));
	c = strtab_store(&t, x, sizeof(x));
	ck_assert_ptr_ne(a, b);
	ck_assert_ptr_ne(a, c);
	ck_assert_int_eq(memcmp(a, x, sizeof(x)), 0);
	ck_assert_int_eq(memcmp(b, y, sizeof(y)), 0);
	ck_assert_int_eq(memcmp(c, x, sizeof(x)), 0);
	strtab_release(&t);
}
END_TEST

/* @n bytes of a longer buffer; prefixes and extensions stay distinct. */
START_TEST(test_lengths)
{
	static const char buf[] = "abcdef";
	struct strtab t;
	const char *ab, *abc, *abc2, *empty;

	strtab_init(&t);
	abc = strtab_intern(&t, buf, 3);
	abc2 = strtab_intern(&t, "abc", 3);
	ab = strtab_intern(&t, buf, 2);
	empty = strtab_intern(&t, buf, 0);
	ck_assert_ptr_eq(strtab_intern(&t, "", 0), empty);
	ck_assert_ptr_eq(abc, abc2);
	ck_assert_str_eq(abc, "abc");
	ck_assert_str_eq(ab, "ab");
	ck_assert_str_eq(empty, "");
	ck_assert_ptr_ne(ab, abc);
	strtab_release(&t);
}
END_TEST

/*
 * Many strings: each is stored, and stays valid and intact whatever came
 * after it; one repeated right away is the same copy; the cache holds
 * STRTAB_RECENT slots, so of that many strings asked again most are found.
 */
START_TEST(test_many)
{
	enum { N = 20000 };
	const char **first = malloc(N * sizeof(*first));
	unsigned int same = 0;
	struct strtab t;
	char s[32];

	ck_assert_ptr_nonnull(first);
	strtab_init(&t);
	for (int i = 0; i < N; i++) {
		int n = snprintf(s, sizeof(s), "clients/c%d/f%d", i % 7, i);

		first[i] = strtab_intern(&t, s, (size_t)n);
		ck_assert_ptr_eq(strtab_intern(&t, s, (size_t)n), first[i]);
	}
	for (int i = 0; i < N; i++) {
		snprintf(s, sizeof(s), "clients/c%d/f%d", i % 7, i);
		ck_assert_str_eq(first[i], s);
	}
	/* the last STRTAB_RECENT / 4 strings, asked again in order */
	for (int i = N - STRTAB_RECENT / 4; i < N; i++) {
		int n = snprintf(s, sizeof(s), "clients/c%d/f%d", i % 7, i);

		same += strtab_intern(&t, s, (size_t)n) == first[i];
	}
	ck_assert_uint_ge(same, STRTAB_RECENT / 4 / 2);
	strtab_release(&t);
	free(first);
}
END_TEST

static Suite *strtab_suite(void)
{
	Suite *s = suite_create("strtab");
	TCase *tc = tcase_create("intern");

	tcase_add_test(tc, test_same_string_once);
	tcase_add_test(tc, test_lengths);
	tcase_add_test(tc, test_store_bytes);
	tcase_add_test(tc, test_many);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(strtab_suite());
}
