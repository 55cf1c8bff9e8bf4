/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_LANG_RECORD_H
#define VB_LANG_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "lang/pidmap.h"
#include "lang/strace.h"

/*
 * struct record: turns the system calls of a strace log (lang/strace.h)
 * into a native loadfile (vfsbench-loadfile(5), doc/recording.md). Calls on
 * paths below the root become ops on relative paths; fds become handles;
 * everything else is counted, by call, for the loadfile's header. The
 * tree the program found (entries the caller read below the root before
 * it ran) becomes the [setup] section, limited to what the calls reached.
 */

/* An entry of the tree below the root, as it was before the program ran. */
struct record_entry {
	char *path; /* relative to the root, no "./" */
	mode_t mode; /* type and permission bits, as lstat gives them */
	uint64_t size; /* regular files */
	char *target; /* symbolic links */
	char *data; /* --with-data: a regular file's size bytes, or NULL */
	bool used; /* reached by a call: recreated in [setup] */
	bool listed; /* its directory was read: its entries are used */
};

/* A call name and how often it was seen, for the header. */
struct record_count {
	char name[STRACE_NAME_LEN];
	unsigned long n;
};

/*
 * At most this many names in a group: a damaged log of endless distinct
 * names would otherwise grow the table without bound; the rest are
 * counted under "(other names)". Linux has about 460 system calls.
 */
#define RECORD_COUNT_NAMES 1024

struct record_counts {
	struct record_count *v;
	unsigned int n, alloc;
};

/* An fd the trace opened below the root, and the handle it became. */
struct record_fdbind {
	int fd;
	int handle; /* slot, 0-based */
	uint64_t offset; /* read/write position */
};

/*
 * A task's open fds, a list, not an array indexed by fd: each entry holds
 * a busy handle, so there are at most 256, whatever numbers a (damaged)
 * trace prints.
 */
struct record_fdtab {
	struct record_fdbind *v;
	unsigned int n, alloc;
};

/* Lines of a [run] section, growing. */
struct record_buf {
	char *s;
	size_t len, alloc;
};

struct record_task {
	long pid;
	unsigned int fdtab; /* index in struct record's tables */
	char *cwd; /* from the last AT_FDCWD path strace printed */
	/* with per_task: this task's [run N] stream */
	struct record_buf run;
};

struct record {
	const char *root; /* absolute, resolved, no trailing '/' */
	size_t rootlen;
	const char *start_cwd; /* where the command started */
	struct record_entry *tree; /* sorted by path */
	size_t ntree;
	struct record_task *tasks;
	unsigned int ntasks, atasks;
	struct pidmap taskmap; /* pid -> index in tasks */
	struct record_fdtab *fdtabs;
	unsigned int nfdtabs, afdtabs;
	bool root_listed; /* the root's own entries were read */
	/* --tasks-as-clients: a [run N] stream per task, not one [run] */
	bool per_task;
	/* --keep-outside: read-only calls outside the root kept, absolute */
	bool keep_outside;
	unsigned long ops_outside; /* the ops kept so */
	bool handle_outside[256]; /* filled by an open outside: only read */
	/* --with-data: [setup] writes the files' bytes where it has them */
	bool with_data;
	/* a directory from / to the root has no search bit for others */
	bool root_hidden;
	/*
	 * Set by record_write(): a file whose bytes [setup] holds was not
	 * readable by all (no read bit for others on it, or no search bit
	 * on a directory above it), so the loadfile may not be.
	 */
	bool data_private;
	unsigned int cur; /* the task of the call being taken */
	bool handle_busy[256];
	unsigned int handle_task[256]; /* the task that opened it */
	unsigned int max_handle; /* highest handle used, 1-based */
	/* the [run] section's lines, in order (without per_task) */
	struct record_buf run;
	size_t run_bytes; /* of every [run] stream: what the log made */
	unsigned long calls, ops;
	/* calls and entries of the tree dropped: no loadfile can name them */
	unsigned long unnamable;
	struct record_counts replayed; /* by call */
	struct record_counts outside; /* dropped: a path outside the root */
	struct record_counts lacking; /* dropped: the language has no op */
	struct record_counts other_fd; /* dropped: an fd not opened below */
	struct record_counts changed; /* replayed, a detail lost (flags) */
	/* a rename or link replayed, and the depth of the highest
	 * directory one put a name in: a [setup] link whose target climbs
	 * more (with "..") is not made (lang/nativeargs.c) */
	bool moved;
	int move_depth;
};

/*
 * @root: the resolved root; @cwd: the command's working directory;
 * @tree, @ntree: the entries below the root before the command ran, sorted
 * by strcmp() of their paths (the record owns them from here on).
 */
void record_init(struct record *r, const char *root, const char *cwd,
		 struct record_entry *tree, size_t ntree);
void record_release(struct record *r);

/* Take one call of the log. */
void record_call(struct record *r, const struct strace_call *c);

/* The header's fixed facts, written as given. */
struct record_header {
	const char *command; /* the command line, quoted for a shell */
	const char *kernel;
	const char *date;
	unsigned int ntasks; /* tasks in the trace */
};

/*
 * With per_task: the [run N] streams record_write() would write, one per
 * task with an op kept (a loadfile holds at most LOADFILE_MAX_STREAMS);
 * 0 without.
 */
unsigned int record_streams(const struct record *r);

/* Write the loadfile: header, [setup], [run]. 0, or -errno of a write. */
int record_write(struct record *r, const struct record_header *h, FILE *f);

/*
 * Quote @path for a loadfile line into @out (@len bytes): as is when it
 * can be, in double quotes when it holds a space, a tab, '#' or '"', with
 * "./" before a name spelt like an expectation. -EINVAL for a path no
 * loadfile can name: a newline or CR, a '$' (a variable to the parser),
 * a component named as vfsbench's marker (".vfsbench-workdir", which no
 * op may make).
 */
int record_quote(const char *path, char *out, size_t len);
/* The same for a symlink's target, which may hold '$' and the marker. */
int record_quote_target(const char *target, char *out, size_t len);

#endif /* VB_LANG_RECORD_H */
