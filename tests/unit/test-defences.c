/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The cleanup's defences against symlinks, one at a time. Where two checks
 * guard one danger, the tests below make each one the only guard, so that
 * removing either makes a test fail:
 *
 *  - rmtree: a symlink is removed as a link (it is never queued as a
 *    directory: the walk never even opens it), and a name queued as a
 *    directory that is a symlink by the time it is opened (a race) is not
 *    entered (O_NOFOLLOW).
 *  - workdir_clear(): the name to clear is looked at without following it
 *    (a dangling link is removed, a link to a directory never opened);
 *    then the walk's own O_NOFOLLOW.
 *  - workdir_create(): -D is refused when it is a symlink, and when it is
 *    replaced between the look and the open, by a symlink (O_NOFOLLOW:
 *    ENOTDIR) or by another directory (the device and inode check).
 *
 * The program is linked with -Wl,--wrap=openat,--wrap=fstatat: every
 * openat() of the code under test is checked for a symlink target, and
 * an fstatat() of -D's last component (workdir.c resolves -D one
 * component at a time) can be given a hook that swaps -D right after it
 * looked.
 * The "outside" is a scratch directory with a canary file.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/compiler.h"
#include "workdir/rmtree.h"
#include "workdir/workdir.h"
#include "unit.h"

int __real_openat(int dirfd, const char *path, int flags, ...);
int __real_fstatat(int dirfd, const char *name, struct stat *st, int flags);
int __wrap_openat(int dirfd, const char *path, int flags, ...);
int __wrap_fstatat(int dirfd, const char *name, struct stat *st, int flags);

/* openat() calls whose target was a symlink when they were made */
static unsigned int opened_links;
static char last_link[PATH_MAX];

int __wrap_openat(int dirfd, const char *path, int flags, ...)
{
	struct stat st;
	mode_t mode = 0;

	if (flags & (O_CREAT | __O_TMPFILE)) {
		va_list ap;

		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	if (!fstatat(dirfd, path, &st, AT_SYMLINK_NOFOLLOW) &&
	    S_ISLNK(st.st_mode)) {
		opened_links++;
		snprintf(last_link, sizeof(last_link), "%s", path);
	}
	return __real_openat(dirfd, path, flags, mode);
}

/*
 * run once after the next fstatat() of hook_path's last component, then
 * cleared
 */
static void (*lstat_hook)(const char *path);
static const char *hook_path;

int __wrap_fstatat(int dirfd, const char *name, struct stat *st, int flags)
{
	int ret = __real_fstatat(dirfd, name, st, flags);

	if (lstat_hook && !strcmp(name, strrchr(hook_path, '/') + 1)) {
		void (*hook)(const char *) = lstat_hook;

		lstat_hook = NULL;
		hook(hook_path);
	}
	return ret;
}

static char root[PATH_MAX], parent[PATH_MAX], outside[PATH_MAX],
	canary[PATH_MAX];

/* snprintf() that fails the test instead of truncating. */
static void fmt(char *buf, size_t size, const char *f, ...) PRINTF(3, 4);
static void fmt(char *buf, size_t size, const char *f, ...)
{
	va_list ap;
	int n;

	va_start(ap, f);
	n = vsnprintf(buf, size, f, ap);
	va_end(ap);
	ck_assert(n > 0 && (size_t)n < size);
}

static unsigned int count_entries(const char *dir)
{
	char cmd[PATH_MAX + 64];
	unsigned int n = 0;
	FILE *p;

	/* ls -A: every entry but . and .. */
	fmt(cmd, sizeof(cmd), "ls -A '%s' | wc -l", dir);
	p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(fscanf(p, "%u", &n), 1);
	pclose(p);
	return n;
}

static void setup(void)
{
	const char *tmp = getenv("TMPDIR");
	FILE *f;

	fmt(root, sizeof(root), "%s/vb-defences.XXXXXX",
	    tmp && *tmp ? tmp : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(root));
	fmt(parent, sizeof(parent), "%s/parent", root);
	fmt(outside, sizeof(outside), "%s/outside", root);
	fmt(canary, sizeof(canary), "%s/canary", outside);
	ck_assert_int_eq(mkdir(parent, 0755), 0);
	ck_assert_int_eq(mkdir(outside, 0755), 0);
	f = fopen(canary, "w");
	ck_assert_ptr_nonnull(f);
	fputs("canary\n", f);
	fclose(f);
	opened_links = 0;
	lstat_hook = NULL;
}

static void teardown(void)
{
	char cmd[PATH_MAX + 16];

	fmt(cmd, sizeof(cmd), "rm -rf '%s'", root);
	ck_assert_int_eq(system(cmd), 0);
}

/* The outside holds its canary and nothing else. */
static void assert_outside_intact(void)
{
	char buf[16] = "";
	FILE *f = fopen(canary, "r");

	ck_assert_msg(f != NULL, "the outside canary is gone");
	ck_assert_ptr_nonnull(fgets(buf, sizeof(buf), f));
	fclose(f);
	ck_assert_str_eq(buf, "canary\n");
	ck_assert_uint_eq(count_entries(outside), 1);
}

static bool exists_at(int dirfd, const char *name)
{
	struct stat st;

	return !fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW);
}

