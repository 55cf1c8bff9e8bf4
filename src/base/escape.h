/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_BASE_ESCAPE_H
#define VB_BASE_ESCAPE_H

/*
 * @s as one readable line, for a message or a report: control bytes (C0,
 * DEL, C1) and bytes that are not UTF-8 as \xNN. Allocated: free() it.
 */
char *escape_shown(const char *s);

/*
 * A reversible escape of any bytes into valid UTF-8: a backslash is
 * written "\\", a byte that is not part of a valid sequence "\xNN"
 * (lower-case hex), everything else as it is; unescape_bytes() undoes it.
 * Allocated: free() it. doc/json-schema.md describes the use in result
 * files.
 */
char *escape_bytes(const char *s);
char *unescape_bytes(const char *s);

#endif /* VB_BASE_ESCAPE_H */
