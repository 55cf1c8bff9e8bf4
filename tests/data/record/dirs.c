/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * t1006's program that reads a directory twice: with opendir(3) and
 * readdir(3), which glibc makes getdents64 calls of 32 KiB, and with
 * getdents64 called directly with a buffer of 4 KiB. Run in the root,
 * which holds the directory "d" of two files.
 */
#include <dirent.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	char buf[4096];
	DIR *dir;
	long n;
	int fd, seen = 0;

	dir = opendir("d");
	if (!dir)
		return 1;
	while (readdir(dir))
		seen++;
	if (closedir(dir) || seen != 4)
		return 1;
	fd = open("d", O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return 1;
	do {
		n = syscall(SYS_getdents64, fd, buf, sizeof(buf));
	} while (n > 0);
	return n < 0 || close(fd) ? 1 : 0;
}
