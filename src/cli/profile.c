/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --profile and --perf-ctl for main(): which runs perf records, through
 * which control, into which file. run/run.c turns the events on and off
 * around each such run's measurement.
 */
#include <config.h>
#include "cli/profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/msg.h"
#include "cli/options.h"
#include "report/report.h"
#include "run/signals.h"
#include "run/sweep.h"
#include "sys/perflock.h"
#include "sys/perfscript.h"

static bool profiled(const struct config *cfg, unsigned int clients)
{
	if (!cfg->cpus.nprofile)
		return true; /* --perf-ctl alone: every run */
	for (unsigned int i = 0; i < cfg->cpus.nprofile; i++)
		if (cfg->cpus.profile[i] == clients)
			return true;
	return false;
}

/*
 * "perf-4.data"; with several variants "perf-LABEL-4.data", the label's
 * bytes other than letters, digits and ._=+- as '_'.
 */
static char *file_name(const struct config *cfg, unsigned int v,
		       unsigned int clients)
{
	const char *label = cfg->variants[v].label;
	size_t len = strlen(label) + 32;
	char *name = xmalloc(len);

	if (cfg->nvariants == 1) {
		snprintf(name, len, "perf-%u.data", clients);
		return name;
	}
	snprintf(name, len, "perf-%s-%u.data", label, clients);
	for (char *p = name + 5; *p && p < name + 5 + strlen(label); p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._=+-",
			    *p))
			*p = '_';
	return name;
}

char *profiling_file(const struct config *cfg, unsigned int v,
		     unsigned int clients)
{
	if (cfg->perf_ctl || !cfg->cpus.nprofile || !profiled(cfg, clients))
		return NULL;
	return file_name(cfg, v, clients);
}

/*
 * The record of variant @v at @clients, started now if need be: perf
 * writes a temporary file beside its name, put in place once it stopped
 * (workdir/outfile.h).
 */
static int record_of(struct profiling *pf, const struct config *cfg,
		     unsigned int v, unsigned int clients,
		     struct perf_record **out)
{
	unsigned int n = pf->nrec;
	int ret;

	for (unsigned int i = 0; i < pf->nrec; i++)
		if (pf->rec_variant[i] == v && pf->rec_clients[i] == clients) {
			*out = &pf->rec[i];
			return 0;
		}
	/* the records are started before any table points into them */
	pf->rec = xrealloc(pf->rec, (n + 1) * sizeof(*pf->rec));
	pf->rec_variant = xrealloc(pf->rec_variant, (n + 1) * sizeof(unsigned));
	pf->rec_clients = xrealloc(pf->rec_clients, (n + 1) * sizeof(unsigned));
	pf->out = xrealloc(pf->out, (n + 1) * sizeof(*pf->out));
	pf->name = xrealloc(pf->name, (n + 1) * sizeof(*pf->name));
	pf->lock_out = xrealloc(pf->lock_out, (n + 1) * sizeof(*pf->lock_out));
	pf->lock_name =
		xrealloc(pf->lock_name, (n + 1) * sizeof(*pf->lock_name));
	pf->name[n] = file_name(cfg, v, clients);
	pf->lock_name[n] = profiling_lock_name(pf->name[n]);
	/* 0600, as perf makes its files: a profile shows the kernel's stacks */
	ret = outfile_reserve(&pf->out[n], pf->name[n], 0600);
	if (!ret) {
		ret = outfile_reserve(&pf->lock_out[n], pf->lock_name[n], 0600);
		if (ret)
			outfile_abort(&pf->out[n]);
	}
	if (!ret) {
		ret = perf_record_start(&pf->rec[n], getpid(), pf->out[n].tmp,
					cfg->profile_event, pf->lock_out[n].tmp,
					&signals.count);
		if (ret) {
			outfile_abort(&pf->out[n]);
			outfile_abort(&pf->lock_out[n]);
		}
	}
	if (ret) {
		free(pf->name[n]);
		free(pf->lock_name[n]);
		return ret;
	}
	pf->rec_variant[n] = v;
	pf->rec_clients[n] = clients;
	*out = &pf->rec[pf->nrec++];
	return 0;
}

