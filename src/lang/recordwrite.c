// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The recorder's output (lang/record.h): the header that counts what was
 * kept and dropped, the [setup] of the tree the program found, the [run].
 */
#include <config.h>
#include "lang/record.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/compiler.h"
#include "base/escape.h"
#include "lang/ops.h"
#include "lang/recordint.h"

static int count_cmp(const void *a, const void *b)
{
	return strcmp(((const struct record_count *)a)->name,
		      ((const struct record_count *)b)->name);
}

static void counts_write(struct record_counts *c, const char *title, FILE *f)
{
	unsigned long total = 0;

	for (unsigned int i = 0; i < c->n; i++)
		total += c->v[i].n;
	fprintf(f, "# %s: %lu\n", title, total);
	if (c->n)
		qsort(c->v, c->n, sizeof(*c->v), count_cmp);
	for (unsigned int i = 0; i < c->n; i++)
		fprintf(f, "#   %-24s %lu\n", c->v[i].name, c->v[i].n);
}

/* Was @e found by the program: reached, or in a directory it read? */
static bool entry_seen(struct record *r, const struct record_entry *e)
{
	const char *slash = strrchr(e->path, '/');
	struct record_entry *parent;
	char dir[PATH_MAX];

	if (e->used)
		return true;
	if (!slash)
		return r->root_listed;
	if ((size_t)(slash - e->path) >= sizeof(dir))
		return false;
	memcpy(dir, e->path, (size_t)(slash - e->path));
	dir[slash - e->path] = '\0';
	parent = record_entry_find(r, dir);
	return parent && parent->listed;
}

/*
 * --with-data: a file's bytes, as data on the handle that made it (the
 * parser's bounds kept: OP_MAX_DATA a file, OP_MAX_DATA_TOTAL in all).
 * False for a file left with its size only.
 */
static bool data_write(FILE *f, const struct record_entry *e, size_t *total)
{
	if (!e->data || e->size > OP_MAX_DATA ||
	    *total + e->size > OP_MAX_DATA_TOTAL)
		return false;
	*total += e->size;
	fputs("data @1 ", f);
	for (uint64_t i = 0; i < e->size; i++)
		fprintf(f, "%02x", (unsigned char)e->data[i]);
	fputc('\n', f);
	return true;
}

/*
 * Could others read @e's bytes where it was? Its read bit for others, and
 * the search bit for others of each directory above it, up to / (those
 * above the root the caller looked at: root_hidden).
 */
static bool readable_by_all(struct record *r, const struct record_entry *e)
{
	char dir[PATH_MAX];
	const struct record_entry *d;
	size_t n = strlen(e->path);

	if (r->root_hidden || !(e->mode & S_IROTH) || n >= sizeof(dir))
		return false;
	memcpy(dir, e->path, n + 1);
	for (char *slash; (slash = strrchr(dir, '/'));) {
		*slash = '\0';
		d = record_entry_find(r, dir);
		if (!d || !(d->mode & S_IXOTH))
			return false;
	}
	return true;
}

/*
 * A link's target as a loadfile may hold it (parser_check_link()):
 * relative; with "..", staying inside from the link's directory, ending
 * below it, and climbing no higher than where the recording's renames
 * and links put names ("src/link -> ../doc/readme" in a source tree).
 */
static bool target_ok(const struct record *r, const struct record_entry *e)
{
	unsigned int need;
	int lowest;

	if (!e->target || !e->target[0] || e->target[0] == '/')
		return false;
	if (!op_path_dotdot(e->target))
		return true;
	return !op_target_leaves(e->path, e->target, &need) &&
	       op_path_depth(e->target, &lowest) >= 1 &&
	       (!r->moved || r->move_depth >= (int)need);
}

/*
 * What a link that is made leads to is made too: the program reached it
 * through the link ("cat src/link" opened doc/readme). Its target,
 * resolved lexically from the link's directory, is used, and so on along
 * a chain of links, until nothing more is.
 */
