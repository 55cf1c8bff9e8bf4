/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for dbench.c: dbench_detect() and loadfile_parse() with
 * DIALECT_AUTO, and the translation of every dbench op into its struct op
 * with DIALECT_DBENCH (id, paths, open flags, xflags, mode, expectation,
 * handle slot, offsets and sizes), each loadfile option, handle slots,
 * line ends, and the exact "NAME:LINE:COL: message" of every load error
 * (stderr captured through a temporary file). Output is TAP on stdout.
 */
#include <config.h>
#include "lang/dbench.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/compiler.h"
#include "lang/loadfile.h"
#include "lang/ops.h"
#include "lang/reader.h"
#include "unit.h"

#define NAME "client.txt"

/* A string literal and its length, NUL bytes included. */
#define T(s) s, sizeof(s) - 1

/* The client directory prefix of client.txt's paths, in C. */
#define CL "\\clients\\client1\\"

#define R OPX_RESOLVE_SCAN

#define EXPECT_HEX(ctx, got, want)                              \
	ck_assert_msg((uintmax_t)(got) == (uintmax_t)(want),    \
		      "%s: %s is %#jx, want %#jx", (ctx), #got, \
		      (uintmax_t)(got), (uintmax_t)(want))

static const struct loadfile_opts db_opts = { .dialect = DIALECT_DBENCH };
static const struct loadfile_opts auto_opts = { .dialect = DIALECT_AUTO };

/* loadfile_parse() of @len bytes as NAME with @opts, stderr into *err. */
static int parse_capture(struct loadfile *lf, const char *buf, size_t len,
			 const struct loadfile_opts *opts, char **err)
{
	struct capture c;
	int ret;

	capture_start(&c);
	ret = loadfile_parse(lf, NAME, buf, len, opts);
	*err = capture_end(&c);
	return ret;
}

/* Parse @text with @opts: must succeed without a word on stderr. */
static void parse_ok(struct loadfile *lf, const char *text, size_t len,
		     const struct loadfile_opts *opts)
{
	char ctx[256], msg[512];
	char *err;
	int ret;

	ret = parse_capture(lf, text, len, opts, &err);
	esc(ctx, sizeof(ctx), text, len);
	ck_assert_msg(ret == 0, "\"%s\": loadfile_parse returned %d: %s", ctx,
		      ret, esc(msg, sizeof(msg), err, strlen(err)));
	ck_assert_msg(err[0] == '\0', "\"%s\": stderr \"%s\" on success", ctx,
		      esc(msg, sizeof(msg), err, strlen(err)));
	free(err);
	ck_assert_pstr_eq(lf->name, NAME);
}

/* A dbench loadfile that must compile. */
static void db_ok(struct loadfile *lf, const char *text)
{
	parse_ok(lf, text, strlen(text), &db_opts);
	ck_assert_int_eq(lf->dialect, DIALECT_DBENCH);
	ck_assert_uint_eq(lf->nsetup, 0);
}

/* ---------------------------------------------------------------- */
/* Detection */

struct detect_case {
	const char *text;
	size_t len;
	bool dbench;
};

static const struct detect_case detect_cases[] = {
	/* client.txt's first lines */
	{ T("Deltree \"\\clients\\client1\" NT_STATUS_OK\n"
	    "Mkdir \"\\clients\" NT_STATUS_OK\n"
	    "NTCreateX \"\\clients\\client1\" 0x1 0x2 16385 NT_STATUS_OK\n"),
	  true },
	{ T("NTCreateX \"" CL
	    "a\" 0x40 0x1 5 NT_STATUS_OBJECT_NAME_NOT_FOUND\n"),
	  true },
	/* comments and blank lines before the first op line */
	{ T("# a comment\n\n   \n\t\n  # indented\nClose 1 NT_STATUS_OK\n"),
	  true },
	/* a timestamp before the op */
	{ T("0.012 Close 1 NT_STATUS_OK\n"), true },
	{ T("17 Deltree \"\\clients\\client1\" NT_STATUS_OK\n"), true },
	/* line ends, spacing */
	{ T("Close 1 NT_STATUS_OK\r\nClose 2 NT_STATUS_OK\r\n"), true },
	{ T("Close 1 NT_STATUS_OK"), true },
	{ T("Close 1 NT_STATUS_OK   \n"), true },
	{ T("Close\t1\tNT_STATUS_OK\n"), true },
	{ T("  Close 1 NT_STATUS_OK\n"), true },
	/* op names in any case, 0x statuses */
	{ T("close 1 0x0\n"), true },
	{ T("READX 1 0 1 1 0xC0000034\n"), true },
	{ T("query_fs_information 259 NT_STATUS_OK\n"), true },
	{ T("Sleep 100 NT_STATUS_OK\n"), true },
	/* the first op line decides */
	{ T("Close 1 NT_STATUS_OK\nstat a\n"), true },
	{ T("stat a\nClose 1 NT_STATUS_OK\n"), false },
	/* native loadfiles */
	{ T("create f 0x1\n"), false },
	{ T("mkdir d\n"), false },
	{ T("close @1\n"), false },
	{ T("open f rdonly @1\nclose @1\n"), false },
	{ T("unlink a\n"), false },
	{ T("rename a b\n"), false },
	{ T("rmdir d ENOENT\n"), false },
	{ T("stat a ENOENT\n"), false },
	{ T("[setup]\nmkdir d\n[run]\nstat d\n"), false },
	{ T("[run]\nClose 1 NT_STATUS_OK\n"), false },
	{ T("# comment\n\nstat a\n"), false },
	/* neither: no op line, no status, no dbench op */
	{ T(""), false },
	{ T("# only a comment\n\n"), false },
	{ T("Close 1 OK\n"), false },
	{ T("Close 1 NT_STATUS_\n"), false },
	{ T("Close 1 0x\n"), false },
	{ T("Close 1\n"), false },
	{ T("Close\n"), false },
	{ T("Frobnicate 1 NT_STATUS_OK\n"), false },
	{ T("12.5\n"), false },
};

START_TEST(test_detect)
{
	const struct detect_case *c = &detect_cases[_i];
	char ctx[256];
	bool got;

	esc(ctx, sizeof(ctx), c->text, c->len);
	got = dbench_detect(c->text, c->len);
	ck_assert_msg(got == c->dbench, "\"%s\": dbench_detect is %d, want %d",
		      ctx, got, c->dbench);
}
END_TEST

/* Detection reads only @len bytes: what follows is not looked at. */
START_TEST(test_detect_len)
{
	static const char text[] = "stat a\nClose 1 NT_STATUS_OK\n";
	static const char text2[] = "# c\nClose 1 NT_STATUS_OK\n";

	/* "stat a" cut to nothing: no op line at all */
	ck_assert(!dbench_detect(text, 0));
	/* the comment line only */
	ck_assert(!dbench_detect(text2, 4));
	/* cut inside the status: a status prefix and more is a status */
	ck_assert(dbench_detect(text2, 4 + strlen("Close 1 NT_STATUS_O")));
	ck_assert(dbench_detect(text2, sizeof(text2) - 1));
	/* cut before the status is whole: the bytes after @len do not count */
	ck_assert(!dbench_detect(text2, 4 + strlen("Close 1 NT_STATUS")));
	ck_assert(!dbench_detect(text2, 4 + strlen("Close 1 NT_STAT")));
	ck_assert(!dbench_detect(text2, 4 + strlen("Close 1 N")));
}
END_TEST

/*
 * Exact-size heap copies (no NUL after them): the last token is compared
 * within the buffer (run under ASan: no read past the end).
 */
struct cut_case {
	const char *text;
	bool dbench;
};

static const struct cut_case cut_cases[] = {
	{ "Close 1 NT_STAT", false },
	{ "Close 1 N", false },
	{ "Close 1 0", false },
	{ "Close 1 0x", false },
	{ "Close 1 NT_STATUS_", false },
	{ "# c\nClose 1 NT_STATUS", false },
	{ "Close 1 0x0", true },
	{ "Close 1 NT_STATUS_OK", true },
	{ "# c\r\nClose 1 NT_STATUS_OK\r", true },
	{ "Close", false },
	{ "#", false },
	{ "1", false },
};

START_TEST(test_detect_exact_size)
{
	const struct cut_case *c = &cut_cases[_i];
	size_t len = strlen(c->text);
	char *copy = malloc(len), ctx[128];
	bool got;

	ck_assert_ptr_nonnull(copy);
	memcpy(copy, c->text, len);
	got = dbench_detect(copy, len);
	free(copy);
	esc(ctx, sizeof(ctx), c->text, len);
	ck_assert_msg(got == c->dbench, "\"%s\" (exact size): %d, want %d", ctx,
		      got, c->dbench);
}
END_TEST

/* DIALECT_AUTO picks the parser, and records what it picked. */
START_TEST(test_auto_dialect)
{
	struct loadfile lf;

	parse_ok(&lf,
		 T("# dbench\nDeltree \"\\clients\\client1\" NT_STATUS_OK\n"
		   "Mkdir \"" CL "d\" NT_STATUS_OK\n"),
		 &auto_opts);
	ck_assert_int_eq(lf.dialect, DIALECT_DBENCH);
	ck_assert_uint_eq(lf.nops, 2);
	ck_assert_int_eq(lf.ops[0].id, OP_DB_DELTREE);
	ck_assert_int_eq(lf.ops[1].id, OP_DB_MKDIR);
	ck_assert_pstr_eq(lf.ops[1].path, "d");
	loadfile_release(&lf);

	parse_ok(&lf, T("1.5 close 7 0x0\n"), &auto_opts);
	ck_assert_int_eq(lf.dialect, DIALECT_DBENCH);
	ck_assert_int_eq(lf.ops[0].id, OP_DB_CLOSE);
	loadfile_release(&lf);

	/* native, with ops whose names dbench also has */
	parse_ok(&lf,
		 T("mkdir d\ncreate d/f 0600\nopen d/f rdonly @1\n"
		   "close @1\nunlink d/f\nrmdir d\n"),
		 &auto_opts);
	ck_assert_int_eq(lf.dialect, DIALECT_NATIVE);
	ck_assert_uint_eq(lf.nops, 6);
	ck_assert_int_eq(lf.ops[0].id, OP_MKDIR);
	ck_assert_int_eq(lf.ops[3].id, OP_CLOSE);
	ck_assert_int_eq(lf.ops[5].id, OP_RMDIR);
	loadfile_release(&lf);

	/* the defaults (NULL options) are DIALECT_AUTO too */
	parse_ok(&lf, T("Flush 3 NT_STATUS_OK\n"), NULL);
	ck_assert_int_eq(lf.dialect, DIALECT_DBENCH);
	ck_assert_int_eq(lf.ops[0].id, OP_DB_FLUSH);
	loadfile_release(&lf);
	parse_ok(&lf, T("stat a\n"), NULL);
	ck_assert_int_eq(lf.dialect, DIALECT_NATIVE);
	loadfile_release(&lf);
}
END_TEST

