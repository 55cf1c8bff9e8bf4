/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which C library function each filesystem-information op calls. On
 * glibc >= 2.13 statfs(2) and statvfs(3) issue the same system call, and
 * so do fstatfs(2) and fstatvfs(3), so strace (t3002) cannot tell a
 * statfs op that calls statvfs() from one that calls statfs(). This test
 * is linked with -Wl,--wrap for those functions and stat/lstat: the
 * engine's calls land in the __wrap_ functions below, which log the call
 * and pass it on to the C library.
 */
#include <config.h>

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "engine/engine.h"
#include "unit.h"

int __real_statfs(const char *path, struct statfs *buf);
int __real_statvfs(const char *path, struct statvfs *buf);
int __real_fstatfs(int fd, struct statfs *buf);
int __real_fstatvfs(int fd, struct statvfs *buf);
int __real_stat(const char *path, struct stat *buf);
int __real_lstat(const char *path, struct stat *buf);

/* The wrapped calls since log_reset(), as "name(path)" or "name(fd)". */
static char call_log[4096];
static unsigned int ncalls;

static void log_reset(void)
{
	call_log[0] = '\0';
	ncalls = 0;
}

/* @path NULL: a call on an fd */
static void log_call(const char *name, const char *path)
{
	size_t n = strlen(call_log);

	if (path)
		snprintf(call_log + n, sizeof(call_log) - n, "%s%s(%s)",
			 ncalls ? " " : "", name, path);
	else
		snprintf(call_log + n, sizeof(call_log) - n, "%s%s(fd)",
			 ncalls ? " " : "", name);
	ncalls++;
}

/* The wrappers: declared here, called only through the linker's --wrap. */
int __wrap_statfs(const char *path, struct statfs *buf);
int __wrap_statvfs(const char *path, struct statvfs *buf);
int __wrap_fstatfs(int fd, struct statfs *buf);
int __wrap_fstatvfs(int fd, struct statvfs *buf);
int __wrap_stat(const char *path, struct stat *buf);
int __wrap_lstat(const char *path, struct stat *buf);

int __wrap_statfs(const char *path, struct statfs *buf)
{
	log_call("statfs", path);
	return __real_statfs(path, buf);
}

int __wrap_statvfs(const char *path, struct statvfs *buf)
{
	log_call("statvfs", path);
	return __real_statvfs(path, buf);
}

int __wrap_fstatfs(int fd, struct statfs *buf)
{
	log_call("fstatfs", NULL);
	return __real_fstatfs(fd, buf);
}

int __wrap_fstatvfs(int fd, struct statvfs *buf)
{
	log_call("fstatvfs", NULL);
	return __real_fstatvfs(fd, buf);
}

/* the mount points statvfs_legacy stats are logged as "stat(/...)" */
int __wrap_stat(const char *path, struct stat *buf)
{
	log_call("stat", path[0] == '/' ? "/..." : path);
	return __real_stat(path, buf);
}

int __wrap_lstat(const char *path, struct stat *buf)
{
	log_call("lstat", path);
	return __real_lstat(path, buf);
}

struct fixture {
	struct engine_ctx ctx;
	int fd[1];
};

static void fixture_init(struct fixture *f)
{
	memset(f, 0, sizeof(*f));
	f->fd[0] = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ck_assert_int_ge(f->fd[0], 0);
	f->ctx.fd = f->fd;
	f->ctx.dirbuf = malloc(ENGINE_DIRBUF);
	f->ctx.pathbuf = malloc(PATH_MAX);
	ck_assert_ptr_nonnull(f->ctx.dirbuf);
	ck_assert_ptr_nonnull(f->ctx.pathbuf);
}

static void fixture_release(struct fixture *f)
{
	close(f->fd[0]);
	free(f->ctx.dirbuf);
	free(f->ctx.pathbuf);
}

/*
 * Run op @id of the posix engine on "." (handle 0 for the f* ops) and
 * check the logged calls: exactly @want, or, with @prefix, @want then
 * only the mount-point stats of the mount table scan.
 */
static const struct engine *engine = &engine_posix;