static void mark_targets(struct record *r)
{
	size_t before, after = 0;

	do {
		before = after;
		after = 0;
		for (size_t i = 0; i < r->ntree; i++) {
			struct record_entry *e = &r->tree[i];
			const char *slash = strrchr(e->path, '/');
			char dir[PATH_MAX], to[PATH_MAX];

			if (S_ISLNK(e->mode) && entry_seen(r, e) &&
			    target_ok(r, e) &&
			    (size_t)(slash ? slash - e->path : 0) <
				    sizeof(dir)) {
				memcpy(dir, e->path,
				       (size_t)(slash ? slash - e->path : 0));
				dir[slash ? slash - e->path : 0] = '\0';
				if (!record_normalise(dir, e->target, to))
					record_mark_used(r, to + 1);
			}
		}
		for (size_t i = 0; i < r->ntree; i++)
			after += r->tree[i].used;
	} while (after != before);
}

/*
 * [setup]: the entries the program found, parents first (a path sorts
 * before every path below it). Files get their size, and with --with-data
 * their bytes (made[3] of them; size only: made[4]).
 */
static void setup_write(struct record *r, FILE *f, unsigned long *made,
			unsigned long *skipped)
{
	char q[PATH_MAX + 8], tq[PATH_MAX + 8];
	size_t total = 0;

	mark_targets(r);
	for (size_t i = 0; i < r->ntree; i++) {
		struct record_entry *e = &r->tree[i];
		unsigned int perm = e->mode & 07777;

		if (!entry_seen(r, e))
			continue;
		/* a parent that was skipped: no way to make this */
		e->used = true;
		if (record_quote(e->path, q, sizeof(q))) {
			skipped[3]++;
			r->unnamable++;
			continue;
		}
		if (S_ISDIR(e->mode)) {
			fprintf(f, "mkdir %s %o\n", q, perm);
			made[0]++;
		} else if (S_ISREG(e->mode) && !e->size) {
			fprintf(f, "create %s %o\n", q, perm);
			made[1]++;
		} else if (S_ISREG(e->mode)) {
			fprintf(f, "open %s wronly,creat,trunc @1 %o\n", q,
				perm);
			if (r->with_data && data_write(f, e, &total)) {
				made[3]++;
				if (!readable_by_all(r, e))
					r->data_private = true;
			} else {
				fprintf(f, "ftruncate @1 %llu\n",
					(unsigned long long)e->size);
				made[4] += r->with_data;
			}
			fprintf(f, "close @1\n");
			made[1]++;
		} else if (S_ISLNK(e->mode) && target_ok(r, e) &&
			   !record_quote_target(e->target, tq, sizeof(tq))) {
			fprintf(f, "symlink %s %s\n", tq, q);
			made[2]++;
		} else {
			skipped[S_ISLNK(e->mode) ? 2 : 3]++;
		}
	}
}

unsigned int record_streams(const struct record *r)
{
	unsigned int k = 0;

	for (unsigned int i = 0; r->per_task && i < r->ntasks; i++)
		k += r->tasks[i].run.len > 0;
	return k;
}

/* Lines in @b: the ops of a stream. */
static unsigned long buf_lines(const struct record_buf *b)
{
	unsigned long n = 0;

	for (size_t i = 0; i < b->len; i++)
		n += b->s[i] == '\n';
	return n;
}

/* --tasks-as-clients: which task each [run N] stream is. */
static void tasks_write(struct record *r, const struct record_header *h,
			FILE *f)
{
	unsigned int k = 0, none = 0;

	for (unsigned int i = 0; i < r->ntasks; i++)
		if (r->tasks[i].run.len)
			k++;
	fprintf(f,
		"# tasks: %u, each a client of its own in the order it made its calls:\n"
		"#   client i runs [run i mod %u]; run with at least %u clients\n",
		h->ntasks, k, k);
	k = 0;
	for (unsigned int i = 0; i < r->ntasks; i++) {
		if (!r->tasks[i].run.len) {
			none++;
			continue;
		}
		fprintf(f, "#   [run %u]: task %ld, %lu ops\n", k++,
			r->tasks[i].pid, buf_lines(&r->tasks[i].run));
	}
	fprintf(f, "#   tasks with no op kept, so no stream: %u\n",
		h->ntasks > k ? h->ntasks - k : none);
}

