/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for loadfile.c: every op of op_table parsed from in-memory
 * text, sections, slots, handles and ${client}, line endings, comments and
 * quoting, the exact "NAME:LINE:COL: message" of every error class (stderr
 * captured through a temporary file), and loadfile_load() of built-in
 * names, files and directories. Output is TAP on stdout.
 */
#include <config.h>
#include "lang/builtin.h"
#include "lang/loadfile.h"
#include "lang/reader.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/compiler.h"
#include "lang/ops.h"
#include "unit.h"

#define NAME "t.load"

/* A string literal and its length, NUL bytes included. */
#define T(s) s, sizeof(s) - 1

/* How parse_capture() reads; NULL for the defaults. */
static const struct loadfile_opts *parse_opts;

/* loadfile_parse() of @len bytes as NAME, with stderr into *err. */
static int parse_capture(struct loadfile *lf, const char *buf, size_t len,
			 char **err)
{
	struct capture c;
	int ret;

	capture_start(&c);
	ret = loadfile_parse(lf, NAME, buf, len, parse_opts);
	*err = capture_end(&c);
	return ret;
}

/* @got is exactly @want; both shown escaped, on one line, if not. */
static void assert_text(const char *ctx, const char *got, const char *want)
{
	char g[512], w[512];

	ck_assert_msg(!strcmp(got, want), "%s: stderr \"%s\", want \"%s\"", ctx,
		      esc(g, sizeof(g), got, strlen(got)),
		      esc(w, sizeof(w), want, strlen(want)));
}

/* Parse @text, which must succeed without a word on stderr. */
static void parse_ok(struct loadfile *lf, const char *text, size_t len)
{
	char ctx[256], msg[512];
	char *err;
	int ret;

	ret = parse_capture(lf, text, len, &err);
	esc(ctx, sizeof(ctx), text, len);
	ck_assert_msg(ret == 0, "\"%s\": loadfile_parse returned %d: %s", ctx,
		      ret, esc(msg, sizeof(msg), err, strlen(err)));
	ck_assert_msg(err[0] == '\0', "\"%s\": stderr \"%s\" on success", ctx,
		      esc(msg, sizeof(msg), err, strlen(err)));
	free(err);
	ck_assert_pstr_eq(lf->name, NAME);
}

#define PARSE_OK(lf, text) parse_ok((lf), (text), strlen(text))

/*
 * One op of op_table with and without its optional argument and
 * expectation: ops[idx] of the text must come out as below. h is the
 * 1-based handle, 0 for none.
 */
struct op_case {
	const char *text;
	unsigned int idx;
	enum op_id id;
	const char *path, *path2;
	unsigned int h;
	int flags;
	unsigned int mode;
	uint64_t offset, size;
	int expect;
	unsigned int line;
};

/* A handle op on line 2, between an open and a close of @1. */
#define ON_H1(line) "open f rdwr @1\n" line "\nclose @1\n"

/*
 * Fields: text, idx, id, path, path2, h, flags, mode, offset, size,
 * expect, line.
 */
static const struct op_case op_cases[] = {
	{ "stat a", 0, OP_STAT, "a", NULL, 0, 0, 0644, 0, 0, EXPECT_OK, 1 },
	{ "stat dir/sub/f.txt", 0, OP_STAT, "dir/sub/f.txt", NULL, 0, 0, 0644,
	  0, 0, EXPECT_OK, 1 },
	{ "lstat l", 0, OP_LSTAT, "l", NULL, 0, 0, 0644, 0, 0, EXPECT_OK, 1 },
	{ ON_H1("fstat @1"), 1, OP_FSTAT, NULL, NULL, 1, 0, 0644, 0, 0,
	  EXPECT_OK, 2 },
	/* access: the amode is optional, F_OK when left out */
	{ "access a", 0, OP_ACCESS, "a", NULL, 0, F_OK, 0644, 0, 0, EXPECT_OK,
	  1 },
	{ "access a f", 0, OP_ACCESS, "a", NULL, 0, F_OK, 0644, 0, 0, EXPECT_OK,
	  1 },
	{ "access a r", 0, OP_ACCESS, "a", NULL, 0, R_OK, 0644, 0, 0, EXPECT_OK,
	  1 },
	{ "access a w", 0, OP_ACCESS, "a", NULL, 0, W_OK, 0644, 0, 0, EXPECT_OK,
	  1 },
	{ "access a x", 0, OP_ACCESS, "a", NULL, 0, X_OK, 0644, 0, 0, EXPECT_OK,
	  1 },
	{ "access a rwx", 0, OP_ACCESS, "a", NULL, 0, R_OK | W_OK | X_OK, 0644,
	  0, 0, EXPECT_OK, 1 },
	{ "access a xw", 0, OP_ACCESS, "a", NULL, 0, W_OK | X_OK, 0644, 0, 0,
	  EXPECT_OK, 1 },
	{ "access a ENOENT", 0, OP_ACCESS, "a", NULL, 0, F_OK, 0644, 0, 0,
	  ENOENT, 1 },
	{ "access a rw EACCES", 0, OP_ACCESS, "a", NULL, 0, R_OK | W_OK, 0644,
	  0, 0, EACCES, 1 },
	{ "statfs .", 0, OP_STATFS, ".", NULL, 0, 0, 0644, 0, 0, EXPECT_OK, 1 },
	{ "open f rdonly @2\nfstatfs @2\nclose @2", 1, OP_FSTATFS, NULL, NULL,
	  2, 0, 0644, 0, 0, EXPECT_OK, 2 },
	{ "statvfs sub/.", 0, OP_STATVFS, "sub/.", NULL, 0, 0, 0644, 0, 0,
	  EXPECT_OK, 1 },
	{ "open f rdonly @64\nfstatvfs @64\nclose @64", 1, OP_FSTATVFS, NULL,
	  NULL, 64, 0, 0644, 0, 0, EXPECT_OK, 2 },
	{ "statvfs_legacy .", 0, OP_STATVFS_LEGACY, ".", NULL, 0, 0, 0644, 0, 0,
	  EXPECT_OK, 1 },
	/* open: the mode is optional, 0644 when left out */
	{ "open f rdonly @1\nclose @1", 0, OP_OPEN, "f", NULL, 1, O_RDONLY,
	  0644, 0, 0, EXPECT_OK, 1 },
	{ "open f wronly,creat,trunc @3 0600\nclose @3", 0, OP_OPEN, "f", NULL,
	  3, O_WRONLY | O_CREAT | O_TRUNC, 0600, 0, 0, EXPECT_OK, 1 },
	{ "open d rdwr,creat,excl,trunc,append,sync,dsync,directory,nofollow,"
	  "noatime,cloexec @1 7777\nclose @1",
	  0, OP_OPEN, "d", NULL, 1,
	  O_RDWR | O_CREAT | O_EXCL | O_TRUNC | O_APPEND | O_SYNC | O_DSYNC |
		  O_DIRECTORY | O_NOFOLLOW | O_NOATIME | O_CLOEXEC,
	  07777, 0, 0, EXPECT_OK, 1 },
	{ "open f creat,rdwr @1 0\nclose @1", 0, OP_OPEN, "f", NULL, 1,
	  O_RDWR | O_CREAT, 0, 0, 0, EXPECT_OK, 1 },
	/* expected to fail, so it needs no close */
	{ "open f rdonly @1 ENOENT", 0, OP_OPEN, "f", NULL, 1, O_RDONLY, 0644,
	  0, 0, ENOENT, 1 },
	{ "open f rdonly @1 0600 any\nclose @1", 0, OP_OPEN, "f", NULL, 1,
	  O_RDONLY, 0600, 0, 0, EXPECT_ANY, 1 },
	/* create: the mode is optional, 0644 when left out */
	{ "create f", 0, OP_CREATE, "f", NULL, 0, 0, 0644, 0, 0, EXPECT_OK, 1 },
	{ "create f 0600", 0, OP_CREATE, "f", NULL, 0, 0, 0600, 0, 0, EXPECT_OK,
	  1 },
	{ "create f 600", 0, OP_CREATE, "f", NULL, 0, 0, 0600, 0, 0, EXPECT_OK,
	  1 },
	{ "create f EEXIST", 0, OP_CREATE, "f", NULL, 0, 0, 0644, 0, 0, EEXIST,
	  1 },
	{ "open f rdonly @5\nclose @5", 1, OP_CLOSE, NULL, NULL, 5, 0, 0644, 0,
	  0, EXPECT_OK, 2 },
	{ ON_H1("pread @1 0 4k"), 1, OP_PREAD, NULL, NULL, 1, 0, 0644, 0, 4096,
	  EXPECT_OK, 2 },
	{ ON_H1("pread @1 4K 16m"), 1, OP_PREAD, NULL, NULL, 1, 0, 0644, 4096,
	  16777216, EXPECT_OK, 2 },
	{ ON_H1("pwrite @1 1m 1"), 1, OP_PWRITE, NULL, NULL, 1, 0, 0644,
	  1048576, 1, EXPECT_OK, 2 },
	{ ON_H1("pwrite @1 8192 4kb"), 1, OP_PWRITE, NULL, NULL, 1, 0, 0644,
	  8192, 4096, EXPECT_OK, 2 },
	{ ON_H1("pwrite @1 1t 512 any"), 1, OP_PWRITE, NULL, NULL, 1, 0, 0644,
	  UINT64_C(1) << 40, 512, EXPECT_ANY, 2 },
	{ ON_H1("fsync @1"), 1, OP_FSYNC, NULL, NULL, 1, 0, 0644, 0, 0,
	  EXPECT_OK, 2 },
	{ ON_H1("fdatasync @1 EIO"), 1, OP_FDATASYNC, NULL, NULL, 1, 0, 0644, 0,
	  0, EIO, 2 },
	{ ON_H1("ftruncate @1 0"), 1, OP_FTRUNCATE, NULL, NULL, 1, 0, 0644, 0,
	  0, EXPECT_OK, 2 },
	/* ftruncate is not bound by the 16m pread/pwrite limit */
	{ ON_H1("ftruncate @1 1g"), 1, OP_FTRUNCATE, NULL, NULL, 1, 0, 0644, 0,
	  UINT64_C(1) << 30, EXPECT_OK, 2 },
	/* will-it-scale's fd ops: read at the position, lseek, dup, locks */
	{ ON_H1("read @1 4k"), 1, OP_READ, NULL, NULL, 1, 0, 0644, 0, 4096,
	  EXPECT_OK, 2 },
	{ ON_H1("lseek @1 0 set"), 1, OP_LSEEK, NULL, NULL, 1, SEEK_SET, 0644,
	  0, 0, EXPECT_OK, 2 },
	{ ON_H1("lseek @1 4k cur"), 1, OP_LSEEK, NULL, NULL, 1, SEEK_CUR, 0644,
	  4096, 0, EXPECT_OK, 2 },
	{ ON_H1("lseek @1 0 end EINVAL"), 1, OP_LSEEK, NULL, NULL, 1, SEEK_END,
	  0644, 0, 0, EINVAL, 2 },
	{ ON_H1("dup @1"), 1, OP_DUP, NULL, NULL, 1, 0, 0644, 0, 0, EXPECT_OK,
	  2 },
	/* getdents: glibc's readdir buffer when the size is left out */
	{ ON_H1("getdents @1"), 1, OP_GETDENTS, NULL, NULL, 1, 0, 0644, 0,
	  32768, EXPECT_OK, 2 },
	{ ON_H1("getdents @1 64k any"), 1, OP_GETDENTS, NULL, NULL, 1, 0, 0644,
	  0, 65536, EXPECT_ANY, 2 },
	{ ON_H1("lock @1 0 1"), 1, OP_LOCK, NULL, NULL, 1, 0, 0644, 0, 1,
	  EXPECT_OK, 2 },
	/* a lock's length is not bound by the 16m I/O limit */
	{ ON_H1("unlock @1 4k 1g"), 1, OP_UNLOCK, NULL, NULL, 1, 0, 0644, 4096,
	  UINT64_C(1) << 30, EXPECT_OK, 2 },
	{ "unlink a", 0, OP_UNLINK, "a", NULL, 0, 0, 0644, 0, 0, EXPECT_OK, 1 },
	/* mkdir: the mode is optional, 0755 when left out */
	{ "mkdir d", 0, OP_MKDIR, "d", NULL, 0, 0, 0755, 0, 0, EXPECT_OK, 1 },
	{ "mkdir d 0700", 0, OP_MKDIR, "d", NULL, 0, 0, 0700, 0, 0, EXPECT_OK,
	  1 },
	{ "mkdir d EEXIST", 0, OP_MKDIR, "d", NULL, 0, 0, 0755, 0, 0, EEXIST,
	  1 },
	{ "rmdir d ENOTEMPTY", 0, OP_RMDIR, "d", NULL, 0, 0, 0644, 0, 0,
	  ENOTEMPTY, 1 },
	{ "rename a b", 0, OP_RENAME, "a", "b", 0, 0, 0644, 0, 0, EXPECT_OK,
	  1 },
	{ "link a sub/b", 0, OP_LINK, "a", "sub/b", 0, 0, 0644, 0, 0, EXPECT_OK,
	  1 },
	/* the target is verbatim, relative and without a ".." component */
	{ "symlink a/b/c l", 0, OP_SYMLINK, "a/b/c", "l", 0, 0, 0644, 0, 0,
	  EXPECT_OK, 1 },
	{ "symlink ..up/x.. sub/l", 0, OP_SYMLINK, "..up/x..", "sub/l", 0, 0,
	  0644, 0, 0, EXPECT_OK, 1 },
	{ "symlink ./. l", 0, OP_SYMLINK, "./.", "l", 0, 0, 0644, 0, 0,
	  EXPECT_OK, 1 },
	{ "readlink l", 0, OP_READLINK, "l", NULL, 0, 0, 0644, 0, 0, EXPECT_OK,
	  1 },
	{ "readdir .", 0, OP_READDIR, ".", NULL, 0, 0, 0644, 0, 0, EXPECT_OK,
	  1 },
	{ "utimens a", 0, OP_UTIMENS, "a", NULL, 0, 0, 0644, 0, 0, EXPECT_OK,
	  1 },
	{ "probe a/b", 0, OP_PROBE, "a/b", NULL, 0, 0, 0644, 0, 0, EXPECT_OK,
	  1 },
	{ "probe missing ENOENT", 0, OP_PROBE, "missing", NULL, 0, 0, 0644, 0,
	  0, ENOENT, 1 },
	/* expectations and line numbers */
	{ "stat a ok", 0, OP_STAT, "a", NULL, 0, 0, 0644, 0, 0, EXPECT_OK, 1 },
	{ "stat a any", 0, OP_STAT, "a", NULL, 0, 0, 0644, 0, 0, EXPECT_ANY,
	  1 },
	{ "stat a ENOENT", 0, OP_STAT, "a", NULL, 0, 0, 0644, 0, 0, 2, 1 },
	{ "\n\n# three\nstat a\n", 0, OP_STAT, "a", NULL, 0, 0, 0644, 0, 0,
	  EXPECT_OK, 4 },
};

