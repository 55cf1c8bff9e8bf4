/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The dbench personality's output (vfsbench(1), "dbench personality"):
 * the lines dbench prints, as its harnesses' parsers read them. The
 * formats are dbench 4.0's (child processes, per-second lines, cleanup,
 * the Operation table, the Throughput line) with upstream's additions
 * (--machine-readable, --show-execute-time, the table's SMB names).
 */
#include <config.h>
#include "report/report.h"

#include <stdio.h>

#include "base/compiler.h"
#include "lang/loadfile.h"
#include "run/client.h"
#include "run/run.h"
#include "run/state.h"

/*
 * The rows of dbench's table: 4.0's order and names (its op_names[], the
 * order of enum op_id), and upstream's (its fileio backend's ops[], named
 * by their loadfile keywords).
 */
static const enum op_id rows_40[] = {
	OP_DB_NTCREATEX, OP_DB_CLOSE,	OP_DB_RENAME,	 OP_DB_UNLINK,
	OP_DB_DELTREE,	 OP_DB_RMDIR,	OP_DB_MKDIR,	 OP_DB_QPATHINFO,
	OP_DB_QFILEINFO, OP_DB_QFSINFO, OP_DB_SFILEINFO, OP_DB_FIND,
	OP_DB_WRITEX,	 OP_DB_READX,	OP_DB_LOCKX,	 OP_DB_UNLOCKX,
	OP_DB_FLUSH,
};

static const struct {
	enum op_id id;
	const char *name;
} rows_upstream[] = {
	{ OP_DB_DELTREE, "Deltree" },
	{ OP_DB_FLUSH, "Flush" },
	{ OP_DB_CLOSE, "Close" },
	{ OP_DB_LOCKX, "LockX" },
	{ OP_DB_RMDIR, "Rmdir" },
	{ OP_DB_MKDIR, "Mkdir" },
	{ OP_DB_RENAME, "Rename" },
	{ OP_DB_READX, "ReadX" },
	{ OP_DB_WRITEX, "WriteX" },
	{ OP_DB_UNLINK, "Unlink" },
	{ OP_DB_UNLOCKX, "UnlockX" },
	{ OP_DB_FIND, "FIND_FIRST" },
	{ OP_DB_SFILEINFO, "SET_FILE_INFORMATION" },
	{ OP_DB_QFILEINFO, "QUERY_FILE_INFORMATION" },
	{ OP_DB_QPATHINFO, "QUERY_PATH_INFORMATION" },
	{ OP_DB_QFSINFO, "QUERY_FS_INFORMATION" },
	{ OP_DB_NTCREATEX, "NTCreateX" },
};

static unsigned int clients(const struct dbench_report *dr)
{
	return dr->procs * dr->per_proc;
}

void report_dbench_header(const struct dbench_report *dr)
{
	printf("vfsbench %s - dbench personality (dbench 4.00's output)\n\n",
	       PACKAGE_VERSION);
	printf("Running for %u seconds with load '%s' and minimum warmup %u secs\n",
	       dr->timelimit, dr->loadfile, dr->warmup);
	fflush(stdout);
}

void report_dbench_ready(struct dbench_report *dr, const struct run *run)
{
	printf("%u of %u processes prepared for launch %3.0f sec\n", dr->procs,
	       dr->procs, (double)run->start_ns / 1e9);
	printf("releasing clients\n");
	fflush(stdout);
}

/*
 * One second: MB/s averaged over the phase so far and the longest op of
 * the second, as dbench's per-second lines have them. dbench's alarm at
 * the end of a timed phase's last second finds the phase over, so it has
 * no line: the warmup's lines are its seconds 1 to W - 1, the execute
 * lines 1 to T - 1, and the execute phase's second T is the first cleanup
 * line (the Throughput line is the line of T - 1). A phase without a time
 * (--run-once) ends with a line for its last, partial second, unless its
 * rounded time is that of the line before (an overshoot of one op is not
 * a second).
 */
void report_dbench_second(struct dbench_report *dr, const struct run *run,
			  const struct run_second *s)
{
	bool warm = s->phase == PHASE_WARMUP;
	double t = (double)s->phase_ns / 1e9;
	double mbs = s->phase_ns ? (double)s->phase_bytes * 1e3 /
					   (double)s->phase_ns :
				   0;
	double lat = (double)s->max_ns / 1e6;
	unsigned int label = (unsigned int)(t + 0.5);
	unsigned int lines = (unsigned int)(s->lines / clients(dr));

	(void)run;
	if (!warm)
		dr->execute_s = t; /* the cleanup lines' time */
	if (dr->timed && label >= (warm ? dr->warmup : dr->timelimit))
		return;
	if (!warm && lat > dr->max_latency_ms)
		dr->max_latency_ms = lat;
	if (s->last && label == dr->last_label && dr->last_warm == warm)
		return;
	dr->last_label = label;
	dr->last_warm = warm;
	if (!warm) {
		dr->throughput = mbs;
		dr->executed = true;
		dr->lines = lines;
	}
	if (dr->machine_readable)
		printf("@%c@%u@%u@%.2f@%u@%.03f@\n", warm ? 'W' : 'R',
		       clients(dr), lines, mbs, (unsigned int)t, lat);
	else
		printf("%4u  %8u  %7.2f MB/sec  %s %3.0f sec  latency %.03f ms\n",
		       clients(dr), lines, mbs, warm ? "warmup" : "execute", t,
		       lat);
	fflush(stdout);
}

/* --show-execute-time: every whole pass of every process, in order. */
void report_dbench_passes(const struct dbench_report *dr, const struct run *run)
{
	if (!dr->show_execute_time)
		return;
	for (unsigned int i = 0; i < run->started; i++) {
		const struct client_sample *cs = &run->samples[i];

		for (unsigned int k = 0; k < cs->npass; k++) {
			const struct pass_time *pt = &cs->pass[k];
			unsigned int dur = (unsigned int)(pt->dur_ns / 1000000);
			unsigned int at =
				(unsigned int)((pt->end_ns - run->released_ns) /
					       1000000);

			if (dr->machine_readable)
				printf("@E@%u@%u\n", i * dr->per_proc, dur);
			else
				printf("%4u completed in %u ms at time %u ms\n",
				       i * dr->per_proc, dur, at);
		}
	}
	fflush(stdout);
}

void report_dbench_cleanup(const struct dbench_report *dr, unsigned int left)
{
	if (dr->machine_readable)
		printf("@C@%u@%u@%.2f@%u@%.03f@\n", left, dr->lines,
		       dr->throughput, (unsigned int)dr->execute_s,
		       dr->max_latency_ms);
	else
		printf("%4u  cleanup %3.0f sec\n", left, dr->execute_s);
	fflush(stdout);
}

/*
 * One table row: count, mean and longest latency in ms, the latencies of
 * @timed of the @count ops (fewer with --latency-sample).
 */
static void row(const struct dbench_report *dr, const char *name,
		uint64_t count, uint64_t timed, uint64_t sum_ns,
		uint64_t max_ns)
{
	double avg = timed ? (double)sum_ns / (double)timed / 1e6 : 0;

	if (dr->machine_readable)
		printf(":%s:%llu:%.03f:%.03f:\n", name,
		       (unsigned long long)count, avg, (double)max_ns / 1e6);
	else if (dr->upstream_names)
		printf(" %-22s %7llu %9.03f %9.03f\n", name,
		       (unsigned long long)count, avg, (double)max_ns / 1e6);
	else
		printf(" %-12s %7llu %9.03f %9.03f\n", name,
		       (unsigned long long)count, avg, (double)max_ns / 1e6);
}

/* The slot of op kind @id in @run's loadfile, or -1. */
static int slot_of(const struct run *run, enum op_id id)
{
	const struct loadfile *lf = run->state.lf;

	for (unsigned int s = 0; s < lf->nslots; s++)
		if (lf->slot_op[s] == id)
			return (int)s;
	return -1;
}

/*
 * The table of the whole run (@brief NULL) or of one client: the rows
 * of the op kinds the whole run measured, as dbench prints them.
 */
static void table(const struct dbench_report *dr, const struct run *run,
		  const struct op_brief *brief)
{
	unsigned int n = dr->upstream_names ? ARRAY_SIZE(rows_upstream) :
					      ARRAY_SIZE(rows_40);

	if (dr->upstream_names) {
		printf(" Operation                Count    AvgLat    MaxLat\n");
		printf(" --------------------------------------------------\n");
	} else {
		printf(" Operation      Count    AvgLat    MaxLat\n");
		printf(" ----------------------------------------\n");
	}
	for (unsigned int i = 0; i < n; i++) {
		enum op_id id =
			dr->upstream_names ? rows_upstream[i].id : rows_40[i];
		const char *name = dr->upstream_names ? rows_upstream[i].name :
							op_table[id].name;
		int s = slot_of(run, id);
		const struct hist *h;

		if (s < 0 || !run->total.count[s])
			continue;
		h = &run->total.lat[s];
		if (brief)
			row(dr, name, brief[s].count, brief[s].timed,
			    brief[s].sum_ns, brief[s].max_ns);
		else
			row(dr, name, run->total.count[s], h->count, h->sum,
			    h->max);
	}
	printf("\n");
}

void report_dbench_end(const struct dbench_report *dr, const struct run *run)
{
	double tput = dr->throughput, maxlat = dr->max_latency_ms;

	/* a phase too short for a line has none to take them from */
	if (!dr->executed) {
		tput = run_mb_per_sec(run);
		maxlat = (double)result_max_latency(&run->total) / 1e6;
	}
	printf("\n");
	table(dr, run, NULL);
	if (dr->per_client) {
		printf("Per client results:\n");
		for (unsigned int i = 0; i < run->started; i++) {
			const struct client_sample *cs = &run->samples[i];

			printf("Client %u did %llu lines and %llu bytes\n",
			       i * dr->per_proc,
			       (unsigned long long)(cs->lines / dr->per_proc),
			       (unsigned long long)cs->bytes);
			if (cs->brief)
				table(dr, run, cs->brief);
		}
	}
	if (dr->machine_readable)
		printf(";%g;%u;%u;%.03f;\n", tput, clients(dr), dr->procs,
		       maxlat);
	else
		printf("Throughput %g MB/sec%s%s  %u clients  %u procs  max_latency=%.03f ms\n",
		       tput, dr->sync_open ? " (sync open)" : "",
		       dr->sync_dirs ? " (sync dirs)" : "", clients(dr),
		       dr->procs, maxlat);
	fflush(stdout);
}

void report_dbench_own(const struct report_config *rc, const struct run *run)
{
	printf("\n---- vfsbench's own figures (--vfsbench-report) ----\n");
	report_run(rc, run, NULL);
}
