/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_REPORT_GNUPLOT_H
#define VB_REPORT_GNUPLOT_H

#include <stddef.h>
#include <stdio.h>

/* @s as a gnuplot string, escaped so that nothing in it is parsed */
void gnuplot_string(FILE *out, const char *s);
/* a log y axis over [@bottom, @top], with room at each end */
void gnuplot_log_yrange(FILE *out, double bottom, double top);
/*
 * A script in memory (*@buf, *@len once ended), opening with the encoding
 * and the terminal of @output's suffix, @w x @h pixels.
 */
FILE *gnuplot_begin(char **buf, size_t *len, const char *output, unsigned int w,
		    unsigned int h);
void gnuplot_end(FILE *out);
/*
 * Draw @script (@len bytes, freed) into @output, a result file
 * (workdir/outfile.h): a regular file through a temporary file renamed when
 * gnuplot succeeded, anything else written into. 0, or -1 with a message
 * (gnuplot missing: how to install it).
 */
int gnuplot_draw(char *script, size_t len, const char *output);

#endif /* VB_REPORT_GNUPLOT_H */
