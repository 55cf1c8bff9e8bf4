/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * struct loadfile: finding a loadfile (a path or a built-in name), telling
 * its dialect, handing it to the native parser or the dbench translator,
 * and the summary every dialect shares (statistics slots, handles, sizes).
 */
#include <config.h>
#include "lang/loadfile.h"

#include <errno.h>
#include <fcntl.h>
#include <nettle/sha2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lang/dbench.h"
#include "lang/native.h"
#include "base/msg.h"
#include "base/alloc.h"

const char *loadfile_strndup(struct loadfile *lf, const char *s, size_t n)
{
	return strtab_intern(&lf->strings, s, n);
}

const char *loadfile_strdup(struct loadfile *lf, const char *s)
{
	return loadfile_strndup(lf, s, strlen(s));
}

struct op *loadfile_append(struct loadfile *lf)
{
	if (lf->nops == lf->alloc) {
		lf->alloc = lf->alloc ? 2 * lf->alloc : 64;
		lf->ops = xrealloc(lf->ops, lf->alloc * sizeof(*lf->ops));
	}
	memset(&lf->ops[lf->nops], 0, sizeof(struct op));
	return &lf->ops[lf->nops++];
}

void loadfile_lines_init(struct loadfile_lines *it, const char *buf, size_t len)
{
	memset(it, 0, sizeof(*it));
	it->s = buf;
	it->end = buf + len;
}

int loadfile_lines_next(struct loadfile_lines *it, unsigned int *nul_col)
{
	const char *nl, *nul;
	size_t l;

	if (it->s >= it->end)
		return 0;
	nl = memchr(it->s, '\n', (size_t)(it->end - it->s));
	l = nl ? (size_t)(nl - it->s) : (size_t)(it->end - it->s);
	it->line++;
	nul = memchr(it->s, '\0', l);
	if (nul) {
		*nul_col = (unsigned int)(nul - it->s) + 1;
		return -1;
	}
	if (l && it->s[l - 1] == '\r')
		l--;
	if (2 * (l + 1) > it->alloc) {
		it->alloc = 2 * (l + 1);
		it->text = xrealloc(it->text, it->alloc);
	}
	memcpy(it->text, it->s, l);
	it->text[l] = '\0';
	it->orig = it->text + l + 1;
	memcpy(it->orig, it->s, l);
	it->orig[l] = '\0';
	it->s = nl ? nl + 1 : it->end;
	return 1;
}

void loadfile_lines_release(struct loadfile_lines *it)
{
	free(it->text);
	memset(it, 0, sizeof(*it));
}

static bool is_data_op(enum op_id id)
{
	return id == OP_PREAD || id == OP_PWRITE || id == OP_DB_READX ||
	       id == OP_DB_WRITEX;
}

/* Raise @depth to the components of @path ("a/b/c" has 3). */
static void note_depth(unsigned int *depth, const char *path)
{
	unsigned int n = 1;

	for (const char *s = path; s && *s; s++)
		n += *s == '/';
	if (n > *depth)
		*depth = n;
}

/* The fds a client can hold at once in the section ops[0 .. n). */
static unsigned int section_fds(const struct op *ops, unsigned int n,
				unsigned int deltree_fds)
{
	bool used[OP_MAX_HANDLES + 1] = { false };
	unsigned int handles = 0, own = 0;

	for (unsigned int i = 0; i < n; i++) {
		const struct op *op = &ops[i];
		unsigned int mine;

		if (op->has_handle && !used[op->handle]) {
			used[op->handle] = true;
			handles++;
		}
		mine = op->id == OP_DB_DELTREE ?
			       deltree_fds :
			       !!(op_table[op->id].flags & OPF_OWN_FD);
		if (mine > own)
			own = mine;
	}
	return handles + own;
}

void loadfile_seal(struct loadfile *lf)
{
	unsigned int depth = 0;
	bool deltree = false;
	int slot_of[OP_NR];

	for (unsigned int i = 0; i < lf->nops; i++) {
		struct op *op = &lf->ops[i];

		if (op->expand)
			op->xidx = lf->nexpand++;
		op->opens = op_table[op->id].flags & OPF_OPENS;
		if (is_data_op(op->id) && op->size > lf->max_io)
			lf->max_io = op->size;
		if (op_table[op->id].flags & OPF_SCRATCH)
			lf->scratch = true;
		deltree |= op->id == OP_DB_DELTREE;
	}
	/*
	 * Deltree holds the fd of each directory level it descends; Qfsinfo's
	 * path is the -D directory, outside the client's tree
	 */
	for (unsigned int i = 0; deltree && i < lf->nops; i++) {
		if (lf->ops[i].id == OP_DB_QFSINFO)
			continue;
		note_depth(&depth, lf->ops[i].path);
		note_depth(&depth, lf->ops[i].path2);
	}
	lf->setup_fds = section_fds(lf->ops, lf->nsetup, 1 + depth);
	lf->run_fds = section_fds(loadfile_run_ops(lf), loadfile_run_nops(lf),
				  1 + depth);
	for (unsigned int i = 0; i < OP_NR; i++)
		slot_of[i] = -1;
	for (unsigned int i = lf->nsetup; i < lf->nops; i++) {
		struct op *op = &lf->ops[i];

		if (slot_of[op->id] < 0) {
			slot_of[op->id] = (int)lf->nslots;
			lf->slot_op[lf->nslots++] = op->id;
		}
		op->slot = (unsigned int)slot_of[op->id];
	}
}

