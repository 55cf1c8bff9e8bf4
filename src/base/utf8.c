/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * UTF-8 sequences: what messages and result files need to tell text from
 * other bytes. Allocates nothing: msg.c uses it to report a failed
 * allocation.
 */
#include <config.h>
#include "base/utf8.h"

size_t utf8_seq(const unsigned char *s)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (s[0] == 0xc2)
		lo = 0xa0;
	else if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if ((s[i] & 0xc0) != 0x80) /* the NUL ends it too */
			return 0;
	return n;
}

size_t utf8_valid_seq(const unsigned char *s)
{
	if (s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f)
		return 2;
	return utf8_seq(s);
}

bool utf8_valid(const char *text)
{
	for (const unsigned char *s = (const unsigned char *)text; *s;) {
		size_t n = *s < 0x80 ? 1 : utf8_valid_seq(s);

		if (!n)
			return false;
		s += n;
	}
	return true;
}