/* A forced dialect is not second-guessed. */
START_TEST(test_forced_dialect)
{
	static const struct loadfile_opts native = { .dialect =
							     DIALECT_NATIVE };
	struct loadfile lf;
	char *err;
	int ret;

	ret = parse_capture(&lf, T("Close 1 NT_STATUS_OK\n"), &native, &err);
	ck_assert_int_eq(ret, -EINVAL);
	ck_assert_pstr_eq(
		err, NAME
		":1:1: unknown op 'Close' ('Close' is an op of dbench loadfiles; this file is read as native, as --dialect native says)\n");
	free(err);

	ret = parse_capture(&lf, T("mkdir d\n"), &db_opts, &err);
	ck_assert_int_eq(ret, -EINVAL);
	ck_assert_pstr_eq(
		err, NAME
		":1:7: bad status 'd' (expected NT_STATUS_... or 0x...)\n");
	free(err);

	ret = parse_capture(&lf, T("stat a\n"), &db_opts, &err);
	ck_assert_int_eq(ret, -EINVAL);
	ck_assert_pstr_eq(err, NAME ":1:1: unknown dbench op 'stat'\n");
	free(err);

	/* a dbench line after a native one: dbench when forced */
	db_ok(&lf, "# c\nClose 1 NT_STATUS_OK\n");
	ck_assert_uint_eq(lf.nops, 1);
	ck_assert_uint_eq(lf.ops[0].line, 2);
	loadfile_release(&lf);
}
END_TEST

/* ---------------------------------------------------------------- */
/* One op per case */

/*
 * ops[idx] of the text must come out as below. slot: the handle slot
 * (0-based), or -1 for none (has_handle false). mode is checked for
 * NTCreateX only (0600).
 */
struct op_case {
	const char *text;
	unsigned int idx;
	enum op_id id;
	const char *path, *path2;
	int slot;
	int flags;
	unsigned int xflags;
	uint64_t offset, size;
	int expect;
	unsigned int line;
};

/* An op on fnum 9 on line 2, between its open and its close. */
#define OPEN9	  "NTCreateX \"" CL "f\" 0x40 0x2 9 NT_STATUS_OK\n"
#define CLOSE9	  "Close 9 NT_STATUS_OK\n"
#define ON9(line) OPEN9 line "\n" CLOSE9
#define NTC(p, opt, disp, st) \
	"NTCreateX \"" CL p "\" " opt " " disp " 9 " st "\n" CLOSE9

#define RDWR (O_RDWR | O_CLOEXEC)

/*
 * Fields: text, idx, id, path, path2, slot, flags, xflags, offset, size,
 * expect, line.
 */