START_TEST(test_op)
{
	const struct op_case *c = &op_cases[_i];
	struct loadfile lf;
	const struct op *op;
	char ctx[256];

	esc(ctx, sizeof(ctx), c->text, strlen(c->text));
	PARSE_OK(&lf, c->text);
	ck_assert_msg(c->idx < lf.nops, "%s: only %u ops", ctx, lf.nops);
	EXPECT_UINT(ctx, lf.nsetup, 0);
	op = &lf.ops[c->idx];
	EXPECT_UINT(ctx, op->id, c->id);
	EXPECT_STR(ctx, op->path, c->path);
	EXPECT_STR(ctx, op->path2, c->path2);
	EXPECT_UINT(ctx, op->has_handle, c->h != 0);
	if (c->h)
		EXPECT_UINT(ctx, op->handle, c->h - 1);
	EXPECT_INT(ctx, op->flags, c->flags);
	EXPECT_UINT(ctx, op->mode, c->mode);
	EXPECT_UINT(ctx, op->offset, c->offset);
	EXPECT_UINT(ctx, op->size, c->size);
	EXPECT_INT(ctx, op->expect, c->expect);
	EXPECT_UINT(ctx, op->line, c->line);
	EXPECT_UINT(ctx, op->expand, false);
	EXPECT_UINT(ctx, lf.nexpand, 0);
	EXPECT_UINT(ctx, lf.nhandles, c->h);
	loadfile_release(&lf);
	ck_assert_ptr_null(lf.ops);
	ck_assert_ptr_null(lf.name);
	ck_assert_uint_eq(lf.nops, 0);
}
END_TEST

/* ${client}*STRIDE[+BASE]: the stride and base, the op one for all. */
START_TEST(test_offset_stride)
{
	struct loadfile lf;

	PARSE_OK(&lf, "open f rdwr @1\n"
		      "pread @1 ${client}*8m 4k\n"
		      "pwrite @1 ${client}*4k+1m 512\n"
		      "pread @1 4k 4k\n"
		      "close @1\n");
	ck_assert_uint_eq(lf.ops[1].stride, 8u << 20);
	ck_assert_uint_eq(lf.ops[1].offset, 0);
	ck_assert_uint_eq(lf.ops[2].stride, 4096);
	ck_assert_uint_eq(lf.ops[2].offset, 1u << 20);
	ck_assert_uint_eq(lf.ops[3].stride, 0);
	ck_assert_uint_eq(lf.ops[3].offset, 4096);
	/* no path holds ${client}: nothing is expanded per client */
	ck_assert_uint_eq(lf.nexpand, 0);
	loadfile_release(&lf);
}
END_TEST

/* The table above names every op of op_table at least once. */
START_TEST(test_op_table_covered)
{
	unsigned int id, i;
	enum op_id found;

	ck_assert_int_eq(ENOENT, 2);
	for (id = 0; id < OP_NATIVE_NR; id++) {
		ck_assert_msg(op_table[id].name != NULL, "op %u has no name",
			      id);
		ck_assert_msg(op_lookup(op_table[id].name, &found) ==
					      &op_table[id] &&
				      found == id,
			      "op_lookup(\"%s\")", op_table[id].name);
		/* [setup] only, so not in op_cases: test_data */
		if (id == OP_DATA)
			continue;
		for (i = 0; i < ARRAY_SIZE(op_cases); i++)
			if (op_cases[i].id == id)
				break;
		ck_assert_msg(i < ARRAY_SIZE(op_cases), "op '%s' is not tested",
			      op_table[id].name);
	}
}
END_TEST

/* data: its hex decoded once into bytes of any value, NUL and 0xff too */
START_TEST(test_data)
{
	static const char want[] = { 0, (char)0xff, (char)0xfe, '\n', 'A' };
	struct loadfile lf;
	const struct op *op;

	PARSE_OK(&lf, "[setup]\n"
		      "open f wronly,creat,trunc @1\n"
		      "data @1 00FFfe0a41\n"
		      "data @1 \"\"\n"
		      "close @1\n"
		      "[run]\n"
		      "stat f\n");
	ck_assert_uint_eq(lf.nsetup, 4);
	op = &lf.ops[1];
	ck_assert_uint_eq(op->id, OP_DATA);
	ck_assert_uint_eq(op->has_handle, true);
	ck_assert_uint_eq(op->handle, 0);
	ck_assert_ptr_null(op->path);
	ck_assert_uint_eq(op->size, sizeof(want));
	ck_assert_int_eq(memcmp(op->bytes, want, sizeof(want)), 0);
	ck_assert_uint_eq(lf.ops[2].size, 0);
	loadfile_release(&lf);
}
END_TEST

/*
 * Sections, slots and the [setup]/[run] split: slots number the kinds the
 * [run] section uses in order of first use; setup-only kinds get none.
 */
/* Ops naming the same path on nearby lines share one copy (issue 5). */
START_TEST(test_paths_shared)
{
	static const char text[] = "[setup]\ncreate d/f\n[run]\nstat d/f\n"
				   "rename d/f d/g\nrename d/g d/f\nstat d/g\n";
	struct loadfile lf;

	PARSE_OK(&lf, text);
	ck_assert_uint_eq(lf.nops, 5);
	ck_assert_str_eq(lf.ops[0].path, "d/f");
	ck_assert_ptr_eq(lf.ops[1].path, lf.ops[0].path);
	ck_assert_ptr_eq(lf.ops[2].path, lf.ops[0].path);
	ck_assert_ptr_eq(lf.ops[3].path2, lf.ops[0].path);
	ck_assert_str_eq(lf.ops[2].path2, "d/g");
	ck_assert_ptr_eq(lf.ops[3].path, lf.ops[2].path2);
	ck_assert_ptr_eq(lf.ops[4].path, lf.ops[2].path2);
	loadfile_release(&lf);
}
END_TEST

START_TEST(test_sections_slots)
{
	static const char text[] = "# a comment\n" /* 1 */
				   "[setup]\n" /* 2 */
				   "mkdir d\n" /* 3 */
				   "create d/f\n" /* 4 */
				   "open d/f rdonly @1\n" /* 5 */
				   "close @1\n" /* 6 */
				   "[run]\n" /* 7 */
				   "stat d/f\n" /* 8: slot 0 */
				   "open d/f rdwr @2\n" /* 9: slot 1 */
				   "pread @2 0 4k\n" /* 10: slot 2 */
				   "stat d\n" /* 11: slot 0 */
				   "pwrite @2 0 1m\n" /* 12: slot 3 */
				   "close @2\n" /* 13: slot 4 */
				   "\n" /* 14 */
				   "stat d/g ENOENT\n" /* 15: slot 0 */
				   "statfs .\n"; /* 16: slot 5 */
	static const enum op_id want_id[] = {
		OP_MKDIR, OP_CREATE, OP_OPEN,	OP_CLOSE, OP_STAT, OP_OPEN,
		OP_PREAD, OP_STAT,   OP_PWRITE, OP_CLOSE, OP_STAT, OP_STATFS,
	};
	static const unsigned int want_line[] = { 3,  4,  5,  6,  8,  9,
						  10, 11, 12, 13, 15, 16 };
	static const unsigned int want_slot[] = { 0, 1, 2, 0, 3, 4, 0, 5 };
	static const enum op_id want_slot_op[] = { OP_STAT,  OP_OPEN,
						   OP_PREAD, OP_PWRITE,
						   OP_CLOSE, OP_STATFS };
	struct loadfile lf;
	const struct op *run;
	unsigned int i;

	PARSE_OK(&lf, text);
	ck_assert_uint_eq(lf.nops, ARRAY_SIZE(want_id));
	ck_assert_uint_eq(lf.nsetup, 4);
	ck_assert_uint_eq(loadfile_run_nops(&lf), 8);
	ck_assert_ptr_eq(loadfile_run_ops(&lf), lf.ops + 4);
	for (i = 0; i < lf.nops; i++) {
		ck_assert_msg(lf.ops[i].id == want_id[i],
			      "op %u: id %d, want %d", i, lf.ops[i].id,
			      want_id[i]);
		ck_assert_msg(lf.ops[i].line == want_line[i],
			      "op %u: line %u, want %u", i, lf.ops[i].line,
			      want_line[i]);
	}
	run = loadfile_run_ops(&lf);
	for (i = 0; i < loadfile_run_nops(&lf); i++)
		ck_assert_msg(run[i].slot == want_slot[i],
			      "run op %u: slot %u, want %u", i, run[i].slot,
			      want_slot[i]);
	ck_assert_uint_eq(lf.nslots, ARRAY_SIZE(want_slot_op));
	for (i = 0; i < lf.nslots; i++)
		ck_assert_msg(lf.slot_op[i] == want_slot_op[i],
			      "slot %u: op %d, want %d", i, lf.slot_op[i],
			      want_slot_op[i]);
	ck_assert_uint_eq(lf.nhandles, 2);
	ck_assert_uint_eq(lf.max_io, 1048576);
	ck_assert_uint_eq(lf.nexpand, 0);
	ck_assert_int_eq(run[6].expect, ENOENT);
	ck_assert_uint_eq(run[1].handle, 1);
	ck_assert_int_eq(run[1].flags, O_RDWR);
	loadfile_release(&lf);
}
END_TEST

