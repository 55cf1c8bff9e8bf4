/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_BASE_UTF8_H
#define VB_BASE_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Bytes that are meant to be text but may not be: names and paths the
 * user gave, a loadfile's tokens, what /proc says.
 */

/*
 * Length of the valid UTF-8 sequence of 2 to 4 bytes at @s (RFC 3629: no
 * overlong forms, surrogates or values above U+10FFFF), or 0; also 0 for
 * the C1 controls U+0080 to U+009F, which some terminals obey.
 */
size_t utf8_seq(const unsigned char *s);

/* utf8_seq(), and 2 for a C1 control: a valid sequence, or 0. */
size_t utf8_valid_seq(const unsigned char *s);

/* Is @s valid UTF-8 (C1 controls included, which are valid)? */
bool utf8_valid(const char *s);

#endif /* VB_BASE_UTF8_H */