static const struct op_case op_cases[] = {
	/* NTCreateX: the open flags per disposition */
	{ NTC("f", "0x40", "0x1", "NT_STATUS_OK"), 0, OP_DB_NTCREATEX, "f",
	  NULL, 0, RDWR, R, 0, 0, EXPECT_OK, 1 },
	{ NTC("f", "0x40", "0x2", "NT_STATUS_OK"), 0, OP_DB_NTCREATEX, "f",
	  NULL, 0, RDWR | O_CREAT, R, 0, 0, EXPECT_OK, 1 },
	{ NTC("f", "0x40", "0x4", "NT_STATUS_OK"), 0, OP_DB_NTCREATEX, "f",
	  NULL, 0, RDWR | O_CREAT | O_TRUNC, R, 0, 0, EXPECT_OK, 1 },
	{ NTC("f", "0x40", "0x5", "NT_STATUS_OK"), 0, OP_DB_NTCREATEX, "f",
	  NULL, 0, RDWR | O_CREAT | O_TRUNC, R, 0, 0, EXPECT_OK, 1 },
	/* SUPERSEDE and OPEN_IF add nothing in dbench */
	{ NTC("f", "0x40", "0", "NT_STATUS_OK"), 0, OP_DB_NTCREATEX, "f", NULL,
	  0, RDWR, R, 0, 0, EXPECT_OK, 1 },
	{ NTC("f", "0x40", "3", "NT_STATUS_OK"), 0, OP_DB_NTCREATEX, "f", NULL,
	  0, RDWR, R, 0, 0, EXPECT_OK, 1 },
	/* decimal numbers, and options 0 */
	{ NTC("f", "0", "2", "NT_STATUS_OK"), 0, OP_DB_NTCREATEX, "f", NULL, 0,
	  RDWR | O_CREAT, R, 0, 0, EXPECT_OK, 1 },
	/* a directory: create_options bit 0 */
	{ NTC("d", "0x1", "0x2", "NT_STATUS_OK"), 0, OP_DB_NTCREATEX, "d", NULL,
	  0, RDWR | O_CREAT, R | OPX_NT_DIRECTORY, 0, 0, EXPECT_OK, 1 },
	{ NTC("d", "0x41", "0x1", "NT_STATUS_OK"), 0, OP_DB_NTCREATEX, "d",
	  NULL, 0, RDWR, R | OPX_NT_DIRECTORY, 0, 0, EXPECT_OK, 1 },
	{ NTC("f", "0x40", "0x1", "0x0"), 0, OP_DB_NTCREATEX, "f", NULL, 0,
	  RDWR, R, 0, 0, EXPECT_OK, 1 },
	{ NTC("f", "0x40", "0x1", "0x00000000"), 0, OP_DB_NTCREATEX, "f", NULL,
	  0, RDWR, R, 0, 0, EXPECT_OK, 1 },
	/* the client's own directory */
	{ "NTCreateX \"\\clients\\client1\" 0x1 0x2 16385 NT_STATUS_OK\n"
	  "Close 16385 NT_STATUS_OK\n",
	  0, OP_DB_NTCREATEX, ".", NULL, 0, RDWR | O_CREAT,
	  R | OPX_NT_DIRECTORY, 0, 0, EXPECT_OK, 1 },
	/* expected to fail: any status but OK, borrows a slot, no Close */
	{ "NTCreateX \"" CL "f\" 0x40 0x1 9 NT_STATUS_OBJECT_NAME_NOT_FOUND\n",
	  0, OP_DB_NTCREATEX, "f", NULL, 0, RDWR, R, 0, 0, EXPECT_FAIL, 1 },
	{ "NTCreateX \"" CL "f\" 0x40 0x1 9 0xC0000034\n", 0, OP_DB_NTCREATEX,
	  "f", NULL, 0, RDWR, R, 0, 0, EXPECT_FAIL, 1 },
	{ "NTCreateX \"" CL "f\" 0x40 0x1 9 0x1\n", 0, OP_DB_NTCREATEX, "f",
	  NULL, 0, RDWR, R, 0, 0, EXPECT_FAIL, 1 },
	{ "NTCreateX \"" CL "f\" 0x40 0x1 9 NT_STATUS_ACCESS_DENIED\n", 0,
	  OP_DB_NTCREATEX, "f", NULL, 0, RDWR, R, 0, 0, EXPECT_FAIL, 1 },
	/* case-insensitive op names */
	{ "ntcreatex \"" CL
	  "f\" 0x40 0x2 9 NT_STATUS_OK\nCLOSE 9 NT_STATUS_OK\n",
	  0, OP_DB_NTCREATEX, "f", NULL, 0, RDWR | O_CREAT, R, 0, 0, EXPECT_OK,
	  1 },

	/* Close: not checked */
	{ OPEN9 CLOSE9, 1, OP_DB_CLOSE, NULL, NULL, 0, 0, 0, 0, 0, EXPECT_ANY,
	  2 },
	{ OPEN9 "Close 9 NT_STATUS_INVALID_HANDLE\n", 1, OP_DB_CLOSE, NULL,
	  NULL, 0, 0, 0, 0, 0, EXPECT_ANY, 2 },
	{ OPEN9 "cLoSe 9 0x0\n", 1, OP_DB_CLOSE, NULL, NULL, 0, 0, 0, 0, 0,
	  EXPECT_ANY, 2 },

	/* Rename, Unlink, Rmdir: checked both ways */
	{ "Rename \"" CL "a\\x.txt\" \"" CL "b\\y.txt\" NT_STATUS_OK\n", 0,
	  OP_DB_RENAME, "a/x.txt", "b/y.txt", -1, 0, R, 0, 0, EXPECT_OK, 1 },
	{ "Rename \"" CL "a\" \"" CL "b\" NT_STATUS_OBJECT_NAME_NOT_FOUND\n", 0,
	  OP_DB_RENAME, "a", "b", -1, 0, R, 0, 0, EXPECT_FAIL, 1 },
	{ "Unlink \"" CL "dir\\f.dat\" 0x6 NT_STATUS_OK\n", 0, OP_DB_UNLINK,
	  "dir/f.dat", NULL, -1, 0, R, 0, 0, EXPECT_OK, 1 },
	{ "unlink \"" CL "f\" 0x20 0xC0000034\n", 0, OP_DB_UNLINK, "f", NULL,
	  -1, 0, R, 0, 0, EXPECT_FAIL, 1 },
	{ "Rmdir \"" CL "d\" NT_STATUS_OK\n", 0, OP_DB_RMDIR, "d", NULL, -1, 0,
	  R, 0, 0, EXPECT_OK, 1 },
	{ "RMDIR \"" CL "d\" NT_STATUS_DIRECTORY_NOT_EMPTY\n", 0, OP_DB_RMDIR,
	  "d", NULL, -1, 0, R, 0, 0, EXPECT_FAIL, 1 },

	/* Mkdir, Deltree, Qpathinfo: never checked */
	{ "Mkdir \"" CL "d\" NT_STATUS_OK\n", 0, OP_DB_MKDIR, "d", NULL, -1, 0,
	  R, 0, 0, EXPECT_ANY, 1 },
	{ "Mkdir \"\\clients\" NT_STATUS_OBJECT_NAME_COLLISION\n", 0,
	  OP_DB_MKDIR, ".", NULL, -1, 0, R, 0, 0, EXPECT_ANY, 1 },
	{ "QUERY_PATH_INFORMATION \"" CL "~dmtmp\\a.b\" 1004 NT_STATUS_OK\n", 0,
	  OP_DB_QPATHINFO, "~dmtmp/a.b", NULL, -1, 0, R, 0, 0, EXPECT_ANY, 1 },
	{ "QUERY_PATH_INFORMATION \"" CL
	  "x\" 1004 NT_STATUS_OBJECT_NAME_NOT_FOUND\n",
	  0, OP_DB_QPATHINFO, "x", NULL, -1, 0, R, 0, 0, EXPECT_ANY, 1 },
	{ "QUERY_PATH_INFORMATION \"" CL
	  "x\\y\" 1004 NT_STATUS_OBJECT_PATH_NOT_FOUND\n",
	  0, OP_DB_QPATHINFO, "x/y", NULL, -1, 0, R, 0, 0, EXPECT_ANY, 1 },

	/* handle ops: not checked */
	{ ON9("QUERY_FILE_INFORMATION 9 1004 NT_STATUS_OK"), 1, OP_DB_QFILEINFO,
	  NULL, NULL, 0, 0, 0, 0, 0, EXPECT_ANY, 2 },
	{ ON9("query_file_information 9 258 0x0"), 1, OP_DB_QFILEINFO, NULL,
	  NULL, 0, 0, 0, 0, 0, EXPECT_ANY, 2 },
	{ ON9("Flush 9 NT_STATUS_OK"), 1, OP_DB_FLUSH, NULL, NULL, 0, 0, 0, 0,
	  0, EXPECT_ANY, 2 },
	{ ON9("LockX 9 10 20 NT_STATUS_OK"), 1, OP_DB_LOCKX, NULL, NULL, 0, 0,
	  0, 10, 20, EXPECT_ANY, 2 },
	{ ON9("LockX 9 0 1 NT_STATUS_LOCK_NOT_GRANTED"), 1, OP_DB_LOCKX, NULL,
	  NULL, 0, 0, 0, 0, 1, EXPECT_ANY, 2 },
	{ ON9("UnlockX 9 4096 1 NT_STATUS_OK"), 1, OP_DB_UNLOCKX, NULL, NULL, 0,
	  0, 0, 4096, 1, EXPECT_ANY, 2 },
	/* Sfileinfo: the path its handle was opened by */
	{ ON9("SET_FILE_INFORMATION 9 1004 NT_STATUS_OK"), 1, OP_DB_SFILEINFO,
	  "f", NULL, 0, 0, 0, 0, 0, EXPECT_ANY, 2 },
	{ "NTCreateX \"" CL "Dir\\Sub\\File.TXT\" 0x40 0x1 4 NT_STATUS_OK\n"
	  "SET_FILE_INFORMATION 4 1004 NT_STATUS_ACCESS_DENIED\n"
	  "Close 4 NT_STATUS_OK\n",
	  1, OP_DB_SFILEINFO, "Dir/Sub/File.TXT", NULL, 0, 0, 0, 0, 0,
	  EXPECT_ANY, 2 },

	/* WriteX and ReadX must succeed, whatever the status */
	{ ON9("WriteX 9 0 65536 65536 NT_STATUS_OK"), 1, OP_DB_WRITEX, NULL,
	  NULL, 0, 0, 0, 0, 65536, EXPECT_OK, 2 },
	{ ON9("WriteX 9 65534 1 1 0x0"), 1, OP_DB_WRITEX, NULL, NULL, 0, 0, 0,
	  65534, 1, EXPECT_OK, 2 },
	{ ON9("WriteX 9 0 100 0 NT_STATUS_DISK_FULL"), 1, OP_DB_WRITEX, NULL,
	  NULL, 0, 0, 0, 0, 100, EXPECT_OK, 2 },
	{ ON9("ReadX 9 131072 4096 4096 NT_STATUS_OK"), 1, OP_DB_READX, NULL,
	  NULL, 0, 0, 0, 131072, 4096, EXPECT_OK, 2 },
	{ ON9("READX 9 0 4096 0 NT_STATUS_END_OF_FILE"), 1, OP_DB_READX, NULL,
	  NULL, 0, 0, 0, 0, 4096, EXPECT_OK, 2 },
	{ ON9("readx 9 9223372036854775807 16777216 0 0x0"), 1, OP_DB_READX,
	  NULL, NULL, 0, 0, 0, INT64_MAX, 16777216, EXPECT_OK, 2 },

	/* numbers: decimal, hexadecimal after 0x, octal after a leading 0 */
	{ ON9("WriteX 9 0x10 010 8 NT_STATUS_OK"), 1, OP_DB_WRITEX, NULL, NULL,
	  0, 0, 0, 16, 8, EXPECT_OK, 2 },
	{ ON9("LockX 9 0X20 0 NT_STATUS_OK"), 1, OP_DB_LOCKX, NULL, NULL, 0, 0,
	  0, 32, 0, EXPECT_ANY, 2 },
	{ ON9("ReadX 9 00 0x1000000 0 NT_STATUS_OK"), 1, OP_DB_READX, NULL,
	  NULL, 0, 0, 0, 0, 16777216, EXPECT_OK, 2 },

	/* Find: the pattern's directory in path2, wildcard or not */
	{ "FIND_FIRST \"" CL
	  "~dmtmp\\WORD\\*.doc\" 260 1366 0 NT_STATUS_NO_SUCH_FILE\n",
	  0, OP_DB_FIND, "~dmtmp/WORD/*.doc", "~dmtmp/WORD", -1, 0,
	  R | OPX_WILDCARD, 0, 0, EXPECT_ANY, 1 },
	{ "FIND_FIRST \"" CL "a\\b.txt\" 260 1366 1 NT_STATUS_OK\n", 0,
	  OP_DB_FIND, "a/b.txt", "a", -1, 0, R, 0, 0, EXPECT_ANY, 1 },
	{ "FIND_FIRST \"" CL "*\" 260 1366 5 NT_STATUS_OK\n", 0, OP_DB_FIND,
	  "*", ".", -1, 0, R | OPX_WILDCARD, 0, 0, EXPECT_ANY, 1 },
	{ "FIND_FIRST \"" CL "d\\a?c\" 260 1366 0 NT_STATUS_OK\n", 0,
	  OP_DB_FIND, "d/a?c", "d", -1, 0, R | OPX_WILDCARD, 0, 0, EXPECT_ANY,
	  1 },
	{ "FIND_FIRST \"" CL "d\\<x\" 260 1366 0 NT_STATUS_OK\n", 0, OP_DB_FIND,
	  "d/<x", "d", -1, 0, R | OPX_WILDCARD, 0, 0, EXPECT_ANY, 1 },
	{ "FIND_FIRST \"" CL "d\\x>\" 260 1366 0 NT_STATUS_OK\n", 0, OP_DB_FIND,
	  "d/x>", "d", -1, 0, R | OPX_WILDCARD, 0, 0, EXPECT_ANY, 1 },
	/* an unquoted token can hold a double quote */
	{ "FIND_FIRST " CL "d\\a\"b 260 1366 0 NT_STATUS_OK\n", 0, OP_DB_FIND,
	  "d/a\"b", "d", -1, 0, R | OPX_WILDCARD, 0, 0, EXPECT_ANY, 1 },
	{ "FIND_FIRST \"" CL "d\\x.y\" 260 1366 0 NT_STATUS_OK\n", 0,
	  OP_DB_FIND, "d/x.y", "d", -1, 0, R, 0, 0, EXPECT_ANY, 1 },

	/* Qfsinfo: the base directory ("." without one) */
	{ "QUERY_FS_INFORMATION 259 NT_STATUS_OK\n", 0, OP_DB_QFSINFO, ".",
	  NULL, -1, 0, 0, 0, 0, EXPECT_ANY, 1 },
	{ "query_fs_information 1 0xC0000001\n", 0, OP_DB_QFSINFO, ".", NULL,
	  -1, 0, 0, 0, 0, EXPECT_ANY, 1 },

	/* Deltree: never checked; the client's directory is "." */
	{ "Deltree \"\\clients\\client1\" NT_STATUS_OK\n", 0, OP_DB_DELTREE,
	  ".", NULL, -1, 0, R, 0, 0, EXPECT_ANY, 1 },
	{ "Deltree \"" CL "~dmtmp\" NT_STATUS_OBJECT_NAME_NOT_FOUND\n", 0,
	  OP_DB_DELTREE, "~dmtmp", NULL, -1, 0, R, 0, 0, EXPECT_ANY, 1 },

	/* Sleep: the microseconds in size */
	{ "Sleep 250 NT_STATUS_OK\n", 0, OP_DB_SLEEP, NULL, NULL, -1, 0, 0, 0,
	  250, EXPECT_ANY, 1 },
	{ "SLEEP 0 0x0\n", 0, OP_DB_SLEEP, NULL, NULL, -1, 0, 0, 0, 0,
	  EXPECT_ANY, 1 },

	/* timestamps, comments and blank lines: line numbers count them */
	{ "# a comment\n\n0.500 Mkdir \"" CL "d\" NT_STATUS_OK\n", 0,
	  OP_DB_MKDIR, "d", NULL, -1, 0, R, 0, 0, EXPECT_ANY, 3 },
	{ "Mkdir \"" CL "a\" NT_STATUS_OK\n  12 Rmdir \"" CL
	  "a\" NT_STATUS_OK\n",
	  1, OP_DB_RMDIR, "a", NULL, -1, 0, R, 0, 0, EXPECT_OK, 2 },
	{ "3e2 Flush 9 NT_STATUS_OK\n", 0, OP_DB_FLUSH, NULL, NULL, -1, 0, 0, 0,
	  0, EXPECT_OK, 1 },
};

static void check_op(const char *ctx, const struct op *op,
		     const struct op_case *c)
{
	EXPECT_UINT(ctx, op->id, c->id);
	EXPECT_STR(ctx, op->path, c->path);
	EXPECT_STR(ctx, op->path2, c->path2);
	EXPECT_UINT(ctx, op->has_handle, c->slot >= 0);
	if (c->slot >= 0)
		EXPECT_UINT(ctx, op->handle, c->slot);
	EXPECT_HEX(ctx, op->flags, c->flags);
	EXPECT_HEX(ctx, op->xflags, c->xflags);
	if (c->id == OP_DB_NTCREATEX)
		EXPECT_UINT(ctx, op->mode, 0600);
	EXPECT_UINT(ctx, op->offset, c->offset);
	EXPECT_UINT(ctx, op->size, c->size);
	EXPECT_INT(ctx, op->expect, c->expect);
	EXPECT_UINT(ctx, op->line, c->line);
}

START_TEST(test_op)
{
	const struct op_case *c = &op_cases[_i];
	struct loadfile lf;
	char ctx[256];

	esc(ctx, sizeof(ctx), c->text, strlen(c->text));
	db_ok(&lf, c->text);
	ck_assert_msg(c->idx < lf.nops, "\"%s\": %u ops", ctx, lf.nops);
	check_op(ctx, &lf.ops[c->idx], c);
	loadfile_release(&lf);
}
END_TEST

/* Every dbench op of op_table has a case above, and no native op does. */
START_TEST(test_op_table_covered)
{
	bool seen[OP_NR] = { false };

	for (unsigned int i = 0; i < ARRAY_SIZE(op_cases); i++)
		seen[op_cases[i].id] = true;
	/* -R's pace op comes with an option: test-dbench-personality.c */
	seen[OP_DB_PACE] = true;
	for (unsigned int id = 0; id < OP_NR; id++) {
		bool db = op_table[id].flags & OPF_DBENCH;

		ck_assert_msg(seen[id] == db, "op %s: dbench %d, has a case %d",
			      op_table[id].name, db, seen[id]);
	}
	ck_assert_uint_eq(OP_NR - OP_NATIVE_NR, 19);
}
END_TEST