/* Lines before any header are [run] lines; setup ops move to the front. */
START_TEST(test_sections_order)
{
	struct loadfile lf;

	PARSE_OK(&lf, "stat a\n[setup]\nmkdir d\n[run]\nunlink b\n");
	ck_assert_uint_eq(lf.nops, 3);
	ck_assert_uint_eq(lf.nsetup, 1);
	ck_assert_int_eq(lf.ops[0].id, OP_MKDIR);
	ck_assert_uint_eq(lf.ops[0].line, 3);
	ck_assert_int_eq(lf.ops[1].id, OP_STAT);
	ck_assert_uint_eq(lf.ops[1].line, 1);
	ck_assert_int_eq(lf.ops[2].id, OP_UNLINK);
	ck_assert_uint_eq(lf.ops[2].line, 5);
	ck_assert_uint_eq(lf.nslots, 2);
	ck_assert_int_eq(lf.slot_op[0], OP_STAT);
	ck_assert_int_eq(lf.slot_op[1], OP_UNLINK);
	ck_assert_uint_eq(lf.ops[1].slot, 0);
	ck_assert_uint_eq(lf.ops[2].slot, 1);
	loadfile_release(&lf);

	/* No header at all: everything is [run]. */
	PARSE_OK(&lf, "stat a\nstat b\nstatfs .\n");
	ck_assert_uint_eq(lf.nops, 3);
	ck_assert_uint_eq(lf.nsetup, 0);
	ck_assert_uint_eq(lf.nslots, 2);
	ck_assert_int_eq(lf.slot_op[0], OP_STAT);
	ck_assert_int_eq(lf.slot_op[1], OP_STATFS);
	loadfile_release(&lf);

	/* An explicit [run] header and a comment after a header. */
	PARSE_OK(&lf, "[run] # measured\nstat a\n");
	ck_assert_uint_eq(lf.nops, 1);
	ck_assert_uint_eq(lf.nsetup, 0);
	ck_assert_uint_eq(lf.ops[0].line, 2);
	loadfile_release(&lf);
}
END_TEST

/* [run N] streams: each client's slice of the [run] ops. */
START_TEST(test_streams)
{
	struct loadfile lf;
	const struct op *ops;
	unsigned int n;

	PARSE_OK(
		&lf,
		"[run 0]\nstat a\n[setup]\nmkdir d\n[run 1]\nstat b\nlstat c\n");
	ck_assert_uint_eq(lf.nsetup, 1);
	ck_assert_uint_eq(lf.nops, 4);
	ck_assert_uint_eq(lf.nstreams, 2);
	ops = loadfile_client_ops(&lf, 0, &n);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(ops[0].line, 2);
	ops = loadfile_client_ops(&lf, 3, &n);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(ops[0].line, 6);
	ck_assert_int_eq(ops[1].id, OP_LSTAT);
	ops = loadfile_client_ops(&lf, 4, &n);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(ops[0].id, OP_STAT);
	loadfile_release(&lf);

	/* one [run]: every client runs all of it */
	PARSE_OK(&lf, "stat a\nstat b\n");
	ck_assert_uint_eq(lf.nstreams, 0);
	ops = loadfile_client_ops(&lf, 7, &n);
	ck_assert_uint_eq(n, 2);
	ck_assert_ptr_eq(ops, lf.ops);
	loadfile_release(&lf);
}
END_TEST

struct handles_case {
	const char *text;
	unsigned int nhandles;
};

static const struct handles_case handles_cases[] = {
	{ "stat a", 0 },
	{ "open a rdonly @3\nclose @3\nopen b rdonly @1\nclose @1", 3 },
	/* a handle is free again after its close */
	{ "open a rdonly @1\nclose @1\nopen b rdwr @1\nfsync @1\nclose @1", 1 },
	{ "[setup]\nopen a rdonly @7\nclose @7\n[run]\nstat a", 7 },
	/* an open expected to fail still names its handle */
	{ "open a rdonly @9 ENOENT\nstat a", 9 },
	{ "open a rdonly @64\nclose @64", 64 },
	/* nested handles */
	{ "open a rdonly @1\nopen b rdonly @2\nclose @1\nclose @2", 2 },
};

START_TEST(test_nhandles)
{
	const struct handles_case *c = &handles_cases[_i];
	struct loadfile lf;
	char ctx[256];

	esc(ctx, sizeof(ctx), c->text, strlen(c->text));
	PARSE_OK(&lf, c->text);
	EXPECT_UINT(ctx, lf.nhandles, c->nhandles);
	loadfile_release(&lf);
}
END_TEST

/*
 * What a client can hold open at once per section (the fd table is sized
 * from it, issue 5) and whether it needs the scratch buffers.
 */
struct fds_case {
	const char *text;
	unsigned int setup_fds, run_fds;
	bool scratch;
};

static const struct fds_case fds_cases[] = {
	{ "stat a", 0, 0, false },
	{ "statfs a\nstatvfs a\naccess a\nunlink a\nrename a b", 0, 0, false },
	{ "create a", 0, 1, false },
	{ "readdir .", 0, 1, true },
	{ "statvfs_legacy .", 0, 1, true },
	{ "readlink l", 0, 0, true },
	/* one own fd at a time, whatever the number of such ops */
	{ "create a\nreaddir .\ncreate b\nstatvfs_legacy .", 0, 1, true },
	/* handles count once each, plus the one own fd */
	{ "open a rdonly @1\nopen b rdonly @2\nclose @1\nclose @2\n"
	  "open c rdonly @1\nreaddir .\nclose @1",
	  0, 3, true },
	/* handles of [setup] are closed before [run] */
	{ "[setup]\nopen a rdonly @7\nclose @7\ncreate b\n[run]\nstat a", 2, 0,
	  false },
	{ "[setup]\nmkdir d\n[run]\nopen d/a rdonly @1\nclose @1", 0, 1,
	  false },
	/* an open expected to fail still names its handle */
	{ "open a rdonly @9 ENOENT\nstat a", 0, 1, false },
};

START_TEST(test_fds)
{
	const struct fds_case *c = &fds_cases[_i];
	struct loadfile lf;
	char ctx[256];

	esc(ctx, sizeof(ctx), c->text, strlen(c->text));
	PARSE_OK(&lf, c->text);
	EXPECT_UINT(ctx, lf.setup_fds, c->setup_fds);
	EXPECT_UINT(ctx, lf.run_fds, c->run_fds);
	ck_assert_msg(lf.scratch == c->scratch, "%s: scratch %d, want %d", ctx,
		      lf.scratch, c->scratch);
	loadfile_release(&lf);
}
END_TEST

struct max_io_case {
	const char *text;
	uint64_t max_io;
};

static const struct max_io_case max_io_cases[] = {
	{ "stat a", 0 },
	{ "open f rdwr @1\nftruncate @1 1g\nclose @1", 0 },
	{ "open f rdwr @1\npread @1 0 4k\npwrite @1 0 1m\nftruncate @1 1g\n"
	  "close @1",
	  1048576 },
	{ "open f rdwr @1\npwrite @1 1g 3\npread @1 0 2\nclose @1", 3 },
	{ "open f rdwr @1\npread @1 0 16m\nclose @1", 16777216 },
	/* read(2) fills the buffer too; a lock's length is no I/O */
	{ "open f rdwr @1\nread @1 64k\nlock @1 0 1g\nclose @1", 65536 },
	/* setup I/O needs the buffer too */
	{ "[setup]\nopen f rdwr @1\npwrite @1 0 2m\nclose @1\n[run]\n"
	  "open f rdwr @1\npread @1 0 4k\nclose @1",
	  2097152 },
};

START_TEST(test_max_io)
{
	const struct max_io_case *c = &max_io_cases[_i];
	struct loadfile lf;
	char ctx[256];

	esc(ctx, sizeof(ctx), c->text, strlen(c->text));
	PARSE_OK(&lf, c->text);
	EXPECT_UINT(ctx, lf.max_io, c->max_io);
	loadfile_release(&lf);
}
END_TEST

/*
 * ${client} in a path or new path marks the op as expanding, numbered in
 * file order over setup and run ops; a symlink target is verbatim.
 */
START_TEST(test_expand)
{
	static const char text[] = "[setup]\n"
				   "mkdir w${client}\n" /* xidx 0 */
				   "create shared\n"
				   "[run]\n"
				   "stat a\n"
				   "create w${client}/f\n" /* xidx 1 */
				   "rename x y${client}\n" /* xidx 2 */
				   "symlink ${client} l\n" /* target only */
				   "symlink ${foo} l2\n" /* target only */
				   "symlink t l${client}\n" /* xidx 3 */
				   "unlink w${client}/f\n" /* xidx 4 */
				   "stat ${client}${client}\n"; /* xidx 5 */
	static const struct {
		bool expand;
		unsigned int xidx;
		const char *path, *path2;
	} want[] = {
		{ true, 0, "w${client}", NULL },
		{ false, 0, "shared", NULL },
		{ false, 0, "a", NULL },
		{ true, 1, "w${client}/f", NULL },
		{ true, 2, "x", "y${client}" },
		{ false, 0, "${client}", "l" },
		{ false, 0, "${foo}", "l2" },
		{ true, 3, "t", "l${client}" },
		{ true, 4, "w${client}/f", NULL },
		{ true, 5, "${client}${client}", NULL },
	};
	struct loadfile lf;
	unsigned int i;
	char ctx[32];

	PARSE_OK(&lf, text);
	ck_assert_uint_eq(lf.nops, ARRAY_SIZE(want));
	ck_assert_uint_eq(lf.nsetup, 2);
	ck_assert_uint_eq(lf.nexpand, 6);
	for (i = 0; i < lf.nops; i++) {
		snprintf(ctx, sizeof(ctx), "op %u", i);
		EXPECT_UINT(ctx, lf.ops[i].expand, want[i].expand);
		if (want[i].expand)
			EXPECT_UINT(ctx, lf.ops[i].xidx, want[i].xidx);
		EXPECT_STR(ctx, lf.ops[i].path, want[i].path);
		EXPECT_STR(ctx, lf.ops[i].path2, want[i].path2);
	}
	loadfile_release(&lf);
}
END_TEST

/* Paths that look like ".." but have no ".." component. */
static const char *const fine_paths[] = {
	"a..b", "..a",	 "b..",	  "a/..b",	 "a/b..",
	"...",	".../x", "x/...", "./a",	 "a/.",
	".",	"a/b/c", "a//b",  "${client}..", "..${client}",
};

START_TEST(test_fine_path)
{
	struct loadfile lf;
	char text[64];

	snprintf(text, sizeof(text), "stat %s", fine_paths[_i]);
	PARSE_OK(&lf, text);
	ck_assert_uint_eq(lf.nops, 1);
	ck_assert_pstr_eq(lf.ops[0].path, fine_paths[_i]);
	loadfile_release(&lf);
}
END_TEST

/*
 * '..' that stays inside, in ops that only read; a link to '.' without
 * any '..', and one to a name below with them.
 */
static const char *const dotdot_fine[] = {
	"stat a/..",
	"stat a/b/../b/c",
	"lstat x/../y/../z",
	"access a//../b r",
	"readlink ${client}/../l",
	"statfs a/./..",
	"statvfs a/b/../..",
	"statvfs_legacy a/..",
	"readdir d/..",
	"open a/../b rdonly,directory,nofollow @1\nfstat @1\nclose @1",
	"symlink . l\nstat l/x",
	"symlink a l\nstat l/..",
	/* '..' in a target that stays inside and ends below its link */
	"symlink ../doc/readme src/link\nlstat src/link\nreadlink src/link",
	"symlink ../../a/b/c x/y/l\nstat x/y/l",
	"symlink ../d/f a/l\nrename a/x a/y\nlink b/c b/d",
	"symlink ../d/f ${client}/l\nstat ${client}/l",
	"symlink ../d/f a/l\nstat a/l/..",
};

