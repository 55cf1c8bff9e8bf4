/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for the dbench personality's loadfile options (lang/dbench.c,
 * struct loadfile_opts): the op bits of -x, --stat-check, --fake-io,
 * --one-byte-write-fix, the sizes of --fake-io and --trunc-io, -R's pace
 * ops and their waits, and --clients-per-process's copies of each line
 * with their paths, handles and clients. Output is TAP on stdout.
 */
#include <config.h>
#include "lang/dbench.h"

#include <check.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/compiler.h"
#include "lang/loadfile.h"
#include "lang/ops.h"
#include "lang/reader.h"
#include "unit.h"

#define CL "\\clients\\client1\\"

/* Every op kind the options touch, one line each (0-based index). */
static const char text[] =
	"NTCreateX \"" CL "f\" 0x40 0x2 9 NT_STATUS_OK\n" /* 0 */
	"WriteX 9 0 4096 4000 NT_STATUS_OK\n" /* 1 */
	"WriteX 9 65534 1 1 NT_STATUS_OK\n" /* 2 */
	"ReadX 9 0 8192 8000 NT_STATUS_OK\n" /* 3 */
	"QUERY_FILE_INFORMATION 9 1004 NT_STATUS_OK\n" /* 4 */
	"SET_FILE_INFORMATION 9 1004 NT_STATUS_OK\n" /* 5 */
	"Close 9 NT_STATUS_OK\n" /* 6 */
	"Mkdir \"" CL "d\" NT_STATUS_OK\n" /* 7 */
	"Rmdir \"" CL "d\" NT_STATUS_OK\n" /* 8 */
	"Rename \"" CL "f\" \"" CL "g\" NT_STATUS_OK\n" /* 9 */
	"QUERY_PATH_INFORMATION \"" CL "g\" 1004 NT_STATUS_OK\n" /* 10 */
	"Unlink \"" CL "g\" 0x6 NT_STATUS_OK\n"; /* 11 */

#define NLINES 12

static void load(struct loadfile *lf, const struct loadfile_opts *o)
{
	struct capture c;
	char *err;
	int ret;

	capture_start(&c);
	ret = loadfile_parse(lf, "t.txt", text, sizeof(text) - 1, o);
	err = capture_end(&c);
	ck_assert_msg(ret == 0, "loadfile_parse: %d: %s", ret, err);
	free(err);
}

/* The op of line @line (1-based) for client @sub of its thread. */
static const struct op *op_of(const struct loadfile *lf, unsigned int line,
			      unsigned int sub)
{
	for (unsigned int i = 0; i < lf->nops; i++)
		if (lf->ops[i].line == line && lf->ops[i].sub == sub &&
		    lf->ops[i].id != OP_DB_PACE)
			return &lf->ops[i];
	ck_abort_msg("no op for line %u, client %u", line, sub);
	return NULL;
}

START_TEST(test_defaults_untouched)
{
	static const struct loadfile_opts o = { .dialect = DIALECT_DBENCH };
	struct loadfile lf;

	load(&lf, &o);
	ck_assert_uint_eq(lf.nops, NLINES);
	ck_assert_uint_eq(lf.per_thread, 1);
	for (unsigned int i = 0; i < lf.nops; i++) {
		ck_assert_uint_eq(lf.ops[i].xflags &
					  (OPX_XATTR | OPX_STAT_CHECK |
					   OPX_FAKE_IO | OPX_ONE_BYTE_FIX |
					   OPX_PACED),
				  0);
		ck_assert(!lf.ops[i].expand);
		ck_assert_uint_eq(lf.ops[i].sub, 0);
	}
	ck_assert_uint_eq(op_of(&lf, 2, 0)->size, 4096);
	ck_assert_uint_eq(op_of(&lf, 4, 0)->size, 8192);
	loadfile_release(&lf);
}
END_TEST

/* -x: every op that resolves a path, and the two handle ops. */
START_TEST(test_xattr)
{
	static const struct loadfile_opts o = { .dialect = DIALECT_DBENCH,
						.xattr = true };
	static const unsigned int with[] = { 1, 5, 6, 8, 9, 10, 11, 12 };
	static const unsigned int without[] = { 2, 3, 4, 7 };
	struct loadfile lf;

	load(&lf, &o);
	for (unsigned int i = 0; i < ARRAY_SIZE(with); i++)
		ck_assert_msg(op_of(&lf, with[i], 0)->xflags & OPX_XATTR,
			      "line %u", with[i]);
	for (unsigned int i = 0; i < ARRAY_SIZE(without); i++)
		ck_assert_msg(!(op_of(&lf, without[i], 0)->xflags & OPX_XATTR),
			      "line %u", without[i]);
	loadfile_release(&lf);
}
END_TEST