/* The names of dbench's table. */
START_TEST(test_op_names)
{
	static const char *const names[] = {
		"NTCreateX", "Close", "Rename",	   "Unlink",	"Deltree",
		"Rmdir",     "Mkdir", "Qpathinfo", "Qfileinfo", "Qfsinfo",
		"Sfileinfo", "Find",  "WriteX",	   "ReadX",	"LockX",
		"UnlockX",   "Flush", "Sleep",	   "pace",
	};

	ck_assert_uint_eq(ARRAY_SIZE(names), OP_NR - OP_DB_NTCREATEX);
	for (unsigned int i = 0; i < ARRAY_SIZE(names); i++)
		ck_assert_pstr_eq(op_table[OP_DB_NTCREATEX + i].name, names[i]);
}
END_TEST

/* ---------------------------------------------------------------- */
/* Paths */

struct path_case {
	const char *token; /* as written in the loadfile, quoted */
	const char *path;
};

static const struct path_case path_cases[] = {
	{ "\\clients\\client1\\a\\b", "a/b" },
	{ "\\clients\\client1\\a", "a" },
	{ "\\clients\\client1\\~dmtmp\\PARADOX\\CHANGE.DB",
	  "~dmtmp/PARADOX/CHANGE.DB" },
	/* any client number: each client has its own directory */
	{ "\\clients\\client0\\x", "x" },
	{ "\\clients\\client7\\x\\y", "x/y" },
	{ "\\clients\\client12\\x", "x" },
	{ "\\clients\\client7", "." },
	{ "\\clients\\client7\\", "." },
	{ "\\clients\\client1", "." },
	{ "\\clients", "." },
	{ "\\clients\\", "." },
	/* "\clients\rest" is "rest" too, whatever rest is */
	{ "\\clients\\shared.dat", "shared.dat" },
	{ "\\clients\\other\\x", "other/x" },
	{ "\\clients\\client\\x", "client/x" },
	{ "\\clients\\client1x\\f", "client1x/f" },
	{ "\\CLIENTS\\Client3\\x", "x" },
	/* other absolute paths lose their leading slash */
	{ "\\other\\x", "other/x" },
	{ "\\x", "x" },
	{ "\\client1\\x", "client1/x" },
	/* relative paths stay as they are */
	{ "rel\\path", "rel/path" },
	{ "f", "f" },
	/* spaces, dots that are no '..' component */
	{ "\\clients\\client1\\My Documents\\a b.txt", "My Documents/a b.txt" },
	{ "\\clients\\client1\\..a\\b..\\...", "..a/b../..." },
	{ "\\clients\\client1\\a\\.\\b", "a/./b" },
	/* a path left empty is the client directory */
	{ "", "." },
	{ "\\", "." },
};

START_TEST(test_path)
{
	const struct path_case *c = &path_cases[_i];
	struct loadfile lf;
	char text[512];

	snprintf(text, sizeof(text),
		 "Mkdir \"%s\" NT_STATUS_OK\n"
		 "Rename \"%s\" \"%s\" NT_STATUS_OK\n",
		 c->token, c->token, c->token);
	db_ok(&lf, text);
	ck_assert_uint_eq(lf.nops, 2);
	EXPECT_STR(c->token, lf.ops[0].path, c->path);
	EXPECT_STR(c->token, lf.ops[1].path, c->path);
	EXPECT_STR(c->token, lf.ops[1].path2, c->path);
	loadfile_release(&lf);
}
END_TEST

/* An unquoted path is one token too. */
START_TEST(test_unquoted_path)
{
	struct loadfile lf;

	db_ok(&lf, "Unlink \\clients\\client1\\dir\\f 0x6 NT_STATUS_OK\n"
		   "Rename \\clients\\client1\\a \\clients\\client1\\b 0x0\n");
	ck_assert_pstr_eq(lf.ops[0].path, "dir/f");
	ck_assert_pstr_eq(lf.ops[1].path, "a");
	ck_assert_pstr_eq(lf.ops[1].path2, "b");
	loadfile_release(&lf);
}
END_TEST

/* The longest path that fits, and one byte more. */
START_TEST(test_long_path)
{
	size_t plen = PATH_MAX - 1, n;
	char *text = malloc(PATH_MAX + 64), *err;
	struct loadfile lf;
	char want[128];
	int ret;

	ck_assert_ptr_nonnull(text);
	n = (size_t)sprintf(text, "Mkdir \"");
	memset(text + n, 'a', plen);
	n += plen;
	n += (size_t)sprintf(text + n, "\" NT_STATUS_OK\n");
	parse_ok(&lf, text, n, &db_opts);
	ck_assert_uint_eq(strlen(lf.ops[0].path), PATH_MAX - 1);
	loadfile_release(&lf);

	n = (size_t)sprintf(text, "Mkdir \"");
	memset(text + n, 'a', plen + 1);
	n += plen + 1;
	n += (size_t)sprintf(text + n, "\" NT_STATUS_OK\n");
	ret = parse_capture(&lf, text, n, &db_opts, &err);
	ck_assert_int_eq(ret, -EINVAL);
	snprintf(want, sizeof(want), NAME ":1:7: path longer than %d bytes\n",
		 PATH_MAX - 1);
	ck_assert_pstr_eq(err, want);
	free(err);
	free(text);
}
END_TEST

/* ---------------------------------------------------------------- */
/* Options */

/*
 * Every op, for the option tests. Index: op.
 */
static const char all_text[] =
	"Deltree \"\\clients\\client1\" NT_STATUS_OK\n" /* 0 */
	"Mkdir \"" CL "d\" NT_STATUS_OK\n" /* 1 */
	"NTCreateX \"" CL "d\\sub\" 0x1 0x2 1 NT_STATUS_OK\n" /* 2 */
	"Close 1 NT_STATUS_OK\n" /* 3 */
	"NTCreateX \"" CL "d\\f\" 0x40 0x5 2 NT_STATUS_OK\n" /* 4 */
	"WriteX 2 0 100 100 NT_STATUS_OK\n" /* 5 */
	"ReadX 2 0 100 100 NT_STATUS_OK\n" /* 6 */
	"QUERY_FILE_INFORMATION 2 1004 NT_STATUS_OK\n" /* 7 */
	"SET_FILE_INFORMATION 2 1004 NT_STATUS_OK\n" /* 8 */
	"LockX 2 0 1 NT_STATUS_OK\n" /* 9 */
	"UnlockX 2 0 1 NT_STATUS_OK\n" /* 10 */
	"Flush 2 NT_STATUS_OK\n" /* 11 */
	"Close 2 NT_STATUS_OK\n" /* 12 */
	"QUERY_PATH_INFORMATION \"" CL "d\\f\" 1004 NT_STATUS_OK\n" /* 13 */
	"QUERY_FS_INFORMATION 259 NT_STATUS_OK\n" /* 14 */
	"FIND_FIRST \"" CL "d\\*\" 260 1366 0 NT_STATUS_OK\n" /* 15 */
	"FIND_FIRST \"" CL "d\\f\" 260 1366 0 NT_STATUS_OK\n" /* 16 */
	"Rename \"" CL "d\\f\" \"" CL "d\\g\" NT_STATUS_OK\n" /* 17 */
	"Unlink \"" CL "d\\g\" 0x6 NT_STATUS_OK\n" /* 18 */
	"Rmdir \"" CL "d\\sub\" NT_STATUS_OK\n" /* 19 */
	"Sleep 10 NT_STATUS_OK\n" /* 20 */
	"Deltree \"" CL "d\" NT_STATUS_OK\n"; /* 21 */

#define ALL_NOPS 22

/* The ops that resolve their path(s) first. */
static bool resolves(enum op_id id)
{
	return id == OP_DB_NTCREATEX || id == OP_DB_RENAME ||
	       id == OP_DB_UNLINK || id == OP_DB_RMDIR || id == OP_DB_MKDIR ||
	       id == OP_DB_QPATHINFO || id == OP_DB_FIND;
}

struct opt_case {
	const char *what;
	struct loadfile_opts opts;
};

static const struct opt_case opt_cases[] = {
	{ "defaults", { .dialect = DIALECT_DBENCH } },
	{ "no_resolve", { .dialect = DIALECT_DBENCH, .no_resolve = true } },
	{ "sync_open", { .dialect = DIALECT_DBENCH, .sync_open = true } },
	{ "sync_dirs", { .dialect = DIALECT_DBENCH, .sync_dirs = true } },
	{ "fsync_writes", { .dialect = DIALECT_DBENCH, .fsync_writes = true } },
	{ "fsinfo statfs",
	  { .dialect = DIALECT_DBENCH, .fsinfo = FSINFO_STATFS } },
	{ "fsinfo statvfs_legacy",
	  { .dialect = DIALECT_DBENCH, .fsinfo = FSINFO_STATVFS_LEGACY } },
	{ "basedir", { .dialect = DIALECT_DBENCH, .basedir = "/mnt/test" } },
	{ "everything",
	  { .dialect = DIALECT_DBENCH,
	    .no_resolve = true,
	    .sync_open = true,
	    .sync_dirs = true,
	    .fsync_writes = true,
	    .fsinfo = FSINFO_STATVFS_LEGACY,
	    .basedir = "/base dir/x" } },
	/* the options apply to an auto-detected dbench loadfile too */
	{ "auto, everything",
	  { .dialect = DIALECT_AUTO,
	    .no_resolve = true,
	    .sync_open = true,
	    .sync_dirs = true,
	    .fsync_writes = true,
	    .fsinfo = FSINFO_STATFS,
	    .basedir = "/b" } },
};

START_TEST(test_options)
{
	const struct opt_case *c = &opt_cases[_i];
	const struct loadfile_opts *o = &c->opts;
	struct loadfile lf;

	parse_ok(&lf, all_text, sizeof(all_text) - 1, o);
	ck_assert_int_eq(lf.dialect, DIALECT_DBENCH);
	ck_assert_uint_eq(lf.nops, ALL_NOPS);
	for (unsigned int i = 0; i < lf.nops; i++) {
		const struct op *op = &lf.ops[i];
		unsigned int want = 0, got = op->xflags;
		char ctx[128];

		snprintf(ctx, sizeof(ctx), "%s: op %u (%s)", c->what, i,
			 op_table[op->id].name);
		if (resolves(op->id) && !o->no_resolve)
			want |= R;
		if (op->id == OP_DB_NTCREATEX && i == 2)
			want |= OPX_NT_DIRECTORY;
		if (op->id == OP_DB_FIND && i == 15)
			want |= OPX_WILDCARD;
		if (o->sync_dirs &&
		    (op->id == OP_DB_RENAME || op->id == OP_DB_UNLINK ||
		     op->id == OP_DB_RMDIR))
			want |= OPX_SYNC_DIRS;
		if (o->fsync_writes && op->id == OP_DB_WRITEX)
			want |= OPX_FSYNC;
		if (op->id == OP_DB_QFSINFO)
			want |= o->fsinfo == FSINFO_STATFS ? OPX_FSINFO_STATFS :
				o->fsinfo == FSINFO_STATVFS_LEGACY ?
							     OPX_FSINFO_LEGACY :
							     0;
		/* Deltree does not resolve: whether it carries the bit is
		 * no matter */
		if (op->id == OP_DB_DELTREE)
			got &= ~(unsigned int)R;
		EXPECT_HEX(ctx, got, want);
		if (op->id == OP_DB_NTCREATEX)
			EXPECT_HEX(ctx, op->flags,
				   (i == 2 ? RDWR | O_CREAT :
					     RDWR | O_CREAT | O_TRUNC) |
					   (o->sync_open ? O_SYNC : 0));
		else
			EXPECT_HEX(ctx, op->flags, 0);
		if (op->id == OP_DB_QFSINFO)
			EXPECT_STR(ctx, op->path,
				   o->basedir ? o->basedir : ".");
	}
	ck_assert_uint_eq(lf.nhandles, 1);
	ck_assert_uint_eq(lf.max_io, 100);
	loadfile_release(&lf);
}
END_TEST