static int open_fifo(struct profiling *pf, const char *spec)
{
	char *fifo = xstrdup(spec), *comma = strchr(fifo, ',');
	int ret;

	if (comma)
		*comma = '\0';
	ret = perf_ctl_open(&pf->fifo, fifo, comma ? comma + 1 : NULL,
			    &signals.count);
	free(fifo);
	pf->have_fifo = !ret;
	return ret;
}

int profiling_start(struct profiling *pf, const struct config *cfg,
		    struct sweep_variant *sv)
{
	unsigned int nc = cfg->run.nclients;

	memset(pf, 0, sizeof(*pf));
	if (!cfg->perf_ctl && !cfg->cpus.nprofile)
		return 0;
	if (cfg->perf_ctl && open_fifo(pf, cfg->perf_ctl))
		return -1;
	/* every record first, then the tables: rec[] does not move after */
	for (unsigned int v = 0; !cfg->perf_ctl && v < cfg->nvariants; v++)
		for (unsigned int p = 0; p < nc; p++) {
			struct perf_record *r;

			if (profiled(cfg, cfg->run.clients[p]) &&
			    record_of(pf, cfg, v, cfg->run.clients[p], &r)) {
				profiling_release(pf);
				return -1;
			}
		}
	/* rec[] has stopped moving: each record's perf stat can follow it */
	for (unsigned int i = 0; i < pf->nrec; i++)
		perf_record_pin(&pf->rec[i]);
	pf->nvariants = cfg->nvariants;
	pf->ctl = xcalloc((size_t)cfg->nvariants * nc, sizeof(*pf->ctl));
	pf->file = xcalloc((size_t)cfg->nvariants * nc, sizeof(*pf->file));
	for (unsigned int v = 0; v < cfg->nvariants; v++) {
		for (unsigned int p = 0; p < nc; p++) {
			unsigned int k = v * nc + p;
			struct perf_record *r;

			if (!profiled(cfg, cfg->run.clients[p]))
				continue;
			if (pf->have_fifo) {
				pf->ctl[k] = &pf->fifo;
				continue;
			}
			record_of(pf, cfg, v, cfg->run.clients[p], &r);
			pf->ctl[k] = &r->ctl;
			pf->file[k] = pf->name[r - pf->rec];
		}
		sv[v].perf = pf->ctl + v * nc;
		sv[v].perf_file = pf->file + v * nc;
	}
	return 0;
}

/* "perf-4.data" -> "perf-4.folded". */
char *profiling_folded_name(const char *data)
{
	size_t len = strlen(data);
	char *name = xmalloc(len + 8);

	memcpy(name, data, len + 1);
	if (len > 5 && !strcmp(name + len - 5, ".data"))
		name[len - 5] = '\0';
	strcat(name, ".folded");
	return name;
}

/* "perf-4.data" -> "perf-4.lock.data". */
char *profiling_lock_name(const char *data)
{
	size_t len = strlen(data);
	char *name = xmalloc(len + 16);

	memcpy(name, data, len + 1);
	if (len > 5 && !strcmp(name + len - 5, ".data"))
		name[len - 5] = '\0';
	strcat(name, ".lock.data");
	return name;
}

/*
 * Record @i's lock file put in place and read back with perf lock
 * contention into pf->locks[i]; where perf lock record did not run or
 * failed, its reason instead, and no file.
 */
static int read_locks(struct profiling *pf, unsigned int i)
{
	const struct perf_lock *pl = &pf->rec[i].lock;
	char *text, *status;

	if (pl->absent) {
		outfile_abort(&pf->lock_out[i]);
		pf->locks[i].absent = xstrdup(pl->absent);
		return 0;
	}
	if (outfile_finish(&pf->lock_out[i])) {
		/* not "nothing contended": the message above says why */
		pf->locks[i].absent = xstrdup(
			"its file could not be put in place (see the messages)");
		return -1;
	}
	pf->lock_kept[i] = true;
	if (perf_lock_contention(pf->lock_name[i], PROFILING_LOCKS, &text,
				 &status, &signals.count)) {
		size_t len = strlen(status) + 32;

		pf->locks[i].absent = xmalloc(len);
		snprintf(pf->locks[i].absent, len, "perf lock contention: %s",
			 status);
		free(status);
		return 0;
	}
	lock_stat_parse(&pf->locks[i], text, status);
	free(text);
	free(status);
	return 0;
}

