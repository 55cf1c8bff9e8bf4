/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_BASE_JSONSTR_H
#define VB_BASE_JSONSTR_H

#include <jansson.h>

/*
 * JSON strings of any bytes. JSON text is UTF-8, and jansson refuses a
 * string that is not (json_string() returns NULL, and the member that
 * should hold it vanishes): a loadfile named "bad\xff.load", a -D with a
 * byte 0xff. A string that is valid UTF-8 is written as it is; any other
 * is written as U+0000 followed by escape_bytes() of its bytes ("\\" for
 * a backslash, "\xNN" for each byte that is not UTF-8). No C string holds
 * a NUL, so the marker cannot be mistaken for text; doc/json-schema.md
 * documents it for other readers.
 */

/* The JSON value for @s: a string, or null for NULL. */
json_t *jsonstr_new(const char *s);

/* The bytes of the string @v as written by jsonstr_new(), allocated
 * (free() it); NULL if @v is not a string. */
char *jsonstr_value(const json_t *v);

#endif /* VB_BASE_JSONSTR_H */
