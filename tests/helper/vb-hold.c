/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vb-hold NAME DIR COMMAND...: run COMMAND with its first open(2) or
 * openat(2) of a path whose last component is NAME held before it runs:
 * DIR/held is made, then the open waits until DIR/go (a FIFO the test
 * made) has been opened and closed by a writer, and then runs as it
 * would have. A handshake with no timing in it, for the tests of what
 * vfsbench does when a tree changes between two of its calls (a
 * directory swapped for a symlink by another user): the test makes its
 * change while the open is held. Exits with COMMAND's status (128 + N
 * for a signal N), or 3 when it cannot set up.
 *
 * The open is held by a seccomp filter that hands open and openat to
 * this process (SECCOMP_RET_USER_NOTIF, Linux 5.5 for its CONTINUE), so
 * it works whatever calls the open: the C library, opendir(3), nftw(3).
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__x86_64__)
#	define VB_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#	define VB_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

#if defined(VB_AUDIT_ARCH) && defined(SECCOMP_USER_NOTIF_FLAG_CONTINUE)

static int fail(const char *what)
{
	fprintf(stderr, "vb-hold: %s: %s\n", what, strerror(errno));
	return 3;
}

/* The child: the filter, its listener sent to the parent, then exec. */
static int child(int sock, char **argv)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, VB_AUDIT_ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat, 2, 0),
#	ifdef SYS_open
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_open, 1, 0),
#	else
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat, 1, 0),
#	endif
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]),
				   .filter = f };
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	char byte = 0;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov,
			      .msg_iovlen = 1,
			      .msg_control = cbuf,
			      .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);
	int fd;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return fail("no_new_privs");
	fd = (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
			  SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
	if (fd < 0)
		return fail("seccomp");
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	if (sendmsg(sock, &msg, 0) != 1)
		return fail("sendmsg");
	close(fd);
	close(sock);
	execvp(argv[0], argv);
	return fail("exec");
}

static int receive_fd(int sock)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	char byte;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov,
			      .msg_iovlen = 1,
			      .msg_control = cbuf,
			      .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm;
	int fd;

	if (recvmsg(sock, &msg, 0) != 1)
		return -1;
	cm = CMSG_FIRSTHDR(&msg);
	if (!cm || cm->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
}

/* Does the open of @req name a path whose last component is @name? */
static int names(const struct seccomp_notif *req, const char *name)
{
	char mem[64], path[PATH_MAX];
	unsigned long long addr = req->data.nr == SYS_openat ?
					  req->data.args[1] :
					  req->data.args[0];
	const char *base;
	ssize_t n;
	int fd;

	snprintf(mem, sizeof(mem), "/proc/%u/mem", req->pid);
	fd = open(mem, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = pread(fd, path, sizeof(path) - 1, (off_t)addr);
	close(fd);
	if (n <= 0)
		return 0;
	path[n] = '\0';
	base = strrchr(path, '/');
	base = base ? base + 1 : path;
	return !strcmp(base, name);
}

/* DIR/held, then until a writer has opened and closed DIR/go. */
static int hold(const char *dir)
{
	char path[PATH_MAX], buf[64];
	int fd;

	snprintf(path, sizeof(path), "%s/held", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return fail(path);
	close(fd);
	snprintf(path, sizeof(path), "%s/go", dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail(path);
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	struct seccomp_notif_sizes sizes;
	struct seccomp_notif *req;
	struct seccomp_notif_resp *resp;
	int sv[2], fd, status, held = 0;
	pid_t pid;

	if (argc < 4) {
		fprintf(stderr, "usage: vb-hold NAME DIR COMMAND...\n");
		return 2;
	}
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return fail("socketpair");
	pid = fork();
	if (pid < 0)
		return fail("fork");
	if (!pid) {
		close(sv[0]);
		_exit(child(sv[1], argv + 3));
	}
	close(sv[1]);
	fd = receive_fd(sv[0]);
	close(sv[0]);
	if (fd < 0 ||
	    syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes)) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		return 3;
	}
	req = calloc(1, sizes.seccomp_notif);
	resp = calloc(1, sizes.seccomp_notif_resp);
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		if (poll(&p, 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (!(p.revents & POLLIN))
			break; /* POLLHUP: no task has the filter any more */
		memset(req, 0, sizes.seccomp_notif);
		if (ioctl(fd, SECCOMP_IOCTL_NOTIF_RECV, req))
			continue; /* the task went away meanwhile */
		if (!held && names(req, argv[1]) &&
		    !ioctl(fd, SECCOMP_IOCTL_NOTIF_ID_VALID, &req->id)) {
			held = 1;
			if (hold(argv[2]))
				kill(pid, SIGKILL);
		}
		memset(resp, 0, sizes.seccomp_notif_resp);
		resp->id = req->id;
		resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
		ioctl(fd, SECCOMP_IOCTL_NOTIF_SEND, resp);
	}
	free(req);
	free(resp);
	close(fd);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return fail("waitpid");
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

#else

int main(void)
{
	fprintf(stderr, "vb-hold: no seccomp user notification here\n");
	return 3;
}

#endif