START_TEST(test_dotdot_fine)
{
	struct loadfile lf;

	PARSE_OK(&lf, dotdot_fine[_i]);
	loadfile_release(&lf);
}
END_TEST

/* A path of PATH_MAX - 1 bytes is fine, one of PATH_MAX is not. */
START_TEST(test_long_path)
{
	size_t len = strlen("stat ") + PATH_MAX;
	char *text = malloc(len + 1), *err;
	struct loadfile lf;
	char want[128];
	int ret;

	ck_assert_ptr_nonnull(text);
	memcpy(text, "stat ", 5);
	memset(text + 5, 'a', PATH_MAX);
	text[len] = '\0';

	parse_ok(&lf, text, len - 1);
	ck_assert_uint_eq(strlen(lf.ops[0].path), PATH_MAX - 1);
	loadfile_release(&lf);

	ret = parse_capture(&lf, text, len, &err);
	ck_assert_int_eq(ret, -EINVAL);
	snprintf(want, sizeof(want), NAME ":1:6: path longer than %d bytes\n",
		 PATH_MAX - 1);
	assert_text("long path", err, want);
	ck_assert_ptr_null(lf.ops);
	free(err);
	free(text);
}
END_TEST

/*
 * Line ends, missing final newline, comments, blank lines and tabs: every
 * variant compiles to the same ops as the plain LF text.
 */
static const char lf_text[] = "# header comment\n"
			      "[setup]\n"
			      "mkdir d${client}\n"
			      "create \"d${client}/a b\" 0600\n"
			      "\n"
			      "[run]\n"
			      "open d${client}/f rdwr,creat @2 0640\n"
			      "pwrite @2 0 4k\n"
			      "pread @2 4k 8k any\n"
			      "close @2\n"
			      "access d${client} rw\n"
			      "rename d${client}/f d${client}/g\n"
			      "stat d${client}/missing ENOENT\n"
			      "unlink d${client}/g\n";

/* The same lines, spaced with tabs and runs of blanks, with comments. */
static const char spaced_text[] =
	"   # header comment, indented\n"
	"\t[setup]\t# setup\n"
	"\tmkdir\td${client}#trailing\n"
	"create\t \"d${client}/a b\"\t0600   \n"
	" \t \n"
	"[run]     \n"
	"open    d${client}/f   rdwr,creat\t@2\t0640 # open\n"
	"\t\tpwrite\t@2\t0\t4k\n"
	"pread @2 4k 8k any#c\n"
	"  close @2 # \"not a quote\n"
	"access d${client} rw\t\t\n"
	"rename\td${client}/f\td${client}/g\n"
	"stat d${client}/missing ENOENT # must fail\n"
	"unlink d${client}/g";

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
	size_t len = sizeof(lf_text) - 1, crlf_len;
	char *crlf = to_crlf(lf_text, &crlf_len);

	parse_ok(&ref, lf_text, len);
	ck_assert_uint_eq(ref.nops, 10);
	ck_assert_uint_eq(ref.nsetup, 2);
	ck_assert_uint_eq(ref.nhandles, 2);
	ck_assert_uint_eq(ref.max_io, 8192);
	ck_assert_uint_eq(ref.nexpand, 7);
	ck_assert_uint_eq(ref.nslots, 8);
	ck_assert_pstr_eq(ref.ops[1].path, "d${client}/a b");
	ck_assert_uint_eq(ref.ops[1].mode, 0600);
	ck_assert_uint_eq(ref.ops[2].mode, 0640);
	ck_assert_int_eq(ref.ops[2].flags, O_RDWR | O_CREAT);
	ck_assert_uint_eq(ref.ops[9].line, 14);

	/* LF without the final newline */
	parse_ok(&lf, lf_text, len - 1);
	assert_same(&ref, &lf, "LF, no final newline");
	loadfile_release(&lf);

	parse_ok(&lf, crlf, crlf_len);
	assert_same(&ref, &lf, "CRLF");
	loadfile_release(&lf);

	/* CRLF without the final CRLF, and with only its CR */
	parse_ok(&lf, crlf, crlf_len - 2);
	assert_same(&ref, &lf, "CRLF, no final CRLF");
	loadfile_release(&lf);
	parse_ok(&lf, crlf, crlf_len - 1);
	assert_same(&ref, &lf, "CRLF, final CR only");
	loadfile_release(&lf);

	PARSE_OK(&lf, spaced_text);
	assert_same(&ref, &lf, "tabs, blanks and comments");
	loadfile_release(&lf);

	free(crlf);
	loadfile_release(&ref);
}
END_TEST

/* The buffer need not be NUL-terminated: an exact-size heap copy. */
START_TEST(test_unterminated_buffer)
{
	static const char text[] = "stat a\nopen f rdonly @1\nclose @1";
	size_t len = sizeof(text) - 1;
	char *buf = malloc(len), *err;
	struct loadfile lf;

	ck_assert_ptr_nonnull(buf);
	memcpy(buf, text, len);
	parse_ok(&lf, buf, len);
	ck_assert_uint_eq(lf.nops, 3);
	ck_assert_int_eq(lf.ops[2].id, OP_CLOSE);
	loadfile_release(&lf);

	/* an error on the last, unterminated line: "close @" */
	ck_assert_int_eq(parse_capture(&lf, buf, len - 1, &err), -EINVAL);
	assert_text("close @", err,
		    NAME ":3:7: bad handle '@' (expected @1 .. @256)\n");
	free(err);
	free(buf);
}
END_TEST

/* Comments, blanks and tabs around one op: ops[0] of each text. */
struct text_case {
	const char *text;
	const char *path, *path2;
	int expect;
	unsigned int line;
};

static const struct text_case comment_cases[] = {
	{ "stat a#b", "a", NULL, EXPECT_OK, 1 },
	{ "stat a # c", "a", NULL, EXPECT_OK, 1 },
	{ "stat a#", "a", NULL, EXPECT_OK, 1 },
	{ "stat a\t#c", "a", NULL, EXPECT_OK, 1 },
	{ "stat a ENOENT#c", "a", NULL, ENOENT, 1 },
	{ "stat a # b c d \"unterminated", "a", NULL, EXPECT_OK, 1 },
	{ "# stat x\nstat y", "y", NULL, EXPECT_OK, 2 },
	{ "   # indented\n\t# tabbed\nstat y", "y", NULL, EXPECT_OK, 3 },
	{ "\n\n  \n\t\nstat a\n\n# x\n", "a", NULL, EXPECT_OK, 5 },
	{ "\tstat\t\ta\t", "a", NULL, EXPECT_OK, 1 },
	{ "  stat   a  ", "a", NULL, EXPECT_OK, 1 },
	{ "rename\ta\t\tb # c", "a", "b", EXPECT_OK, 1 },
};

START_TEST(test_comments)
{
	const struct text_case *c = &comment_cases[_i];
	struct loadfile lf;
	char ctx[256];

	esc(ctx, sizeof(ctx), c->text, strlen(c->text));
	PARSE_OK(&lf, c->text);
	EXPECT_UINT(ctx, lf.nops, 1);
	EXPECT_STR(ctx, lf.ops[0].path, c->path);
	EXPECT_STR(ctx, lf.ops[0].path2, c->path2);
	EXPECT_INT(ctx, lf.ops[0].expect, c->expect);
	EXPECT_UINT(ctx, lf.ops[0].line, c->line);
	loadfile_release(&lf);
}
END_TEST

static const struct text_case quote_cases[] = {
	{ "create \"my \\\"odd\\\" file\"", "my \"odd\" file", NULL, EXPECT_OK,
	  1 },
	{ "stat \"a b\"", "a b", NULL, EXPECT_OK, 1 },
	{ "stat \"a\tb\"", "a\tb", NULL, EXPECT_OK, 1 },
	{ "stat \"a#b\"", "a#b", NULL, EXPECT_OK, 1 },
	{ "stat \"a\\\\b\"", "a\\b", NULL, EXPECT_OK, 1 },
	{ "stat \"\\\\\"", "\\", NULL, EXPECT_OK, 1 },
	/* no other escape: the backslash stays */
	{ "stat \"a\\nb\"", "a\\nb", NULL, EXPECT_OK, 1 },
	{ "stat \"x\\\"#\\\"y\"", "x\"#\"y", NULL, EXPECT_OK, 1 },
	/* outside quotes a backslash and an inner quote are ordinary */
	{ "stat a\\b", "a\\b", NULL, EXPECT_OK, 1 },
	{ "stat a\\\"b", "a\\\"b", NULL, EXPECT_OK, 1 },
	{ "stat \"a\"#c", "a", NULL, EXPECT_OK, 1 },
	{ "stat \"a\" # c", "a", NULL, EXPECT_OK, 1 },
	{ "stat \"a\"\tENOENT", "a", NULL, ENOENT, 1 },
	{ "rename \"a b\" \"c d\"", "a b", "c d", EXPECT_OK, 1 },
	{ "symlink \"x y\" \"l ${client}\"", "x y", "l ${client}", EXPECT_OK,
	  1 },
	{ "stat ./ok", "./ok", NULL, EXPECT_OK, 1 },
};

START_TEST(test_quoting)
{
	const struct text_case *c = &quote_cases[_i];
	struct loadfile lf;
	char ctx[256];

	esc(ctx, sizeof(ctx), c->text, strlen(c->text));
	PARSE_OK(&lf, c->text);
	EXPECT_UINT(ctx, lf.nops, 1);
	EXPECT_STR(ctx, lf.ops[0].path, c->path);
	EXPECT_STR(ctx, lf.ops[0].path2, c->path2);
	EXPECT_INT(ctx, lf.ops[0].expect, c->expect);
	loadfile_release(&lf);
}
END_TEST

/*
 * Every error class: the exact message, line and column. Columns count
 * from 1, a tab is one column.
 */
struct err_case {
	const char *text;
	size_t len;
	const char *msg;
};

#define E(s) NAME ":" s "\n"

