/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The octal escapes of the kernel's mount tables (/proc/self/mounts,
 * mountinfo), undone.
 */
#include <config.h>
#include "base/octal.h"

void unescape_octal(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 |
				      (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}
