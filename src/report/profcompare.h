/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_REPORT_PROFCOMPARE_H
#define VB_REPORT_PROFCOMPARE_H

struct profdiff;

/* vfsbench compare's table of profile shares, after its own; nothing
 * when neither file has profiles at a common client count. */
void report_profdiff(const struct profdiff *pd);

#endif /* VB_REPORT_PROFCOMPARE_H */
