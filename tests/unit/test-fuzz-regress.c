/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Regression inputs found by the fuzzers (tests/data/fuzz/): each goes
 * through both parsers the way the fuzz targets feed them, in a buffer of
 * exactly its size and without a final NUL, so that the sanitizer builds
 * catch any read past the end. Each also goes through the strace log
 * reader and record's converter, line by line as fuzz-strace feeds them.
 * An input must be accepted or rejected, never crash.
 */
#include <config.h>

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lang/dbench.h"
#include "lang/loadfile.h"
#include "lang/reader.h"
#include "lang/record.h"
#include "lang/strace.h"
#include "unit.h"

#define DATA "/tests/data/fuzz"

static char **inputs;
static int ninputs;

static void list_inputs(void)
{
	const char *top = getenv("abs_top_srcdir");
	char dir[4096];
	struct dirent *d;
	DIR *dp;

	snprintf(dir, sizeof(dir), "%s" DATA, top ? top : "..");
	dp = opendir(dir);
	if (!dp)
		return;
	while ((d = readdir(dp))) {
		if (d->d_name[0] == '.')
			continue;
		inputs = realloc(inputs,
				 (size_t)(ninputs + 1) * sizeof(*inputs));
		inputs[ninputs] = malloc(strlen(dir) + strlen(d->d_name) + 2);
		sprintf(inputs[ninputs++], "%s/%s", dir, d->d_name);
	}
	closedir(dp);
}

/* The file in a malloc of exactly its size. */
static char *slurp(const char *path, size_t *len)
{
	struct stat st;
	FILE *f = fopen(path, "rb");
	char *buf;

	ck_assert_msg(f != NULL, "cannot open %s", path);
	ck_assert_int_eq(fstat(fileno(f), &st), 0);
	*len = (size_t)st.st_size;
	buf = malloc(*len ? *len : 1);
	ck_assert_uint_eq(fread(buf, 1, *len, f), *len);
	fclose(f);
	return buf;
}

static void parse(const char *buf, size_t len, struct loadfile_opts *o)
{
	struct loadfile lf;

	if (!loadfile_parse(&lf, "fuzz", buf, len, o))
		loadfile_release(&lf);
}

/* as fuzz/fuzz-strace.c: lines up to the first NUL, converted, written */
static void record_text(const char *buf, size_t len)
{
	char *text = malloc(len + 1), *line, *nl;
	struct record_header h = { "cmd", "kernel", "date", 1 };
	struct strace_call c;
	struct strace s;
	struct record r;
	FILE *f;
	int ret = 0;

	memcpy(text, buf, len);
	text[len] = '\0';
	strace_init(&s, "fuzz");
	record_init(&r, "/r", "/r", NULL, 0);
	for (line = text; !ret && (nl = strchr(line, '\n')); line = nl + 1) {
		*nl = '\0';
		ret = strace_line(&s, line, &c);
		if (ret > 0) {
			record_call(&r, &c);
			ret = 0;
		}
	}
	if (!ret && !strace_end(&s)) {
		f = fopen("/dev/null", "w");
		ck_assert(f != NULL);
		record_write(&r, &h, f);
		fclose(f);
	}
	record_release(&r);
	strace_release(&s);
	free(text);
}

START_TEST(test_input)
{
	struct loadfile_opts native = { .dialect = DIALECT_NATIVE };
	struct loadfile_opts db = { .dialect = DIALECT_DBENCH,
				    .basedir = "/base" };
	struct loadfile_opts aut = { .dialect = DIALECT_AUTO };
	size_t len;
	char *buf = slurp(inputs[_i], &len);

	/* as the native target sees it, and as the dbench target does:
	 * the first byte chooses options, the rest is the loadfile */
	parse(buf, len, &native);
	parse(buf, len, &aut);
	if (len) {
		db.sync_open = buf[0] & 1;
		db.no_resolve = buf[0] & 8;
		dbench_detect(buf + 1, len - 1);
		parse(buf + 1, len - 1, &db);
	}
	record_text(buf, len);
	free(buf);
}
END_TEST

START_TEST(test_have_inputs)
{
	ck_assert_msg(ninputs > 0, "no inputs in tests/data/fuzz");
}
END_TEST

static Suite *fuzz_regress_suite(void)
{
	Suite *s = suite_create("fuzz-regress");
	TCase *tc = tcase_create("inputs");

	list_inputs();
	tcase_add_test(tc, test_have_inputs);
	tcase_add_loop_test(tc, test_input, 0, ninputs);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(fuzz_regress_suite());
}