/* ---------------------------------------------------------------- */
/* Handles, slots, the summary */

START_TEST(test_slots_lowest_free)
{
	struct loadfile lf;

	db_ok(&lf, "NTCreateX \"" CL "a\" 0x40 0x2 100 NT_STATUS_OK\n" /* 0 */
		   "NTCreateX \"" CL "b\" 0x40 0x2 200 NT_STATUS_OK\n" /* 1 */
		   "NTCreateX \"" CL "c\" 0x40 0x2 300 NT_STATUS_OK\n" /* 2 */
		   "Close 100 NT_STATUS_OK\n" /* 3 */
		   "NTCreateX \"" CL "d\" 0x40 0x2 400 NT_STATUS_OK\n" /* 4 */
		   "WriteX 200 0 10 10 NT_STATUS_OK\n" /* 5 */
		   "WriteX 400 0 20 20 NT_STATUS_OK\n" /* 6 */
		   "Close 200 NT_STATUS_OK\n" /* 7 */
		   "Close 300 NT_STATUS_OK\n" /* 8 */
		   "NTCreateX \"" CL "e\" 0x40 0x2 300 NT_STATUS_OK\n" /* 9 */
		   "SET_FILE_INFORMATION 300 1004 NT_STATUS_OK\n" /* 10 */
		   "Close 300 NT_STATUS_OK\n" /* 11 */
		   "Close 400 NT_STATUS_OK\n"); /* 12 */
	ck_assert_uint_eq(lf.nops, 13);
	ck_assert_uint_eq(lf.ops[0].handle, 0);
	ck_assert_uint_eq(lf.ops[1].handle, 1);
	ck_assert_uint_eq(lf.ops[2].handle, 2);
	ck_assert_uint_eq(lf.ops[3].handle, 0);
	/* slot 0 is free again */
	ck_assert_uint_eq(lf.ops[4].handle, 0);
	ck_assert_uint_eq(lf.ops[5].handle, 1);
	ck_assert_uint_eq(lf.ops[6].handle, 0);
	ck_assert_uint_eq(lf.ops[7].handle, 1);
	ck_assert_uint_eq(lf.ops[8].handle, 2);
	/* fnum 300 again, in the lowest free slot, with its new path */
	ck_assert_uint_eq(lf.ops[9].handle, 1);
	ck_assert_uint_eq(lf.ops[10].handle, 1);
	ck_assert_pstr_eq(lf.ops[10].path, "e");
	ck_assert_uint_eq(lf.ops[11].handle, 1);
	ck_assert_uint_eq(lf.ops[12].handle, 0);
	for (unsigned int i = 0; i < lf.nops; i++)
		ck_assert_msg(lf.ops[i].has_handle, "op %u has no handle", i);
	ck_assert_uint_eq(lf.nhandles, 3);
	ck_assert_uint_eq(lf.max_io, 20);
	loadfile_release(&lf);
}
END_TEST

/* An open expected to fail borrows the lowest free slot, and keeps none. */
START_TEST(test_slots_failing_open)
{
	struct loadfile lf;

	db_ok(&lf, "NTCreateX \"" CL
		   "a\" 0x40 0x1 5 NT_STATUS_OBJECT_NAME_NOT_FOUND\n"
		   "NTCreateX \"" CL "a\" 0x40 0x2 5 NT_STATUS_OK\n"
		   "NTCreateX \"" CL
		   "b\" 0x40 0x1 6 NT_STATUS_OBJECT_NAME_NOT_FOUND\n"
		   /* the fnum of an open handle, expected to fail: no error */
		   "NTCreateX \"" CL "c\" 0x40 0x1 5 0xC0000034\n"
		   "Close 5 NT_STATUS_OK\n");
	ck_assert_uint_eq(lf.ops[0].handle, 0);
	ck_assert_int_eq(lf.ops[0].expect, EXPECT_FAIL);
	ck_assert(lf.ops[0].has_handle);
	ck_assert_uint_eq(lf.ops[1].handle, 0);
	ck_assert_int_eq(lf.ops[1].expect, EXPECT_OK);
	ck_assert_uint_eq(lf.ops[2].handle, 1);
	ck_assert_uint_eq(lf.ops[3].handle, 1);
	ck_assert_int_eq(lf.ops[3].expect, EXPECT_FAIL);
	ck_assert_uint_eq(lf.ops[4].handle, 0);
	ck_assert_uint_eq(lf.nhandles, 2);
	loadfile_release(&lf);
}
END_TEST

/*
 * An fnum no successful NTCreateX opened: the op runs on one extra slot,
 * never opened, at nhandles - 1, and must succeed (so it counts as
 * unexpected when it fails with EBADF).
 */
START_TEST(test_unknown_handle)
{
	struct loadfile lf;

	db_ok(&lf, "NTCreateX \"" CL "a\" 0x40 0x2 1 NT_STATUS_OK\n" /* 0 */
		   "NTCreateX \"" CL "b\" 0x40 0x2 2 NT_STATUS_OK\n" /* 1 */
		   "QUERY_FILE_INFORMATION 999 1004 NT_STATUS_OK\n" /* 2 */
		   "WriteX 998 0 4096 4096 NT_STATUS_OK\n" /* 3 */
		   "Close 1 NT_STATUS_OK\n" /* 4 */
		   "Close 2 NT_STATUS_OK\n" /* 5 */
		   /* closed: unknown again */
		   "Flush 1 NT_STATUS_INVALID_HANDLE\n" /* 6 */
		   "Close 2 NT_STATUS_INVALID_HANDLE\n" /* 7 */
		   "SET_FILE_INFORMATION 3 1004 NT_STATUS_OK\n" /* 8 */
		   "LockX 4 0 1 NT_STATUS_OK\n" /* 9 */
		   "ReadX 5 0 10 10 NT_STATUS_OK\n" /* 10 */
		   /* an open that was expected to fail opens nothing */
		   "NTCreateX \"" CL
		   "c\" 0x40 0x1 6 NT_STATUS_OBJECT_NAME_NOT_FOUND\n" /* 11 */
		   "UnlockX 6 0 1 NT_STATUS_OK\n"); /* 12 */
	ck_assert_uint_eq(lf.nops, 13);
	ck_assert_uint_eq(lf.nhandles, 3);
	for (unsigned int i = 2; i < lf.nops; i++) {
		char ctx[32];

		if (i == 4 || i == 5 || i == 11)
			continue;
		snprintf(ctx, sizeof(ctx), "op %u", i);
		EXPECT_UINT(ctx, lf.ops[i].has_handle, 0);
		EXPECT_UINT(ctx, lf.ops[i].handle, 2);
		EXPECT_INT(ctx, lf.ops[i].expect, EXPECT_OK);
	}
	ck_assert_uint_eq(lf.ops[4].handle, 0);
	ck_assert_uint_eq(lf.ops[5].handle, 1);
	ck_assert(lf.ops[5].has_handle);
	ck_assert_uint_eq(lf.ops[11].handle, 0);
	ck_assert(lf.ops[11].has_handle);
	ck_assert_uint_eq(lf.ops[3].size, 4096);
	ck_assert_uint_eq(lf.max_io, 4096);
	loadfile_release(&lf);

	/* no handle at all: the extra slot is slot 0 */
	db_ok(&lf, "Close 16385 NT_STATUS_OK\n");
	ck_assert_uint_eq(lf.nhandles, 1);
	ck_assert(!lf.ops[0].has_handle);
	ck_assert_uint_eq(lf.ops[0].handle, 0);
	ck_assert_int_eq(lf.ops[0].expect, EXPECT_OK);
	loadfile_release(&lf);

	/* an unknown handle first, a real one after: still the last slot */
	db_ok(&lf, "Flush 7 NT_STATUS_OK\n"
		   "NTCreateX \"" CL "a\" 0x40 0x2 7 NT_STATUS_OK\n"
		   "Flush 7 NT_STATUS_OK\n"
		   "Close 7 NT_STATUS_OK\n");
	ck_assert_uint_eq(lf.nhandles, 2);
	ck_assert(!lf.ops[0].has_handle);
	ck_assert_uint_eq(lf.ops[0].handle, 1);
	ck_assert_int_eq(lf.ops[0].expect, EXPECT_OK);
	ck_assert(lf.ops[2].has_handle);
	ck_assert_uint_eq(lf.ops[2].handle, 0);
	ck_assert_int_eq(lf.ops[2].expect, EXPECT_ANY);
	loadfile_release(&lf);

	/* Sfileinfo of an unknown handle: no path to go by */
	db_ok(&lf, "SET_FILE_INFORMATION 3 1004 NT_STATUS_OK\n");
	ck_assert(!lf.ops[0].has_handle);
	ck_assert_pstr_eq(lf.ops[0].path, ".");
	loadfile_release(&lf);
}
END_TEST

/* 256 handles open at once fit; the fnum range is 32 bits. */
START_TEST(test_many_handles)
{
	size_t size = 256 * 128, n = 0;
	char *text = malloc(size);
	struct loadfile lf;

	ck_assert_ptr_nonnull(text);
	for (unsigned int i = 0; i < OP_MAX_HANDLES; i++)
		n += (size_t)snprintf(text + n, size - n,
				      "NTCreateX \"" CL "f%u\" 0x40 0x2 %u "
				      "NT_STATUS_OK\n",
				      i, i == 0 ? 4294967295u : i);
	for (unsigned int i = OP_MAX_HANDLES; i-- > 0;)
		n += (size_t)snprintf(text + n, size - n,
				      "Close %u NT_STATUS_OK\n",
				      i == 0 ? 4294967295u : i);
	parse_ok(&lf, text, n, &db_opts);
	ck_assert_uint_eq(lf.nops, 2 * OP_MAX_HANDLES);
	ck_assert_uint_eq(lf.nhandles, OP_MAX_HANDLES);
	ck_assert_uint_eq(lf.ops[OP_MAX_HANDLES - 1].handle,
			  OP_MAX_HANDLES - 1);
	ck_assert_uint_eq(lf.ops[OP_MAX_HANDLES].handle, OP_MAX_HANDLES - 1);
	ck_assert_uint_eq(lf.ops[2 * OP_MAX_HANDLES - 1].handle, 0);
	loadfile_release(&lf);
	free(text);
}
END_TEST

