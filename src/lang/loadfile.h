/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_LANG_LOADFILE_H
#define VB_LANG_LOADFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lang/ops.h"
#include "lang/strtab.h"

/* The languages a loadfile can be written in. */
enum loadfile_dialect {
	DIALECT_AUTO, /* dbench if its first op line ends in a status */
	DIALECT_NATIVE, /* vfsbench-loadfile(5) */
	DIALECT_DBENCH, /* dbench 3/4's client.txt format */
};

/* The call dbench's QUERY_FS_INFORMATION issues. */
enum fsinfo_call {
	FSINFO_STATVFS, /* dbench's own: statvfs(3) */
	FSINFO_STATFS,
	FSINFO_STATVFS_LEGACY,
};

/* How to read a loadfile; all zero is the default. */
struct loadfile_opts {
	enum loadfile_dialect dialect;
	/*
	 * --links-out: symlink targets may be absolute or hold "..", and
	 * then no op may change anything (op_links_out_ok()). Without it a
	 * target is relative without "..", so that every name a client
	 * resolves stays below its directory.
	 */
	bool links_out;
	/*
	 * --read-outside: a path may be absolute in an op that only reads
	 * (op_changes() false), and a handle opened on one only read
	 * through; any other op on an absolute path stays an error.
	 */
	bool read_outside;
	/* dbench dialect only, fixed into the ops at load time: */
	bool sync_open; /* -s: O_SYNC on NTCreateX's open */
	bool sync_dirs; /* -S: fdatasync the parent after namespace ops */
	bool fsync_writes; /* -F: fsync after every WriteX */
	bool no_resolve; /* --no-resolve: no directory scan on a miss */
	enum fsinfo_call fsinfo;
	const char *basedir; /* what QUERY_FS_INFORMATION stats */
	/* dbench personality (vfsbench(1), "dbench personality"): */
	bool xattr; /* -x: user.DosAttrib reads and writes */
	bool stat_check; /* --stat-check: stat before mkdir and create */
	bool fake_io; /* --fake-io: ReadX/WriteX count, issue nothing */
	bool one_byte_fix; /* --one-byte-write-fix */
	uint64_t trunc_io; /* --trunc-io: ReadX/WriteX sizes at most this; 0 */
	double rate_mbps; /* -R: at most this many MB/s per client; 0 */
	/* --clients-per-process: clients one thread runs in lockstep, each
	 * line once for each, in clients/clientN; 0 or 1: the usual one
	 * client per thread in its own directory */
	unsigned int per_thread;
};

/*
 * struct loadfile: a loadfile compiled once into an immutable array of
 * ops, shared read-only by every client. The native language is specified
 * in vfsbench-loadfile(5); dbench's dialect is translated into ops with
 * dbench's semantics (dbench.c).
 *
 * ops[0 .. nsetup) are the [setup] section, ops[nsetup .. nops) the [run]
 * section, each in file order. Every [run] op carries a statistics slot:
 * the index of its op kind among the kinds the [run] section uses, so a
 * client needs only nslots histograms.
 */
struct loadfile {
	char *name; /* for messages: the path, or "NAME (built-in)" */
	enum loadfile_dialect dialect; /* as detected: never DIALECT_AUTO */
	struct op *ops;
	unsigned int nops;
	unsigned int alloc; /* ops allocated */
	unsigned int nsetup;
	unsigned int nslots;
	enum op_id slot_op[OP_NR]; /* slot -> op kind */
	unsigned int nhandles; /* handles used: @1 .. @nhandles */
	uint64_t max_io; /* largest pread/pwrite size */
	unsigned int nexpand; /* ops whose paths hold ${client} */
	/*
	 * fds a client can hold at once in each section: the handles the
	 * section uses plus the most one op opens and closes by itself
	 * (OPF_OWN_FD: one; Deltree: one per directory level, at most one
	 * more than the most components a path of the loadfile has)
	 */
	unsigned int setup_fds, run_fds;
	bool scratch; /* some op uses the client's scratch buffers */
	/*
	 * a pass may end with handles open (a cut of a trace): the client
	 * closes them after each pass, outside the timed ops
	 */
	bool close_after_pass;
	/* clients each thread runs (--clients-per-process), at least 1;
	 * above 1 the threads work in the directory above the clients' */
	unsigned int per_thread;
	/*
	 * [run N] streams (a recording's tasks, vfsbench-record(1)
	 * --tasks-as-clients): 0 for the one [run] section every client
	 * runs; else client i runs stream i mod nstreams, the [run] ops
	 * stream_start[s] .. stream_start[s + 1] (nstreams + 1 entries)
	 */
	unsigned int nstreams;
	unsigned int *stream_start;
	char sha256[65]; /* of the loadfile's bytes, lower-case hex */
	/* the ops' paths; a path repeated on nearby lines is stored once */
	struct strtab strings;
};

/* Free what @lf owns. */
void loadfile_release(struct loadfile *lf);

/* The most [run N] streams a loadfile may have. */
#define LOADFILE_MAX_STREAMS 65536

/* The [run] ops. */
static inline const struct op *loadfile_run_ops(const struct loadfile *lf)
{
	return lf->ops + lf->nsetup;
}

static inline unsigned int loadfile_run_nops(const struct loadfile *lf)
{
	return lf->nops - lf->nsetup;
}

/*
 * The [run] ops client @client runs: its stream's, or all of them. The
 * count in @n.
 */
static inline const struct op *loadfile_client_ops(const struct loadfile *lf,
						   unsigned int client,
						   unsigned int *n)
{
	unsigned int s;

	if (!lf->nstreams) {
		*n = loadfile_run_nops(lf);
		return loadfile_run_ops(lf);
	}
	s = client % lf->nstreams;
	*n = lf->stream_start[s + 1] - lf->stream_start[s];
	return loadfile_run_ops(lf) + lf->stream_start[s];
}

#endif /* VB_LANG_LOADFILE_H */
