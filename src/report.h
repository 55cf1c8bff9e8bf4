/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_REPORT_H
#define VB_REPORT_H

struct config;
struct loadfile;
struct run;
struct sweep;
struct workdir;

/*
 * The human report on stdout, the only place results are written. Each
 * run ends with dbench's final line,
 * "Throughput X MB/sec  N clients  N procs  max_latency=Y ms",
 * spaced exactly as dbench prints it, for existing harness parsers.
 */
void report_header(const struct config *cfg, const struct loadfile *lf,
		   const struct workdir *wd);
void report_run(const struct run *run);
/* The sweep table; printed when two or more runs were measured. */
void report_sweep(const struct sweep *sw);

#endif /* VB_REPORT_H */
