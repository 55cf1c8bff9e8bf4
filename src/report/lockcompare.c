/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The top locks of two files' profiles side by side: how often each lock
 * caller was contended and how long it waited in all, per client count.
 */
#include <config.h>
#include "report/lockcompare.h"

#include <stdio.h>

#include "compare/lockdiff.h"

/* @ns as perf prints a time: "20.19 ms", "850 ns". */
static const char *fmt_ns(double ns, char *buf, size_t len)
{
	if (ns >= 1e9)
		snprintf(buf, len, "%.2f s", ns / 1e9);
	else if (ns >= 1e6)
		snprintf(buf, len, "%.2f ms", ns / 1e6);
	else if (ns >= 1e3)
		snprintf(buf, len, "%.2f us", ns / 1e3);
	else
		snprintf(buf, len, "%.0f ns", ns);
	return buf;
}

void report_lockdiff(const struct lockdiff *ld)
{
	char wa[32], wb[32];

	if (!ld->nrows && !ld->nnotes)
		return;
	printf("\nTop locks (perf lock contention), '%s' against '%s'\n",
	       ld->label_a, ld->label_b);
	printf("(counts of one run a side, not tested; - not among the file's listed ones)\n");
	printf("%7s  %-32s %-9s %10s %10s %11s %11s\n", "Clients", "Caller",
	       "type", "contended", "contended", "total wait", "total wait");
	printf("%7s  %-32s %-9s %10.10s %10.10s %11.11s %11.11s\n", "", "", "",
	       ld->label_a, ld->label_b, ld->label_a, ld->label_b);
	for (unsigned int i = 0; i < ld->nrows; i++) {
		const struct lockdiff_row *r = &ld->rows[i];
		char ca[24] = "-", cb[24] = "-";

		if (r->known_a)
			snprintf(ca, sizeof(ca), "%llu",
				 (unsigned long long)r->contended_a);
		if (r->known_b)
			snprintf(cb, sizeof(cb), "%llu",
				 (unsigned long long)r->contended_b);
		printf("%7u  %-32.32s %-9.9s %10s %10s %11s %11s\n", r->clients,
		       r->caller, r->type, ca, cb,
		       r->known_a ? fmt_ns(r->wait_a, wa, sizeof(wa)) : "-",
		       r->known_b ? fmt_ns(r->wait_b, wb, sizeof(wb)) : "-");
	}
	for (unsigned int i = 0; i < ld->nnotes; i++) {
		const struct lockdiff_note *n = &ld->notes[i];

		if (n->absent_a)
			printf("%7u  '%s': no locks (%s)\n", n->clients,
			       ld->label_a, n->absent_a);
		if (n->absent_b)
			printf("%7u  '%s': no locks (%s)\n", n->clients,
			       ld->label_b, n->absent_b);
	}
}