/* --stat-check: the ops that resolve; the engine decides per op kind. */
START_TEST(test_stat_check)
{
	static const struct loadfile_opts o = { .dialect = DIALECT_DBENCH,
						.stat_check = true };
	struct loadfile lf;

	load(&lf, &o);
	ck_assert(op_of(&lf, 1, 0)->xflags & OPX_STAT_CHECK);
	ck_assert(op_of(&lf, 8, 0)->xflags & OPX_STAT_CHECK);
	ck_assert(op_of(&lf, 9, 0)->xflags & OPX_STAT_CHECK);
	ck_assert(op_of(&lf, 10, 0)->xflags & OPX_STAT_CHECK);
	ck_assert(!(op_of(&lf, 2, 0)->xflags & OPX_STAT_CHECK));
	/* the create keeps O_CREAT: the stat happens at run time */
	ck_assert(op_of(&lf, 1, 0)->flags & O_CREAT);
	loadfile_release(&lf);
}
END_TEST

/* --fake-io: the size counted is ret_size; --one-byte-write-fix: writes. */
START_TEST(test_fake_io_one_byte)
{
	static const struct loadfile_opts o = { .dialect = DIALECT_DBENCH,
						.fake_io = true,
						.one_byte_fix = true,
						.trunc_io = 100 };
	struct loadfile lf;

	load(&lf, &o);
	ck_assert_uint_eq(op_of(&lf, 2, 0)->size, 4000);
	ck_assert_uint_eq(op_of(&lf, 4, 0)->size, 8000);
	ck_assert(op_of(&lf, 2, 0)->xflags & OPX_FAKE_IO);
	ck_assert(op_of(&lf, 4, 0)->xflags & OPX_FAKE_IO);
	ck_assert(op_of(&lf, 3, 0)->xflags & OPX_ONE_BYTE_FIX);
	ck_assert(!(op_of(&lf, 4, 0)->xflags & OPX_ONE_BYTE_FIX));
	loadfile_release(&lf);
}
END_TEST

/* --trunc-io: sizes above it come down to it, smaller ones stay. */
START_TEST(test_trunc_io)
{
	static const struct loadfile_opts o = { .dialect = DIALECT_DBENCH,
						.trunc_io = 5000 };
	struct loadfile lf;

	load(&lf, &o);
	ck_assert_uint_eq(op_of(&lf, 2, 0)->size, 4096);
	ck_assert_uint_eq(op_of(&lf, 3, 0)->size, 1);
	ck_assert_uint_eq(op_of(&lf, 4, 0)->size, 5000);
	ck_assert_uint_eq(lf.max_io, 5000);
	loadfile_release(&lf);
}
END_TEST

/* -R: a pace op after each ReadX and WriteX, waiting size / rate. */
START_TEST(test_rate)
{
	static const struct loadfile_opts o = { .dialect = DIALECT_DBENCH,
						.rate_mbps = 2 };
	static const struct {
		unsigned int line;
		uint64_t wait_ns;
	} want[] = {
		{ 2, 4096 * 500 }, /* 4096 bytes at 2 MB/s: 2.048 ms */
		{ 3, 500 },
		{ 4, 8192 * 500 },
	};
	unsigned int k = 0;
	struct loadfile lf;

	load(&lf, &o);
	ck_assert_uint_eq(lf.nops, NLINES + 3);
	for (unsigned int i = 0; i < lf.nops; i++) {
		const struct op *op = &lf.ops[i];

		if (op->id != OP_DB_PACE) {
			ck_assert_uint_eq(!!(op->xflags & OPX_PACED),
					  op->id == OP_DB_READX ||
						  op->id == OP_DB_WRITEX);
			continue;
		}
		ck_assert_uint_lt(k, ARRAY_SIZE(want));
		ck_assert_uint_eq(op->line, want[k].line);
		ck_assert_uint_eq(lf.ops[i - 1].line, want[k].line);
		ck_assert_uint_eq(op->size, want[k].wait_ns);
		ck_assert_int_eq(op->expect, EXPECT_ANY);
		k++;
	}
	ck_assert_uint_eq(k, ARRAY_SIZE(want));
	loadfile_release(&lf);
}
END_TEST

