/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_BASE_LABEL_H
#define VB_BASE_LABEL_H

/*
 * Make @n labels (each malloc'ed) unique the way tables of vfsbench name
 * their columns: a label equal to an earlier one gets "#N", N its own
 * position from 1 ("statfs", "statfs#2"). Labels are replaced in place.
 */
void label_number_repeats(char **label, unsigned int n);

#endif /* VB_BASE_LABEL_H */