/* [run], or a [run N] stream per task that has ops. */
static void run_write(struct record *r, FILE *f)
{
	unsigned int k = 0;

	if (!r->per_task) {
		fputs("[run]\n", f);
		if (r->run.len)
			fwrite(r->run.s, 1, r->run.len, f);
		return;
	}
	for (unsigned int i = 0; i < r->ntasks; i++) {
		if (!r->tasks[i].run.len)
			continue;
		fprintf(f, "[run %u]\n", k++);
		fwrite(r->tasks[i].run.s, 1, r->tasks[i].run.len, f);
	}
}

int record_write(struct record *r, const struct record_header *h, FILE *f)
{
	unsigned long made[5] = { 0 }, skipped[4] = { 0 }, exit_closes = 0;
	char *setup = NULL, *root;
	size_t setuplen = 0;
	FILE *sf = open_memstream(&setup, &setuplen);

	if (!sf)
		return -errno;
	/*
	 * The fds a program left open the kernel closed at its exit: closed
	 * here at the end, so that a pass ends with every handle closed and
	 * the loadfile reads without a warning; the header counts them, as
	 * close calls the trace has not.
	 */
	for (unsigned int k = 0; k < ARRAY_SIZE(r->handle_busy); k++) {
		if (r->handle_busy[k]) {
			/* in the stream of the task that opened it */
			r->cur = r->handle_task[k];
			record_line(r, "close @%u\n", k + 1);
			r->handle_busy[k] = false;
			exit_closes++;
		}
	}
	setup_write(r, sf, made, skipped);
	if (fclose(sf)) {
		free(setup);
		return -ENOMEM;
	}
	fprintf(f,
		"# Recorded by vfsbench record: the file-system calls of a program, as\n"
		"# a loadfile (vfsbench-loadfile(5); what is kept and dropped and why:\n"
		"# doc/recording.md).\n");
	fprintf(f, "# command: %s\n", h->command);
	/* a newline in it would end the comment: what follows were ops */
	root = escape_shown(r->root);
	fprintf(f, "# root: %s\n", root);
	free(root);
	fprintf(f, "# kernel: %s\n", h->kernel);
	fprintf(f, "# date: %s\n", h->date);
	if (r->per_task)
		tasks_write(r, h, f);
	else if (h->ntasks > 1)
		fprintf(f,
			"# tasks: %u, replayed as one stream in the order of the trace:\n"
			"#   what they did at the same time runs one after another here\n",
			h->ntasks);
	else
		fprintf(f, "# tasks: 1\n");
	fprintf(f, "# calls traced: %lu, replayed as ops: %lu\n", r->calls,
		r->ops);
	counts_write(&r->replayed, "replayed", f);
	if (r->keep_outside)
		fprintf(f,
			"# kept outside the root (--keep-outside): %lu read-only ops on absolute paths;\n"
			"#   replay with vfsbench --read-outside, which lets only ops that read name them\n",
			r->ops_outside);
	counts_write(&r->outside, "dropped, outside the root", f);
	counts_write(&r->lacking, "dropped, no op in the loadfile language", f);
	counts_write(&r->other_fd,
		     "dropped, on an fd not opened below the root in the trace",
		     f);
	counts_write(&r->changed, "replayed without O_NONBLOCK or O_NOCTTY", f);
	fprintf(f,
		"# closed at the end, as the kernel closed them at exit: %lu\n",
		exit_closes);
	if (r->with_data) {
		fprintf(f,
			"# [setup] makes %lu directories, %lu files (%lu with their data), %lu symlinks\n",
			made[0], made[1], made[3], made[2]);
		fprintf(f,
			"# files made with their size only (over 64 KiB, past 1 MiB in all, or unreadable): %lu\n",
			made[4]);
		if (r->data_private)
			fprintf(f,
				"# bytes of files others could not read: this loadfile is made readable by its owner only (0600)\n");
	} else {
		fprintf(f,
			"# [setup] makes %lu directories, %lu files (their sizes, not their data), %lu symlinks\n",
			made[0], made[1], made[2]);
	}
	fprintf(f,
		"# not made: %lu symlinks whose targets lead out, %lu special files or unnamable paths\n",
		skipped[2], skipped[3]);
	fprintf(f, "[setup]\n%s", setup ? setup : "");
	free(setup);
	run_write(r, f);
	return ferror(f) ? -EIO : 0;
}
