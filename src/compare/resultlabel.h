/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_COMPARE_RESULTLABEL_H
#define VB_COMPARE_RESULTLABEL_H

/*
 * The labels of result files (resultlabel.c; resultfile_labels() is
 * declared in resultfile.h): what the readers need to give an entry
 * its first label.
 */

/*
 * @label escaped as labels are shown (base/escape.h); frees @label and
 * returns a new string.
 */
char *resultlabel_sanitize(char *label);

/* The basename of @path without ".json", sanitized (allocated). */
char *resultlabel_base(const char *path);

#endif /* VB_COMPARE_RESULTLABEL_H */
