/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for struct workdir: that creation refuses bad parents, and
 * that removal deletes the whole work directory and nothing outside it,
 * whatever symlinks, hard links, mounts or renames it meets on the way.
 */
#include <config.h>
#include "workdir/workdir.h"

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/compiler.h"
#include "unit.h"

/*
 * Every test runs in a fresh scratch directory:
 *
 *   /tmp/vfsbench-test-workdir.XXXXXX/
 *       parent/            the -D directory
 *           canary         beside the work directory
 *           vfsbench.XXXXXX/  created by the test
 *       outside/           never part of the work directory
 *           canary
 */
struct scratch {
	char root[PATH_MAX];
	char parent[PATH_MAX];
	char canary[PATH_MAX];
	char outside[PATH_MAX];
	char outside_canary[PATH_MAX];
};

static struct scratch s;

#define CANARY_TEXT  "canary beside the work directory\n"
#define OUTSIDE_TEXT "canary outside the work directory\n"
#define MARKER_START "vfsbench work directory of pid "

/* snprintf() that fails the test instead of truncating. */
static void fmt(char *buf, size_t size, const char *format, ...) PRINTF(3, 4);
static void fmt(char *buf, size_t size, const char *format, ...)
{
	va_list ap;
	int n;

	va_start(ap, format);
	n = vsnprintf(buf, size, format, ap);
	va_end(ap);
	ck_assert_msg(n >= 0 && (size_t)n < size, "path too long: %s", buf);
}

static void write_file(int dirfd, const char *name, const char *text)
{
	int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			0644);

	ck_assert_msg(fd >= 0, "create %s: %s", name, strerror(errno));
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	ck_assert_int_eq(close(fd), 0);
}

static void read_file(int dirfd, const char *name, char *buf, size_t size)
{
	ssize_t n;
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);

	ck_assert_msg(fd >= 0, "open %s: %s", name, strerror(errno));
	n = read(fd, buf, size - 1);
	ck_assert_int_ge(n, 0);
	buf[n] = '\0';
	close(fd);
}

static int rm_cb(const char *path, const struct stat *st UNUSED, int type,
		 struct FTW *ftw UNUSED)
{
	return type == FTW_DP ? rmdir(path) : unlink(path);
}

