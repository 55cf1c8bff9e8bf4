/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * t1004's program of known calls: what vfsbench record must find, line by
 * line, in tests/data/record/known.expect. Run in the root; argv[1] is a
 * file outside it, which it appends a byte to.
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct stat st;
	char buf[100];
	int fd;

	if (mkdir("d", 0755))
		return 1;
	fd = open("d/f", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, "hello", 5) != 5 || close(fd))
		return 1;
	if (stat("d/f", &st) || !stat("missing", &st))
		return 1;
	fd = open("data", O_RDONLY);
	if (fd < 0 || read(fd, buf, sizeof(buf)) != 10 || close(fd))
		return 1;
	if (access("data", R_OK) || lstat("link", &st))
		return 1;
	if (rename("d/f", "d/g") || unlink("d/g") || rmdir("d"))
		return 1;
	/* outside the root: dropped, and never touched by the replay */
	if (argc > 1) {
		if (stat(argv[1], &st) || access(argv[1], W_OK))
			return 1;
		fd = open(argv[1], O_WRONLY | O_APPEND);
		if (fd < 0 || write(fd, "x", 1) != 1 || close(fd))
			return 1;
	}
	return 0;
}