/* 257 at once: an error at the 257th open's fnum. */
START_TEST(test_too_many_handles)
{
	size_t size = 300 * 128, n = 0;
	char *text = malloc(size), *err;
	struct loadfile lf;
	int ret;

	ck_assert_ptr_nonnull(text);
	for (unsigned int i = 1; i <= OP_MAX_HANDLES + 1; i++)
		n += (size_t)snprintf(text + n, size - n,
				      "NTCreateX \"" CL "f\" 0x40 0x2 %u "
				      "NT_STATUS_OK\n",
				      1000 + i);
	ret = parse_capture(&lf, text, n, &db_opts, &err);
	ck_assert_int_eq(ret, -EINVAL);
	/* NTCreateX "\clients\client1\f" 0x40 0x2 1257: the fnum at 41 */
	ck_assert_pstr_eq(err,
			  NAME ":257:41: more than 256 handles open at once\n");
	ck_assert_ptr_null(lf.ops);
	ck_assert_ptr_null(lf.name);
	free(err);
	free(text);
}
END_TEST

/*
 * Statistics slots by first use, all ops in [run]; max_io is the largest
 * WriteX or ReadX size (LockX's size is no data).
 */
START_TEST(test_summary)
{
	struct loadfile lf;

	db_ok(&lf, "Deltree \"\\clients\\client1\" NT_STATUS_OK\n"
		   "NTCreateX \"" CL "f\" 0x40 0x2 1 NT_STATUS_OK\n"
		   "LockX 1 0 16777216 NT_STATUS_OK\n"
		   "WriteX 1 0 4096 4096 NT_STATUS_OK\n"
		   "ReadX 1 0 65536 0 NT_STATUS_OK\n"
		   "WriteX 1 0 1000 1000 NT_STATUS_OK\n"
		   "UnlockX 1 0 16777216 NT_STATUS_OK\n"
		   "Close 1 NT_STATUS_OK\n"
		   "Sleep 16777217 NT_STATUS_OK\n"
		   "Deltree \"\\clients\\client1\" NT_STATUS_OK\n");
	ck_assert_uint_eq(lf.nops, 10);
	ck_assert_uint_eq(lf.nsetup, 0);
	ck_assert_uint_eq(lf.max_io, 65536);
	ck_assert_uint_eq(lf.nslots, 8);
	ck_assert_int_eq(lf.slot_op[0], OP_DB_DELTREE);
	ck_assert_int_eq(lf.slot_op[1], OP_DB_NTCREATEX);
	ck_assert_int_eq(lf.slot_op[2], OP_DB_LOCKX);
	ck_assert_int_eq(lf.slot_op[3], OP_DB_WRITEX);
	ck_assert_int_eq(lf.slot_op[4], OP_DB_READX);
	ck_assert_int_eq(lf.slot_op[5], OP_DB_UNLOCKX);
	ck_assert_int_eq(lf.slot_op[6], OP_DB_CLOSE);
	ck_assert_int_eq(lf.slot_op[7], OP_DB_SLEEP);
	ck_assert_uint_eq(lf.ops[5].slot, 3);
	ck_assert_uint_eq(lf.ops[9].slot, 0);
	ck_assert(lf.ops[1].opens);
	ck_assert(!lf.ops[7].opens);
	ck_assert_uint_eq(lf.ops[8].size, 16777217);
	ck_assert_uint_eq(lf.nexpand, 0);
	for (unsigned int i = 0; i < lf.nops; i++)
		ck_assert(!lf.ops[i].expand);
	/* one handle; Deltree holds "." and one level below ("f") */
	ck_assert_uint_eq(lf.setup_fds, 0);
	ck_assert_uint_eq(lf.run_fds, 1 + 2);
	ck_assert(lf.scratch);
	loadfile_release(&lf);
}
END_TEST

/*
 * Deltree holds one fd per directory level, bounded by the deepest path
 * of the loadfile; without Deltree a path op holds one fd at most.
 */
START_TEST(test_fds)
{
	struct loadfile lf;

	db_ok(&lf, "Deltree \"\\clients\\client1\" NT_STATUS_OK\n"
		   "Mkdir \"" CL "a\\b\\c\" NT_STATUS_OK\n"
		   "Unlink \"" CL "a\\b\\c\\d\\f\" 0x6 NT_STATUS_OK\n");
	ck_assert_uint_eq(lf.run_fds, 1 + 5);
	loadfile_release(&lf);
	db_ok(&lf, "NTCreateX \"" CL "a\\b\\c\\f\" 0x40 0x2 1 NT_STATUS_OK\n"
		   "NTCreateX \"" CL "g\" 0x40 0x2 2 NT_STATUS_OK\n"
		   "Close 1 NT_STATUS_OK\n"
		   "Close 2 NT_STATUS_OK\n"
		   "Unlink \"" CL "g\" 0x6 NT_STATUS_OK\n");
	ck_assert_uint_eq(lf.run_fds, 2 + 1);
	loadfile_release(&lf);
	db_ok(&lf, "NTCreateX \"" CL "f\" 0x40 0x2 1 NT_STATUS_OK\n"
		   "WriteX 1 0 4096 4096 NT_STATUS_OK\n"
		   "Close 1 NT_STATUS_OK\n");
	ck_assert_uint_eq(lf.run_fds, 1 + 1);
	loadfile_release(&lf);
}
END_TEST

/* Qfsinfo's path is the -D directory, not a level Deltree descends. */
START_TEST(test_fds_qfsinfo)
{
	static const struct loadfile_opts opts = {
		.dialect = DIALECT_DBENCH,
		.basedir = "/a/b/c/d/e/f/g/h",
	};
	static const char text[] =
		"Deltree \"\\clients\\client1\" NT_STATUS_OK\n"
		"QUERY_FS_INFORMATION 1007 NT_STATUS_OK\n"
		"Mkdir \"" CL "a\" NT_STATUS_OK\n";
	struct loadfile lf;

	parse_ok(&lf, text, strlen(text), &opts);
	ck_assert_str_eq(lf.ops[1].path, "/a/b/c/d/e/f/g/h");
	ck_assert_uint_eq(lf.run_fds, 1 + 1);
	loadfile_release(&lf);
}
END_TEST

/* ---------------------------------------------------------------- */
/* Line ends, spacing, comments */

static const char ref_text[] =
	"# a dbench loadfile\n"
	"Deltree \"\\clients\\client1\" NT_STATUS_OK\n"
	"\n"
	"NTCreateX \"" CL "a b\\f\" 0x40 0x2 11 NT_STATUS_OK\n"
	"WriteX 11 0 512 512 NT_STATUS_OK\n"
	"ReadX 11 0 512 512 0x0\n"
	"Close 11 NT_STATUS_OK\n"
	"# another comment\n"
	"Unlink \"" CL "a b\\f\" 0x6 NT_STATUS_OK\n"
	"QUERY_PATH_INFORMATION \"" CL
	"a b\\f\" 1004 NT_STATUS_OBJECT_NAME_NOT_FOUND\n";

/* The same, with tabs, runs of blanks, indented comments, timestamps. */
static const char spaced_ref_text[] =
	"\t# a dbench loadfile\n"
	"0.000 Deltree\t\"\\clients\\client1\"   NT_STATUS_OK   \n"
	"  \t \n"
	"  0.10 NTCreateX  \"" CL "a b\\f\"\t0x40 0x2  11 NT_STATUS_OK\n"
	"\tWriteX 11 0 512 512 NT_STATUS_OK\t\n"
	"1 ReadX 11\t0\t512\t512\t0x0\n"
	"Close 11 NT_STATUS_OK\n"
	"#another comment\n"
	"Unlink \"" CL "a b\\f\" 0x6 NT_STATUS_OK\n"
	"2.5e1 QUERY_PATH_INFORMATION \"" CL
	"a b\\f\" 1004 NT_STATUS_OBJECT_NAME_NOT_FOUND\n";

/* @s with every "\n" turned into "\r\n"; free() it. */
static char *to_crlf(const char *s, size_t *len)
{
	char *out = malloc(2 * strlen(s) + 1), *w = out;

	ck_assert_ptr_nonnull(out);
	for (; *s; s++) {
		if (*s == '\n')
			*w++ = '\r';
		*w++ = *s;
	}
	*w = '\0';
	*len = (size_t)(w - out);
	return out;
}

START_TEST(test_line_ends)
{
	struct loadfile ref, lf;
	size_t len = sizeof(ref_text) - 1, crlf_len;
	char *crlf = to_crlf(ref_text, &crlf_len), *copy;

	parse_ok(&ref, ref_text, len, &db_opts);
	ck_assert_uint_eq(ref.nops, 7);
	ck_assert_pstr_eq(ref.ops[1].path, "a b/f");
	ck_assert_int_eq(ref.ops[6].expect, EXPECT_ANY);
	ck_assert_int_eq(ref.ops[5].expect, EXPECT_OK);
	ck_assert_uint_eq(ref.ops[6].line, 10);
	ck_assert_uint_eq(ref.nhandles, 1);

	/* LF without the final newline: the last status is still OK */
	parse_ok(&lf, ref_text, len - 1, &db_opts);
	assert_same(&ref, &lf, "LF, no final newline");
	loadfile_release(&lf);

	parse_ok(&lf, crlf, crlf_len, &db_opts);
	assert_same(&ref, &lf, "CRLF");
	loadfile_release(&lf);
	parse_ok(&lf, crlf, crlf_len - 2, &db_opts);
	assert_same(&ref, &lf, "CRLF, no final CRLF");
	loadfile_release(&lf);
	parse_ok(&lf, crlf, crlf_len - 1, &db_opts);
	assert_same(&ref, &lf, "CRLF, final CR only");
	loadfile_release(&lf);

	/* auto-detected the same way */
	parse_ok(&lf, crlf, crlf_len - 2, &auto_opts);
	assert_same(&ref, &lf, "CRLF, no final CRLF, auto");
	loadfile_release(&lf);

	parse_ok(&lf, spaced_ref_text, sizeof(spaced_ref_text) - 1, &db_opts);
	assert_same(&ref, &lf, "tabs, blanks, comments and timestamps");
	loadfile_release(&lf);

	/* not NUL-terminated: an exact-size heap copy, no final newline */
	copy = malloc(crlf_len - 2);
	ck_assert_ptr_nonnull(copy);
	memcpy(copy, crlf, crlf_len - 2);
	parse_ok(&lf, copy, crlf_len - 2, &auto_opts);
	assert_same(&ref, &lf, "exact-size buffer");
	loadfile_release(&lf);
	free(copy);

	/* Unlink's status is the last byte: a missing newline keeps it OK */
	parse_ok(&lf, T("Unlink \"" CL "f\" 0x6 NT_STATUS_OK"), &db_opts);
	ck_assert_int_eq(lf.ops[0].expect, EXPECT_OK);
	loadfile_release(&lf);
	parse_ok(&lf, T("Unlink \"" CL "f\" 0x6 NT_STATUS_OK\r\n"), &db_opts);
	ck_assert_int_eq(lf.ops[0].expect, EXPECT_OK);
	loadfile_release(&lf);

	free(crlf);
	loadfile_release(&ref);
}
END_TEST

