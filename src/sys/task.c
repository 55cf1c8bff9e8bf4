/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The state of one of our threads, as /proc shows it.
 */
#include <config.h>
#include "sys/task.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The first @len - 1 bytes of a /proc file, NUL-terminated; 0 or -1. */
static int read_proc(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static const char *state_name(char s)
{
	switch (s) {
	case 'R':
		return "running";
	case 'S':
		return "sleeping";
	case 'D':
		return "uninterruptible sleep";
	case 'T':
		return "stopped";
	case 't':
		return "traced";
	case 'Z':
		return "zombie";
	default:
		return "unknown";
	}
}

char *task_describe(int tid, char *buf, size_t len)
{
	char path[64], stat[512], wchan[128];
	const char *paren;
	char state = '?';

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	/* "TID (comm) S ...": the comm may hold spaces and parentheses */
	if (!read_proc(path, stat, sizeof(stat)) &&
	    (paren = strrchr(stat, ')')) && paren[1] == ' ')
		state = paren[2];
	snprintf(path, sizeof(path), "/proc/self/task/%d/wchan", tid);
	if (read_proc(path, wchan, sizeof(wchan)) || !wchan[0] ||
	    !strcmp(wchan, "0"))
		snprintf(buf, len, "state %c (%s)", state, state_name(state));
	else
		snprintf(buf, len, "state %c (%s), waiting in %s", state,
			 state_name(state), wchan);
	return buf;
}
