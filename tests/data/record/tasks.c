/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * t1006's program of two tasks: the parent stats and forks, the child
 * opens, reads and closes a file and lstats a link, the parent waits and
 * then checks access. Run in the root, which holds "a" (10 bytes) and
 * the symlink "b". Each task's calls are fixed, so each [run N] stream
 * of vfsbench record --tasks-as-clients is known line by line.
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
	struct stat st;
	char buf[100];
	int fd, status;
	pid_t pid;

	if (stat("a", &st) || !stat("missing", &st))
		return 1;
	pid = fork();
	if (pid < 0)
		return 1;
	if (!pid) {
		fd = open("a", O_RDONLY);
		if (fd < 0 || read(fd, buf, sizeof(buf)) != 10 || close(fd))
			_exit(1);
		_exit(lstat("b", &st) ? 1 : 0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return 1;
	return access("a", R_OK) ? 1 : 0;
}
