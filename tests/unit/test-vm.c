/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for the vm layer's own formats: the newc cpio writer,
 * read back by cpio(1); a guest's paths; a bzImage's setup header and
 * release; the kernel config found and hashed; the end of a tool's
 * output. Output is TAP on stdout.
 */
#include <config.h>
#include "vm/cpio.h"
#include "vm/initramfs.h"
#include "vm/kimage.h"
#include "vm/tool.h"
#include "unit.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A fresh directory for a test's files. */
static char *scratch(void)
{
	char tmpl[] = "/tmp/vb-test-vm.XXXXXX";
	char *d = mkdtemp(tmpl);

	ck_assert_msg(d, "mkdtemp: %s", strerror(errno));
	return strdup(d);
}

static void rm_rf(const char *dir)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static void write_file(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	ck_assert_msg(fd >= 0, "%s: %s", path, strerror(errno));
	ck_assert_int_eq(write(fd, buf, len), (ssize_t)len);
	close(fd);
}

static char *read_text(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 65536);
	size_t n;

	ck_assert_msg(f, "%s: %s", path, strerror(errno));
	n = fread(buf, 1, 65535, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/*
 * An archive of every kind of entry, listed and unpacked by cpio(1):
 * what the kernel's unpacker reads is the format cpio -H newc writes.
 */
START_TEST(test_cpio_read_back)
{
	char *dir = scratch(), path[512], cmd[1024], *text;
	static const char data[] = "hello\n";
	char big[70000];
	struct cpio c;
	int fd, src;

	if (system("command -v cpio >/dev/null 2>&1"))
		UNIT_SKIP("no cpio(1) here");
	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (char)('a' + i % 26);
	snprintf(path, sizeof(path), "%s/src", dir);
	write_file(path, big, sizeof(big));
	src = open(path, O_RDONLY);
	snprintf(path, sizeof(path), "%s/a.cpio", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	ck_assert(fd >= 0 && src >= 0);
	cpio_init(&c, fd);
	ck_assert_int_eq(cpio_dir(&c, "d", 0755), 0);
	ck_assert_int_eq(cpio_data(&c, "d/hello", 0644, data, strlen(data)), 0);
	ck_assert_int_eq(cpio_copy(&c, "d/big", 0600, src, sizeof(big)), 0);
	ck_assert_int_eq(cpio_symlink(&c, "d/link", "hello"), 0);
	ck_assert_int_eq(cpio_data(&c, "odd-name-of-9", 0755, "", 0), 0);
	ck_assert_int_eq(cpio_finish(&c), 0);
	/* every entry starts on a 4-byte boundary, the archive ends on one */
	EXPECT_UINT("archive", c.off % 4, 0);
	close(fd);
	close(src);
	snprintf(
		cmd, sizeof(cmd),
		"cd '%s' && mkdir x && cd x && cpio -i --quiet <../a.cpio && "
		"stat -c '%%n %%F %%a %%s' d d/hello d/big d/link odd-name-of-9 "
		">../list && readlink d/link >>../list && "
		"cmp d/big ../src && cat d/hello >>../list",
		dir);
	ck_assert_int_eq(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/list", dir);
	text = read_text(path);
	EXPECT_STR("cpio -i", text,
		   "d directory 755 4096\n"
		   "d/hello regular file 644 6\n"
		   "d/big regular file 600 70000\n"
		   "d/link symbolic link 777 5\n"
		   "odd-name-of-9 regular empty file 755 0\n"
		   "hello\n"
		   "hello\n");
	free(text);
	rm_rf(dir);
	free(dir);
}
END_TEST

/* A write error is kept, and the later calls do nothing. */
START_TEST(test_cpio_error)
{
	struct cpio c;

	cpio_init(&c, -1);
	ck_assert_int_eq(cpio_dir(&c, "d", 0755), -EBADF);
	ck_assert_int_eq(cpio_data(&c, "f", 0644, "x", 1), -EBADF);
	EXPECT_UINT("after an error", c.off, 0);
}
END_TEST

struct path_case {
	const char *cwd, *name, *want;
};

static const struct path_case path_cases[] = {
	{ "/work/b", "x.load", "/work/b/x.load" },
	{ "/work/b", "./x.load", "/work/b/x.load" },
	{ "/work/b", "../x.load", "/work/x.load" },
	{ "/work/b", "../../../../x", "/x" },
	{ "/work/b", "/abs/./y//z", "/abs/y/z" },
	{ "/work/b", "/abs/../y", "/y" },
	{ "/", "x", "/x" },
	{ "/", "..", "/" },
	{ "/a", "b/c/../d", "/a/b/d" },
};

START_TEST(test_guest_path)
{
	const struct path_case *pc = &path_cases[_i];
	char buf[64], ctx[128];

	snprintf(ctx, sizeof(ctx), "'%s' from '%s'", pc->name, pc->cwd);
	ck_assert_int_eq(
		initramfs_guest_path(pc->cwd, pc->name, buf, sizeof(buf)), 0);
	ck_assert_msg(!strcmp(buf, pc->want), "%s: \"%s\", want \"%s\"", ctx,
		      buf, pc->want);
}
END_TEST

START_TEST(test_guest_path_long)
{
	char buf[8];

	ck_assert_int_eq(
		initramfs_guest_path("/abc", "defgh", buf, sizeof(buf)),
		-ENAMETOOLONG);
}
END_TEST

/* A setup header as the boot protocol lays it out, with @version. */
static void fake_bzimage(const char *path, const char *version,
			 unsigned int protocol, bool sig, bool hdrs)
{
	static unsigned char buf[4096];

	memset(buf, 0, sizeof(buf));
	if (sig) {
		buf[0x1fe] = 0x55;
		buf[0x1ff] = 0xaa;
	}
	if (hdrs)
		memcpy(buf + 0x202, "HdrS", 4);
	buf[0x206] = protocol & 0xff;
	buf[0x207] = protocol >> 8;
	if (version) {
		/* kernel_version: the string's offset less 0x200 */
		buf[0x20e] = 0x400 & 0xff;
		buf[0x20f] = 0x400 >> 8;
		strcpy((char *)buf + 0x600, version);
	}
	write_file(path, buf, sizeof(buf));
}

START_TEST(test_kimage)
{
	char *dir = scratch(), path[512];
	struct capture cap;
	struct kimage k;
	char *err;

	snprintf(path, sizeof(path), "%s/vmlinuz", dir);
	fake_bzimage(path, "6.1.0-57-amd64 (debian-kernel@lists) #1 SMP", 0x20f,
		     true, true);
	ck_assert_int_eq(kimage_read(&k, path), 0);
	EXPECT_STR("release", k.release, "6.1.0-57-amd64");
	EXPECT_STR("version", k.version,
		   "6.1.0-57-amd64 (debian-kernel@lists) #1 SMP");
	EXPECT_UINT("protocol", k.protocol, 0x20f);

	fake_bzimage(path, "6.1", 0x20f, false, true);
	capture_start(&cap);
	ck_assert_int_eq(kimage_read(&k, path), -ENOEXEC);
	err = capture_end(&cap);
	ck_assert_ptr_nonnull(strstr(err, "(no boot sector signature)"));
	free(err);
	fake_bzimage(path, "6.1", 0x20f, true, false);
	capture_start(&cap);
	ck_assert_int_eq(kimage_read(&k, path), -ENOEXEC);
	err = capture_end(&cap);
	ck_assert_ptr_nonnull(strstr(err, "(no HdrS setup header)"));
	free(err);
	fake_bzimage(path, "6.1", 0x1ff, true, true);
	capture_start(&cap);
	ck_assert_int_eq(kimage_read(&k, path), -ENOEXEC);
	err = capture_end(&cap);
	ck_assert_ptr_nonnull(strstr(err, "(boot protocol before 2.00)"));
	free(err);
	fake_bzimage(path, NULL, 0x20f, true, true);
	capture_start(&cap);
	ck_assert_int_eq(kimage_read(&k, path), -ENOEXEC);
	err = capture_end(&cap);
	ck_assert_ptr_nonnull(strstr(err, "(no kernel version string)"));
	free(err);
	fake_bzimage(path, "../../etc #1", 0x20f, true, true);
	capture_start(&cap);
	ck_assert_int_eq(kimage_read(&k, path), -ENOEXEC);
	err = capture_end(&cap);
	ck_assert_ptr_nonnull(strstr(err, "(a release that is no name)"));
	free(err);
	rm_rf(dir);
	free(dir);
}
END_TEST

/* sha256("abc"), FIPS 180-2's first example. */
#define SHA_ABC \
	"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"

START_TEST(test_kimage_config)
{
	char *dir = scratch(), path[512], image[1024], hex[65], *found;
	struct kimage k;

	strcpy(k.release, "6.1.0-57-amd64");
	/* Debian's /boot: config-RELEASE beside vmlinuz-RELEASE */
	snprintf(image, sizeof(image), "%s/vmlinuz-6.1.0-57-amd64", dir);
	snprintf(path, sizeof(path), "%s/config-6.1.0-57-amd64", dir);
	write_file(path, "abc", 3);
	ck_assert_int_eq(kimage_config(&k, image, NULL, &found, hex), 0);
	ck_assert_str_eq(found, path);
	ck_assert_str_eq(hex, SHA_ABC);
	free(found);
	/* a tree: .config above arch/x86/boot/bzImage */
	snprintf(path, sizeof(path), "%s/linux/arch/x86/boot", dir);
	snprintf(image, sizeof(image), "mkdir -p '%s'", path);
	ck_assert_int_eq(system(image), 0);
	snprintf(image, sizeof(image), "%s/linux/arch/x86/boot/bzImage", dir);
	snprintf(path, sizeof(path), "%s/linux/.config", dir);
	write_file(path, "abc", 3);
	ck_assert_int_eq(kimage_config(&k, image, NULL, &found, hex), 0);
	ck_assert_str_eq(found, path);
	free(found);
	/* none */
	snprintf(image, sizeof(image), "%s/nothing/bzImage", dir);
	ck_assert_int_eq(kimage_config(&k, image, NULL, &found, hex), 0);
	ck_assert_ptr_null(found);
	ck_assert_str_eq(hex, "");
	rm_rf(dir);
	free(dir);
}
END_TEST

START_TEST(test_tool_tail)
{
	EXPECT_STR("two of three", vmtool_tail("a\nb\nc\n", 2), "b\nc\n");
	EXPECT_STR("no final newline", vmtool_tail("a\nb\nc", 1), "c");
	EXPECT_STR("more than there are", vmtool_tail("a\nb\n", 5), "a\nb\n");
	EXPECT_STR("empty", vmtool_tail("", 3), "");
}
END_TEST

static Suite *vm_suite(void)
{
	Suite *s = suite_create("vm");
	TCase *tc = tcase_create("vm");

	tcase_add_test(tc, test_cpio_read_back);
	tcase_add_test(tc, test_cpio_error);
	tcase_add_loop_test(tc, test_guest_path, 0,
			    sizeof(path_cases) / sizeof(path_cases[0]));
	tcase_add_test(tc, test_guest_path_long);
	tcase_add_test(tc, test_kimage);
	tcase_add_test(tc, test_kimage_config);
	tcase_add_test(tc, test_tool_tail);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_main(vm_suite());
}