/* Comment lines: '#' first, after blanks, or a quoted token. */
START_TEST(test_comments)
{
	struct loadfile lf;

	db_ok(&lf, "#\n# x\n   # y NT_STATUS_OK\n\t#z\n\"#quoted\" 1 0x0\n"
		   "Mkdir \"" CL "d\" NT_STATUS_OK\n");
	ck_assert_uint_eq(lf.nops, 1);
	ck_assert_uint_eq(lf.ops[0].line, 6);
	loadfile_release(&lf);
}
END_TEST

/* The shipped test loadfile: a dbench file with every op. */
START_TEST(test_sample_file)
{
	static const char *const envs[] = { "abs_top_srcdir", "srcdir" };
	static const unsigned int want[OP_NR] = {
		[OP_DB_NTCREATEX] = 9, [OP_DB_CLOSE] = 7,
		[OP_DB_RENAME] = 2,    [OP_DB_UNLINK] = 3,
		[OP_DB_DELTREE] = 2,   [OP_DB_RMDIR] = 3,
		[OP_DB_MKDIR] = 3,     [OP_DB_QPATHINFO] = 3,
		[OP_DB_QFILEINFO] = 2, [OP_DB_QFSINFO] = 1,
		[OP_DB_SFILEINFO] = 1, [OP_DB_FIND] = 3,
		[OP_DB_WRITEX] = 5,    [OP_DB_READX] = 3,
		[OP_DB_LOCKX] = 1,     [OP_DB_UNLOCKX] = 1,
		[OP_DB_FLUSH] = 1,     [OP_DB_SLEEP] = 1,
	};
	unsigned int got[OP_NR] = { 0 };
	char path[PATH_MAX] = "", *err;
	struct loadfile lf;
	uint64_t bytes = 0;
	struct capture c;
	int ret;

	for (unsigned int i = 0; i < ARRAY_SIZE(envs); i++) {
		const char *dir = getenv(envs[i]);

		if (!dir)
			continue;
		snprintf(path, sizeof(path), "%s/tests/data/dbench-sample.txt",
			 dir);
		if (!access(path, R_OK))
			break;
	}
	ck_assert_msg(
		!access(path, R_OK),
		"tests/data/dbench-sample.txt not found (set abs_top_srcdir)");
	capture_start(&c);
	ret = loadfile_load(&lf, path, &auto_opts);
	err = capture_end(&c);
	ck_assert_msg(ret == 0, "%s: %s", path, err);
	ck_assert_str_eq(err, "");
	free(err);
	ck_assert_int_eq(lf.dialect, DIALECT_DBENCH);
	ck_assert_uint_eq(lf.nops, 51);
	for (unsigned int i = 0; i < lf.nops; i++) {
		got[lf.ops[i].id]++;
		if (lf.ops[i].id == OP_DB_WRITEX || lf.ops[i].id == OP_DB_READX)
			bytes += lf.ops[i].size;
	}
	for (unsigned int id = 0; id < OP_NR; id++)
		ck_assert_msg(got[id] == want[id], "%s: %u, want %u",
			      op_table[id].name, got[id], want[id]);
	ck_assert_uint_eq(bytes, 17564);
	ck_assert_uint_eq(lf.max_io, 8192);
	ck_assert_int_eq(lf.ops[0].id, OP_DB_DELTREE);
	ck_assert_pstr_eq(lf.ops[0].path, ".");
	/* the last line, without its newline: still expected OK-or-any */
	ck_assert_int_eq(lf.ops[lf.nops - 1].id, OP_DB_DELTREE);
	ck_assert_pstr_eq(lf.ops[lf.nops - 1].path, "Notes");
	loadfile_release(&lf);
}
END_TEST

/* ---------------------------------------------------------------- */
/* Load errors */

struct err_case {
	const char *text;
	size_t len;
	const char *msg;
};

#define E(m) NAME ":" m "\n"

static const struct err_case err_cases[] = {
	/* statuses */
	{ T("Close 1 OK\n"),
	  E("1:9: bad status 'OK' (expected NT_STATUS_... or 0x...)") },
	{ T("Close 1 0x\n"),
	  E("1:9: bad status '0x' (expected NT_STATUS_... or 0x...)") },
	{ T("Close 1 0xZZ\n"),
	  E("1:9: bad status '0xZZ' (expected NT_STATUS_... or 0x...)") },
	{ T("Close 1 NT_STATUS_\n"),
	  E("1:9: bad status 'NT_STATUS_' (expected NT_STATUS_... or 0x...)") },
	{ T("Close 1 nt_status_ok\n"),
	  E("1:9: bad status 'nt_status_ok' (expected NT_STATUS_... or 0x...)") },
	{ T("Close 1 SUCCESS\n"),
	  E("1:9: bad status 'SUCCESS' (expected NT_STATUS_... or 0x...)") },
	/* a '#' after the status is no comment in dbench */
	{ T("Close 1 NT_STATUS_OK # done\n"),
	  E("1:24: bad status 'done' (expected NT_STATUS_... or 0x...)") },
	/* the status is checked before the argument count */
	{ T("Close 1 2\n"),
	  E("1:9: bad status '2' (expected NT_STATUS_... or 0x...)") },
	{ T("Close NT_STATUS_OK\n"),
	  E("1:7: 'Close' takes 1 argument before its status, not 0") },
	{ T("Close\n"), E("1:6: missing status after 'Close'") },
	{ T("  1.5 Flush\n"), E("1:12: missing status after 'Flush'") },
	/* ops */
	{ T("Frobnicate 1 NT_STATUS_OK\n"),
	  E("1:1: unknown dbench op 'Frobnicate'") },
	{ T("Close 1 NT_STATUS_OK\nstat a\n"),
	  E("2:1: unknown dbench op 'stat'") },
	{ T("0.5 NTCreate \"" CL "f\" 0x40 0x2 1 NT_STATUS_OK\n"),
	  E("1:5: unknown dbench op 'NTCreate'") },
	{ T("12.5\n"), E("1:1: timestamp without an op") },
	{ T("Close 1 NT_STATUS_OK\n  3   \n"),
	  E("2:3: timestamp without an op") },
	/* argument counts */
	{ T("Close 1 2 NT_STATUS_OK\n"),
	  E("1:11: 'Close' takes 1 argument before its status, not 2") },
	{ T("NTCreateX \"" CL "f\" 0x40 0x2 NT_STATUS_OK\n"),
	  E("1:41: 'NTCreateX' takes 4 arguments before its status, not 3") },
	{ T("Unlink \"" CL "f\" NT_STATUS_OK\n"),
	  E("1:29: 'Unlink' takes 2 arguments before its status, not 1") },
	{ T("Rename \"" CL "f\" NT_STATUS_OK\n"),
	  E("1:29: 'Rename' takes 2 arguments before its status, not 1") },
	{ T("Deltree NT_STATUS_OK\n"),
	  E("1:9: 'Deltree' takes 1 argument before its status, not 0") },
	{ T("QUERY_FS_INFORMATION NT_STATUS_OK\n"),
	  E("1:22: 'QUERY_FS_INFORMATION' takes 1 argument before its status, not 0") },
	{ T("WriteX 1 0 10 NT_STATUS_OK\n"),
	  E("1:15: 'WriteX' takes 4 arguments before its status, not 3") },
	{ T("LockX 1 0 10 10 NT_STATUS_OK\n"),
	  E("1:17: 'LockX' takes 3 arguments before its status, not 4") },
	{ T("FIND_FIRST \"" CL "*\" 260 1366 NT_STATUS_OK\n"),
	  E("1:42: 'FIND_FIRST' takes 4 arguments before its status, not 3") },
	{ T("Sleep 1 2 NT_STATUS_OK\n"),
	  E("1:11: 'Sleep' takes 1 argument before its status, not 2") },
	/* numbers */
	{ T("Close x NT_STATUS_OK\n"), E("1:7: bad number 'x'") },
	{ T("Close -1 NT_STATUS_OK\n"), E("1:7: bad number '-1'") },
	{ T("Close 1.5 NT_STATUS_OK\n"), E("1:7: bad number '1.5'") },
	{ T("Close 4294967296 NT_STATUS_OK\n"),
	  E("1:7: bad number '4294967296'") },
	{ T("Flush 0x NT_STATUS_OK\n"), E("1:7: bad number '0x'") },
	{ T("WriteX 1 x 10 10 NT_STATUS_OK\n"), E("1:10: bad number 'x'") },
	{ T("WriteX 1 0 16777217 10 NT_STATUS_OK\n"),
	  E("1:12: bad number '16777217'") },
	{ T("WriteX 1 0 10 16777217 NT_STATUS_OK\n"),
	  E("1:15: bad number '16777217'") },
	{ T("ReadX 1 9223372036854775808 10 10 NT_STATUS_OK\n"),
	  E("1:9: bad number '9223372036854775808'") },
	{ T("LockX 1 0 +1 NT_STATUS_OK\n"), E("1:11: bad number '+1'") },
	{ T("NTCreateX \"" CL "f\" x40 0x2 1 NT_STATUS_OK\n"),
	  E("1:32: bad number 'x40'") },
	{ T("NTCreateX \"" CL "f\" 0x40 0x2 f1 NT_STATUS_OK\n"),
	  E("1:41: bad number 'f1'") },
	{ T("QUERY_PATH_INFORMATION \"" CL "f\" level NT_STATUS_OK\n"),
	  E("1:45: bad number 'level'") },
	{ T("QUERY_FILE_INFORMATION 1 level NT_STATUS_OK\n"),
	  E("1:26: bad number 'level'") },
	{ T("QUERY_FS_INFORMATION big NT_STATUS_OK\n"),
	  E("1:22: bad number 'big'") },
	{ T("FIND_FIRST \"" CL "*\" 260 1366 many NT_STATUS_OK\n"),
	  E("1:42: bad number 'many'") },
	{ T("Sleep soon NT_STATUS_OK\n"), E("1:7: bad number 'soon'") },
	/* dispositions */
	{ T("NTCreateX \"" CL "f\" 0x40 0x6 1 NT_STATUS_OK\n"),
	  E("1:37: bad disposition '0x6' (expected 0 to 5)") },
	{ T("NTCreateX \"" CL "f\" 0x40 6 1 NT_STATUS_OBJECT_NAME_NOT_FOUND\n"),
	  E("1:37: bad disposition '6' (expected 0 to 5)") },
	/* handles */
	{ T("NTCreateX \"" CL "f\" 0x40 0x2 1 NT_STATUS_OK\n"
	    "NTCreateX \"" CL "g\" 0x40 0x2 1 NT_STATUS_OK\n"),
	  E("2:41: handle 1 is already open (opened at line 1)") },
	{ T("# c\nNTCreateX \"" CL "f\" 0x40 0x2 77 NT_STATUS_OK\n"
	    "Close 77 NT_STATUS_OK\n"
	    "NTCreateX \"" CL "f\" 0x40 0x2 77 NT_STATUS_OK\n"
	    "WriteX 77 0 1 1 NT_STATUS_OK\n"
	    "0.1 NTCreateX \"" CL "g\" 0x40 0x1 77 0x0\n"),
	  E("6:45: handle 77 is already open (opened at line 4)") },

	/* quotes and tokens */
	{ T("Unlink \"" CL "f 0x6 NT_STATUS_OK\n"),
	  E("1:8: unterminated quote") },
	{ T("Unlink \"" CL "f\"x 0x6 NT_STATUS_OK\n"),
	  E("1:28: text after closing quote") },
	{ T("Mkdir \"" CL "a\"\"b\" NT_STATUS_OK\n"),
	  E("1:27: text after closing quote") },
	{ T("Sleep 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 NT_STATUS_OK\n"),
	  E("1:55: too many tokens (at most 20)") },
	{ T("Close 1\0 NT_STATUS_OK\n"),
	  E("1:8: NUL byte in loadfile (is it a text file?)") },
	{ T("Close 1 NT_STATUS_OK\n\0"),
	  E("2:1: NUL byte in loadfile (is it a text file?)") },
	/* '..' */
	{ T("Unlink \"\\clients\\client1\\..\\client2\\f\" 0x6 NT_STATUS_OK\n"),
	  E("1:8: '..' in path '\\clients\\client1\\..\\client2\\f': paths must stay inside the client directory") },
	{ T("Mkdir \"\\clients\\client1\\..\" NT_STATUS_OK\n"),
	  E("1:7: '..' in path '\\clients\\client1\\..': paths must stay inside the client directory") },
	{ T("Mkdir \"\\..\\x\" NT_STATUS_OK\n"),
	  E("1:7: '..' in path '\\..\\x': paths must stay inside the client directory") },
	{ T("Mkdir ..\\x NT_STATUS_OK\n"),
	  E("1:7: '..' in path '..\\x': paths must stay inside the client directory") },
	{ T("Rename \"" CL "a\" \"" CL "a\\..\\..\\b\" NT_STATUS_OK\n"),
	  E("1:29: '..' in path '\\clients\\client1\\a\\..\\..\\b': paths must stay inside the client directory") },
	{ T("FIND_FIRST \"" CL "..\\*\" 260 1366 0 NT_STATUS_OK\n"),
	  E("1:12: '..' in path '\\clients\\client1\\..\\*': paths must stay inside the client directory") },
	{ T("NTCreateX \"" CL "..\" 0x1 0x2 1 NT_STATUS_OK\n"),
	  E("1:11: '..' in path '\\clients\\client1\\..': paths must stay inside the client directory") },
	/* nothing to run */
	{ T(""), E("1:1: no ops in loadfile") },
	{ T("# only a comment\r\n\r\n"), E("1:1: no ops in loadfile") },
	/* CRLF: the CR is no part of the line */
	{ T("Close 1 NT_STATUS_OK\r\nClose 1 2 NT_STATUS_OK\r\n"),
	  E("2:11: 'Close' takes 1 argument before its status, not 2") },
	{ T("Close 1 NT_STATUS_OK\r\nClose 1 OK\r\n"),
	  E("2:9: bad status 'OK' (expected NT_STATUS_... or 0x...)") },
	/* the first error wins */
	{ T("Close x NT_STATUS_OK\nFrob 1 NT_STATUS_OK\n"),
	  E("1:7: bad number 'x'") },
};

