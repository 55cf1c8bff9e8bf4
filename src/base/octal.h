/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_BASE_OCTAL_H
#define VB_BASE_OCTAL_H

/*
 * Undo the octal escapes (\040 for a space) of /proc/self/mounts and
 * mountinfo, in place.
 */
void unescape_octal(char *s);

#endif /* VB_BASE_OCTAL_H */