static void make_wd(struct workdir *wd)
{
	ck_assert_int_eq(workdir_create(wd, parent), 0);
}

/*
 * A tree full of links out: the walk removes every link as a link and
 * never opens one (were a link queued as a directory, the walk would
 * open it, and only O_NOFOLLOW would stand between it and the outside).
 */
START_TEST(test_walk_never_opens_a_link)
{
	struct workdir wd;

	make_wd(&wd);
	ck_assert_int_eq(workdir_mkdir(&wd, "t/sub", NULL), 0);
	ck_assert_int_eq(symlinkat(outside, wd.fd, "t/out"), 0);
	ck_assert_int_eq(symlinkat(canary, wd.fd, "t/file"), 0);
	ck_assert_int_eq(symlinkat("nowhere", wd.fd, "t/dangling"), 0);
	ck_assert_int_eq(symlinkat("../..", wd.fd, "t/sub/up"), 0);
	ck_assert_int_eq(symlinkat(outside, wd.fd, "top"), 0);
	opened_links = 0;
	ck_assert_int_eq(workdir_clear(&wd, "t", NULL), 0);
	ck_assert(!exists_at(wd.fd, "t"));
	ck_assert_msg(opened_links == 0, "the walk opened the link '%s'",
		      last_link);
	/* the top level, walked by rmtree_empty() */
	ck_assert_int_eq(workdir_remove(&wd, NULL), 0);
	ck_assert_msg(opened_links == 0, "the walk opened the link '%s'",
		      last_link);
	ck_assert_uint_eq(count_entries(parent), 0);
	assert_outside_intact();
}
END_TEST

/*
 * workdir_clear() of a link: the link goes, unopened, and a dangling one
 * goes too (a stat that followed it would find nothing and leave it).
 */
START_TEST(test_clear_a_link)
{
	struct workdir wd;

	make_wd(&wd);
	ck_assert_int_eq(symlinkat(outside, wd.fd, "out"), 0);
	ck_assert_int_eq(symlinkat("nowhere", wd.fd, "dangling"), 0);
	opened_links = 0;
	ck_assert_int_eq(workdir_clear(&wd, "out", NULL), 0);
	ck_assert(!exists_at(wd.fd, "out"));
	ck_assert_msg(opened_links == 0, "the link '%s' was opened", last_link);
	ck_assert_int_eq(workdir_clear(&wd, "dangling", NULL), 0);
	ck_assert(!exists_at(wd.fd, "dangling"));
	assert_outside_intact();
	ck_assert_int_eq(workdir_remove(&wd, NULL), 0);
	assert_outside_intact();
}
END_TEST