static void check_error(const struct err_case *c)
{
	char ctx[256], got[512], want[512];
	struct loadfile lf;
	bool same, released;
	char *err;
	int ret;

	esc(ctx, sizeof(ctx), c->text, c->len);
	ret = parse_capture(&lf, c->text, c->len, &db_opts, &err);
	if (ret == 0)
		loadfile_release(&lf);
	/* compare and free before asserting: a failure leaks nothing */
	same = !strcmp(err, c->msg);
	esc(got, sizeof(got), err, strlen(err));
	esc(want, sizeof(want), c->msg, strlen(c->msg));
	free(err);
	released = lf.ops == NULL && lf.name == NULL && lf.nops == 0 &&
		   lf.nsetup == 0 && lf.nslots == 0;
	ck_assert_msg(ret == -EINVAL, "\"%s\": returned %d, want -EINVAL", ctx,
		      ret);
	ck_assert_msg(same, "\"%s\": stderr \"%s\", want \"%s\"", ctx, got,
		      want);
	ck_assert_msg(released, "\"%s\": struct not released after the error",
		      ctx);
}

START_TEST(test_error)
{
	check_error(&err_cases[_i]);
}
END_TEST

/* Auto-detected files give the same messages. */
START_TEST(test_error_auto)
{
	struct loadfile lf;
	char *err;
	int ret;

	ret = parse_capture(&lf,
			    T("Deltree \"\\clients\\client1\" NT_STATUS_OK\n"
			      "Close 1 OK\n"),
			    &auto_opts, &err);
	ck_assert_int_eq(ret, -EINVAL);
	ck_assert_pstr_eq(
		err, NAME
		":2:9: bad status 'OK' (expected NT_STATUS_... or 0x...)\n");
	free(err);
	ck_assert_ptr_null(lf.ops);
}
END_TEST

/*
 * A cut of client.txt leaves handles open: accepted with one warning
 * that says how many and where the first was opened, the slots closed
 * after each pass (close_after_pass); CRLF and timestamps as usual.
 */
START_TEST(test_left_open)
{
	static const char text[] =
		"Deltree \"\\clients\\client1\" NT_STATUS_OK\r\n"
		"0.001 NTCreateX \"" CL "f\" 0x40 0x2 16385 NT_STATUS_OK\r\n"
		"NTCreateX \"" CL "g\" 0x40 0x2 6 NT_STATUS_OK\r\n"
		"2.5 WriteX 6 0 4096 4096 NT_STATUS_OK\r\n"
		"Close 1 NT_STATUS_OK\r\n"
		"NTCreateX \"" CL "h\" 0x40 0x2 7 NT_STATUS_OK\r\n"
		"Close 7 NT_STATUS_OK";
	struct loadfile lf;
	char *err;

	ck_assert_int_eq(
		parse_capture(&lf, text, sizeof(text) - 1, &db_opts, &err), 0);
	ck_assert_pstr_eq(
		err,
		"warning: " NAME
		":2:47: 2 handles are still open at the end of a pass, the first opened here; vfsbench closes them after each pass, outside the timed ops\n");
	free(err);
	ck_assert(lf.close_after_pass);
	ck_assert_uint_eq(loadfile_run_nops(&lf), 7);
	/* 16385 and 6 hold slots 0 and 1 to the end; 7 gets slot 2 */
	ck_assert_uint_eq(lf.ops[5].handle, 2);
	loadfile_release(&lf);
}
END_TEST

/*
 * Failures after many ops, past the first growths of the op array and of
 * the unknown-handle list: everything is freed (run under ASan).
 */
START_TEST(test_error_after_many_ops)
{
	static const char *const tails[] = {
		"Close 1 OK\n",
		"NTCreateX \"\\clients\\client1\\f\" 0x40 0x9 1 NT_STATUS_OK\n",
		"Mkdir \"\\..\" NT_STATUS_OK\n",
	};
	size_t size = 64 * 1024, n = 0;
	char *text = malloc(size), *err;
	struct loadfile lf;
	int ret;

	ck_assert_ptr_nonnull(text);
	for (unsigned int i = 0; i < 150; i++)
		n += (size_t)snprintf(text + n, size - n,
				      "Rename \"" CL "r%u\\x\" \"" CL
				      "r%u\\y\" NT_STATUS_OK\n"
				      "QUERY_FILE_INFORMATION %u 1004 "
				      "NT_STATUS_OK\n",
				      i, i, 500 + i);
	parse_ok(&lf, text, n, &db_opts);
	ck_assert_uint_eq(lf.nops, 300);
	ck_assert_pstr_eq(lf.ops[298].path2, "r149/y");
	ck_assert_uint_eq(lf.ops[299].line, 300);
	ck_assert_uint_eq(lf.nhandles, 1);
	ck_assert_uint_eq(lf.ops[299].handle, 0);
	loadfile_release(&lf);

	for (unsigned int i = 0; i < ARRAY_SIZE(tails); i++) {
		size_t m = n +
			   (size_t)snprintf(text + n, size - n, "%s", tails[i]);

		ret = parse_capture(&lf, text, m, &db_opts, &err);
		ck_assert_msg(ret == -EINVAL, "tail %u: returned %d", i, ret);
		ck_assert_msg(err[0] != '\0', "tail %u: no message", i);
		ck_assert_msg(!strncmp(err, NAME ":301:", strlen(NAME ":301:")),
			      "tail %u: %s", i, err);
		ck_assert_ptr_null(lf.ops);
		ck_assert_ptr_null(lf.name);
		free(err);
	}
	free(text);
}
END_TEST

static Suite *dbench_suite(void)
{
	Suite *s = suite_create("dbench");
	TCase *tc;

	tc = tcase_create("detect");
	tcase_add_loop_test(tc, test_detect, 0, (int)ARRAY_SIZE(detect_cases));
	tcase_add_test(tc, test_detect_len);
	tcase_add_loop_test(tc, test_detect_exact_size, 0,
			    (int)ARRAY_SIZE(cut_cases));
	tcase_add_test(tc, test_auto_dialect);
	tcase_add_test(tc, test_forced_dialect);
	suite_add_tcase(s, tc);

	tc = tcase_create("ops");
	tcase_add_loop_test(tc, test_op, 0, (int)ARRAY_SIZE(op_cases));
	tcase_add_test(tc, test_op_table_covered);
	tcase_add_test(tc, test_op_names);
	tcase_add_loop_test(tc, test_path, 0, (int)ARRAY_SIZE(path_cases));
	tcase_add_test(tc, test_unquoted_path);
	tcase_add_test(tc, test_long_path);
	tcase_add_loop_test(tc, test_options, 0, (int)ARRAY_SIZE(opt_cases));
	suite_add_tcase(s, tc);

	tc = tcase_create("handles");
	tcase_add_test(tc, test_slots_lowest_free);
	tcase_add_test(tc, test_slots_failing_open);
	tcase_add_test(tc, test_unknown_handle);
	tcase_add_test(tc, test_many_handles);
	tcase_add_test(tc, test_fds);
	tcase_add_test(tc, test_fds_qfsinfo);
	tcase_add_test(tc, test_too_many_handles);
	tcase_add_test(tc, test_summary);
	suite_add_tcase(s, tc);

	tc = tcase_create("syntax");
	tcase_add_test(tc, test_line_ends);
	tcase_add_test(tc, test_comments);
	tcase_add_test(tc, test_sample_file);
	suite_add_tcase(s, tc);

	tc = tcase_create("errors");
	tcase_add_loop_test(tc, test_error, 0, (int)ARRAY_SIZE(err_cases));
	tcase_add_test(tc, test_error_auto);
	tcase_add_test(tc, test_error_after_many_ops);
	tcase_add_test(tc, test_left_open);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(dbench_suite());
}