/* SHA-256 of the bytes read, so results name exactly what was run. */
static void hash_hex(const char *buf, size_t len, char *hex)
{
	uint8_t digest[SHA256_DIGEST_SIZE];
	struct sha256_ctx ctx;

	sha256_init(&ctx);
	sha256_update(&ctx, len, (const uint8_t *)buf);
	sha256_digest(&ctx, sizeof(digest), digest);
	for (unsigned int i = 0; i < sizeof(digest); i++)
		snprintf(hex + 2 * i, 3, "%02x", digest[i]);
}

int loadfile_parse(struct loadfile *lf, const char *name, const char *buf,
		   size_t len, const struct loadfile_opts *opts)
{
	static const struct loadfile_opts defaults;
	enum loadfile_dialect dialect;
	int ret;

	if (!opts)
		opts = &defaults;
	memset(lf, 0, sizeof(*lf));
	lf->name = xstrdup(name);
	strtab_init(&lf->strings);
	dialect = opts->dialect;
	if (dialect == DIALECT_AUTO)
		dialect = dbench_detect(buf, len) ? DIALECT_DBENCH :
						    DIALECT_NATIVE;
	lf->dialect = dialect;
	if (dialect == DIALECT_DBENCH)
		ret = dbench_parse(lf, buf, len, opts);
	else
		ret = native_parse(lf, buf, len);
	if (ret) {
		loadfile_release(lf);
		return -EINVAL;
	}
	hash_hex(buf, len, lf->sha256);
	return 0;
}

/* Larger than any real loadfile (client.txt is 26 MB), and stops an
 * endless stream. */
#define LOADFILE_MAX (1ull << 30)

static int read_file(const char *path, char **buf, size_t *len)
{
	struct stat st;
	size_t alloc = 1 << 16, n = 0;
	char *b;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		return -EISDIR;
	}
	b = xmalloc(alloc);
	for (;;) {
		ssize_t r;

		if (n == alloc) {
			alloc *= 2;
			b = xrealloc(b, alloc);
		}
		r = read(fd, b + n, alloc - n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			free(b);
			close(fd);
			return (int)r;
		}
		if (!r)
			break;
		n += (size_t)r;
		/* the parser stops at the first NUL: no need to read on */
		if (memchr(b + n - (size_t)r, '\0', (size_t)r))
			break;
		if (n > LOADFILE_MAX) {
			free(b);
			close(fd);
			return -EFBIG;
		}
	}
	close(fd);
	*buf = b;
	*len = n;
	return 0;
}

static const struct builtin_loadfile *builtin_find(const char *spec)
{
	size_t l = strlen(spec);

	for (const struct builtin_loadfile *b = builtin_loadfiles; b->name;
	     b++) {
		if (!strcmp(b->name, spec))
			return b;
		if (strlen(b->name) == l + 5 && !strncmp(b->name, spec, l) &&
		    !strcmp(b->name + l, ".load"))
			return b;
	}
	return NULL;
}

int loadfile_load(struct loadfile *lf, const char *spec,
		  const struct loadfile_opts *opts)
{
	const struct builtin_loadfile *b;
	char *buf = NULL, name[512];
	size_t len = 0;
	int ret;

	ret = read_file(spec, &buf, &len);
	if (!ret) {
		ret = loadfile_parse(lf, spec, buf, len, opts);
		free(buf);
		return ret;
	}
	/* a directory is never a loadfile: "statfs" in a directory that
	 * holds one named so still means the built-in */
	if ((ret == -ENOENT || ret == -EISDIR) && !strchr(spec, '/')) {
		b = builtin_find(spec);
		if (b) {
			snprintf(name, sizeof(name), "%s (built-in)", b->name);
			return loadfile_parse(lf, name, b->text,
					      strlen(b->text), opts);
		}
	}
	if (ret == -ENOENT && !strchr(spec, '/')) {
		error("no loadfile '%s': not a file and not a built-in loadfile (see --list-loadfiles)",
		      spec);
		return ret;
	}
	error("cannot read loadfile '%s': %s", spec, strerror(-ret));
	return ret;
}

void loadfile_release(struct loadfile *lf)
{
	if (lf->name) /* set with the strings, by loadfile_parse() */
		strtab_release(&lf->strings);
	free(lf->ops);
	free(lf->name);
	memset(lf, 0, sizeof(*lf));
}