/*
 * --clients-per-process 3: each line three times, in turn, for clients
 * 0 1 2 of the thread, their paths under client${client}, their own
 * handles, and the client's own directory for \clients\client1.
 */
START_TEST(test_per_thread)
{
	static const struct loadfile_opts o = { .dialect = DIALECT_DBENCH,
						.per_thread = 3 };
	static const char own[] = "NTCreateX \"\\clients\\client1\" 0x1 0x2 7 "
				  "NT_STATUS_OK\n"
				  "Close 7 NT_STATUS_OK\n"
				  "Mkdir \"\\clients\" NT_STATUS_OK\n";
	bool slot_used[OP_MAX_HANDLES] = { false };
	struct loadfile lf;

	load(&lf, &o);
	ck_assert_uint_eq(lf.per_thread, 3);
	ck_assert_uint_eq(lf.nops, 3 * NLINES);
	for (unsigned int i = 0; i < lf.nops; i++) {
		const struct op *op = &lf.ops[i];

		ck_assert_uint_eq(op->line, i / 3 + 1);
		ck_assert_uint_eq(op->sub, i % 3);
		if (op->path && op->id != OP_DB_QFSINFO) {
			ck_assert_msg(
				!strncmp(op->path, "client${client}/", 16),
				"op %u: path %s", i, op->path);
			ck_assert(op->expand);
		}
	}
	EXPECT_STR("rename", op_of(&lf, 10, 2)->path2, "client${client}/g");
	/* the three opens of line 1 take three slots, and each client's
	 * ops on fnum 9 use its own */
	for (unsigned int sub = 0; sub < 3; sub++) {
		unsigned int h = op_of(&lf, 1, sub)->handle;

		ck_assert(!slot_used[h]);
		slot_used[h] = true;
		for (unsigned int line = 2; line <= 7; line++)
			ck_assert_uint_eq(op_of(&lf, line, sub)->handle, h);
	}
	loadfile_release(&lf);

	ck_assert_int_eq(
		loadfile_parse(&lf, "own.txt", own, sizeof(own) - 1, &o), 0);
	EXPECT_STR("own", op_of(&lf, 1, 1)->path, "client${client}");
	EXPECT_STR("clients", op_of(&lf, 3, 0)->path, ".");
	ck_assert(!op_of(&lf, 3, 0)->expand);
	loadfile_release(&lf);
}
END_TEST

/* More clients per thread than handle slots: a load error, not a crash. */
START_TEST(test_per_thread_handles)
{
	static const struct loadfile_opts o = { .dialect = DIALECT_DBENCH,
						.per_thread = 255 };
	static const char two[] = "NTCreateX \"" CL "a\" 0x40 0x2 1 "
				  "NT_STATUS_OK\n"
				  "NTCreateX \"" CL "b\" 0x40 0x2 2 "
				  "NT_STATUS_OK\n"
				  "Close 1 NT_STATUS_OK\n"
				  "Close 2 NT_STATUS_OK\n";
	struct loadfile lf;
	struct capture c;
	char *err;
	int ret;

	capture_start(&c);
	ret = loadfile_parse(&lf, "two.txt", two, sizeof(two) - 1, &o);
	err = capture_end(&c);
	ck_assert_int_ne(ret, 0);
	ck_assert_msg(strstr(err, "two.txt:2:") &&
			      strstr(err, "more than 256 handles open at once"),
		      "%s", err);
	free(err);
}
END_TEST

static Suite *options_suite(void)
{
	Suite *s = suite_create("dbench-options");
	TCase *tc = tcase_create("options");

	tcase_add_test(tc, test_defaults_untouched);
	tcase_add_test(tc, test_xattr);
	tcase_add_test(tc, test_stat_check);
	tcase_add_test(tc, test_fake_io_one_byte);
	tcase_add_test(tc, test_trunc_io);
	tcase_add_test(tc, test_rate);
	tcase_add_test(tc, test_per_thread);
	tcase_add_test(tc, test_per_thread_handles);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(options_suite());
}
