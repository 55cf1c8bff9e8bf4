/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_REPORT_LOCKCOMPARE_H
#define VB_REPORT_LOCKCOMPARE_H

struct lockdiff;

/*
 * vfsbench compare's table of top locks (compare/lockdiff.h), after the
 * profile shares; nothing when neither file recorded locks at a common
 * client count.
 */
void report_lockdiff(const struct lockdiff *ld);

#endif /* VB_REPORT_LOCKCOMPARE_H */