/* rm -rf for the test's own scratch space; never crosses mounts. */
static void remove_tree(const char *path)
{
	nftw(path, rm_cb, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}

static void scratch_setup(void)
{
	int fd;

	umask(022);
	strcpy(s.root, "/tmp/vfsbench-test-workdir.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(s.root));
	fmt(s.parent, sizeof(s.parent), "%s/parent", s.root);
	fmt(s.canary, sizeof(s.canary), "%s/canary", s.parent);
	fmt(s.outside, sizeof(s.outside), "%s/outside", s.root);
	fmt(s.outside_canary, sizeof(s.outside_canary), "%s/canary", s.outside);
	ck_assert_int_eq(mkdir(s.parent, 0755), 0);
	ck_assert_int_eq(mkdir(s.outside, 0755), 0);
	fd = open(s.parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	write_file(fd, "canary", CANARY_TEXT);
	close(fd);
	fd = open(s.outside, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	write_file(fd, "canary", OUTSIDE_TEXT);
	close(fd);
}

static void scratch_teardown(void)
{
	remove_tree(s.root);
}

static int count_entries(const char *path)
{
	DIR *dir = opendir(path);
	struct dirent *de;
	int n = 0;

	ck_assert_ptr_nonnull(dir);
	while ((de = readdir(dir)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			n++;
	closedir(dir);
	return n;
}

static int count_fds(void)
{
	return count_entries("/proc/self/fd");
}

static bool exists_at(int dirfd, const char *name)
{
	struct stat st;

	return !fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW);
}

static bool exists(const char *path)
{
	return exists_at(AT_FDCWD, path);
}

/*
 * Both canaries and the outside directory are as the setup left them; the
 * canary beside the work directory has `links` names (more while a tree
 * from build_tree() is still there).
 */
static void assert_canaries_links(nlink_t links)
{
	char buf[256];
	struct stat st;

	read_file(AT_FDCWD, s.canary, buf, sizeof(buf));
	ck_assert_str_eq(buf, CANARY_TEXT);
	ck_assert_int_eq(lstat(s.canary, &st), 0);
	ck_assert_uint_eq(st.st_nlink, links);
	read_file(AT_FDCWD, s.outside_canary, buf, sizeof(buf));
	ck_assert_str_eq(buf, OUTSIDE_TEXT);
	ck_assert_int_eq(lstat(s.outside_canary, &st), 0);
	ck_assert_int_eq(st.st_nlink, 1);
	ck_assert_int_eq(lstat(s.outside, &st), 0);
	ck_assert(S_ISDIR(st.st_mode));
	ck_assert_int_eq(count_entries(s.outside), 1);
}

static void assert_canaries(void)
{
	assert_canaries_links(1);
}

static void create_wd(struct workdir *wd)
{
	ck_assert_int_eq(workdir_create(wd, s.parent), 0);
	ck_assert_int_ge(wd->fd, 0);
	ck_assert_int_ge(wd->parent_fd, 0);
	ck_assert_ptr_nonnull(wd->path);
	ck_assert_ptr_nonnull(wd->name);
}

static int mkdirs_at(int dirfd, const char *relpath)
{
	char buf[PATH_MAX], *p;

	strcpy(buf, relpath);
	for (p = strchr(buf, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (mkdirat(dirfd, buf, 0755) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdirat(dirfd, buf, 0755) && errno != EEXIST ? -1 : 0;
}

/*
 * Fill the work directory with everything removal must cope with: files,
 * nested directories, symlinks leading out of it (to the outside directory,
 * to the outside canary, to the parent through ".."), a dangling symlink,
 * a fifo, and hard links both to a file inside and to the canary beside
 * the work directory.
 */
static void build_tree(const struct workdir *wd)
{
	int fd = wd->fd, i;
	char name[32];

	write_file(fd, "f1", "one\n");
	ck_assert_int_eq(mkdirs_at(fd, "d1/d2/d3"), 0);
	ck_assert_int_eq(mkdirs_at(fd, "empty"), 0);
	write_file(fd, "d1/f2", "two\n");
	write_file(fd, "d1/d2/d3/f3", "three\n");
	ck_assert_int_eq(symlinkat(s.outside, fd, "d1/link-dir"), 0);
	ck_assert_int_eq(symlinkat(s.outside_canary, fd, "d1/link-file"), 0);
	ck_assert_int_eq(symlinkat("../..", fd, "d1/d2/link-up"), 0);
	ck_assert_int_eq(symlinkat("..", fd, "link-parent"), 0);
	ck_assert_int_eq(symlinkat("/nonexistent/vfsbench/x", fd, "dangling"),
			 0);
	ck_assert_int_eq(mkfifoat(fd, "d1/fifo", 0644), 0);
	ck_assert_int_eq(linkat(fd, "f1", fd, "d1/d2/hard", 0), 0);
	ck_assert_int_eq(linkat(AT_FDCWD, s.canary, fd, "d1/hard-canary", 0),
			 0);
	ck_assert_int_eq(mkdirs_at(fd, "wide"), 0);
	for (i = 0; i < 300; i++) {
		fmt(name, sizeof(name), "wide/f%d", i);
		write_file(fd, name, "x");
		fmt(name, sizeof(name), "wide/d%d", i % 7);
		ck_assert_int_eq(mkdirs_at(fd, name), 0);
	}
}

START_TEST(test_workdir_create_layout)
{
	struct workdir wd;
	char buf[512], expect[PATH_MAX];
	struct marker_place place;
	unsigned long long start;
	struct stat st;

	create_wd(&wd);
	ck_assert_int_eq(strncmp(wd.name, "vfsbench.", 9), 0);
	ck_assert_uint_eq(strlen(wd.name), 15);
	fmt(expect, sizeof(expect), "%s/%s", s.parent, wd.name);
	ck_assert_str_eq(wd.path, expect);

	ck_assert_int_eq(lstat(wd.path, &st), 0);
	ck_assert(S_ISDIR(st.st_mode));
	ck_assert_int_eq(st.st_mode & 07777, 0700);
	ck_assert(st.st_dev == wd.dev);
	ck_assert(st.st_ino == wd.ino);
	ck_assert(fcntl(wd.fd, F_GETFD) & FD_CLOEXEC);

	read_file(wd.fd, WORKDIR_MARKER, buf, sizeof(buf));
	ck_assert_uint_eq(strlen(wd.id), 16);
	ck_assert_uint_eq(strspn(wd.id, "0123456789abcdef"), 16);
	ck_assert_int_eq(marker_proc_start(getpid(), &start), 0);
	ck_assert_int_eq(marker_place_here(&place), 0);
	ck_assert_uint_eq(strlen(place.boot), 36);
	fmt(expect, sizeof(expect),
	    MARKER_START
	    "%ld started at %llu (id %s) in pid namespace %llu on boot %s; vfsbench removes it when the run ends\n",
	    (long)getpid(), start, wd.id, place.pidns, place.boot);
	ck_assert_str_eq(buf, expect);
	ck_assert_int_eq(count_entries(wd.path), 1);

	ck_assert_int_eq(workdir_remove(&wd, NULL), 0);
	ck_assert_int_eq(wd.fd, -1);
	ck_assert_int_eq(wd.parent_fd, -1);
	ck_assert_ptr_null(wd.path);
	ck_assert_ptr_null(wd.name);
	ck_assert_int_eq(count_entries(s.parent), 1);
	assert_canaries();
}
END_TEST

START_TEST(test_workdir_create_unique)
{
	struct workdir a, b;

	create_wd(&a);
	create_wd(&b);
	ck_assert_str_ne(a.name, b.name);
	ck_assert_int_eq(workdir_remove(&a, NULL), 0);
	ck_assert_int_eq(workdir_remove(&b, NULL), 0);
	ck_assert_int_eq(count_entries(s.parent), 1);
}
END_TEST

START_TEST(test_workdir_create_trailing_slash)
{
	struct workdir wd;
	char parent[PATH_MAX], expect[PATH_MAX];

	fmt(parent, sizeof(parent), "%s//", s.parent);
	ck_assert_int_eq(workdir_create(&wd, parent), 0);
	fmt(expect, sizeof(expect), "%s/%s", s.parent, wd.name);
	ck_assert_str_eq(wd.path, expect);
	ck_assert_int_eq(workdir_remove(&wd, NULL), 0);
}
END_TEST

/* Run workdir_create() on a bad parent; nothing may be created anywhere. */
static void check_create_fails(const char *parent, int expect)
{
	struct workdir wd;
	int parent_entries = count_entries(s.parent);
	int root_entries = count_entries(s.root);
	int fds = count_fds();

	ck_assert_int_eq(workdir_create(&wd, parent), expect);
	ck_assert_int_eq(wd.fd, -1);
	ck_assert_int_eq(wd.parent_fd, -1);
	ck_assert_ptr_null(wd.path);
	ck_assert_ptr_null(wd.name);
	workdir_release(&wd);
	ck_assert_int_eq(count_entries(s.parent), parent_entries);
	ck_assert_int_eq(count_entries(s.root), root_entries);
	ck_assert_int_eq(count_fds(), fds);
	assert_canaries();
}

START_TEST(test_workdir_create_missing)
{
	char path[PATH_MAX];

	fmt(path, sizeof(path), "%s/missing", s.root);
	check_create_fails(path, -ENOENT);
	check_create_fails("", -ENOENT);
}
END_TEST

START_TEST(test_workdir_create_file)
{
	char path[PATH_MAX];

	check_create_fails(s.canary, -ENOTDIR);
	fmt(path, sizeof(path), "%s/", s.canary);
	check_create_fails(path, -ENOTDIR);
}
END_TEST

/* Capture stderr in a file while `fn` runs; returns what it printed. */
static char *capture_stderr_begin(int *saved)
{
	static char path[PATH_MAX];
	int fd;

	fmt(path, sizeof(path), "%s/stderr", s.root);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	ck_assert_int_ge(fd, 0);
	fflush(stderr);
	*saved = dup(2);
	ck_assert_int_ge(*saved, 0);
	ck_assert_int_eq(dup2(fd, 2), 2);
	close(fd);
	return path;
}

static void capture_stderr_end(int saved, const char *path, char *buf,
			       size_t size)
{
	fflush(stderr);
	ck_assert_int_eq(dup2(saved, 2), 2);
	close(saved);
	read_file(AT_FDCWD, path, buf, size);
	unlink(path);
}

START_TEST(test_workdir_create_symlink)
{
	char link[PATH_MAX], buf[PATH_MAX * 2], expect[PATH_MAX * 2];
	const char *path;
	int saved;

	fmt(link, sizeof(link), "%s/link", s.root);
	ck_assert_int_eq(symlink(s.parent, link), 0);
	path = capture_stderr_begin(&saved);
	check_create_fails(link, -ELOOP);
	capture_stderr_end(saved, path, buf, sizeof(buf));
	fmt(expect, sizeof(expect),
	    "error: work directory parent '%s' is a symlink; give the real path\n",
	    link);
	ck_assert_str_eq(buf, expect);

	strcat(link, "/");
	check_create_fails(link, -ELOOP);
	fmt(link, sizeof(link), "%s/link-to-file", s.root);
	ck_assert_int_eq(symlink(s.canary, link), 0);
	check_create_fails(link, -ELOOP);
	ck_assert_int_eq(count_entries(s.parent), 1);
}
END_TEST

START_TEST(test_workdir_create_messages)
{
	char path[PATH_MAX], buf[PATH_MAX * 2], expect[PATH_MAX * 2];
	const char *out;
	int saved;

	fmt(path, sizeof(path), "%s/missing", s.root);
	out = capture_stderr_begin(&saved);
	check_create_fails(path, -ENOENT);
	check_create_fails(s.canary, -ENOTDIR);
	capture_stderr_end(saved, out, buf, sizeof(buf));
	fmt(expect, sizeof(expect),
	    "error: work directory parent '%s' does not exist\n"
	    "error: work directory parent '%s' is not a directory\n",
	    path, s.canary);
	ck_assert_str_eq(buf, expect);
}
END_TEST

START_TEST(test_workdir_remove_tree)
{
	struct workdir wd;
	char path[PATH_MAX];
	int fds = count_fds();

	create_wd(&wd);
	build_tree(&wd);
	fmt(path, sizeof(path), "%s", wd.path);
	ck_assert_int_eq(workdir_remove(&wd, NULL), 0);
	ck_assert(!exists(path));
	ck_assert_int_eq(count_entries(s.parent), 1);
	ck_assert_int_eq(count_fds(), fds);
	assert_canaries();
}
END_TEST

START_TEST(test_workdir_mkdir_clear)
{
	struct workdir wd;
	struct stat st;
	char path[PATH_MAX];
	int fd = -1, fd2 = -1;

	create_wd(&wd);
	ck_assert_int_eq(workdir_mkdir(&wd, "clients/client0/d/d", &fd), 0);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fstat(fd, &st), 0);
	ck_assert(S_ISDIR(st.st_mode));
	ck_assert(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	write_file(fd, "file", "x");
	fmt(path, sizeof(path), "%s/clients/client0/d/d/file", wd.path);
	ck_assert(exists(path));
	ck_assert_int_eq(symlinkat(s.outside, fd, "out"), 0);
	ck_assert_int_eq(linkat(AT_FDCWD, s.canary, fd, "hard", 0), 0);
	close(fd);

	ck_assert_int_eq(workdir_mkdir(&wd, "clients/client0/d/d", &fd2), 0);
	ck_assert_int_ge(fd2, 0);
	ck_assert_int_eq(fstat(fd2, &st), 0);
	close(fd2);
	ck_assert_int_eq(workdir_mkdir(&wd, "clients//client1/", NULL), 0);
	ck_assert(exists_at(wd.fd, "clients/client1"));

	ck_assert_int_eq(workdir_clear(&wd, "clients/client1", NULL), 0);
	ck_assert(!exists_at(wd.fd, "clients/client1"));
	ck_assert(exists_at(wd.fd, "clients/client0/d/d/file"));

	ck_assert_int_eq(workdir_clear(&wd, "clients", NULL), 0);
	ck_assert(!exists_at(wd.fd, "clients"));
	ck_assert(exists_at(wd.fd, WORKDIR_MARKER));
	ck_assert_int_eq(count_entries(wd.path), 1);
	ck_assert_int_eq(workdir_clear(&wd, "clients", NULL), -ENOENT);
	ck_assert_int_eq(workdir_clear(&wd, "clients/x/y", NULL), -ENOENT);
	assert_canaries();

	write_file(wd.fd, "plain", "x");
	ck_assert_int_eq(workdir_clear(&wd, "plain", NULL), 0);
	ck_assert(!exists_at(wd.fd, "plain"));

	ck_assert_int_eq(workdir_remove(&wd, NULL), 0);
	assert_canaries();
}
END_TEST

START_TEST(test_workdir_mkdir_invalid)
{
	static const char *const bad[] = {
		/* climbing out */
		"..",
		"../x",
		"a/../b",
		"a/..",
		/* absolute */
		"/abs",
		"/tmp/x",
		"/",
		"//",
		/* empty, or "." */
		"",
		".",
		"./a",
		"a/./b",
	};
	struct workdir wd;
	size_t i;
	int fd;

	create_wd(&wd);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		fd = -1;
		ck_assert_msg(workdir_mkdir(&wd, bad[i], &fd) == -EINVAL,
			      "mkdir '%s'", bad[i]);
		ck_assert_int_eq(fd, -1);
		ck_assert_msg(workdir_clear(&wd, bad[i], NULL) == -EINVAL,
			      "clear '%s'", bad[i]);
	}
	ck_assert_int_eq(workdir_clear(&wd, WORKDIR_MARKER, NULL), -EINVAL);
	ck_assert(exists_at(wd.fd, WORKDIR_MARKER));
	ck_assert_int_eq(count_entries(wd.path), 1);
	ck_assert_int_eq(count_entries(s.parent), 2);
	ck_assert_int_eq(count_entries(s.root), 2);
	ck_assert_int_eq(workdir_remove(&wd, NULL), 0);
	assert_canaries();
}
END_TEST

/* A symlink inside the work directory is never followed by mkdir or clear. */
START_TEST(test_workdir_mkdir_symlink)
{
	struct workdir wd;
	int err;

	create_wd(&wd);
	ck_assert_int_eq(symlinkat(s.outside, wd.fd, "esc"), 0);
	ck_assert_int_eq(symlinkat(s.outside_canary, wd.fd, "esc-file"), 0);

	err = workdir_mkdir(&wd, "esc/sub", NULL);
	ck_assert_msg(err == -ELOOP || err == -ENOTDIR, "mkdir: %d", err);
	err = workdir_mkdir(&wd, "esc", NULL);
	ck_assert_msg(err == -ELOOP || err == -ENOTDIR, "mkdir: %d", err);
	err = workdir_mkdir(&wd, "esc-file/sub", NULL);
	ck_assert_msg(err == -ELOOP || err == -ENOTDIR, "mkdir: %d", err);
	err = workdir_clear(&wd, "esc/canary", NULL);
	ck_assert_msg(err == -ELOOP || err == -ENOTDIR, "clear: %d", err);
	assert_canaries();

	ck_assert_int_eq(workdir_clear(&wd, "esc", NULL), 0);
	ck_assert_int_eq(workdir_clear(&wd, "esc-file", NULL), 0);
	ck_assert(!exists_at(wd.fd, "esc"));
	assert_canaries();
	ck_assert_int_eq(workdir_remove(&wd, NULL), 0);
	assert_canaries();
}
END_TEST

START_TEST(test_workdir_remove_renamed)
{
	struct workdir wd;
	char moved[PATH_MAX], path[PATH_MAX];
	int fds = count_fds();

	create_wd(&wd);
	build_tree(&wd);
	fmt(moved, sizeof(moved), "%s/moved", s.root);
	fmt(path, sizeof(path), "%s", wd.path);
	ck_assert_int_eq(rename(wd.path, moved), 0);

	ck_assert_int_eq(workdir_remove(&wd, NULL), -ESTALE);
	ck_assert_int_ge(wd.fd, 0);
	ck_assert_str_eq(wd.path, path);
	ck_assert(!exists(path));
	ck_assert_int_eq(chdir(moved), 0);
	ck_assert(exists(WORKDIR_MARKER));
	ck_assert(exists("f1"));
	ck_assert(exists("d1/d2/d3/f3"));
	ck_assert(exists("d1/link-dir"));
	ck_assert(exists("wide/f299"));
	ck_assert_int_eq(chdir("/"), 0);
	workdir_release(&wd);
	ck_assert_int_eq(wd.fd, -1);
	workdir_release(&wd);
	ck_assert_int_eq(count_fds(), fds);
	ck_assert(exists(moved));
}
END_TEST

START_TEST(test_workdir_remove_replaced)
{
	struct workdir wd;
	char moved[PATH_MAX], path[PATH_MAX];

	create_wd(&wd);
	build_tree(&wd);
	fmt(moved, sizeof(moved), "%s/moved", s.root);
	ck_assert_int_eq(rename(wd.path, moved), 0);
	ck_assert_int_eq(mkdir(wd.path, 0755), 0);
	fmt(path, sizeof(path), "%s/" WORKDIR_MARKER, wd.path);
	ck_assert_int_eq(close(creat(path, 0644)), 0);

	ck_assert_int_eq(workdir_remove(&wd, NULL), -ESTALE);
	ck_assert(exists(path));
	fmt(path, sizeof(path), "%s/f1", moved);
	ck_assert(exists(path));
	workdir_release(&wd);

	/* The same with a symlink put in its place. */
	create_wd(&wd);
	fmt(path, sizeof(path), "%s/moved2", s.root);
	ck_assert_int_eq(rename(wd.path, path), 0);
	ck_assert_int_eq(symlink(path, wd.path), 0);
	ck_assert_int_eq(workdir_remove(&wd, NULL), -ESTALE);
	fmt(path, sizeof(path), "%s/moved2/" WORKDIR_MARKER, s.root);
	ck_assert(exists(path));
	workdir_release(&wd);
	assert_canaries_links(2);
}
END_TEST

START_TEST(test_workdir_remove_vanished)
{
	struct workdir wd;

	create_wd(&wd);
	build_tree(&wd);
	remove_tree(wd.path);
	ck_assert(!exists(wd.path));
	ck_assert_int_eq(workdir_remove(&wd, NULL), -ENOENT);
	workdir_release(&wd);
	assert_canaries();
}
END_TEST

START_TEST(test_workdir_remove_no_marker)
{
	struct workdir wd;

	create_wd(&wd);
	build_tree(&wd);
	ck_assert_int_eq(unlinkat(wd.fd, WORKDIR_MARKER, 0), 0);
	ck_assert_int_eq(workdir_remove(&wd, NULL), -ESTALE);
	ck_assert(exists_at(wd.fd, "d1/d2/d3/f3"));
	ck_assert(exists(wd.path));
	workdir_release(&wd);
	assert_canaries_links(2);
}
END_TEST

/*
 * Another instance's directory inside a run's tree: the run's removal and
 * then the whole work directory's meet it, and say so once, not twice.
 */
START_TEST(test_workdir_foreign_marker_once)
{
	struct workdir wd;
	struct capture c;
	char *text, *at;
	int fd, n = 0;

	create_wd(&wd);
	ck_assert_int_eq(workdir_mkdir(&wd, "run0/inner", NULL), 0);
	fd = openat(wd.fd, "run0/inner/" WORKDIR_MARKER,
		    O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	ck_assert_int_ge(fd, 0);
	close(fd);
	capture_start(&c);
	ck_assert_int_eq(workdir_clear(&wd, "run0", NULL), -EBUSY);
	ck_assert_int_ne(workdir_remove(&wd, NULL), 0);
	text = capture_end(&c);
	for (at = text; (at = strstr(at, "holds another vfsbench instance"));
	     at++)
		n++;
	ck_assert_int_eq(n, 1);
	free(text);
	ck_assert(exists_at(wd.fd, "run0/inner/" WORKDIR_MARKER));
	/* this test's own cleanup: the marker goes, then the tree */
	ck_assert_int_eq(unlinkat(wd.fd, "run0/inner/" WORKDIR_MARKER, 0), 0);
	ck_assert_int_eq(workdir_remove(&wd, NULL), 0);
	workdir_release(&wd);
}
END_TEST

/* Rank 0's work directory, found by another rank through a shared -D. */
START_TEST(test_workdir_attach)
{
	struct workdir wd, other;
	char path[PATH_MAX];

	create_wd(&wd);
	build_tree(&wd);
	ck_assert_int_eq(workdir_attach(&other, s.parent, wd.name, wd.id), 0);
	ck_assert(other.attached);
	ck_assert(!wd.attached);
	ck_assert_str_eq(other.path, wd.path);
	ck_assert(other.dev == wd.dev && other.ino == wd.ino);
	/* it works inside, and removes nothing of it */
	ck_assert_int_eq(workdir_mkdir(&other, "run0/clients/client1", NULL),
			 0);
	ck_assert_int_eq(workdir_remove(&other, NULL), 0);
	ck_assert_int_eq(other.fd, -1);
	ck_assert(exists_at(wd.fd, "d1/d2/d3/f3"));
	ck_assert(exists_at(wd.fd, "run0/clients/client1"));
	ck_assert(exists_at(wd.fd, WORKDIR_MARKER));
	fmt(path, sizeof(path), "%s", wd.path);
	ck_assert_int_eq(workdir_remove(&wd, NULL), 0);
	ck_assert(!exists(path));
	ck_assert_int_eq(count_entries(s.parent), 1);
	assert_canaries();
}
END_TEST

/* Not found: another id, another name, a symlink, no marker: -ENOENT. */
/* workdir_remove() with its messages captured. */
static int remove_quiet(struct workdir *wd)
{
	struct capture c;
	int ret;

	capture_start(&c);
	ret = workdir_remove(wd, NULL);
	free(capture_end(&c));
	return ret;
}

START_TEST(test_workdir_attach_not_there)
{
	struct workdir wd, other;
	char id[WORKDIR_ID_LEN], link[PATH_MAX];

	create_wd(&wd);
	fmt(id, sizeof(id), "%s", wd.id);
	id[0] = id[0] == '0' ? '1' : '0';
	ck_assert_int_eq(workdir_attach(&other, s.parent, wd.name, id),
			 -ENOENT);
	ck_assert_int_eq(other.fd, -1);
	ck_assert(!other.attached);
	ck_assert_int_eq(
		workdir_attach(&other, s.parent, "vfsbench.nope", wd.id),
		-ENOENT);
	fmt(link, sizeof(link), "%s/vfsbench.link", s.parent);
	ck_assert_int_eq(symlink(wd.path, link), 0);
	ck_assert_int_eq(
		workdir_attach(&other, s.parent, "vfsbench.link", wd.id),
		-ENOENT);
	ck_assert_int_eq(unlink(link), 0);
	/* a -D that is not there is the usual usage error */
	ck_assert_int_eq(
		workdir_attach(&other, s.outside_canary, wd.name, wd.id),
		-ENOTDIR);
	ck_assert_int_eq(unlinkat(wd.fd, WORKDIR_MARKER, 0), 0);
	ck_assert_int_eq(workdir_attach(&other, s.parent, wd.name, wd.id),
			 -ENOENT);
	/* a marker that does not name us: not ours to remove */
	write_file(wd.fd, WORKDIR_MARKER, "vfsbench work directory\n");
	ck_assert_int_eq(remove_quiet(&wd), -ESTALE);
	ck_assert_int_eq(unlinkat(wd.fd, WORKDIR_MARKER, 0), 0);
	ck_assert_int_eq(marker_write(wd.fd, wd.path, wd.id), 0);
	ck_assert_int_eq(workdir_remove(&wd, NULL), 0);
	assert_canaries();
}
END_TEST

START_TEST(test_workdir_abort)
{
	static volatile int flag;
	struct workdir wd;
	char buf[256];
	const char *out;
	int saved;

	create_wd(&wd);
	build_tree(&wd);
	flag = 1;
	out = capture_stderr_begin(&saved);
	ck_assert_int_eq(workdir_clear(&wd, "d1", &flag), -EINTR);
	ck_assert_int_eq(workdir_remove(&wd, &flag), -EINTR);
	capture_stderr_end(saved, out, buf, sizeof(buf));
	ck_assert_str_eq(buf, "");
	ck_assert(exists(wd.path));
	ck_assert(exists_at(wd.fd, WORKDIR_MARKER));
	ck_assert(exists_at(wd.fd, "f1"));
	ck_assert(exists_at(wd.fd, "d1/d2/d3/f3"));
	ck_assert_int_ge(wd.fd, 0);
	assert_canaries_links(2);

	flag = 0;
	ck_assert_int_eq(workdir_remove(&wd, &flag), 0);
	ck_assert_int_eq(count_entries(s.parent), 1);
	assert_canaries();
}
END_TEST

START_TEST(test_workdir_release)
{
	struct workdir wd;
	char path[PATH_MAX];
	int fds = count_fds();

	create_wd(&wd);
	build_tree(&wd);
	fmt(path, sizeof(path), "%s/d1/d2/d3/f3", wd.path);
	workdir_release(&wd);
	workdir_release(&wd);
	ck_assert(exists(path));
	ck_assert_int_eq(count_fds(), fds);
}
END_TEST

#define DEEP_LEVELS 4096

/* A chain of `levels` directories "d" in dirfd, a file at the bottom. */
static void make_chain(int dirfd, int levels)
{
	int fd = dup(dirfd), next, i;

	ck_assert_int_ge(fd, 0);
	for (i = 0; i < levels; i++) {
		ck_assert_int_eq(mkdirat(fd, "d", 0755), 0);
		next = openat(fd, "d", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		ck_assert_int_ge(next, 0);
		close(fd);
		fd = next;
	}
	write_file(fd, "bottom", "x");
	ck_assert_int_eq(symlinkat(s.outside, fd, "out"), 0);
	close(fd);
}

/*
 * 4096 levels with RLIMIT_NOFILE at 128: removal must not hold one fd per
 * level. A second tree goes deep and then fans out, so closed frames are
 * reopened through ".." many times.
 */
START_TEST(test_workdir_deep)
{
	struct rlimit rl;
	struct workdir wd;
	char name[16];
	int fd, next, sub, i, fds;

	create_wd(&wd);
	ck_assert_int_eq(workdir_mkdir(&wd, "deep", &fd), 0);
	make_chain(fd, DEEP_LEVELS);
	close(fd);

	ck_assert_int_eq(workdir_mkdir(&wd, "fan", &fd), 0);
	make_chain(fd, 40);
	close(fd);
	fd = openat(wd.fd, "fan", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	for (i = 0; i < 40; i++) {
		next = openat(fd, "d", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		ck_assert_int_ge(next, 0);
		close(fd);
		fd = next;
		if (i >= 30) {
			fmt(name, sizeof(name), "x%d", i);
			ck_assert_int_eq(mkdirat(fd, name, 0755), 0);
			sub = openat(fd, name, O_RDONLY | O_DIRECTORY);
			make_chain(sub, 5);
			close(sub);
		}
	}
	close(fd);

	fds = count_fds();
	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &rl), 0);
	rl.rlim_cur = 128;
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &rl), 0);
	ck_assert_int_eq(workdir_clear(&wd, "fan", NULL), 0);
	ck_assert(!exists_at(wd.fd, "fan"));
	ck_assert_int_eq(workdir_remove(&wd, NULL), 0);
	ck_assert_int_eq(count_entries(s.parent), 1);
	ck_assert_int_eq(count_fds(), fds - 2);
	assert_canaries();
}
END_TEST

/*
 * Mounts inside the work directory are left in place: a tmpfs (another
 * st_dev) and a bind mount of the outside directory (same st_dev, told
 * apart by the mount id). Needs CAP_SYS_ADMIN: skipped, with the reason,
 * without.
 */
START_TEST(test_workdir_mount)
{
	struct workdir wd;
	char tmpfs[PATH_MAX], bind[PATH_MAX], path[PATH_MAX];
	int err;

	if (unshare(CLONE_NEWNS) ||
	    mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL))
		UNIT_SKIP("no mount namespace (needs CAP_SYS_ADMIN): %s",
			  strerror(errno));
	create_wd(&wd);
	build_tree(&wd);
	ck_assert_int_eq(workdir_mkdir(&wd, "m/tmpfs", NULL), 0);
	ck_assert_int_eq(workdir_mkdir(&wd, "m/bind", NULL), 0);
	fmt(tmpfs, sizeof(tmpfs), "%s/m/tmpfs", wd.path);
	fmt(bind, sizeof(bind), "%s/m/bind", wd.path);
	ck_assert_int_eq(mount("none", tmpfs, "tmpfs", 0, NULL), 0);
	fmt(path, sizeof(path), "%s/file", tmpfs);
	ck_assert_int_eq(close(creat(path, 0644)), 0);
	ck_assert_int_eq(mount(s.outside, bind, "none", MS_BIND, NULL), 0);

	err = workdir_clear(&wd, "m/bind", NULL);
	ck_assert_int_eq(err, -EXDEV);
	ck_assert_int_eq(workdir_remove(&wd, NULL), -EXDEV);
	ck_assert(exists(path));
	assert_canaries();
	ck_assert(!exists_at(wd.fd, "f1"));
	ck_assert(!exists_at(wd.fd, "d1"));
	ck_assert(exists_at(wd.fd, WORKDIR_MARKER));
	ck_assert_int_eq(count_entries(wd.path), 2);

	ck_assert_int_eq(umount(tmpfs), 0);
	ck_assert_int_eq(umount(bind), 0);
	ck_assert_int_eq(workdir_remove(&wd, NULL), 0);
	ck_assert_int_eq(count_entries(s.parent), 1);
	assert_canaries();
}
END_TEST

static Suite *workdir_suite(void)
{
	Suite *suite = suite_create("workdir");
	TCase *tc = tcase_create("workdir");

	tcase_add_checked_fixture(tc, scratch_setup, scratch_teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_workdir_create_layout);
	tcase_add_test(tc, test_workdir_create_unique);
	tcase_add_test(tc, test_workdir_create_trailing_slash);
	tcase_add_test(tc, test_workdir_create_missing);
	tcase_add_test(tc, test_workdir_create_file);
	tcase_add_test(tc, test_workdir_create_symlink);
	tcase_add_test(tc, test_workdir_create_messages);
	tcase_add_test(tc, test_workdir_remove_tree);
	tcase_add_test(tc, test_workdir_mkdir_clear);
	tcase_add_test(tc, test_workdir_mkdir_invalid);
	tcase_add_test(tc, test_workdir_mkdir_symlink);
	tcase_add_test(tc, test_workdir_remove_renamed);
	tcase_add_test(tc, test_workdir_remove_replaced);
	tcase_add_test(tc, test_workdir_remove_vanished);
	tcase_add_test(tc, test_workdir_remove_no_marker);
	tcase_add_test(tc, test_workdir_foreign_marker_once);
	tcase_add_test(tc, test_workdir_attach);
	tcase_add_test(tc, test_workdir_attach_not_there);
	tcase_add_test(tc, test_workdir_abort);
	tcase_add_test(tc, test_workdir_release);
	tcase_add_test(tc, test_workdir_deep);
	tcase_add_test(tc, test_workdir_mount);
	suite_add_tcase(suite, tc);
	return suite;
}

int main(void)
{
	return unit_main(workdir_suite());
}