static void check_calls(enum op_id id, unsigned int xflags, const char *want,
			bool prefix)
{
	struct op op = { .id = (uint8_t)id, .xflags = (uint8_t)xflags };
	struct fixture f;
	long ret;

	fixture_init(&f);
	log_reset();
	ret = engine->op[id](&f.ctx, &op, ".", NULL);
	fixture_release(&f);
	ck_assert_msg(ret == 0, "%s: returned %ld", op_table[id].name, ret);
	if (prefix) {
		const char *rest = call_log + strlen(want);

		ck_assert_msg(!strncmp(call_log, want, strlen(want)),
			      "%s (xflags %#x): calls '%s', want '%s ...'",
			      op_table[id].name, xflags, call_log, want);
		/* the scan found the mount point of "." */
		ck_assert_msg(!strncmp(rest, " stat(/...)", 11),
			      "%s: no mount point stat in '%s'",
			      op_table[id].name, call_log);
		for (; *rest; rest += 11)
			ck_assert_msg(
				!strncmp(rest, " stat(/...)", 11),
				"%s: calls '%s', want only stats after '%s'",
				op_table[id].name, call_log, want);
	} else {
		ck_assert_msg(!strcmp(call_log, want),
			      "%s (xflags %#x): calls '%s', want '%s'",
			      op_table[id].name, xflags, call_log, want);
	}
}

START_TEST(test_native_fsinfo)
{
	check_calls(OP_STATFS, 0, "statfs(.)", false);
	check_calls(OP_STATVFS, 0, "statvfs(.)", false);
	check_calls(OP_FSTATFS, 0, "fstatfs(fd)", false);
	check_calls(OP_FSTATVFS, 0, "fstatvfs(fd)", false);
	/* glibc before 2.13: statfs, stat, then the mount table */
	check_calls(OP_STATVFS_LEGACY, 0, "statfs(.) stat(.)", true);
}
END_TEST

START_TEST(test_native_stat)
{
	check_calls(OP_STAT, 0, "stat(.)", false);
	check_calls(OP_LSTAT, 0, "lstat(.)", false);
}
END_TEST

/*
 * -e uring: the ops with no opcode call what posix calls (the library
 * function, not only the system call, which strace cannot tell apart).
 */
START_TEST(test_uring_fallbacks)
{
	engine = &engine_uring;
	check_calls(OP_STATFS, 0, "statfs(.)", false);
	check_calls(OP_STATVFS, 0, "statvfs(.)", false);
	check_calls(OP_FSTATFS, 0, "fstatfs(fd)", false);
	check_calls(OP_FSTATVFS, 0, "fstatvfs(fd)", false);
	check_calls(OP_STATVFS_LEGACY, 0, "statfs(.) stat(.)", true);
	engine = &engine_posix;
	/* each native op is in the ring, a system call or both, never none */
	for (unsigned int i = 0; i < OP_NATIVE_NR; i++)
		ck_assert_msg(
			engine_uring.queued[i] || engine_uring.fallback[i],
			"%s: neither queued nor a fallback", op_table[i].name);
}
END_TEST

/* dbench's QUERY_FS_INFORMATION: statvfs(3), or what --fsinfo names */
START_TEST(test_dbench_qfsinfo)
{
	check_calls(OP_DB_QFSINFO, 0, "statvfs(.)", false);
	check_calls(OP_DB_QFSINFO, OPX_FSINFO_STATFS, "statfs(.)", false);
	check_calls(OP_DB_QFSINFO, OPX_FSINFO_LEGACY, "statfs(.) stat(.)",
		    true);
}
END_TEST

/* dbench's resolve step is a stat(), and a hit reads no directory */
START_TEST(test_dbench_resolve)
{
	check_calls(OP_DB_QPATHINFO, OPX_RESOLVE_SCAN, "stat(.)", false);
	check_calls(OP_DB_QPATHINFO, 0, "stat(.)", false);
}
END_TEST

static Suite *engine_suite(void)
{
	Suite *s = suite_create("engine");
	TCase *tc = tcase_create("calls");

	tcase_add_test(tc, test_native_fsinfo);
	tcase_add_test(tc, test_native_stat);
	tcase_add_test(tc, test_uring_fallbacks);
	tcase_add_test(tc, test_dbench_qfsinfo);
	tcase_add_test(tc, test_dbench_resolve);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(engine_suite());
}
