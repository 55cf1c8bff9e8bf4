/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The batch's flush: out of the hot loop's line of code, once in
 * HIST_BATCH ops. (Keeping a histogram's count, sum, min and max in
 * registers over a run of entries of one slot was tried: no difference
 * in the null engine's cost per op, so the plain loop stays.)
 */
#include <config.h>
#include "stats/histbatch.h"

void hist_batch_flush(const struct hist_batch *b, unsigned int n,
		      struct hist *set)
{
	for (unsigned int i = 0; i < n; i++)
		hist_add(&set[b->slot[i]], b->ns[i]);
}
