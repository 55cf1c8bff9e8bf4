/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perf script's text, read back into shares: one sample is a header line
 * "TID PERIOD EVENT:" and its call chain, one frame a line
 * "\tADDR SYMBOL (DSO)", leaf first, then a blank line.
 */
#include <config.h>
#include "stats/perfprofile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/msg.h"

/* The deepest call chain kept; perf's own default limit is 127. */
#define MAX_FRAMES 256

struct frame {
	char *sym;
	bool kernel;
};

static bool prefixed(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

bool perf_profile_is_lock(const char *sym)
{
	static const char *const locks[] = {
		"native_queued_spin_lock_slowpath",
		"queued_spin_lock_slowpath",
		"__pv_queued_spin_lock_slowpath",
		"_raw_spin_lock",
		"_raw_read_lock",
		"_raw_write_lock",
		"do_raw_spin_lock",
		"osq_lock",
		"rwsem_",
		"down_read",
		"down_write",
		"__down_read",
		"__down_write",
		"percpu_down_",
		"__percpu_down_",
		"mutex_lock",
		"__mutex_lock",
		"mutex_spin_on_owner",
		"lockref_",
		"rt_spin_lock",
		"rt_mutex_",
	};

	for (size_t i = 0; i < sizeof(locks) / sizeof(*locks); i++)
		if (prefixed(sym, locks[i]))
			return true;
	return false;
}

/* Where a VFS operation enters: a chain's callers stop there. */
static bool is_entry(const char *sym)
{
	static const char *const entries[] = {
		"path_openat",	   "path_lookupat",   "path_parentat",
		"filename_create", "filename_lookup", "filename_parentat",
		"do_renameat2",	   "do_unlinkat",     "do_rmdir",
		"do_mkdirat",	   "do_mknodat",      "do_linkat",
		"do_symlinkat",	   "do_faccessat",    "do_readlinkat",
		"vfs_statx",	   "vfs_fstatat",     "user_statfs",
		"do_sys_openat2",  "__fput",	      "iterate_dir",
	};

	for (size_t i = 0; i < sizeof(entries) / sizeof(*entries); i++)
		if (!strcmp(sym, entries[i]))
			return true;
	return false;
}

static bool is_schedule(const char *sym)
{
	return !strcmp(sym, "schedule") || !strcmp(sym, "__schedule") ||
	       prefixed(sym, "schedule_") || prefixed(sym, "io_schedule");
}

/* The lock chain of @f[0..n) (leaf first) into @key; false: none. */
static bool lock_chain(const struct frame *f, size_t n, char *key, size_t len)
{
	size_t i, start, end, at = 0;

	for (i = 0; i < n && f[i].kernel; i++)
		if (perf_profile_is_lock(f[i].sym))
			break;
	if (i == n || !f[i].kernel)
		return false;
	start = i;
	for (size_t j = 0; j < i; j++)
		if (is_schedule(f[j].sym)) {
			start = j;
			break;
		}
	for (end = i; end < n && f[end].kernel; end++)
		if (is_entry(f[end].sym))
			break;
	if (end == n || !f[end].kernel) {
		for (end = i; end < n && f[end].kernel; end++)
			if (prefixed(f[end].sym, "__x64_sys_") ||
			    prefixed(f[end].sym, "__arm64_sys_"))
				break;
		if (end == n || !f[end].kernel)
			end = i + 5 < n && f[i + 5].kernel ? i + 5 : i;
	}
	key[0] = '\0';
	for (size_t j = start; j <= end; j++) {
		int w = snprintf(key + at, len - at, "%s%s",
				 j > start ? PERF_CHAIN_SEP : "", f[j].sym);

		if (w < 0 || (size_t)w >= len - at)
			break;
		at += (size_t)w;
	}
	return true;
}

void perf_profile_chain_ends(const char *chain, char *lock, char *entry,
			     size_t len)
{
	size_t seplen = strlen(PERF_CHAIN_SEP);
	const char *p = chain;

	lock[0] = entry[0] = '\0';
	for (;;) {
		const char *sep = strstr(p, PERF_CHAIN_SEP);
		size_t l = sep ? (size_t)(sep - p) : strlen(p);
		char sym[512];

		snprintf(sym, sizeof(sym), "%.*s", (int)l, p);
		/* the outermost frame of the first run of lock frames */
		if (perf_profile_is_lock(sym) && (!lock[0] || !entry[0]))
			snprintf(lock, len, "%s", sym);
		else if (lock[0])
			entry[0] = '-'; /* that run is over */
		if (!sep) {
			snprintf(entry, len, "%s", sym);
			return;
		}
		p = sep + seplen;
	}
}

/* "root;...;leaf" of @f[0..n) into a new string. */
static char *folded(const struct frame *f, size_t n)
{
	size_t len = 1;
	char *s, *at;

	for (size_t i = 0; i < n; i++)
		len += strlen(f[i].sym) + 1;
	s = at = xmalloc(len);
	*s = '\0';
	for (size_t i = n; i-- > 0;) {
		size_t l = strlen(f[i].sym);

		memcpy(at, f[i].sym, l);
		at += l;
		*at++ = i ? ';' : '\0';
	}
	if (!n)
		*s = '\0';
	return s;
}

static void add_sample(struct perf_profile *pp, struct frame *f, size_t n)
{
	static char unknown[] = "[unknown]";
	struct frame none = { .sym = unknown, .kernel = false };
	char key[4096];
	char *fold;

	if (!n) { /* a sample without a call chain */
		f = &none;
		n = 1;
	}
	pp->samples++;
	if (f[0].kernel)
		pp->kernel++;
	else
		pp->user++;
	tally_add(&pp->self, f[0].sym, 1);
	if (lock_chain(f, n, key, sizeof(key)))
		tally_add(&pp->locks, key, 1);
	fold = folded(f, n);
	tally_add(&pp->folded, fold, 1);
	free(fold);
}

/*
 * "\tADDR SYMBOL (DSO)": the symbol, "[unknown]" or the DSO's name where
 * perf has none; the kernel's by its DSO or a kernel address.
 */
static int parse_frame(char *line, struct frame *f)
{
	char *p = line + strspn(line, " \t"), *end, *dso;
	unsigned long long addr = strtoull(p, &end, 16);

	if (end == p || (*end != ' ' && *end != '\0'))
		return -EINVAL;
	p = end + strspn(end, " ");
	dso = strrchr(p, '(');
	if (dso && dso > p && dso[-1] == ' ') {
		dso[-1] = '\0';
		dso++;
		dso[strcspn(dso, ")")] = '\0';
	} else {
		dso = NULL;
	}
	f->kernel = addr >= 0xffff800000000000ull ||
		    (dso && prefixed(dso, "[kernel"));
	/* a user frame perf could not name: its object's, like perf report */
	if ((!*p || !strcmp(p, "[unknown]")) && dso &&
	    strcmp(dso, "[unknown]")) {
		const char *base = strrchr(dso, '/');
		size_t len = strlen(dso) + 3;

		f->sym = xmalloc(len);
		snprintf(f->sym, len, "[%s]", base ? base + 1 : dso);
	} else {
		f->sym = xstrdup(*p ? p : "[unknown]");
	}
	/* ';' separates the frames of a folded stack */
	for (char *c = f->sym; *c; c++)
		if (*c == ';' || *c == '\n')
			*c = '_';
	return 0;
}

/* "TID PERIOD EVENT:": the event's name, checked against the others. */
static int parse_header(struct perf_profile *pp, char *line, uint64_t *period)
{
	char *end, *ev;
	unsigned long long tid = strtoull(line, &end, 10), per;

	(void)tid;
	if (end == line)
		return -EINVAL;
	per = strtoull(end, &ev, 10);
	if (ev == end)
		return -EINVAL;
	ev += strspn(ev, " ");
	end = strchr(ev, ':');
	if (!end || end == ev)
		return -EINVAL;
	*end = '\0';
	if (!pp->event)
		pp->event = xstrdup(ev);
	else if (strcmp(pp->event, ev))
		pp->mixed = true;
	*period = per;
	return 0;
}

int perf_profile_parse(struct perf_profile *pp, FILE *in, const char *name)
{
	struct frame *f = xcalloc(MAX_FRAMES, sizeof(*f));
	char *line = NULL;
	size_t cap = 0, n = 0;
	unsigned long lineno = 0;
	bool in_sample = false;
	uint64_t period = 0;
	ssize_t len;
	int ret = 0;

	while ((len = getline(&line, &cap, in)) >= 0) {
		lineno++;
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (!len) {
			if (in_sample)
				add_sample(pp, f, n);
			for (size_t i = 0; i < n; i++)
				free(f[i].sym);
			n = 0;
			in_sample = false;
			continue;
		}
		/* frames start with a tab; a header may with spaces (its tid
		 * is right-aligned) */
		if (line[0] == '\t') {
			if (!in_sample) {
				ret = -EINVAL;
				break;
			}
			if (n == MAX_FRAMES)
				continue; /* the outermost callers, dropped */
			if (parse_frame(line, &f[n])) {
				ret = -EINVAL;
				break;
			}
			n++;
			continue;
		}
		if (in_sample) { /* a sample without a blank line after it */
			add_sample(pp, f, n);
			for (size_t i = 0; i < n; i++)
				free(f[i].sym);
			n = 0;
		}
		if (parse_header(pp, line, &period)) {
			ret = -EINVAL;
			break;
		}
		pp->period += period;
		in_sample = true;
	}
	if (!ret && in_sample)
		add_sample(pp, f, n);
	if (ret)
		error("%s:%lu: not a line of perf script -F tid,period,event,ip,sym,dso: '%.60s'",
		      name, lineno, line);
	for (size_t i = 0; i < n; i++)
		free(f[i].sym);
	free(f);
	free(line);
	return ret;
}

int perf_profile_write_folded(const struct perf_profile *pp, FILE *out)
{
	const struct tally_entry **v = tally_sorted(&pp->folded);
	int ret = 0;

	for (size_t i = 0; i < pp->folded.len; i++)
		if (fprintf(out, "%s %llu\n", v[i]->key,
			    (unsigned long long)v[i]->n) < 0) {
			ret = -EIO;
			break;
		}
	free(v);
	return ret;
}

void perf_profile_release(struct perf_profile *pp)
{
	free(pp->event);
	tally_release(&pp->self);
	tally_release(&pp->locks);
	tally_release(&pp->folded);
	memset(pp, 0, sizeof(*pp));
}