static const struct err_case err_cases[] = {
	/* unknown op */
	{ T("stat a\nfoo b\n"), E("2:1: unknown op 'foo'") },
	/* a dbench line that detection did not take: say why */
	{ T("Unlink \"\\a\" 0x10 NT_STATUS_OK extra\n"),
	  E("1:1: unknown op 'Unlink' ('Unlink' is an op of dbench loadfiles; this file is read as native, since its first op line does not end in a status, NT_STATUS_... or 0x...: --dialect dbench reads it as dbench's)") },
	{ T("stat a\nqUeRy_PaTh_InFoRmAtIoN x 1 NT_STATUS_OK\n"),
	  E("2:1: unknown op 'qUeRy_PaTh_InFoRmAtIoN' ('QUERY_PATH_INFORMATION' is an op of dbench loadfiles; this file is read as native, since its first op line does not end in a status, NT_STATUS_... or 0x...: --dialect dbench reads it as dbench's)") },
	{ T("  Stat a"), E("1:3: unknown op 'Stat'") },
	{ T("\tstat_fs ."), E("1:2: unknown op 'stat_fs'") },
	/* missing argument: the column just after the last token */
	{ T("stat"), E("1:5: missing argument to 'stat' (expected 1)") },
	{ T("stat#a"), E("1:5: missing argument to 'stat' (expected 1)") },
	{ T("mkdir"), E("1:6: missing argument to 'mkdir' (expected 1)") },
	{ T("rename a"), E("1:9: missing argument to 'rename' (expected 2)") },
	{ T("symlink t"),
	  E("1:10: missing argument to 'symlink' (expected 2)") },
	{ T("open a rdonly"),
	  E("1:14: missing argument to 'open' (expected 3)") },
	{ T("pread @1 0"),
	  E("1:11: missing argument to 'pread' (expected 3)") },
	{ T("stat ENOENT"), E("1:5: missing argument to 'stat' (expected 1)") },
	/* too many arguments */
	{ T("stat a b"), E("1:8: too many arguments to 'stat' (at most 1)") },
	{ T("stat a b ok"),
	  E("1:8: too many arguments to 'stat' (at most 1)") },
	{ T("stat a E"), E("1:8: too many arguments to 'stat' (at most 1)") },
	{ T("open f rdonly @1\nclose @1 @2\n"),
	  E("2:10: too many arguments to 'close' (at most 1)") },
	{ T("access a r w"),
	  E("1:12: too many arguments to 'access' (at most 2)") },
	{ T("mkdir d 0755 x"),
	  E("1:14: too many arguments to 'mkdir' (at most 2)") },
	{ T("open f rdonly @1 0644 x"),
	  E("1:23: too many arguments to 'open' (at most 4)") },
	/* bad handle */
	{ T("fstat @0"), E("1:7: bad handle '@0' (expected @1 .. @256)") },
	{ T("fstat @257"), E("1:7: bad handle '@257' (expected @1 .. @256)") },
	{ T("fstat @x"), E("1:7: bad handle '@x' (expected @1 .. @256)") },
	{ T("close 1"), E("1:7: bad handle '1' (expected @1 .. @256)") },
	{ T("pread @ 0 1"), E("1:7: bad handle '@' (expected @1 .. @256)") },
	{ T("open f rdonly @-1"),
	  E("1:15: bad handle '@-1' (expected @1 .. @256)") },
	/* bad open flag: the column of the bad word */
	{ T("open a rdonly,foo @1"), E("1:15: bad open flag 'foo'") },
	{ T("open a RDONLY @1"), E("1:8: bad open flag 'RDONLY'") },
	{ T("open a rdonly, @1"), E("1:15: bad open flag ''") },
	{ T("open a rdwr,,creat @1"), E("1:13: bad open flag ''") },
	/* no access mode, or two */
	{ T("open a creat @1"),
	  E("1:8: open flags need exactly one of rdonly, wronly, rdwr") },
	{ T("open a rdonly,wronly @1"),
	  E("1:8: open flags need exactly one of rdonly, wronly, rdwr") },
	{ T("open a rdwr,creat,rdwr @1"),
	  E("1:8: open flags need exactly one of rdonly, wronly, rdwr") },
	/* unknown errno name */
	{ T("stat a EFOO"), E("1:8: unknown errno name 'EFOO'") },
	{ T("open f rdonly @1 ENOSUCH"),
	  E("1:18: unknown errno name 'ENOSUCH'") },
	/* absolute path */
	{ T("stat /etc"),
	  E("1:6: absolute path '/etc': paths are relative to the client directory") },
	{ T("rename a /b"),
	  E("1:10: absolute path '/b': paths are relative to the client directory") },
	{ T("symlink t /l"),
	  E("1:11: absolute path '/l': paths are relative to the client directory") },
	/* '..' component: the column of the component (dotdot_cases) */
	{ T("link a x/y/.."),
	  E("1:12: '..' in path 'x/y/..': paths must stay inside the client directory") },
	{ T("mkdir ${client}/.."),
	  E("1:17: '..' in path '${client}/..': paths must stay inside the client directory") },
	/* unknown variable: the column of the '$' */
	{ T("stat ${foo}"),
	  E("1:6: unknown variable '${foo}' (only ${client} is defined)") },
	{ T("stat a/${CLIENT}/b"),
	  E("1:8: unknown variable '${CLIENT}' (only ${client} is defined)") },
	{ T("stat $x"),
	  E("1:6: unknown variable '$x' (only ${client} is defined)") },
	{ T("stat ${client"),
	  E("1:6: unknown variable '${client' (only ${client} is defined)") },
	{ T("stat w${client}${clients}"),
	  E("1:16: unknown variable '${clients}' (only ${client} is defined)") },
	/* unterminated quote */
	{ T("stat \"abc"), E("1:6: unterminated quote") },
	{ T("stat \"a\\\""), E("1:6: unterminated quote") },
	{ T("create \"a b\" 0644\nstat \"x\n"), E("2:6: unterminated quote") },
	/* text after closing quote: the column after the quote */
	{ T("stat \"a\"b"), E("1:9: text after closing quote") },
	{ T("rename \"a\"\"b\""), E("1:11: text after closing quote") },
	/* a quoted token's own column is its opening quote */
	{ T("stat \"/x\""),
	  E("1:6: absolute path '/x': paths are relative to the client directory") },
	{ T("stat \"..\""),
	  E("1:6: '..' in path '..' leads out of the client directory") },
	{ T("open a \"bad\" @1"), E("1:8: bad open flag 'bad'") },
	/* empty path */
	{ T("stat \"\""), E("1:6: empty path") },
	{ T("rename a \"\""), E("1:10: empty path") },
	{ T("symlink \"\" l"), E("1:9: empty symlink target") },
	/* a symlink target leads inside: relative, and '..' only where it
	 * stays inside from the link's directory and ends below it */
	{ T("symlink /etc/passwd l"),
	  E("1:9: absolute symlink target '/etc/passwd': a link must lead inside the client directory (a loadfile that only reads may link out with --links-out)") },
	{ T("symlink / l"),
	  E("1:9: absolute symlink target '/': a link must lead inside the client directory (a loadfile that only reads may link out with --links-out)") },
	{ T("[setup]\nsymlink .. up\n[run]\nstat up\n"),
	  E("2:9: '..' in symlink target '..' leads out of the client directory from link 'up': a link must lead inside the client directory (a loadfile that only reads may link out with --links-out)") },
	{ T("symlink a/../../b l"),
	  E("1:14: '..' in symlink target 'a/../../b' leads out of the client directory from link 'l': a link must lead inside the client directory (a loadfile that only reads may link out with --links-out)") },
	{ T("symlink \"x/..\" l"),
	  E("1:12: '..' in symlink target 'x/..', which ends no lower than link 'l': a link with '..' must lead below its directory (a loadfile that only reads may link out with --links-out)") },
	{ T("symlink ../../x a/l"),
	  E("1:12: '..' in symlink target '../../x' leads out of the client directory from link 'a/l': a link must lead inside the client directory (a loadfile that only reads may link out with --links-out)") },
	{ T("symlink ../b a/l"), E(
					 "1:9: '..' in symlink target '../b', which ends no lower than link 'a/l': a link with '..' must lead below its directory (a loadfile that only reads may link out with --links-out)") },
	/* such a link renamed or linked higher would lead out */
	{ T("symlink ../d/f a/l\nrename a/l l\n"),
	  E("2:12: 'l' puts a name 1 level below the client directory, where a link whose target climbs 1 (line 1, '../d/f') would lead out: with '..' in a symlink target, every rename and link must put its name at least 2 levels down") },
	{ T("rename x y\nsymlink ../../d/e/f a/b/l\nrename b/x b/y\n"),
	  E("1:10: 'y' puts a name 1 level below the client directory, where a link whose target climbs 2 (line 2, '../../d/e/f') would lead out: with '..' in a symlink target, every rename and link must put its name at least 3 levels down") },
	{ T("[setup]\nsymlink ../d/f a/l\n[run]\nlink a/l l2\n"),
	  E("4:10: 'l2' puts a name 1 level below the client directory, where a link whose target climbs 1 (line 2, '../d/f') would lead out: with '..' in a symlink target, every rename and link must put its name at least 2 levels down") },
	/* and through a link to its own directory, '..' climbs higher */
	{ T("symlink . s\nsymlink ../d/f a/l\n"),
	  E("1:9: symlink target '.' leads to the link's own directory, so '..' through the link would leave it: with '..' in a symlink target (line 2), a target must name something below") },
	/* handle misuse */
	{ T("fstat @1"), E("1:7: handle @1 used before it is opened") },
	{ T("stat a\nclose @2\n"),
	  E("2:7: handle @2 used before it is opened") },
	{ T("open a rdonly @1\nopen b rdonly @1\nclose @1\n"),
	  E("2:15: handle @1 is already open (opened at line 1)") },
	{ T("open a rdonly @1\nclose @1\nclose @1\n"),
	  E("3:7: handle @1 used before it is opened") },
	/* [setup]'s open handles are closed when it ends: the warning, then */
	{ T("[setup]\nopen a rdonly @1\n[run]\nclose @1\n"),
	  "warning: " NAME
	  ":2:15: 1 handle is still open at the end of [setup], the first opened here; vfsbench closes it after [setup], outside the timed ops\n" NAME
	  ":4:7: handle @1 used before it is opened\n" },
	/* an open expected to fail leaves its handle closed */
	{ T("open a rdonly @1 ENOENT\nclose @1\n"),
	  E("2:7: handle @1 used before it is opened") },
	{ T("open a rdonly @1 ENOENT\npread @1 0 1\n"),
	  E("2:7: handle @1 used before it is opened") },

	/* NUL byte */
	{ T("stat a\nst\0at b\n"),
	  E("2:3: NUL byte in loadfile (is it a text file?)") },
	{ T("# comment \0\nstat a\n"),
	  E("1:11: NUL byte in loadfile (is it a text file?)") },
	{ T("stat a\n\0"),
	  E("2:1: NUL byte in loadfile (is it a text file?)") },
	/* unknown section */
	{ T("[foo]\nstat a\n"),
	  E("1:1: unknown section '[foo]' (expected [setup], [run] or [run N])") },
	{ T("stat a\n  [Run]\n"),
	  E("2:3: unknown section '[Run]' (expected [setup], [run] or [run N])") },
	{ T("[setup\nmkdir d\n"),
	  E("1:1: unknown section '[setup' (expected [setup], [run] or [run N])") },
	/* text after section header */
	{ T("[run] stat a\n"), E("1:7: text after section header") },
	/* [run N] streams */
	{ T("[run 0] stat a\n"),
	  E("1:6: bad section header (expected [run N])") },
	{ T("[run -1]\nstat a\n"),
	  E("1:6: bad stream number '-1' (expected 0 .. 65535)") },
	{ T("[run 65536]\nstat a\n"),
	  E("1:6: bad stream number '65536' (expected 0 .. 65535)") },
	{ T("[run 0]\nopen a rdonly @1\n[run 1]\nclose @1\n"),
	  "warning: " NAME
	  ":2:15: 1 handle is still open at the end of a pass, the first opened here; vfsbench closes it after each pass, outside the timed ops\n" NAME
	  ":4:7: handle @1 used before it is opened\n" },
	{ T("[setup]\tx\n"), E("1:9: text after section header") },
	/* bad size, bad offset: an offset is called so */
	{ T("open f rdwr @1\npread @1 x 4k\nclose @1\n"),
	  E("2:10: bad offset 'x'") },
	{ T("pread @1 0 -1"), E("1:12: bad size '-1'") },
	{ T("pwrite @1 0 4b"), E("1:13: bad size '4b'") },
	{ T("pread @1 0 1.5k"), E("1:12: bad size '1.5k'") },
	{ T("ftruncate @1 1q"), E("1:14: bad size '1q'") },
	{ T("pread @1 99999999999999999999 1"),
	  E("1:10: bad offset '99999999999999999999'") },
	/* ${client}*STRIDE[+BASE]: the only arithmetic, on offsets */
	{ T("pread @1 ${client} 4k"),
	  E("1:10: bad offset '${client}' (expected a size or ${client}*SIZE[+SIZE])") },
	{ T("pread @1 ${clients}*4k 4k"),
	  E("1:10: bad offset '${clients}*4k' (expected a size or ${client}*SIZE[+SIZE])") },
	{ T("pread @1 ${client}*x 4k"), E("1:20: bad offset stride 'x'") },
	{ T("pread @1 ${client}* 4k"), E("1:20: bad offset stride ''") },
	{ T("pread @1 ${client}*+4k 4k"), E("1:20: bad offset stride ''") },
	{ T("pwrite @1 ${client}*4g 4k"),
	  E("1:21: offset stride '4g' too large (at most 4294967295)") },
	{ T("pwrite @1 ${client}*4k+y 4k"), E("1:24: bad offset 'y'") },
	{ T("pwrite @1 4k*${client} 4k"),
	  E("1:11: bad offset '4k*${client}'") },
	/* lseek's whence */
	{ T("lseek @1 0 top"),
	  E("1:12: bad whence 'top' (expected set, cur or end)") },
	{ T("lseek @1 0 SET"),
	  E("1:12: bad whence 'SET' (expected set, cur or end)") },
	{ T("lseek @1 0"),
	  E("1:11: missing argument to 'lseek' (expected 3)") },
	{ T("dup @1 @2"), E("1:8: too many arguments to 'dup' (at most 1)") },
	{ T("read @1 17m"), E("1:9: size '17m' too large (at most 16777216)") },
	{ T("dup @1"), E("1:5: handle @1 used before it is opened") },
	/* size too large */
	{ T("pread @1 0 17m"),
	  E("1:12: size '17m' too large (at most 16777216)") },
	{ T("pwrite @1 0 16777217"),
	  E("1:13: size '16777217' too large (at most 16777216)") },
	{ T("pread @1 8388608t 1"),
	  E("1:10: offset '8388608t' too large (at most 9223372036854775807)") },
	{ T("pwrite @1 4k x"), E("1:14: bad size 'x'") },
	{ T("ftruncate @1 8388608t"),
	  E("1:14: size '8388608t' too large (at most 9223372036854775807)") },
	/* bad mode */
	{ T("mkdir d 8"), E("1:9: bad mode '8' (expected octal)") },
	{ T("mkdir d 10000"),
	  E("1:9: bad mode '10000' (expected octal <= 7777)") },
	{ T("create f 0x1"),
	  E("1:10: bad mode '0x1' (expected octal <= 7777)") },
	{ T("create f 0644x"),
	  E("1:10: bad mode '0644x' (expected octal <= 7777)") },
	{ T("open f rdonly @1 -1"), E("1:18: bad mode '-1' (expected octal)") },
	/* bad access mode */
	{ T("access a rr"),
	  E("1:10: bad access mode 'rr' (expected f or some of r, w, x)") },
	{ T("access a q"),
	  E("1:10: bad access mode 'q' (expected f or some of r, w, x)") },
	{ T("access a fr"),
	  E("1:10: bad access mode 'fr' (expected f or some of r, w, x)") },
	{ T("access a R"),
	  E("1:10: bad access mode 'R' (expected f or some of r, w, x)") },
	/* no ops */
	{ T(""), E("1:1: no ops in loadfile") },
	{ T("# nothing\n\n   \n\t\n"), E("1:1: no ops in loadfile") },
	{ T("[setup]\n"), E("1:1: no ops in loadfile") },
	{ T("[setup]\n[run]\n"), E("1:1: no ops in loadfile") },
	{ T("[setup]\nmkdir d\n"), E("2:1: no ops in the [run] section") },
	{ T("[setup]\nmkdir d\n[run]\n# nothing here\n"),
	  E("4:1: no ops in the [run] section") },
	/* too many tokens: the 17th */
	{ T("stat 1 2 3 4 5 6 7 8 9 a b c d e f g"),
	  E("1:36: too many tokens (at most 16)") },
	{ T("stat 1 2 3 4 5 6 7 8 9 a b c d e f"),
	  E("1:8: too many arguments to 'stat' (at most 1)") },
	/* CRLF: the CR is not part of the line */
	{ T("stat a\r\nstat /x\r\n"),
	  E("2:6: absolute path '/x': paths are relative to the client directory") },
	{ T("stat a\r\nfoo\r\n"), E("2:1: unknown op 'foo'") },
};

