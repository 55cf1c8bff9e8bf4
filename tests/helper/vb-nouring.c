/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vb-nouring SYSCALL ERRNO COMMAND...: run COMMAND with SYSCALL
 * (io_uring_setup or io_uring_register) failing with ERRNO (a number)
 * under a seccomp filter, for the tests of -e uring's refusals: what a
 * kernel with io_uring disabled (EPERM), without it (ENOSYS) or without
 * the setup flags (EINVAL) answers, on a kernel that has them all.
 */
#include <config.h>

#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#	define VB_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#	define VB_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

int main(int argc, char **argv)
{
	long nr;
	int err;

	if (argc < 4) {
		fprintf(stderr, "usage: vb-nouring SYSCALL ERRNO COMMAND...\n");
		return 2;
	}
	if (!strcmp(argv[1], "io_uring_setup"))
		nr = SYS_io_uring_setup;
	else if (!strcmp(argv[1], "io_uring_register"))
		nr = SYS_io_uring_register;
	else {
		fprintf(stderr, "vb-nouring: unknown system call '%s'\n",
			argv[1]);
		return 2;
	}
	err = atoi(argv[2]);
#ifdef VB_AUDIT_ARCH
	{
		struct sock_filter f[] = {
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
				 offsetof(struct seccomp_data, arch)),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, VB_AUDIT_ARCH, 1,
				 0),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
				 offsetof(struct seccomp_data, nr)),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned int)nr, 0,
				 1),
			BPF_STMT(BPF_RET | BPF_K,
				 SECCOMP_RET_ERRNO | ((unsigned int)err &
						      SECCOMP_RET_DATA)),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		};
		struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]),
					   .filter = f };

		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
		    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
			perror("vb-nouring: seccomp");
			return 3;
		}
	}
#else
	(void)nr;
	(void)err;
	fprintf(stderr,
		"vb-nouring: no seccomp filter for this architecture\n");
	return 3;
#endif
	execvp(argv[3], argv + 3);
	perror("vb-nouring: exec");
	return 3;
}