/*
 * A name seen as a directory that is a link by the time the walk opens it
 * (the race the walk's O_NOFOLLOW is for): rmtree_remove_at() told it is
 * a directory. The link is removed and the outside is not entered.
 */
START_TEST(test_directory_become_link)
{
	struct workdir wd;
	char path[PATH_MAX];

	make_wd(&wd);
	ck_assert_int_eq(symlinkat(outside, wd.fd, "was-a-dir"), 0);
	fmt(path, sizeof(path), "%s/was-a-dir", wd.path);
	ck_assert_int_eq(
		rmtree_remove_at(wd.fd, "was-a-dir", true, path, NULL, NULL),
		0);
	ck_assert(!exists_at(wd.fd, "was-a-dir"));
	assert_outside_intact();
	ck_assert_int_eq(workdir_remove(&wd, NULL), 0);
}
END_TEST

/* The same below a subdirectory, and through workdir_clear() of a path. */
START_TEST(test_component_is_link)
{
	struct workdir wd;

	make_wd(&wd);
	ck_assert_int_eq(symlinkat(outside, wd.fd, "via"), 0);
	/* "via/canary" must not reach the outside's canary */
	ck_assert_int_ne(workdir_clear(&wd, "via/canary", NULL), 0);
	assert_outside_intact();
	ck_assert_int_eq(workdir_remove(&wd, NULL), 0);
	assert_outside_intact();
}
END_TEST

/* -D swapped right after vfsbench looked at it. */
static char moved[PATH_MAX];

static void swap_for_link(const char *path)
{
	fmt(moved, sizeof(moved), "%s.moved", path);
	ck_assert_int_eq(rename(path, moved), 0);
	ck_assert_int_eq(symlink(outside, path), 0);
}

static void swap_for_dir(const char *path)
{
	fmt(moved, sizeof(moved), "%s.moved", path);
	ck_assert_int_eq(rename(path, moved), 0);
	ck_assert_int_eq(mkdir(path, 0755), 0);
}

/* A symlink in its place: the open does not follow it (ENOTDIR). */
START_TEST(test_parent_becomes_link)
{
	struct workdir wd;
	struct capture cap;
	char *err;

	hook_path = parent;
	lstat_hook = swap_for_link;
	capture_start(&cap);
	ck_assert_int_eq(workdir_create(&wd, parent), -ENOTDIR);
	err = capture_end(&cap);
	ck_assert_msg(lstat_hook == NULL,
		      "-D was not looked at with fstatat()");
	ck_assert_msg(strstr(err, "cannot open work directory parent") &&
			      strstr(err, strerror(ENOTDIR)),
		      "message: %s", err);
	free(err);
	assert_outside_intact();
	ck_assert_uint_eq(count_entries(moved), 0);
}
END_TEST

/*
 * Another directory in its place: O_NOFOLLOW does not help, the device
 * and inode check does (ESTALE), and neither directory gets a work
 * directory.
 */
START_TEST(test_parent_replaced)
{
	struct workdir wd;
	struct capture cap;
	char *err;

	hook_path = parent;
	lstat_hook = swap_for_dir;
	capture_start(&cap);
	ck_assert_int_eq(workdir_create(&wd, parent), -ESTALE);
	err = capture_end(&cap);
	ck_assert_msg(strstr(err, "changed while being opened"), "message: %s",
		      err);
	free(err);
	ck_assert_uint_eq(count_entries(parent), 0);
	ck_assert_uint_eq(count_entries(moved), 0);
	assert_outside_intact();
}
END_TEST

static Suite *defences_suite(void)
{
	Suite *s = suite_create("defences");
	TCase *tc = tcase_create("symlinks");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_walk_never_opens_a_link);
	tcase_add_test(tc, test_clear_a_link);
	tcase_add_test(tc, test_directory_become_link);
	tcase_add_test(tc, test_component_is_link);
	tcase_add_test(tc, test_parent_becomes_link);
	tcase_add_test(tc, test_parent_replaced);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(defences_suite());
}
