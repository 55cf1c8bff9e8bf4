/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for workdir_open_named(), dbench's tree DIR/clients: made
 * fresh with the marker, found again and used as it is, refused when
 * vfsbench did not make it (nothing touched), adopted on request and then
 * never removed, and a symlink or file in its place refused.
 */
#include <config.h>
#include "workdir/workdir.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"

static char root[256], clients[512], canary[512];

static void setup(void)
{
	int fd;

	snprintf(root, sizeof(root), "%s/vb-named.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(root));
	snprintf(clients, sizeof(clients), "%s/clients", root);
	snprintf(canary, sizeof(canary), "%s/canary", root);
	fd = open(canary, O_WRONLY | O_CREAT | O_EXCL, 0644);
	ck_assert_int_ge(fd, 0);
	close(fd);
}

static void teardown(void)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	ck_assert_int_eq(system(cmd), 0);
}

static bool exists(const char *dir, const char *name)
{
	char p[2 * PATH_MAX];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return !lstat(p, &st);
}

static int open_quiet(struct workdir *wd, bool adopt, char **err)
{
	struct capture c;
	int ret;

	capture_start(&c);
	ret = workdir_open_named(wd, root, "clients", adopt);
	*err = capture_end(&c);
	return ret;
}

/* Made with its marker, kept by release, found again, then removed. */
START_TEST(test_fresh_then_reused)
{
	struct workdir wd;
	char *err;

	ck_assert_int_eq(open_quiet(&wd, false, &err), 0);
	free(err);
	ck_assert(!wd.reused && !wd.foreign);
	ck_assert(exists(clients, WORKDIR_MARKER));
	ck_assert_int_eq(workdir_mkdir(&wd, "client0/~dmtmp", NULL), 0);
	workdir_release(&wd); /* --skip-cleanup */

	ck_assert_int_eq(open_quiet(&wd, false, &err), 0);
	free(err);
	ck_assert(wd.reused && !wd.foreign);
	ck_assert(exists(clients, "client0/~dmtmp"));
	ck_assert_int_eq(workdir_remove(&wd, NULL), 0);
	ck_assert(!exists(root, "clients"));
	ck_assert(exists(root, "canary"));
}
END_TEST

/* Not made by vfsbench: refused, left exactly as it was. */
START_TEST(test_foreign_refused)
{
	char theirs[1024];
	struct workdir wd;
	char *err;

	ck_assert_int_eq(mkdir(clients, 0755), 0);
	snprintf(theirs, sizeof(theirs), "%s/theirs", clients);
	ck_assert_int_eq(close(creat(theirs, 0644)), 0);
	ck_assert_int_eq(open_quiet(&wd, false, &err), -EEXIST);
	ck_assert_msg(strstr(err, "was not made by vfsbench") &&
			      strstr(err, "--adopt-clients") &&
			      strstr(err, clients),
		      "%s", err);
	free(err);
	ck_assert(exists(clients, "theirs"));
	ck_assert(!exists(clients, WORKDIR_MARKER));
	ck_assert_int_eq(wd.fd, -1);
	workdir_release(&wd);
}
END_TEST

/* Adopted: used, never marked, never removed. */
START_TEST(test_foreign_adopted)
{
	char theirs[1024];
	struct workdir wd;
	char *err;

	ck_assert_int_eq(mkdir(clients, 0755), 0);
	snprintf(theirs, sizeof(theirs), "%s/theirs", clients);
	ck_assert_int_eq(close(creat(theirs, 0644)), 0);
	ck_assert_int_eq(open_quiet(&wd, true, &err), 0);
	free(err);
	ck_assert(wd.foreign);
	ck_assert(!exists(clients, WORKDIR_MARKER));
	ck_assert_int_eq(workdir_mkdir(&wd, "client0", NULL), 0);
	{
		struct capture c;

		capture_start(&c);
		ck_assert_int_eq(workdir_remove(&wd, NULL), -EPERM);
		err = capture_end(&c);
	}
	ck_assert_msg(strstr(err, "not removing it"), "%s", err);
	free(err);
	ck_assert(exists(clients, "theirs"));
	ck_assert(exists(clients, "client0"));
	workdir_release(&wd);
}
END_TEST

/* A symlink or a file named clients: refused, not followed. */
START_TEST(test_not_a_directory)
{
	char target[512];
	struct workdir wd;
	char *err;

	snprintf(target, sizeof(target), "%s/elsewhere", root);
	ck_assert_int_eq(mkdir(target, 0755), 0);
	ck_assert_int_eq(symlink(target, clients), 0);
	ck_assert_int_eq(open_quiet(&wd, true, &err), -ENOTDIR);
	ck_assert_msg(strstr(err, "is not a directory"), "%s", err);
	free(err);
	ck_assert(!exists(target, WORKDIR_MARKER));
	ck_assert_int_eq(unlink(clients), 0);
	ck_assert_int_eq(close(creat(clients, 0644)), 0);
	ck_assert_int_eq(open_quiet(&wd, false, &err), -ENOTDIR);
	free(err);
	workdir_release(&wd);
}
END_TEST

static Suite *named_suite(void)
{
	Suite *s = suite_create("workdir-named");
	TCase *tc = tcase_create("named");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_fresh_then_reused);
	tcase_add_test(tc, test_foreign_refused);
	tcase_add_test(tc, test_foreign_adopted);
	tcase_add_test(tc, test_not_a_directory);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(named_suite());
}