/* perf script of record @i into pf->prof[i], and its .folded file. */
static int read_back(struct profiling *pf, unsigned int i)
{
	struct perf_script ps;
	struct outfile of;
	FILE *f;
	int ret;

	if (perf_script_open(&ps, pf->name[i], &signals.count))
		return -1;
	ret = perf_profile_parse(&pf->prof[i], ps.out, pf->name[i]);
	ret |= perf_script_close(&ps, pf->name[i]);
	if (ret)
		return -1;
	pf->read[i] = true;
	pf->folded[i] = profiling_folded_name(pf->name[i]);
	f = outfile_open(&of, pf->folded[i]);
	if (!f) {
		free(pf->folded[i]);
		pf->folded[i] = NULL;
		return -1;
	}
	/* a failed write is the commit's error, naming the file */
	perf_profile_write_folded(&pf->prof[i], f);
	if (outfile_commit(&of)) {
		free(pf->folded[i]);
		pf->folded[i] = NULL;
		return -1;
	}
	return 0;
}

int profiling_stop(struct profiling *pf, const struct config *cfg,
		   const struct sweep *sw)
{
	int ret = 0;

	if (!pf->nrec)
		return 0;
	pf->rp = xcalloc(pf->nrec, sizeof(*pf->rp));
	pf->prof = xcalloc(pf->nrec, sizeof(*pf->prof));
	pf->read = xcalloc(pf->nrec, sizeof(*pf->read));
	pf->folded = xcalloc(pf->nrec, sizeof(*pf->folded));
	pf->locks = xcalloc(pf->nrec, sizeof(*pf->locks));
	pf->lock_kept = xcalloc(pf->nrec, sizeof(*pf->lock_kept));
	for (unsigned int i = 0; i < pf->nrec; i++) {
		int bad = perf_record_stop(&pf->rec[i]);

		/* what a failed perf wrote is not put in place */
		if (bad) {
			outfile_abort(&pf->out[i]);
			outfile_abort(&pf->lock_out[i]);
		} else {
			bad = outfile_finish(&pf->out[i]);
		}
		if (!bad && read_back(pf, i))
			ret = -1;
		if (!bad && read_locks(pf, i))
			ret = -1;
		pf->rp[i] = (struct report_profile){
			.variant = cfg->nvariants > 1 ?
					   cfg->variants[pf->rec_variant[i]]
						   .label :
					   NULL,
			.vindex = pf->rec_variant[i],
			.clients = pf->rec_clients[i],
			.file = pf->name[i],
			.ok = !bad,
			.folded = pf->folded[i],
			.prof = pf->read[i] ? &pf->prof[i] : NULL,
			.event_asked = cfg->profile_event,
			.counters = pf->rec[i].stat.absent ?
					    NULL :
					    pf->rec[i].stat.counter,
			.counters_absent = pf->rec[i].stat.absent,
			.lock_file = pf->lock_kept[i] ? pf->lock_name[i] : NULL,
			.locks = bad ? NULL : &pf->locks[i],
		};
		ret |= bad;
	}
	report_profiles(&cfg->report, sw, pf->rp, pf->nrec);
	return ret;
}

void profiling_release(struct profiling *pf)
{
	for (unsigned int i = 0; i < pf->nrec; i++) {
		perf_record_release(&pf->rec[i]);
		/* stopped early (a usage or start error): nothing in place */
		outfile_abort(&pf->out[i]);
		outfile_abort(&pf->lock_out[i]);
		free(pf->name[i]);
		free(pf->lock_name[i]);
		if (pf->locks)
			lock_stat_release(&pf->locks[i]);
		if (pf->prof)
			perf_profile_release(&pf->prof[i]);
		if (pf->folded)
			free(pf->folded[i]);
	}
	free(pf->prof);
	free(pf->read);
	free(pf->folded);
	free(pf->locks);
	free(pf->lock_kept);
	free(pf->rp);
	if (pf->have_fifo)
		perf_ctl_close(&pf->fifo);
	free(pf->rec);
	free(pf->rec_variant);
	free(pf->rec_clients);
	free(pf->ctl);
	free(pf->file);
	free(pf->out);
	free(pf->name);
	free(pf->lock_out);
	free(pf->lock_name);
	memset(pf, 0, sizeof(*pf));
}