static void check_error(const struct err_case *c)
{
	char ctx[256], got[512], want[512];
	struct loadfile lf;
	bool same, released;
	char *err;
	int ret;

	esc(ctx, sizeof(ctx), c->text, c->len);
	ret = parse_capture(&lf, c->text, c->len, &err);
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

/*
 * --links-out: symlink targets may lead anywhere, and then every op that
 * could change something through such a link is refused, in both
 * dialects; mkdir and symlink only of a name directly in the client
 * directory. The message names the op and the option, at the column of
 * the token that makes the op a change.
 */
#define LO_MSG \
	"with --links-out a loadfile may only read (and mkdir or symlink a name directly in the client directory)"
#define LO_SUB \
	"with --links-out, mkdir and symlink may only make a name directly in the client directory"
#define LO_DB "with --links-out a loadfile may only read"

static const char links_out_ok[] =
	"[setup]\n"
	"symlink / root\n"
	"symlink ../../.. up\n"
	"symlink /etc/passwd pw${client}\n"
	"mkdir d\n"
	"mkdir d${client}\n"
	"[run]\n"
	"stat root/etc\n"
	"lstat up\n"
	"access pw0 r\n"
	"statfs root\n"
	"statvfs root\n"
	"statvfs_legacy root\n"
	"readdir root/etc\n"
	"readlink up\n"
	"open root/etc/passwd rdonly,nofollow,cloexec,noatime @1\n"
	"fstat @1\n"
	"fstatfs @1\n"
	"fstatvfs @1\n"
	"pread @1 0 4k\n"
	"close @1\n"
	"open root rdonly,directory @2 ENOENT\n";

START_TEST(test_links_out_reads)
{
	static const struct loadfile_opts opts = { .links_out = true };
	struct loadfile lf;

	parse_opts = &opts;
	PARSE_OK(&lf, links_out_ok);
	parse_opts = NULL;
	ck_assert_uint_eq(lf.nsetup, 5);
	ck_assert_str_eq(lf.ops[0].path, "/");
	ck_assert_str_eq(lf.ops[1].path, "../../..");
	loadfile_release(&lf);
}
END_TEST

#define OPEN1 "open f rdonly @1\n"
static const struct err_case links_out_cases[] = {
	{ T("create f"), E("1:1: 'create' changes the filesystem: " LO_MSG) },
	{ T("open f wronly @1\nclose @1"),
	  E("1:8: 'open' with write access, creat or trunc: " LO_MSG) },
	{ T("open f rdwr @1\nclose @1"),
	  E("1:8: 'open' with write access, creat or trunc: " LO_MSG) },
	{ T("open f rdonly,creat @1\nclose @1"),
	  E("1:8: 'open' with write access, creat or trunc: " LO_MSG) },
	{ T("open f rdonly,trunc @1\nclose @1"),
	  E("1:8: 'open' with write access, creat or trunc: " LO_MSG) },
	{ T(OPEN1 "pwrite @1 0 1\nclose @1"),
	  E("2:1: 'pwrite' changes the filesystem: " LO_MSG) },
	{ T(OPEN1 "fsync @1\nclose @1"),
	  E("2:1: 'fsync' changes the filesystem: " LO_MSG) },
	{ T(OPEN1 "fdatasync @1\nclose @1"),
	  E("2:1: 'fdatasync' changes the filesystem: " LO_MSG) },
	{ T(OPEN1 "ftruncate @1 0\nclose @1"),
	  E("2:1: 'ftruncate' changes the filesystem: " LO_MSG) },
	{ T("unlink f"), E("1:1: 'unlink' changes the filesystem: " LO_MSG) },
	{ T("rmdir d"), E("1:1: 'rmdir' changes the filesystem: " LO_MSG) },
	{ T("rename a b"), E("1:1: 'rename' changes the filesystem: " LO_MSG) },
	{ T("link a b"), E("1:1: 'link' changes the filesystem: " LO_MSG) },
	{ T("utimens a"), E("1:1: 'utimens' changes the filesystem: " LO_MSG) },
	{ T("[setup]\nsymlink / out\nmkdir out/x\n[run]\nstat out\n"),
	  E("3:7: 'mkdir' below a subdirectory: " LO_SUB) },
	{ T("symlink / out\nsymlink /etc out/etc"),
	  E("2:14: 'symlink' below a subdirectory: " LO_SUB) },
	{ T("mkdir ./x"), E("1:7: 'mkdir' below a subdirectory: " LO_SUB) },
};

START_TEST(test_links_out_changes)
{
	static const struct loadfile_opts opts = { .links_out = true };

	parse_opts = &opts;
	check_error(&links_out_cases[_i]);
	parse_opts = NULL;
}
END_TEST

/*
 * --read-outside: absolute paths in ops that only read, and reads through
 * a handle opened on one; [setup] and relative paths as without it.
 */
static const char read_outside_ok[] = "[setup]\n"
				      "mkdir d\n"
				      "open d/f wronly,creat,trunc @1\n"
				      "pwrite @1 0 4k\n"
				      "close @1\n"
				      "[run]\n"
				      "stat /usr\n"
				      "lstat /usr/lib/../bin\n"
				      "access /etc/passwd r\n"
				      "readlink /proc/self/exe\n"
				      "statfs /\n"
				      "open /etc rdonly,directory @1\n"
				      "getdents @1\n"
				      "fstat @1\n"
				      "close @1\n"
				      "open /etc/passwd rdonly @1\n"
				      "pread @1 0 4k\n"
				      "close @1\n"
				      "open d/f rdwr @1\n"
				      "pwrite @1 0 1\n"
				      "fsync @1\n"
				      "close @1\n"
				      "stat /x/${client} ENOENT\n";

START_TEST(test_read_outside_reads)
{
	static const struct loadfile_opts opts = { .read_outside = true };
	struct loadfile lf;

	parse_opts = &opts;
	PARSE_OK(&lf, read_outside_ok);
	parse_opts = NULL;
	ck_assert_uint_eq(lf.nsetup, 4);
	ck_assert_str_eq(lf.ops[4].path, "/usr");
	ck_assert_str_eq(lf.ops[5].path, "/usr/lib/../bin");
	loadfile_release(&lf);
}
END_TEST

#define RO_MSG \
	"changes the filesystem: with --read-outside only ops that read may name a path outside the client directory"
#define RO_OPEN \
	"opens with write access, creat or trunc: with --read-outside only ops that read may name a path outside the client directory"
#define RO_FD \
	"opened on an absolute path: a file outside the client directory may only be read"
#define OPENX "open /x rdonly @1\n"
static const struct err_case read_outside_cases[] = {
	{ T("create /f"),
	  E("1:8: absolute path '/f' in 'create', which " RO_MSG) },
	{ T("unlink /f"),
	  E("1:8: absolute path '/f' in 'unlink', which " RO_MSG) },
	{ T("rmdir /d"),
	  E("1:7: absolute path '/d' in 'rmdir', which " RO_MSG) },
	{ T("mkdir /d"),
	  E("1:7: absolute path '/d' in 'mkdir', which " RO_MSG) },
	{ T("rename /a b"),
	  E("1:8: absolute path '/a' in 'rename', which " RO_MSG) },
	{ T("rename a /b"),
	  E("1:10: absolute path '/b' in 'rename', which " RO_MSG) },
	{ T("link /a b"),
	  E("1:6: absolute path '/a' in 'link', which " RO_MSG) },
	{ T("utimens /a"),
	  E("1:9: absolute path '/a' in 'utimens', which " RO_MSG) },
	{ T("symlink t /l"),
	  E("1:11: absolute path '/l' in 'symlink', which " RO_MSG) },
	{ T("open /f wronly @1\nclose @1"),
	  E("1:6: absolute path '/f' in 'open', which " RO_OPEN) },
	{ T("open /f rdwr @1\nclose @1"),
	  E("1:6: absolute path '/f' in 'open', which " RO_OPEN) },
	{ T("open /f rdonly,creat @1\nclose @1"),
	  E("1:6: absolute path '/f' in 'open', which " RO_OPEN) },
	{ T("open /f rdonly,trunc @1\nclose @1"),
	  E("1:6: absolute path '/f' in 'open', which " RO_OPEN) },
	{ T(OPENX "pwrite @1 0 1\nclose @1"),
	  E("2:8: 'pwrite' on handle @1, " RO_FD) },
	{ T(OPENX "fsync @1\nclose @1"),
	  E("2:7: 'fsync' on handle @1, " RO_FD) },
	{ T(OPENX "fdatasync @1\nclose @1"),
	  E("2:11: 'fdatasync' on handle @1, " RO_FD) },
	{ T(OPENX "ftruncate @1 0\nclose @1"),
	  E("2:11: 'ftruncate' on handle @1, " RO_FD) },
	/* a symlink target is no path: --links-out's rule, unchanged */
	{ T("symlink /t l"),
	  E("1:9: absolute symlink target '/t': a link must lead inside the client directory (a loadfile that only reads may link out with --links-out)") },
};

START_TEST(test_read_outside_changes)
{
	static const struct loadfile_opts opts = { .read_outside = true };

	parse_opts = &opts;
	check_error(&read_outside_cases[_i]);
	parse_opts = NULL;
}
END_TEST

/* The dbench dialect has no symlink, but --links-out still means that
 * nothing is changed. */
static const struct err_case links_out_db_cases[] = {
	{ T("NTCreateX \"\\a\" 0x0 0x1 1 NT_STATUS_OK\nClose 1 NT_STATUS_OK\n"),
	  E("1:1: 'NTCreateX' changes the filesystem: " LO_DB) },
	{ T("Rename \"\\a\" \"\\b\" NT_STATUS_OK\n"),
	  E("1:1: 'Rename' changes the filesystem: " LO_DB) },
	{ T("Unlink \"\\a\" 0x10 NT_STATUS_OK\n"),
	  E("1:1: 'Unlink' changes the filesystem: " LO_DB) },
	{ T("Deltree \"\\a\" NT_STATUS_OK\n"),
	  E("1:1: 'Deltree' changes the filesystem: " LO_DB) },
	{ T("Rmdir \"\\a\" NT_STATUS_OK\n"),
	  E("1:1: 'Rmdir' changes the filesystem: " LO_DB) },
	{ T("Mkdir \"\\a\" NT_STATUS_OK\n"),
	  E("1:1: 'Mkdir' changes the filesystem: " LO_DB) },
	{ T("1.5 WriteX 1 0 4 4 NT_STATUS_OK\n"),
	  E("1:5: 'WriteX' changes the filesystem: " LO_DB) },
	{ T("SET_FILE_INFORMATION 1 1004 NT_STATUS_OK\n"),
	  E("1:1: 'SET_FILE_INFORMATION' changes the filesystem: " LO_DB) },
	{ T("Flush 1 NT_STATUS_OK\n"),
	  E("1:1: 'Flush' changes the filesystem: " LO_DB) },
};

START_TEST(test_links_out_dbench)
{
	static const struct loadfile_opts opts = { .links_out = true,
						   .dialect = DIALECT_DBENCH };
	static const char reads[] =
		"QUERY_PATH_INFORMATION \"\\a\" 1004 NT_STATUS_OK\n"
		"FIND_FIRST \"\\*\" 260 1366 0 NT_STATUS_OK\n"
		"QUERY_FS_INFORMATION 1 NT_STATUS_OK\n"
		"ReadX 1 0 4 4 NT_STATUS_OK\n"
		"Close 1 NT_STATUS_OK\n"
		"Sleep 10 NT_STATUS_OK\n";
	struct loadfile lf;

	parse_opts = &opts;
	check_error(&links_out_db_cases[_i]);
	PARSE_OK(&lf, reads);
	parse_opts = NULL;
	loadfile_release(&lf);
}
END_TEST

/*
 * Handles still open when a section ends (a cut of a longer loadfile) are
 * accepted: one warning per section end, how many and the first, and
 * close_after_pass for [run]. An open that may succeed (any) counts.
 */
static const struct {
	const char *text, *warning;
	bool close_after_pass;
} left_open_cases[] = {
	{ "stat x\nopen a rdonly @4\nstat b\n",
	  "warning: " NAME
	  ":2:15: 1 handle is still open at the end of a pass, the first opened here; vfsbench closes it after each pass, outside the timed ops\n",
	  true },
	{ "open b rdonly @2\nopen a rdonly @1\nopen c rdonly @3\nclose @2\n",
	  "warning: " NAME
	  ":2:15: 2 handles are still open at the end of a pass, the first opened here; vfsbench closes them after each pass, outside the timed ops\n",
	  true },
	{ "open a rdonly @1 any\n",
	  "warning: " NAME
	  ":1:15: 1 handle is still open at the end of a pass, the first opened here; vfsbench closes it after each pass, outside the timed ops\n",
	  true },
	{ "[setup]\nopen a rdonly @1\n[run]\nstat a\n",
	  "warning: " NAME
	  ":2:15: 1 handle is still open at the end of [setup], the first opened here; vfsbench closes it after [setup], outside the timed ops\n",
	  false },
	{ "open a rdonly @1 ENOENT\nstat a\n", "", false },
	{ "open a rdonly @1\nclose @1\n", "", false },
};

START_TEST(test_left_open)
{
	struct loadfile lf;
	char *err;

	ck_assert_int_eq(parse_capture(&lf, left_open_cases[_i].text,
				       strlen(left_open_cases[_i].text), &err),
			 0);
	assert_text(left_open_cases[_i].text, err, left_open_cases[_i].warning);
	free(err);
	ck_assert_int_eq(lf.close_after_pass,
			 left_open_cases[_i].close_after_pass);
	loadfile_release(&lf);
}
END_TEST

/*
 * Failures after many ops in both sections, past the first growth of
 * either array: everything parsed so far is freed (run under ASan).
 */
START_TEST(test_error_after_many_ops)
{
	static const char *const tails[] = {
		"stat /abs\n",
		"[setup]\nmkdir /abs\n",
		"open a rdonly @1\nopen b rdonly @1\n",
	};
	size_t size = 64 * 1024, n = 0;
	char *text = malloc(size), *err;
	struct loadfile lf;
	unsigned int i;
	int ret;

	ck_assert_ptr_nonnull(text);
	n += (size_t)snprintf(text + n, size - n, "[setup]\n");
	for (i = 0; i < 40; i++)
		n += (size_t)snprintf(text + n, size - n, "mkdir s%u\n", i);
	n += (size_t)snprintf(text + n, size - n, "[run]\n");
	for (i = 0; i < 150; i++)
		n += (size_t)snprintf(text + n, size - n,
				      "rename r%u/x r%u/y\n", i, i);

	/* the successful version first */
	parse_ok(&lf, text, n);
	ck_assert_uint_eq(lf.nops, 190);
	ck_assert_uint_eq(lf.nsetup, 40);
	ck_assert_pstr_eq(lf.ops[39].path, "s39");
	ck_assert_pstr_eq(lf.ops[189].path2, "r149/y");
	ck_assert_uint_eq(lf.ops[189].line, 192);
	loadfile_release(&lf);

	for (i = 0; i < ARRAY_SIZE(tails); i++) {
		size_t m = n +
			   (size_t)snprintf(text + n, size - n, "%s", tails[i]);

		ret = parse_capture(&lf, text, m, &err);
		ck_assert_msg(ret == -EINVAL, "tail %u: returned %d", i, ret);
		ck_assert_msg(err[0] != '\0', "tail %u: no message", i);
		ck_assert_ptr_null(lf.ops);
		ck_assert_ptr_null(lf.name);
		free(err);
	}
	free(text);
}
END_TEST

/*
 * Cases the parser gets wrong (see the report that came with these
 * tests). Inside a quoted token the column of a '..' component, a '$' or
 * a bad open flag word is computed from the unquoted text, one column
 * short of the character: the '..' of "a b/../c" is at column 11 (the
 * quote is column 6), as an unquoted component is reported at its own
 * column. And an empty quoted amode is no access mode, as every other
 * empty token (path, target, flag, mode, size, handle) is an error.
 */
/* '..' in a path: allowed only in an op that reads, and inside */
static const struct err_case dotdot_cases[] = {
	/* '..' component of an op that changes something: the column of
	 * the first one */
	{ T("unlink a/../b"),
	  E("1:10: '..' in path 'a/../b': paths must stay inside the client directory") },
	{ T("rmdir a/.."),
	  E("1:9: '..' in path 'a/..': paths must stay inside the client directory") },
	{ T("open a/../b rdwr @1\nclose @1"),
	  E("1:8: '..' in path 'a/../b': paths must stay inside the client directory") },
	{ T("open a/../b wronly @1\nclose @1"),
	  E("1:8: '..' in path 'a/../b': paths must stay inside the client directory") },
	{ T("open a/../b rdonly,creat @1\nclose @1"),
	  E("1:8: '..' in path 'a/../b': paths must stay inside the client directory") },
	{ T("open a/../b rdonly,trunc @1\nclose @1"),
	  E("1:8: '..' in path 'a/../b': paths must stay inside the client directory") },
	{ T("create a/b/../c"),
	  E("1:12: '..' in path 'a/b/../c': paths must stay inside the client directory") },
	{ T("utimens a/.."),
	  E("1:11: '..' in path 'a/..': paths must stay inside the client directory") },
	{ T("symlink t a/../l"),
	  E("1:13: '..' in path 'a/../l': paths must stay inside the client directory") },
	/* one that only reads: the column of the '..' that leaves */
	{ T("stat .."),
	  E("1:6: '..' in path '..' leads out of the client directory") },
	{ T("stat ../a"),
	  E("1:6: '..' in path '../a' leads out of the client directory") },
	{ T("stat a/../../b"),
	  E("1:11: '..' in path 'a/../../b' leads out of the client directory") },
	{ T("lstat ./.."),
	  E("1:9: '..' in path './..' leads out of the client directory") },
	{ T("readdir a/./../.."),
	  E("1:16: '..' in path 'a/./../..' leads out of the client directory") },
	{ T("access a//../b/../.. r"),
	  E("1:19: '..' in path 'a//../b/../..' leads out of the client directory") },
	{ T("open a/b/../../.. rdonly @1\nclose @1"),
	  E("1:16: '..' in path 'a/b/../../..' leads out of the client directory") },
	{ T("statvfs_legacy ${client}/../.."),
	  E("1:29: '..' in path '${client}/../..' leads out of the client directory") },
	{ T("stat \"a b/../../x\""),
	  E("1:14: '..' in path 'a b/../../x' leads out of the client directory") },
	/* a link to its own directory, and '..' through it, in either order */
	{ T("[setup]\nsymlink . l\n[run]\nstat l/..\n"),
	  E("2:9: symlink target '.' leads to the link's own directory, so '..' through the link would leave it: with '..' in a path (line 4), a target must name something below") },
	{ T("stat l/..\nsymlink ./. l\nsymlink ./ m\n"),
	  E("2:9: symlink target './.' leads to the link's own directory, so '..' through the link would leave it: with '..' in a path (line 1), a target must name something below") },
	/* a quoted token: the column of its opening quote */
	{ T("rename a \"..\""),
	  E("1:10: '..' in path '..': paths must stay inside the client directory") },
};

START_TEST(test_dotdot_error)
{
	check_error(&dotdot_cases[_i]);
}
END_TEST

static const struct err_case bug_cases[] = {
	{ T("unlink \"a b/../c\""),
	  E("1:13: '..' in path 'a b/../c': paths must stay inside the client directory") },
	{ T("stat \"a/${x}\""),
	  E("1:9: unknown variable '${x}' (only ${client} is defined)") },
	{ T("open a \"rdonly,bad\" @1"), E("1:16: bad open flag 'bad'") },
	{ T("access a \"\""),
	  E("1:10: bad access mode '' (expected f or some of r, w, x)") },
};

START_TEST(test_error_bug)
{
	check_error(&bug_cases[_i]);
}
END_TEST

/* loadfile_load() runs in an empty scratch directory, so no file shadows
 * a built-in name. */
struct scratch {
	char dir[64];
	int oldcwd;
};

static void scratch_enter(struct scratch *s)
{
	snprintf(s->dir, sizeof(s->dir), "/tmp/vfsbench-test-loadfile.XXXXXX");
	ck_assert_msg(mkdtemp(s->dir) != NULL, "mkdtemp: %s", strerror(errno));
	s->oldcwd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ck_assert_int_ge(s->oldcwd, 0);
	ck_assert_int_eq(chdir(s->dir), 0);
}

static void scratch_leave(struct scratch *s)
{
	ck_assert_int_eq(fchdir(s->oldcwd), 0);
	close(s->oldcwd);
	ck_assert_msg(rmdir(s->dir) == 0, "rmdir %s: %s", s->dir,
		      strerror(errno));
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_msg(f != NULL, "fopen %s: %s", path, strerror(errno));
	ck_assert_int_eq(fputs(text, f) >= 0, 1);
	ck_assert_int_eq(fclose(f), 0);
}

static int load_capture(struct loadfile *lf, const char *spec, char **err)
{
	struct capture c;
	int ret;

	capture_start(&c);
	ret = loadfile_load(lf, spec, NULL);
	*err = capture_end(&c);
	return ret;
}

static const char *const statfs_specs[] = { "statfs", "statfs.load" };

START_TEST(test_load_builtin)
{
	struct scratch s;
	struct loadfile lf;
	char *err;
	int ret;

	scratch_enter(&s);
	ret = load_capture(&lf, statfs_specs[_i], &err);
	scratch_leave(&s);
	ck_assert_msg(ret == 0, "loadfile_load(\"%s\") = %d", statfs_specs[_i],
		      ret);
	assert_text(statfs_specs[_i], err, "");
	free(err);
	ck_assert_str_eq(lf.name, "statfs.load (built-in)");
	ck_assert_uint_eq(lf.nops, 1);
	ck_assert_uint_eq(lf.nsetup, 0);
	ck_assert_int_eq(lf.ops[0].id, OP_STATFS);
	ck_assert_pstr_eq(lf.ops[0].path, ".");
	ck_assert_uint_eq(lf.nslots, 1);
	ck_assert_int_eq(lf.slot_op[0], OP_STATFS);
	loadfile_release(&lf);
}
END_TEST

/* builtin_summary(): the first sentence of the leading comment. */
struct summary_case {
	const char *what, *text, *want;
};

static const struct summary_case summary_cases[] = {
	{ "one line", "# a.load: measures x.  More here.\nstat .\n",
	  "measures x." },
	{ "over lines",
	  "# a.load: one statvfs per pass, as glibc before\n"
	  "#   2.13 made it: statfs(2), a read of\n"
	  "# /proc/self/mounts.  Then more.\n",
	  "one statvfs per pass, as glibc before 2.13 made it: statfs(2), a read of /proc/self/mounts." },
	{ "no full stop: the paragraph",
	  "# no stop here\n# nor here\n#\n# next.\n", "no stop here nor here" },
	{ "a stop inside a word goes on", "# see cache.h and v2.13.\n",
	  "see cache.h and v2.13." },
	{ "another file's name stays", "# b.load: other.\n", "b.load: other." },
	{ "the name later stays", "# x a.load: y.\n", "x a.load: y." },
	{ "no comment", "stat .\n", "" },
	{ "an empty comment first", "#\n# late.\n", "" },
	{ "no final newline", "# a.load: end", "end" },
};

START_TEST(test_builtin_summary)
{
	const struct summary_case *c = &summary_cases[_i];
	char buf[256];
	size_t n = builtin_summary(c->text, "a.load", buf, sizeof(buf));

	const char *got = buf;

	EXPECT_STR(c->what, got, c->want);
	EXPECT_UINT(c->what, n, strlen(c->want));
}
END_TEST

/* A short buffer: truncated, terminated, nothing written past it. */
START_TEST(test_builtin_summary_short)
{
	char buf[8];
	const char *got = buf;

	memset(buf, 'x', sizeof(buf));
	builtin_summary("# a.load: abcdefghij.\n", "a.load", buf, 6);
	EXPECT_STR("short", got, "abcde");
	EXPECT_UINT("short", buf[6], 'x');
}
END_TEST

/*
 * Every built-in loadfile says what it is in a sentence of its own: the
 * statfs family printed three identical lines.
 */
START_TEST(test_builtin_summaries_differ)
{
	char seen[128][512];
	unsigned int n = 0;

	for (const struct builtin_loadfile *b = builtin_loadfiles; b->name;
	     b++, n++) {
		size_t l;

		ck_assert_uint_lt(n, ARRAY_SIZE(seen));
		l = builtin_summary(b->text, b->name, seen[n], sizeof(seen[n]));
		ck_assert_msg(l > 10 && seen[n][l - 1] == '.',
			      "%s: '%s' is not a sentence", b->name, seen[n]);
		for (unsigned int i = 0; i < n; i++)
			ck_assert_msg(strcmp(seen[i], seen[n]),
				      "%s says what another says: '%s'",
				      b->name, seen[n]);
	}
}
END_TEST

/* Every built-in loadfile compiles, by its name with and without .load. */
START_TEST(test_builtins_compile)
{
	const struct builtin_loadfile *b;
	struct scratch s;
	struct loadfile lf;
	unsigned int n = 0;
	bool has_default = false;
	char short_name[128], *err;
	int ret;

	scratch_enter(&s);
	for (b = builtin_loadfiles; b->name; b++, n++) {
		size_t l = strlen(b->name);

		/* a suite's index: test-suite.c */
		if (builtin_is_suite(b))
			continue;
		ck_assert_msg(l > 5 && !strcmp(b->name + l - 5, ".load"),
			      "built-in '%s' does not end in .load", b->name);
		has_default |= !strcmp(b->name, LOADFILE_DEFAULT);
		ret = load_capture(&lf, b->name, &err);
		ck_assert_msg(ret == 0 && !err[0], "%s: %d: %s", b->name, ret,
			      err);
		free(err);
		ck_assert_uint_gt(loadfile_run_nops(&lf), 0);
		loadfile_release(&lf);

		snprintf(short_name, sizeof(short_name), "%.*s", (int)(l - 5),
			 b->name);
		ret = load_capture(&lf, short_name, &err);
		ck_assert_msg(ret == 0 && !err[0], "%s: %d: %s", short_name,
			      ret, err);
		free(err);
		loadfile_release(&lf);
	}
	scratch_leave(&s);
	ck_assert_msg(has_default, "no built-in " LOADFILE_DEFAULT);
	ck_assert_uint_ge(n, 7);
}
END_TEST

START_TEST(test_load_missing)
{
	struct scratch s;
	struct loadfile lf;
	char *err;
	int ret;

	scratch_enter(&s);
	ret = load_capture(&lf, "no-such-loadfile", &err);
	ck_assert_int_eq(ret, -ENOENT);
	assert_text(
		"no-such-loadfile", err,
		"error: no loadfile 'no-such-loadfile': not a file and not a built-in loadfile (see --list-loadfiles)\n");
	free(err);

	ret = load_capture(&lf, "statfs.lo", &err);
	ck_assert_int_eq(ret, -ENOENT);
	free(err);

	/* a path is never looked up among the built-ins */
	ret = load_capture(&lf, "./statfs.load", &err);
	ck_assert_int_eq(ret, -ENOENT);
	assert_text(
		"./statfs.load", err,
		"error: cannot read loadfile './statfs.load': No such file or directory\n");
	free(err);
	scratch_leave(&s);
}
END_TEST

START_TEST(test_load_directory)
{
	struct scratch s;
	struct loadfile lf;
	char *err, want[256];
	int ret;

	scratch_enter(&s);
	ret = load_capture(&lf, s.dir, &err);
	ck_assert_int_eq(ret, -EISDIR);
	snprintf(want, sizeof(want),
		 "error: cannot read loadfile '%s': Is a directory\n", s.dir);
	assert_text(s.dir, err, want);
	free(err);

	/* a directory named like a built-in does not hide the built-in */
	ck_assert_int_eq(mkdir("statfs", 0755), 0);
	ret = load_capture(&lf, "statfs", &err);
	ck_assert_int_eq(ret, 0);
	ck_assert_str_eq(err, "");
	ck_assert_str_eq(lf.name, "statfs.load (built-in)");
	loadfile_release(&lf);
	free(err);
	ck_assert_int_eq(rmdir("statfs"), 0);
	scratch_leave(&s);
}
END_TEST

/* An existing file wins over a built-in of the same name. */
START_TEST(test_load_file)
{
	struct scratch s;
	struct loadfile lf;
	char *err, path[128];
	int ret;

	scratch_enter(&s);
	write_text("statfs", "unlink x\n");
	ret = load_capture(&lf, "statfs", &err);
	ck_assert_int_eq(ret, 0);
	assert_text("statfs file", err, "");
	free(err);
	ck_assert_str_eq(lf.name, "statfs");
	ck_assert_uint_eq(lf.nops, 1);
	ck_assert_int_eq(lf.ops[0].id, OP_UNLINK);
	loadfile_release(&lf);

	snprintf(path, sizeof(path), "%s/bad.load", s.dir);
	write_text(path, "stat a\n\nbogus\n");
	ret = load_capture(&lf, path, &err);
	ck_assert_int_eq(ret, -EINVAL);
	ck_assert_ptr_null(lf.ops);
	ck_assert_ptr_null(lf.name);
	ck_assert_int_eq(strncmp(err, path, strlen(path)), 0);
	assert_text(path, err + strlen(path), ":3:1: unknown op 'bogus'\n");
	free(err);

	ck_assert_int_eq(unlink("statfs"), 0);
	ck_assert_int_eq(unlink(path), 0);
	scratch_leave(&s);
}
END_TEST

static Suite *loadfile_suite(void)
{
	Suite *s = suite_create("loadfile");
	TCase *tc;

	tc = tcase_create("ops");
	tcase_add_loop_test(tc, test_op, 0, (int)ARRAY_SIZE(op_cases));
	tcase_add_test(tc, test_op_table_covered);
	tcase_add_test(tc, test_data);
	tcase_add_test(tc, test_sections_slots);
	tcase_add_test(tc, test_paths_shared);
	tcase_add_test(tc, test_sections_order);
	tcase_add_test(tc, test_streams);
	tcase_add_loop_test(tc, test_nhandles, 0,
			    (int)ARRAY_SIZE(handles_cases));
	tcase_add_loop_test(tc, test_max_io, 0, (int)ARRAY_SIZE(max_io_cases));
	tcase_add_loop_test(tc, test_fds, 0, (int)ARRAY_SIZE(fds_cases));
	tcase_add_test(tc, test_expand);
	tcase_add_test(tc, test_offset_stride);
	tcase_add_loop_test(tc, test_fine_path, 0, (int)ARRAY_SIZE(fine_paths));
	tcase_add_loop_test(tc, test_dotdot_fine, 0,
			    (int)ARRAY_SIZE(dotdot_fine));
	tcase_add_test(tc, test_long_path);
	suite_add_tcase(s, tc);

	tc = tcase_create("syntax");
	tcase_add_test(tc, test_line_ends);
	tcase_add_test(tc, test_unterminated_buffer);
	tcase_add_loop_test(tc, test_comments, 0,
			    (int)ARRAY_SIZE(comment_cases));
	tcase_add_loop_test(tc, test_quoting, 0, (int)ARRAY_SIZE(quote_cases));
	suite_add_tcase(s, tc);

	tc = tcase_create("errors");
	tcase_add_loop_test(tc, test_error, 0, (int)ARRAY_SIZE(err_cases));
	tcase_add_test(tc, test_error_after_many_ops);
	tcase_add_loop_test(tc, test_error_bug, 0, (int)ARRAY_SIZE(bug_cases));
	tcase_add_loop_test(tc, test_dotdot_error, 0,
			    (int)ARRAY_SIZE(dotdot_cases));
	tcase_add_loop_test(tc, test_left_open, 0,
			    (int)ARRAY_SIZE(left_open_cases));
	tcase_add_test(tc, test_links_out_reads);
	tcase_add_test(tc, test_read_outside_reads);
	tcase_add_loop_test(tc, test_read_outside_changes, 0,
			    (int)ARRAY_SIZE(read_outside_cases));
	tcase_add_loop_test(tc, test_links_out_changes, 0,
			    (int)ARRAY_SIZE(links_out_cases));
	tcase_add_loop_test(tc, test_links_out_dbench, 0,
			    (int)ARRAY_SIZE(links_out_db_cases));
	suite_add_tcase(s, tc);

	tc = tcase_create("load");
	tcase_add_loop_test(tc, test_load_builtin, 0,
			    (int)ARRAY_SIZE(statfs_specs));
	tcase_add_test(tc, test_builtins_compile);
	tcase_add_loop_test(tc, test_builtin_summary, 0,
			    (int)ARRAY_SIZE(summary_cases));
	tcase_add_test(tc, test_builtin_summary_short);
	tcase_add_test(tc, test_builtin_summaries_differ);
	tcase_add_test(tc, test_load_missing);
	tcase_add_test(tc, test_load_directory);
	tcase_add_test(tc, test_load_file);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(loadfile_suite());
}
